/// The text convention that gives roles to a plan written before roles were stored: a plan
/// whose roots all read `Day N ...` is an itinerary, its roots are day N, and under them
/// `Game: ...` is a fixed entry and `Travel (days 2-3): ...` a segment of days 2 to 3.
///
/// The convention applies only to a plan none of whose items has a stored role; once one
/// item has a role, stored roles alone decide (see `Docs/Decisions/0008-placement-roles.md`).
/// Importing an outline uses the same convention, so a Markdown itinerary keeps its rules.
///
/// ```swift
/// RoleConvention.role(of: "Day 2 New York", isRoot: true)            // .day(2)
/// RoleConvention.role(of: "Travel (days 1-2): drive", isRoot: false) // .segment(1...2)
/// ```
public enum RoleConvention {
  /// The role an item's text gives it under the convention, or nil.
  ///
  /// - Parameters:
  ///   - text: The item's text.
  ///   - isRoot: Whether the item is a root (only roots are day headers; only items under
  ///     them are games or segments).
  /// - Returns: The role, or nil for a free item.
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public static func role(of text: String, isRoot: Bool) -> PlacementRole? {
    if isRoot { return dayNumber(text).map { .day($0) } }
    if isGame(text) { return .fixed }
    return travelRange(text).map { .segment($0) }
  }

  /// `Day 3 ...` is day 3.
  ///
  /// - Parameter text: An item's text.
  /// - Returns: The day's number, or nil when the text does not start with `Day N`.
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public static func dayNumber(_ text: String) -> Int? {
    let words = text.split(separator: " ", maxSplits: 2)
    guard words.count >= 2, words[0].lowercased() == "day" else { return nil }
    let number = words[1].filter { $0 != ":" && $0 != "." && $0 != "," }
    return Int(number)
  }

  /// `Game: ...` or `Game ...`.
  ///
  /// - Parameter text: An item's text.
  /// - Returns: Whether the text names a game.
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public static func isGame(_ text: String) -> Bool {
    let lower = text.lowercased()
    return lower.hasPrefix("game:") || lower.hasPrefix("game ")
  }

  /// `Travel (days 2-3): ...` may go on days 2 and 3.
  ///
  /// - Parameter text: An item's text.
  /// - Returns: The days, or nil when the text names no travel segment.
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public static func travelRange(_ text: String) -> ClosedRange<Int>? {
    let lower = text.lowercased()
    guard lower.hasPrefix("travel"), let open = lower.firstRange(of: "days ") else { return nil }
    let rest = lower[open.upperBound...].prefix { $0.isNumber || $0 == "-" || $0 == "–" }
    let bounds = rest.split(whereSeparator: { $0 == "-" || $0 == "–" }).compactMap { Int($0) }
    guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
    return bounds[0]...bounds[1]
  }
}
