/// A forest of ordered trees: every node has an id, an optional parent and an order key
/// among its siblings.
///
/// `OrderedForest` holds the structure of a plan (nested items) or a list (a forest of roots
/// only); callers keep their data and refer to it by id. Every mutation returns a
/// ``ChangeSet`` that names each node whose parent or key changed, with its old and new
/// ``Placement``, so a repository writes only those rows and undo applies
/// ``ChangeSet/inverted``.
///
/// ```swift
/// var forest = OrderedForest<String>()
/// try forest.insert("trip", at: .root(at: 0))
/// try forest.insert("pack", at: .lastChild(of: "trip"))
/// try forest.insert("book", at: .lastChild(of: "trip"))
/// let changes = try forest.move("book", to: .before("pack"))
/// forest.children(of: "trip")          // ["book", "pack"]
/// try forest.apply(changes.inverted)   // undo
/// ```
///
/// Sibling order is the byte order of the ``OrderKey``s; keys of siblings are strictly
/// increasing. Where records disagree (duplicate keys), ties break by id, so the same
/// records give the same forest on every platform.
///
/// Moves are checked before they happen: a node cannot go inside its own subtree, the moved
/// subtree cannot go deeper than ``Constraints/maximumDepth``, and every ``Rule`` in
/// ``constraints`` is asked; a refusal is a typed ``Refusal`` with the reason and the move
/// that was asked for. The same constraints apply to pointer drops, keyboard indent and
/// outdent, selection moves and programmatic moves.
///
/// Storage is a slot per node (parent slot, key, sorted child slots) and an id-to-slot map,
/// so a move costs O(*d* + log *k*) plus an O(*k*) shift of the sibling array, where *d* is
/// the depth and *k* the number of siblings, and flattening is O(*n*).
public struct OrderedForest<ID: Hashable & Comparable & Sendable>: Sendable {
  /// The id of each slot.
  @usableFromInline
  var ids: [ID]
  /// The parent slot of each slot, or -1 for a root.
  @usableFromInline
  var parents: [Int]
  /// The order key of each slot among its siblings.
  @usableFromInline
  var keys: [OrderKey]
  /// The first 8 bytes of each slot's key as a number (see ``keyPrefix(_:)``), so sibling
  /// searches compare integers and read a key only when two prefixes tie.
  @usableFromInline
  var prefixes: [UInt64]
  /// The child slots of each slot, in increasing key order.
  @usableFromInline
  var childLists: [[Int]]
  /// The root slots, in increasing key order.
  @usableFromInline
  var rootList: [Int]
  /// The slot of each id.
  @usableFromInline
  var slotOf: [ID: Int]

  /// The limits and rules every move of this forest is checked against.
  ///
  /// Constraints are not part of the forest's value: two forests with the same nodes,
  /// parents and keys are equal whatever their constraints.
  public var constraints: Constraints

  /// Creates an empty forest.
  ///
  /// - Parameter constraints: The limits and rules moves are checked against.
  @inlinable
  public init(constraints: Constraints = Constraints()) {
    self.ids = []
    self.parents = []
    self.keys = []
    self.prefixes = []
    self.childLists = []
    self.rootList = []
    self.slotOf = [:]
    self.constraints = constraints
  }

  /// The number of nodes.
  @inlinable
  public var count: Int { ids.count }

  /// Whether the forest has no nodes.
  @inlinable
  public var isEmpty: Bool { ids.isEmpty }

  /// Whether the forest holds a node with this id.
  @inlinable
  public func contains(_ id: ID) -> Bool { slotOf[id] != nil }
}

extension OrderedForest {
  /// The limits and rules a forest checks every move against.
  ///
  /// ```swift
  /// var forest = OrderedForest<Int>(
  ///   constraints: .init(maximumDepth: 3, rules: [noPlansInTasks]))
  /// ```
  public struct Constraints: Sendable {
    /// The deepest depth a node may reach, where roots are at depth 0; `nil` for no limit.
    ///
    /// A flat list is a forest with a maximum depth of 0.
    public var maximumDepth: Int?
    /// The caller's rules, asked in order; the first that refuses decides.
    public var rules: [Rule]
    /// How many places on each side of a refused place a clamping rule looks at before the
    /// move is refused.
    public var clampSearchLimit: Int

    /// Creates constraints.
    ///
    /// - Parameters:
    ///   - maximumDepth: The deepest allowed depth (roots are at 0), or `nil`.
    ///   - rules: The caller's rules, asked in order.
    ///   - clampSearchLimit: How many places on each side clamping looks at.
    @inlinable
    public init(maximumDepth: Int? = nil, rules: [Rule] = [], clampSearchLimit: Int = 4096) {
      precondition(maximumDepth.map { $0 >= 0 } ?? true, "the maximum depth cannot be negative")
      precondition(clampSearchLimit >= 0, "the clamp search limit cannot be negative")
      self.maximumDepth = maximumDepth
      self.rules = rules
      self.clampSearchLimit = clampSearchLimit
    }
  }

