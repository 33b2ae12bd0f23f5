/// An error from an `OrderingCore` operation: what went wrong, and with which key or value.
///
/// Every failure in the module is one of these, thrown with typed throws, so a caller
/// switches over ``code`` without casting. ``description`` is one sentence a user can act on:
/// it names the key (shortened when very long) and what is wrong with it.
///
/// ```swift
/// do {
///   _ = try OrderKey(validating: "a00")
/// } catch {
///   print(error)  // invalid order key "a00": the fraction ends in '0' at byte 2 ...
/// }
/// ```
public struct OrderingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of failure this is.
  public enum Code: String, Hashable, Sendable, CaseIterable {
    /// The key is the empty string.
    case emptyKey
    /// The first byte is not a head letter (`a`–`z` or `A`–`Z`).
    case invalidHead
    /// The key is shorter than the integer part its head letter announces.
    case invalidIntegerLength
    /// A byte is not a digit of the key alphabet.
    case invalidDigit
    /// The fractional part ends in the zero digit, which would make two spellings of one value.
    case trailingZero
    /// The key is the smallest integer key (`A` followed by 26 zeros); nothing sorts below it.
    case smallestInteger
    /// The lower bound does not sort strictly before the upper bound.
    case boundsNotAscending
    /// No key exists in the requested direction.
    case keySpaceExhausted
    /// An ordered forest holds no node with the given id.
    case unknownNode
    /// An ordered forest already holds a node with the given id.
    case duplicateNode
    /// A change set expects a node where it no longer is: it was made for another state.
    case staleChange
    /// Applying a change set would break the forest (a missing parent, a cycle, a shared key).
    case invalidChange
    /// An outline's depths do not describe a forest (a row deeper than one below the last).
    case invalidOutline
    /// A list labeling has more rows than its position range has integers.
    case positionSpaceExhausted
    /// Stored positions are not strictly increasing in list order.
    case positionsNotIncreasing
    /// A stored position lies outside the labeling's position range.
    case positionOutOfRange
    /// An id occurs twice in one list.
    case duplicateID
    /// Stored order keys are not strictly increasing in list order (or two are equal).
    case keysNotIncreasing
  }

  /// What kind of failure this is.
  public var code: Code
  /// The key the failure is about, when there is one.
  public var key: String?
  /// The second key involved (the upper bound of a `between` call), when there is one.
  public var otherKey: String?
  /// The byte offset in ``key`` where the problem is, when it has a place.
  public var offset: Int?
  /// The index of the row the failure is about, when it is about a row of a list.
  public var index: Int?
  /// One sentence that names the key and what is wrong with it.
  public var description: String

  /// Creates an error from its parts.
  ///
  /// - Parameters:
  ///   - code: What kind of failure this is.
  ///   - key: The key the failure is about.
  ///   - otherKey: The second key involved, if any.
  ///   - offset: The byte offset of the problem in `key`, if it has one.
  ///   - index: The index of the row the failure is about, if any.
  ///   - description: One sentence a user can act on.
  public init(
    _ code: Code, key: String? = nil, otherKey: String? = nil, offset: Int? = nil,
    index: Int? = nil, description: String
  ) {
    self.code = code
    self.key = key
    self.otherKey = otherKey
    self.offset = offset
    self.index = index
    self.description = description
  }
}

extension OrderingError {
  /// Quotes a key for a message, shortening keys longer than 40 bytes.
  static func quoted(_ key: String) -> String {
    let bytes = key.utf8.count
    guard bytes > 40 else { return "\"\(key)\"" }
    return
      "\"\(key.utf8.prefix(24).map { Character(Unicode.Scalar($0)) }.map(String.init).joined())…\" (\(bytes) bytes)"
  }

  /// Describes a byte for a message: printable ASCII as itself, anything else as hex.
  static func describeByte(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
  }
}
