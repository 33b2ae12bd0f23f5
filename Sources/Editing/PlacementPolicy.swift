public import Gestures
public import OrderingCore

/// One set of placement rules for a list or plan, used by every way a row can move.
///
/// A drag shows a blocked drop, the forest refuses a programmatic move, and a keyboard or
/// VoiceOver move is refused — all from the same two predicates, so the three can never
/// disagree: which rows may move at all, and which parent (at which depth) each row may
/// go under. The policy is the Gestures drop-target resolver's `DropRules` and gives the
/// `OrderedForest` its `OrderedForest.Rule`s.
///
/// ```swift
/// // A trip itinerary: days are roots; games and day headers stay put; a travel
/// // segment lands only on the days of its range; a custom item goes on any day.
/// let policy = PlacementPolicy<String>(
///   name: "itinerary",
///   fixedReason: "headers and games stay where they are",
///   isFixed: { isHeader($0) || isGame($0) },
///   placementReason: "a day accepts it only inside its valid range",
///   accepts: { node, parent, _ in parent.map { fits(node, day: $0) } ?? isDay(node) })
/// var forest = OrderedForest<String>(constraints: .init(rules: policy.forestRules))
/// let drop = DropTargetResolver.resolve(
///   pointer: pointer, rows: rows, dragged: [id], rules: policy, configuration: .init())
/// ```
public struct PlacementPolicy<ID: Hashable & Comparable & Sendable>: DropRules, Sendable {
  /// The rule's name, as refusals print it.
  public var name: String
  /// Why a fixed row cannot move, as the refusal says it.
  public var fixedReason: String
  /// Why a place is refused, as the refusal says it.
  public var placementReason: String
  /// Whether a row stays where it is.
  public var isFixed: @Sendable (ID) -> Bool
  /// Whether `node` may go under `parent` (`nil` for the top level) at `depth` (0 at the top).
  public var accepts: @Sendable (_ node: ID, _ parent: ID?, _ depth: Int) -> Bool

  /// Creates a policy from its two predicates.
  ///
  /// - Parameters:
  ///   - name: The rule's name, as refusals print it.
  ///   - fixedReason: Why a fixed row cannot move.
  ///   - isFixed: Whether a row stays where it is; no row by default.
  ///   - placementReason: Why a place is refused.
  ///   - accepts: Whether a row may go under a parent at a depth; every place by default.
  public init(
    name: String, fixedReason: String = "this row stays where it is",
    isFixed: @escaping @Sendable (ID) -> Bool = { _ in false },
    placementReason: String = "this row may not go there",
    accepts: @escaping @Sendable (_ node: ID, _ parent: ID?, _ depth: Int) -> Bool = { _, _, _ in
      true
    }
  ) {
    self.name = name
    self.fixedReason = fixedReason
    self.isFixed = isFixed
    self.placementReason = placementReason
    self.accepts = accepts
  }

  /// The rules an `OrderedForest` checks every move, insert, indent and outdent against.
  public var forestRules: [OrderedForest<ID>.Rule] {
    let isFixed = self.isFixed
    let accepts = self.accepts
    let fixedReason = self.fixedReason
    let placementReason = self.placementReason
    return [
      .fixed("\(name): fixed rows", reason: fixedReason, where: isFixed),
      OrderedForest<ID>.Rule(
        name,
        allows: { proposal, _ in
          accepts(proposal.node, proposal.parent, proposal.depth)
            ? .allow : .refuse(placementReason)
        }),
    ]
  }

  /// Nil when the row may be dragged, else why not.
  public func canDrag(_ id: ID) -> DropRefusal? {
    isFixed(id) ? DropRefusal(code: "fixed", reason: fixedReason) : nil
  }

  /// Nil when every dragged row may land under `parent` at `depth`, else why not.
  ///
  /// - Complexity: O(*k*), where *k* is the number of dragged rows.
  public func canPlace(_ dragged: [ID], under parent: ID?, depth: Int) -> DropRefusal? {
    for id in dragged where !accepts(id, parent, depth) {
      return DropRefusal(code: name, reason: placementReason)
    }
    return nil
  }
}