  /// Where a node sits: its parent (`nil` for a root) and its order key among its siblings.
  public struct Placement: Hashable, Sendable, CustomStringConvertible {
    /// The parent's id, or `nil` for a root.
    public var parent: ID?
    /// The order key among the siblings.
    public var key: OrderKey

    /// Creates a placement.
    @inlinable
    public init(parent: ID?, key: OrderKey) {
      self.parent = parent
      self.key = key
    }

    /// `under P at K` or `root at K`.
    public var description: String {
      if let parent { return "under \(parent) at \(key)" }
      return "root at \(key)"
    }
  }

  /// A place to move or insert a node, named relative to other nodes.
  public enum Destination: Hashable, Sendable, CustomStringConvertible {
    /// Right before a node, as its sibling.
    case before(ID)
    /// Right after a node, as its sibling.
    case after(ID)
    /// The first child of a node.
    case firstChild(of: ID)
    /// The last child of a node.
    case lastChild(of: ID)
    /// A root, at this index among the roots once the moved nodes are taken out.
    case root(at: Int)
    /// The last root.
    case lastRoot

    /// The destination in words, as refusal messages print it.
    public var description: String {
      switch self {
      case .before(let id): "before \(id)"
      case .after(let id): "after \(id)"
      case .firstChild(let id): "as the first child of \(id)"
      case .lastChild(let id): "as the last child of \(id)"
      case .root(let index): "at root index \(index)"
      case .lastRoot: "as the last root"
      }
    }
  }
}

extension OrderedForest: Equatable {
  /// Whether two forests hold the same ids with the same parents and keys.
  ///
  /// Constraints are not compared.
  ///
  /// - Complexity: O(*n*), where *n* is the number of nodes.
  @inlinable
  public static func == (lhs: OrderedForest, rhs: OrderedForest) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for slot in 0..<lhs.count {
      guard let other = rhs.slotOf[lhs.ids[slot]] else { return false }
      guard lhs.keys[slot] == rhs.keys[other] else { return false }
      let parent = lhs.parents[slot]
      let otherParent = rhs.parents[other]
      if parent < 0 || otherParent < 0 {
        guard parent < 0 && otherParent < 0 else { return false }
      } else if lhs.ids[parent] != rhs.ids[otherParent] {
        return false
      }
    }
    return true
  }
}

// MARK: - Slot-level helpers

extension OrderedForest {
  /// The sibling list under `parent` (-1 for the roots).
  @inlinable
  @inline(__always)
  func siblingSlots(under parent: Int) -> [Int] {
    parent < 0 ? rootList : childLists[parent]
  }

