public import Gestures
public import OrderingCore

/// A collection's placement rules, following from its kind and its items' roles: one
/// ``PlacementPolicy`` that the forest's refusals, the drop resolver's blocked instruction
/// and a keyboard move all ask, so no surface can disagree with another.
///
/// - A list is flat: nothing goes under another row.
/// - A plan nests to the given maximum depth.
/// - A plan with a ``PlacementRole/day(_:)`` header is an itinerary: day headers are roots
///   and stay where they are, ``PlacementRole/fixed`` entries stay where they are, every
///   other row goes on a day (depth 1), and a ``PlacementRole/segment(_:)`` only on a day of
///   its range.
///
/// ```swift
/// let rules = PlacementRules<String>.plan(
///   roots: ["d1", "d2"], roles: ["d1": .day(nil), "d2": .day(nil), "t": .segment(1...1)],
///   maximumDepth: 3)
/// rules.policy.canPlace(["t"], under: "d2", depth: 1)?.reason
/// // "items go on a day (a travel segment only on a day of its range), never beside a day header"
/// ```
public struct PlacementRules<ID: Hashable & Comparable & Sendable>: Sendable {
  /// The rules as the forest, the drop resolver and a keyboard move ask them.
  public let policy: PlacementPolicy<ID>
  /// Whether rows may take children (a plan).
  public let nests: Bool
  /// Whether the plan follows the itinerary rules (it has a day header).
  public let isItinerary: Bool
  /// The deepest depth a row may land at (0 for a list).
  public let maximumDepth: Int
  /// The role of each item that has one, stored or given by the text convention.
  public let roles: [ID: PlacementRole]
  /// The number of each day header.
  public let days: [ID: Int]
  /// The roots in order, as the rules were made from them.
  public let roots: [ID]

  /// Why a fixed row cannot move in an itinerary.
  public static var fixedReason: String { "day headers and games stay where they are" }
  /// Why a place is refused in an itinerary.
  public static var itineraryReason: String {
    "items go on a day (a travel segment only on a day of its range), never beside a day header"
  }

  /// The rules of a list: flat.
  ///
  /// - Returns: Rules that refuse any parent.
  public static func list() -> PlacementRules {
    PlacementRules(
      policy: PlacementPolicy(
        name: "list", placementReason: "a list is flat: rows cannot go under other rows",
        accepts: { _, parent, _ in parent == nil }),
      nests: false, isItinerary: false, maximumDepth: 0, roles: [:], days: [:], roots: [])
  }

  /// The rules of a plan with these roles.
  ///
  /// - Parameters:
  ///   - roots: The plan's roots in order (unnumbered day headers count from the first).
  ///   - roles: The role of each item that has one; items without one are free.
  ///   - maximumDepth: The deepest depth a row may reach (roots are at 0).
  /// - Returns: The rules of an itinerary when a root is a day header, else of a plain plan.
  /// - Complexity: O(*r* + *k*), where *r* is the number of roots and *k* of roles.
  public static func plan(roots: [ID], roles: [ID: PlacementRole], maximumDepth: Int)
    -> PlacementRules
  {
    var days: [ID: Int] = [:]
    var count = 0
    for root in roots {
      guard case .day(let number)? = roles[root] else { continue }
      count += 1
      days[root] = number ?? count
    }
    let fixed = Set(roles.compactMap { $0.value == .fixed ? $0.key : nil })
    guard !days.isEmpty else {
      let depth = maximumDepth
      let policy = PlacementPolicy<ID>(
        name: "plan", fixedReason: "fixed entries stay where they are",
        isFixed: { fixed.contains($0) },
        placementReason: "a plan nests at most \(depth + 1) levels",
        accepts: { _, _, level in level <= depth })
      return PlacementRules(
        policy: policy, nests: true, isItinerary: false, maximumDepth: maximumDepth,
        roles: roles, days: [:], roots: roots)
    }
    var ranges: [ID: ClosedRange<Int>] = [:]
    var headers: Set<ID> = []
    for (id, role) in roles {
      switch role {
      case .segment(let range): ranges[id] = range
      case .day: headers.insert(id)
      case .fixed, .free: break
      }
    }
    let stays = fixed.union(days.keys)
    let dayOf = days
    let (spans, dayHeaders) = (ranges, headers)
    let policy = PlacementPolicy<ID>(
      name: "itinerary", fixedReason: fixedReason,
      isFixed: { stays.contains($0) },
      placementReason: itineraryReason,
      accepts: { node, parent, depth in
        // A new day header goes among the roots; everything else on a day.
        if dayHeaders.contains(node) { return parent == nil }
        guard depth == 1, let day = parent.flatMap({ dayOf[$0] }) else { return false }
        return spans[node].map { $0.contains(day) } ?? true
      })
    return PlacementRules(
      policy: policy, nests: true, isItinerary: true, maximumDepth: maximumDepth, roles: roles,
      days: days, roots: roots)
  }

  /// The rules once a new item with `role` is in the collection.
  ///
  /// - Parameters:
  ///   - id: The new item.
  ///   - role: Its role.
  ///   - asRoot: Whether it goes among the roots (a day header counts only there, last).
  /// - Returns: The new rules; these for a list.
  /// - Complexity: O(*r* + *k*), where *r* is the number of roots and *k* of roles.
  public func adding(_ id: ID, role: PlacementRole, asRoot: Bool) -> PlacementRules {
    guard nests else { return self }
    var roles = self.roles
    roles[id] = role
    return .plan(roots: asRoot ? roots + [id] : roots, roles: roles, maximumDepth: maximumDepth)
  }

  /// Whether a row may take children: in a plan, above the deepest level; in an itinerary,
  /// the day headers only; in a list, none.
  ///
  /// - Parameters:
  ///   - id: The row.
  ///   - depth: Its depth (0 for a root).
  /// - Returns: Whether a drop may nest a row under it.
  public func acceptsChildren(_ id: ID, depth: Int) -> Bool {
    guard nests, depth < maximumDepth else { return false }
    return !isItinerary || days[id] != nil
  }

  /// The drop resolver's configuration for these rules.
  public var dropConfiguration: DropConfiguration {
    DropConfiguration(maximumDepth: maximumDepth)
  }

  /// The forest constraints for these rules, with a key budget.
  ///
  /// - Parameter keyBudget: The longest order key a move leaves, or nil.
  /// - Returns: The depth limit and the policy's rules.
  public func constraints(keyBudget: Int?) -> OrderedForest<ID>.Constraints {
    OrderedForest<ID>.Constraints(
      maximumDepth: maximumDepth, rules: isItinerary || !roles.isEmpty ? policy.forestRules : [],
      keyBudget: keyBudget)
  }
}
