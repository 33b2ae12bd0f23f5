import Foundation
import Gestures
import Offload

/// The placement rules of a collection as the organize pages apply them: one
/// `PlacementPolicy` that the drop-target resolver, a keyboard move and every move the page
/// asks for are checked against, so the three never disagree.
///
/// - A list is flat: nothing goes under another row.
/// - A plan nests to the workspace's maximum depth.
/// - A plan whose every root is a day header (`Day 1 ...`, `Day 2 ...`) is an itinerary
///   (a trip itinerary): day headers and games (`Game: ...`) stay where they are, every other row
///   goes on a day (depth 1), and a travel segment (`Travel (days 2-3): ...`) only on a day
///   of its range.
struct OrganizePolicy: Sendable {
  /// The rules.
  let policy: PlacementPolicy<ShortID>
  /// Whether rows may take children (a plan).
  let nests: Bool
  /// Whether the plan follows the itinerary rules.
  let isItinerary: Bool
  /// The deepest depth a row may land at.
  let maximumDepth: Int

  /// The rules for `tree`.
  ///
  /// - Complexity: O(*n*), where *n* is the number of items.
  init(_ tree: CollectionTree, maximumPlanDepth: Int) {
    let collection = tree.collection
    guard collection.kind == .plan else {
      nests = false
      isItinerary = false
      maximumDepth = 0
      policy = PlacementPolicy(
        name: "list", placementReason: "a list is flat: rows cannot go under other rows",
        accepts: { _, parent, _ in parent == nil })
      return
    }
    nests = true
    maximumDepth = maximumPlanDepth
    let roots = collection.items.filter { $0.parent == nil }
    var days: [ShortID: Int] = [:]
    for root in roots {
      if let day = Self.dayNumber(root.text) { days[root.id] = day }
    }
    guard !roots.isEmpty, days.count == roots.count else {
      isItinerary = false
      let depth = maximumPlanDepth
      policy = PlacementPolicy(
        name: "plan", placementReason: "a plan nests at most \(depth + 1) levels",
        accepts: { _, _, level in level <= depth })
      return
    }
    isItinerary = true
    var games: Set<ShortID> = []
    var travel: [ShortID: ClosedRange<Int>] = [:]
    for item in collection.items where item.parent != nil {
      if Self.isGame(item.text) { games.insert(item.id) }
      if let range = Self.travelRange(item.text) { travel[item.id] = range }
    }
    let fixed = games.union(days.keys)
    let dayOf = days
    let ranges = travel
    policy = PlacementPolicy(
      name: "itinerary", fixedReason: "day headers and games stay where they are",
      isFixed: { fixed.contains($0) },
      placementReason:
        "items go on a day (a travel segment only on a day of its range), never beside a day header",
      accepts: { node, parent, depth in
        guard depth == 1, let day = parent.flatMap({ dayOf[$0] }) else { return false }
        return ranges[node].map { $0.contains(day) } ?? true
      })
  }

  /// Whether a row may take children: in a plan, above the deepest level; in an itinerary,
  /// the day headers only; in a list, none.
  func acceptsChildren(_ id: ShortID, depth: Int) -> Bool {
    guard nests, depth < maximumDepth else { return false }
    return !isItinerary || depth == 0
  }

  /// `Day 3 ...` is day 3.
  static func dayNumber(_ text: String) -> Int? {
    let words = text.split(separator: " ", maxSplits: 2)
    guard words.count >= 2, words[0].lowercased() == "day" else { return nil }
    return Int(words[1].trimmingCharacters(in: CharacterSet(charactersIn: ":.,")))
  }

  /// `Game: ...` or `Game ...`.
  static func isGame(_ text: String) -> Bool {
    let lower = text.lowercased()
    return lower.hasPrefix("game:") || lower.hasPrefix("game ")
  }

  /// `Travel (days 2-3): ...` may go on days 2 and 3.
  static func travelRange(_ text: String) -> ClosedRange<Int>? {
    let lower = text.lowercased()
    guard lower.hasPrefix("travel"), let open = lower.range(of: "days ") else { return nil }
    let rest = lower[open.upperBound...].prefix { $0.isNumber || $0 == "-" || $0 == "–" }
    let bounds = rest.split(whereSeparator: { $0 == "-" || $0 == "–" }).compactMap { Int($0) }
    guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
    return bounds[0]...bounds[1]
  }
}