  /// The first index in `list` whose key is not below `key`.
  @inlinable
  @inline(__always)
  func lowerBound(_ key: OrderKey, in list: [Int]) -> Int {
    let prefix = Self.keyPrefix(key)
    var low = 0
    var high = list.count
    while low < high {
      let middle = (low + high) >> 1
      let slot = list[middle]
      let other = prefixes[slot]
      if other < prefix || (other == prefix && keys[slot] < key) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// The first 8 bytes of a key as a big-endian number, zero-padded.
  ///
  /// Keys hold no zero byte, so prefixes order as the keys do, up to ties.
  @inlinable
  static func keyPrefix(_ key: OrderKey) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 56
    for byte in key.rawValue.utf8.prefix(8) {
      value |= UInt64(byte) << shift
      shift &-= 8
    }
    return value
  }

  /// The index of `slot` in its parent's sibling list.
  @inlinable
  @inline(__always)
  func siblingPosition(of slot: Int) -> Int {
    let list = siblingSlots(under: parents[slot])
    let index = lowerBound(keys[slot], in: list)
    precondition(index < list.count && list[index] == slot, "forest sibling lists are corrupt")
    return index
  }

  /// The depth of `slot`: 0 for a root.
  @inlinable
  func depth(ofSlot slot: Int) -> Int {
    var depth = 0
    var current = parents[slot]
    while current >= 0 {
      depth += 1
      current = parents[current]
    }
    return depth
  }

  /// The height of the subtree at `slot` (0 for a leaf), or `cap` when it is at least `cap`.
  @inlinable
  func height(ofSlot slot: Int, cappedAt cap: Int = .max) -> Int {
    if childLists[slot].isEmpty { return 0 }
    var height = 0
    var stack: [(Int, Int)] = [(slot, 0)]
    while let (current, depth) = stack.popLast() {
      if depth > height {
        height = depth
        if height >= cap { return cap }
      }
      for child in childLists[current] { stack.append((child, depth + 1)) }
    }
    return height
  }

  /// Takes `slot` out of its parent's sibling list (its parent pointer is left as is).
  ///
  /// - Parameter position: The slot's index among its siblings, when the caller knows it.
  @inlinable
  mutating func detach(_ slot: Int, at position: Int? = nil) {
    // The position is found before any mutation starts, so the search reads the arrays in
    // place instead of through a copy of the forest.
    let parent = parents[slot]
    let index = position ?? siblingPosition(of: slot)
    if parent < 0 {
      rootList.remove(at: index)
    } else {
      childLists[parent].remove(at: index)
    }
  }

  /// Puts `slot` under `parent` with `key`; the key must not be taken there.
  ///
  /// - Parameter position: The index the key takes among the siblings, when the caller
  ///   knows it.
  @inlinable
  mutating func attach(_ slot: Int, under parent: Int, key: OrderKey, at position: Int? = nil) {
    let index = position ?? insertionIndex(of: key, under: parent)
    parents[slot] = parent
    keys[slot] = key
    prefixes[slot] = Self.keyPrefix(key)
    if parent < 0 {
      rootList.insert(slot, at: index)
    } else {
      childLists[parent].insert(slot, at: index)
    }
  }

  /// Where `key` goes among the children of `parent` (-1 for the roots); the key must not
  /// be taken there. The sibling list is released before the caller mutates it.
  @inlinable
  @inline(__always)
  func insertionIndex(of key: OrderKey, under parent: Int) -> Int {
    let list = siblingSlots(under: parent)
    let index = lowerBound(key, in: list)
    let isFree = index == list.count || keys[list[index]] != key
    precondition(isFree, "duplicate sibling key")
    return index
  }

  /// Reserves room for `capacity` nodes.
  @inlinable
  mutating func reserveCapacity(_ capacity: Int) {
    ids.reserveCapacity(capacity)
    parents.reserveCapacity(capacity)
    keys.reserveCapacity(capacity)
    prefixes.reserveCapacity(capacity)
    childLists.reserveCapacity(capacity)
    slotOf.reserveCapacity(capacity)
  }

  /// Appends a detached slot for `id` and returns it.
  @inlinable
  mutating func appendSlot(_ id: ID, key: OrderKey) -> Int {
    let slot = ids.count
    ids.append(id)
    parents.append(-1)
    keys.append(key)
    prefixes.append(Self.keyPrefix(key))
    childLists.append([])
    slotOf[id] = slot
    return slot
  }

  /// Removes a detached, childless slot, moving the last slot into its place.
  @inlinable
  mutating func removeSlot(_ slot: Int) {
    precondition(childLists[slot].isEmpty, "cannot remove a node that still has children")
    let last = ids.count - 1
    slotOf[ids[slot]] = nil
    if slot != last {
      // The last slot moves into `slot`: fix its map entry, its parent's list and its children.
      let parent = parents[last]
      let position = lowerBound(keys[last], in: siblingSlots(under: parent))
      if parent < 0 { rootList[position] = slot } else { childLists[parent][position] = slot }
      ids[slot] = ids[last]
      parents[slot] = parent
      keys[slot] = keys[last]
      prefixes[slot] = prefixes[last]
      childLists[slot] = childLists[last]
      for child in childLists[slot] { parents[child] = slot }
      slotOf[ids[slot]] = slot
    }
    ids.removeLast()
    parents.removeLast()
    keys.removeLast()
    prefixes.removeLast()
    childLists.removeLast()
  }

  /// The key strictly between two sibling keys; the bounds come from a valid forest.
  @inlinable
  static func key(between lower: OrderKey?, _ upper: OrderKey?) -> OrderKey {
    do {
      return try OrderKey.between(lower, upper)
    } catch {
      preconditionFailure("sibling keys are not ascending: \(error)")
    }
  }

  /// `count` keys strictly between two sibling keys.
  @inlinable
  static func keys(_ count: Int, between lower: OrderKey?, _ upper: OrderKey?) -> [OrderKey] {
    do {
      return try OrderKey.spread(count, between: lower, and: upper)
    } catch {
      preconditionFailure("sibling keys are not ascending: \(error)")
    }
  }

  /// Runs the full invariant check after a mutation in debug builds.
  @inlinable
  @inline(__always)
  func checkInvariantsInDebug() {
    #if DEBUG
      checkInvariants()
    #endif
  }
}
