// What a view model needs around the forest: SwiftUI's `onMove` offsets within one parent's
// children, and one error type for code that both moves (refusals) and applies change sets.

extension OrderingError {
  /// Wraps a forest's refusal, so a function with `throws(OrderingError)` can move nodes and
  /// apply change sets.
  ///
  /// A `do` around the refusing call infers its error type, so one line converts it:
  ///
  /// ```swift
  /// func drop(_ id: String, on target: String) throws(OrderingError) {
  ///   let changes: ForestChangeSet<String>
  ///   do { changes = try forest.move(id, to: .lastChild(of: target)) } catch {
  ///     throw OrderingError(error)
  ///   }
  ///   try mirror.apply(changes)
  /// }
  /// ```
  ///
  /// (A closure-taking helper cannot do this in Swift 6: a closure literal's thrown type is
  /// inferred as `any Error` unless it is spelled out.)
  ///
  /// The code is ``OrderingError/Code/refused``, the description the refusal's, and
  /// ``underlying`` the refusal itself (``refusal(of:)`` gives it back with its reason).
  ///
  /// - Parameter refusal: What the forest refused, and why.
  public init<ID>(_ refusal: OrderedForest<ID>.Refusal) {
    self.init(.refused, description: refusal.description, underlying: refusal)
  }

  /// The forest's refusal this error wraps, or `nil` when it wraps none.
  ///
  /// ```swift
  /// if case .intoOwnSubtree? = error.refusal(of: String.self)?.reason { shake() }
  /// ```
  ///
  /// - Parameter id: The type of the forest's ids.
  /// - Returns: The refusal, or `nil`.
  public func refusal<ID>(of id: ID.Type = ID.self) -> OrderedForest<ID>.Refusal? {
    underlying as? OrderedForest<ID>.Refusal
  }
}

extension OrderedForest {
  /// Moves the children of `parent` at `offsets` so that they stand together, in their
  /// order, before the child that was at `toOffset`: SwiftUI's `onMove` on one parent's rows.
  ///
  /// `toOffset` counts positions before the rows are removed, as
  /// `Array.move(fromOffsets:toOffset:)` does. Subtrees travel with their nodes. A moved node
  /// whose key still lies between its new neighbours keeps it, so only the nodes that must
  /// change are written; a move that leaves the order as it is returns an empty change set.
  ///
  /// ```swift
  /// // ForEach(forest.children(of: trip)) { … }.onMove { offsets, to in
  /// let changes = try forest.move(fromOffsets: [0, 2], toOffset: 4, under: "trip")
  /// ```
  ///
  /// - Parameters:
  ///   - offsets: The children's offsets among `parent`'s children, each once, any order.
  ///   - toOffset: Where they go, counted before the move, in `0...childCount`.
  ///   - parent: The parent, or `nil` for the roots.
  /// - Returns: The moved nodes with their old and new placements.
  /// - Throws: ``OrderingError/Code/unknownNode`` when `parent` is not in the forest;
  ///   ``OrderingError/Code/offsetOutOfRange`` or ``OrderingError/Code/duplicateOffset``
  ///   naming the offset; ``OrderingError/Code/refused`` wrapping the forest's refusal (a
  ///   rule, a depth limit). On error the forest is unchanged.
  /// - Complexity: O(*k* + *s* log *s*) to read the *k* siblings and sort the *s* offsets,
  ///   plus the move of *s* nodes (see `move(_:to:)`).
  public mutating func move(
    fromOffsets offsets: some Sequence<Int>, toOffset: Int, under parent: ID?
  )
    throws(OrderingError) -> ChangeSet
  {
    if let parent, !contains(parent) {
      throw OrderingError(
        .unknownNode,
        description: "cannot move the children of \(parent): the forest holds no node \(parent)")
    }
    let siblings = parent.map { children(of: $0) } ?? roots
    let (item, items) = parent == nil ? ("root", "roots") : ("child", "children")
    let holder = parent.map { "\($0)" } ?? "the forest"
    let sorted = try Offsets.checked(
      offsets, count: siblings.count, to: "move", item: item, items: items, of: holder)
    try Offsets.checkDestination(toOffset, count: siblings.count, items: items, of: holder)
    if Offsets.leaveOrder(sorted, toOffset: toOffset) { return ChangeSet() }
    let taken = Set(sorted)
    let rest = siblings.indices.filter { !taken.contains($0) }.map { siblings[$0] }
    let at = Offsets.insertionIndex(sorted, toOffset: toOffset)
    let destination: Destination =
      at < rest.count
      ? .before(rest[at])
      : rest.last.map { .after($0) } ?? parent.map { .firstChild(of: $0) }
        ?? .root(at: 0)
    let moved = sorted.map { siblings[$0] }
    // Siblings are in key order, so the moved nodes whose keys still lie between their new
    // neighbours' are one run: they stay, and only the nodes before and after it move.
    let lower = at > 0 ? key(of: rest[at - 1]) : nil
    let upper = at < rest.count ? key(of: rest[at]) : nil
    let fits = moved.indices.filter { slot in
      let key = key(of: moved[slot])
      return lower.map { $0 < key } ?? true && upper.map { key < $0 } ?? true
    }
    guard let firstKept = fits.first, let lastKept = fits.last else {
      do { return try move(moved, to: destination) } catch { throw OrderingError(error) }
    }
    return try moveAround(
      moved[..<firstKept], before: moved[firstKept], moved[(lastKept + 1)...],
      after: moved[lastKept])
  }

  /// Moves `head` right before `first` and `tail` right after `last`, as one change set; when
  /// the second move is refused, the first is undone.
  mutating func moveAround(
    _ head: ArraySlice<ID>, before first: ID, _ tail: ArraySlice<ID>, after last: ID
  )
    throws(OrderingError) -> ChangeSet
  {
    var done = ChangeSet()
    do {
      if !tail.isEmpty { done = try move(tail, to: .after(last)) }
      if !head.isEmpty {
        let before = try move(head, to: .before(first))
        done = ChangeSet(done.changes + before.changes)
      }
      return done
    } catch {
      // Undoing a change set this forest just made cannot fail.
      try? apply(done.inverted)
      throw OrderingError(error)
    }
  }
}

/// A forest's change set: `ForestChangeSet<String>` is `OrderedForest<String>.ChangeSet`.
public typealias ForestChangeSet<ID: Hashable & Comparable & Sendable> = OrderedForest<ID>.ChangeSet

/// A forest's refusal: `ForestRefusal<String>` is `OrderedForest<String>.Refusal`.
public typealias ForestRefusal<ID: Hashable & Comparable & Sendable> = OrderedForest<ID>.Refusal

/// A forest destination: `ForestDestination<String>` is `OrderedForest<String>.Destination`.
public typealias ForestDestination<ID: Hashable & Comparable & Sendable> =
  OrderedForest<ID>.Destination
