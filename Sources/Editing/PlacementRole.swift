import OrderingCore

/// An item's role in a structured plan: what it is decides where it may go.
///
/// A plan with at least one ``day(_:)`` header is an itinerary. In an itinerary day headers
/// are roots and stay where they are, ``fixed`` entries (a game, a booked show) stay where
/// they are, a ``segment(_:)`` goes only on a day of its range, and every other item
/// (``free`` or no role) goes on a day. A plan without day headers nests freely; a list is
/// flat whatever its items' roles.
///
/// The role is stored with the item and written as a short word, which is also how the
/// command line takes it (`--role day`, `--role day:3`, `--role fixed`,
/// `--role segment:1-3`, `--role free`):
///
/// ```swift
/// let role = try PlacementRole(parsing: "segment:2-3")   // .segment(2...3)
/// print(role)                                            // segment:2-3
/// ```
public enum PlacementRole: Hashable, Sendable, CustomStringConvertible {
  /// A day header: day `number`, or, when `nil`, numbered by its place among the day headers
  /// (the first is day 1).
  case day(Int?)
  /// An entry that stays where it is, such as a game.
  case fixed
  /// An entry valid on a range of days, such as a travel segment.
  case segment(ClosedRange<Int>)
  /// An item that may go on any day.
  case free

  /// The role's word: `day`, `day:3`, `fixed`, `segment:1-3`, `free`.
  public var description: String {
    switch self {
    case .day(nil): "day"
    case .day(let number?): "day:\(number)"
    case .fixed: "fixed"
    case .segment(let range):
      range.lowerBound == range.upperBound
        ? "segment:\(range.lowerBound)" : "segment:\(range.lowerBound)-\(range.upperBound)"
    case .free: "free"
    }
  }

  /// Reads a role's word (see ``description``), ignoring case.
  ///
  /// - Parameter text: `day`, `day:N`, `fixed`, `segment:N`, `segment:N-M` or `free`.
  /// - Throws: ``PlacementRoleError`` naming what is wrong with the word.
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public init(parsing text: String) throws(PlacementRoleError) {
    let lower = text.lowercased()
    let parts = lower.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    let word = parts[0]
    let argument = parts.count > 1 ? String(parts[1]) : nil
    switch (word, argument) {
    case ("day", nil): self = .day(nil)
    case ("day", let number?):
      guard let day = Self.dayNumber(number) else {
        throw PlacementRoleError(
          "\"\(text)\": a day's number is a whole number from 1, as in day:3")
      }
      self = .day(day)
    case ("fixed", nil): self = .fixed
    case ("free", nil): self = .free
    case ("segment", let range?):
      guard let days = Self.dayRange(range) else {
        throw PlacementRoleError(
          "\"\(text)\": a segment names its days as segment:N or segment:N-M with 1 ≤ N ≤ M")
      }
      self = .segment(days)
    case ("segment", nil):
      throw PlacementRoleError("\"segment\" needs its days, as in segment:1-3")
    default:
      throw PlacementRoleError(
        "\"\(text)\" is not a role: use day, day:N, fixed, segment:N-M or free")
    }
  }

  /// `3` is day 3; anything else, or a day below 1, is nil.
  static func dayNumber(_ text: some StringProtocol) -> Int? {
    guard let number = Int(text), number >= 1 else { return nil }
    return number
  }

  /// `2-3` is days 2 to 3, `2` is day 2; an en dash works too.
  static func dayRange(_ text: some StringProtocol) -> ClosedRange<Int>? {
    let bounds = text.split(
      separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    let parts = bounds.count == 1 ? text.split(separator: "–", maxSplits: 1) : bounds
    guard parts.count == 1 || parts.count == 2,
      let low = dayNumber(parts[0]), let high = dayNumber(parts[parts.count - 1]), low <= high
    else { return nil }
    return low...high
  }
}

extension PlacementRole: Codable {
  /// Decodes a role from its word.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` for a word that is not a role.
  /// - Complexity: O(*m*), where *m* is the word's length.
  public init(from decoder: any Decoder) throws {
    self = try decoder.singleValueContainer().decode(parsedBy: PlacementRole.init(parsing:))
  }

  /// Encodes the role as its word.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws { try description.encode(to: encoder) }
}

/// A word that is not a placement role, and why.
public struct PlacementRoleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// One line naming the word and what is wrong with it.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: One line naming the word and what is wrong with it.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}
