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
/// print(forest.children(of: "trip"))   // ["book", "pack"]
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
/// Storage is one record per node (id, parent, key prefix and where its children are), all
/// sibling lists in one pooled buffer and an open-addressing table from id to record, so a
/// move costs O(*d* + log *k*) plus an O(*k*) shift of the sibling list, where *d* is the
/// depth and *k* the number of siblings, and flattening is O(*n*). Everything a move reads
/// about a node sits in one record, so a move touches few cache lines.
public struct OrderedForest<ID: Hashable & Comparable & Sendable>: Sendable {
  /// The record of each slot: id, key prefix, parent and child run.
  @usableFromInline
  var nodes: [Node]
  /// The order key of each slot among its siblings (apart from the records, so a record
  /// holds no reference and copies as plain bytes).
  @usableFromInline
  var keys: [OrderKey]
  /// Every sibling list: the child slots of a node are the cells of its run, in increasing
  /// key order, with room to grow.
  @usableFromInline
  var pool: RunPool
  /// The run of the root slots in `pool`.
  @usableFromInline
  var rootRun: Run
  /// The id table: from each id to its slot.
  @usableFromInline
  var table: SlotTable

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
    self.nodes = []
    self.keys = []
    self.pool = RunPool()
    self.rootRun = Run()
    self.table = SlotTable()
    self.constraints = constraints
  }

  /// The number of nodes.
  @inlinable
  public var count: Int { nodes.count }

  /// Whether the forest has no nodes.
  @inlinable
  public var isEmpty: Bool { nodes.isEmpty }

  /// Whether the forest holds a node with this id.
  @inlinable
  public func contains(_ id: ID) -> Bool { slotOf(id) != nil }
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
    /// The longest order key a move or insert leaves, in bytes, or `nil` for no limit.
    ///
    /// Inserting again and again into one gap grows keys by about a byte per six inserts.
    /// With a budget, a move whose new key is longer also re-keys the smallest window of
    /// siblings around it (``OrderKeyList``'s window) so every key is short again, and its
    /// change set lists those siblings too: no path can skip the budget.
    public var keyBudget: Int?

    /// Whether there is nothing to ask of a move: no depth limit and no rules.
    @inlinable
    var asksNothing: Bool { maximumDepth == nil && rules.isEmpty }

    /// Creates constraints.
    ///
    /// - Parameters:
    ///   - maximumDepth: The deepest allowed depth (roots are at 0), or `nil`.
    ///   - rules: The caller's rules, asked in order.
    ///   - clampSearchLimit: How many places on each side clamping looks at.
    ///   - keyBudget: The longest order key a move or insert leaves, or `nil`; at least 4.
    @inlinable
    public init(
      maximumDepth: Int? = nil, rules: [Rule] = [], clampSearchLimit: Int = 4096,
      keyBudget: Int? = nil
    ) {
      precondition(maximumDepth.map { $0 >= 0 } ?? true, "the maximum depth cannot be negative")
      precondition(clampSearchLimit >= 0, "the clamp search limit cannot be negative")
      precondition(keyBudget.map { $0 >= 4 } ?? true, "a key budget must allow 4 bytes")
      self.maximumDepth = maximumDepth
      self.rules = rules
      self.clampSearchLimit = clampSearchLimit
      self.keyBudget = keyBudget
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

    /// The node the destination names, or `nil` for the root level.
    @inlinable
    var anchor: ID? {
      switch self {
      case .before(let id), .after(let id), .firstChild(let id), .lastChild(let id): id
      case .root, .lastRoot: nil
      }
    }

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
      guard let other = rhs.slotOf(lhs.nodes[slot].id) else { return false }
      guard lhs.keys[slot] == rhs.keys[other] else { return false }
      let parent = lhs.parentSlot(slot)
      let otherParent = rhs.parentSlot(other)
      guard lhs.parentID(parent) == rhs.parentID(otherParent) else { return false }
    }
    return true
  }
}
