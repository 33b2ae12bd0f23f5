/// A short, typable identifier: lowercase Crockford base-32, at least six characters.
///
/// Identifiers come from a counter the store keeps, passed through an invertible bit mix so
/// consecutive items do not share long prefixes. The same sequence of commands therefore
/// gives the same identifiers on every run and platform. Commands accept any unique prefix,
/// like git.
///
/// ```swift
/// let id = ShortID(sequence: 1)   // "p2s0q3", say: six characters, never ambiguous to type
/// ```
public struct ShortID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// The identifier's text.
  public let rawValue: String

  /// The digits: Crockford base 32 without `i`, `l`, `o`, `u`, so ids are easy to read aloud.
  static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

  /// Whether `byte` is one of the ``alphabet``'s digits: `0-9` or `a-z` without `i l o u`.
  static func isDigit(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): true
    case UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "o"), UInt8(ascii: "u"): false
    case UInt8(ascii: "a")...UInt8(ascii: "z"): true
    default: false
    }
  }

  /// Wraps known-good text.
  init(unchecked rawValue: String) {
    self.rawValue = rawValue
  }

  /// Creates an identifier from text, or `nil` when it has characters outside the alphabet
  /// or is empty.
  ///
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public init?(_ text: String) {
    guard !text.isEmpty, text.utf8.allSatisfy(Self.isDigit) else { return nil }
    rawValue = text
  }

  /// The identifier for the store's `sequence`-th item.
  ///
  /// - Complexity: O(1).
  public init(sequence: UInt64) {
    // A bijection on 30 bits (odd multiply and xor-shifts mod 2^30), then base 32: six
    // characters for the first 2^30 items, more after that.
    let mask: UInt64 = (1 << 30) - 1
    var value = sequence & mask
    value = (value &* 0x2C1B_3C6D) & mask
    value ^= value >> 15
    value = (value &* 0x297A_2D39) & mask
    value ^= value >> 13
    var high = sequence >> 30
    var digits: [UInt8] = []
    for _ in 0..<6 {
      digits.append(Self.alphabet[Int(value & 31)])
      value >>= 5
    }
    while high > 0 {
      digits.append(Self.alphabet[Int(high & 31)])
      high >>= 5
    }
    rawValue = String(decoding: digits.reversed(), as: UTF8.self)
  }

  /// The identifier's text.
  public var description: String { rawValue }

  /// Orders identifiers by their text, the tie-breaker everywhere in Offload.
  public static func < (lhs: ShortID, rhs: ShortID) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Decodes an identifier from a JSON string, refusing characters outside the alphabet.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let id = ShortID(text) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "\"\(text)\" is not an id (lowercase base-32 letters and digits)")
    }
    self = id
  }

  /// Encodes the identifier as a JSON string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

/// How a typed prefix matched a set of identifiers.
public enum PrefixMatch<ID: Hashable & Comparable>: Equatable {
  /// Exactly one identifier starts with the prefix (or equals it).
  case unique(ID)
  /// No identifier starts with the prefix.
  case none
  /// Several do: the first few, sorted, for the error message.
  case ambiguous([ID])
}

extension ShortID {
  /// Finds the identifier that `prefix` names among `candidates`.
  ///
  /// An exact match wins even when it is also the prefix of a longer identifier.
  ///
  /// - Complexity: O(*n* · *m*), where *n* is the number of candidates and *m* the prefix length.
  public static func match(_ prefix: String, in candidates: some Sequence<ShortID>) -> PrefixMatch<
    ShortID
  > {
    let lowered = prefix.lowercased()
    var found: [ShortID] = []
    for candidate in candidates where candidate.rawValue.hasPrefix(lowered) {
      if candidate.rawValue == lowered { return .unique(candidate) }
      found.append(candidate)
    }
    switch found.count {
    case 0: return .none
    case 1: return .unique(found[0])
    default: return .ambiguous(Array(found.sorted().prefix(5)))
    }
  }
}
