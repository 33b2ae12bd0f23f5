/// A position in a user-ordered list that sorts by plain byte order.
///
/// Order keys (fractional indexing) let an app insert, move and reorder rows by writing one
/// row: there is always a key strictly between two keys, so nothing else is renumbered.
/// Keys are strings in the format of the widely used JavaScript `fractional-indexing`
/// library: base-62 digits `0-9A-Za-z`, a head letter that says how long the integer part
/// is (`a`–`z` positive, `A`–`Z` negative), and a fraction with no trailing `0`. The first
/// key is `a0`. For the same calls, keys made here equal the keys made by that library and
/// its ports, so a web client and an app can edit the same list.
///
/// ```swift
/// let first = try OrderKey.between(nil, nil)      // "a0"
/// let second = try OrderKey.between(first, nil)   // "a1"
/// let middle = try OrderKey.between(first, second) // "a0V"
/// ```
///
/// Keys compare by their UTF-8 bytes, which is also how a database with a binary collation
/// and JavaScript's `<` order them. Short keys (up to 15 bytes) are stored inline without a
/// heap allocation.
public struct OrderKey: Sendable {
  /// The key's text, a valid key by construction.
  public let rawValue: String

  /// Wraps text already known to be a valid key.
  @inlinable
  init(unchecked rawValue: String) {
    self.rawValue = rawValue
  }

  /// The first key of an empty list, `a0`.
  public static let first = OrderKey(unchecked: "a0")

  /// The number of bytes in the key.
  ///
  /// - Complexity: O(1) for native strings.
  @inlinable
  public var length: Int { rawValue.utf8.count }
}

extension OrderKey: Hashable {
  /// Hashes the key's bytes.
  ///
  /// - Complexity: O(*m*), where *m* is the key's length.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    rawValue.hash(into: &hasher)
  }

  /// Whether two keys have the same bytes.
  ///
  /// - Complexity: O(*m*), where *m* is the shorter key's length.
  @inlinable
  public static func == (lhs: OrderKey, rhs: OrderKey) -> Bool {
    lhs.rawValue == rhs.rawValue
  }
}

extension OrderKey: Comparable {
  /// Whether `lhs` sorts before `rhs` in byte order.
  ///
  /// - Complexity: O(*m*), where *m* is the shorter key's length.
  @inlinable
  public static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
    var left = lhs.rawValue
    var right = rhs.rawValue
    return left.withUTF8 { a in right.withUTF8 { b in KeyDigits.lessThan(a, b) } }
  }
}

extension OrderKey: CustomStringConvertible, CustomDebugStringConvertible {
  /// The key's text.
  public var description: String { rawValue }
  /// The key's text in quotes.
  public var debugDescription: String { "OrderKey(\"\(rawValue)\")" }
}
