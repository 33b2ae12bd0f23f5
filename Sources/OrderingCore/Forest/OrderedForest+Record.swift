extension OrderedForest {
  /// A node as a store keeps it: id, parent id and its order among its siblings.
  public struct Record: Hashable, Sendable {
    /// How a stored row orders itself among its siblings.
    public enum Order: Hashable, Sendable {
      /// An order key's text (validated on build).
      case key(String)
      /// An integer position (the `position` column many apps store).
      case position(Int)
      /// No order at all (a row written before ordering existed).
      case missing
    }

    /// The node's id.
    public var id: ID
    /// Its parent's id, or `nil` for a root.
    public var parent: ID?
    /// Its order among its siblings.
    public var order: Order

    /// Creates a record.
    @inlinable
    public init(id: ID, parent: ID?, order: Order) {
      self.id = id
      self.parent = parent
      self.order = order
    }

    /// Creates a record with an order key.
    @inlinable
    public init(id: ID, parent: ID?, key: OrderKey) {
      self.init(id: id, parent: parent, order: .key(key.rawValue))
    }
  }

  /// One fix ``build(from:constraints:)`` made to the records.
  public struct Repair: Hashable, Sendable, CustomStringConvertible {
    /// What was wrong and what was done.
    public enum Kind: Hashable, Sendable {
      /// The record at `recordIndex` repeats the id of the record at `keptIndex`; the
      /// forest holds the first one, and the repeated row is left for the store to delete.
      case duplicateRecord(recordIndex: Int, keptIndex: Int)
      /// The parent does not exist; the node became a root.
      case missingParent(ID)
      /// The node's parent link closed a cycle (`cycle` lists its members from this node,
      /// each the parent of the one before); the link was cut at this node, the smallest id
      /// of the cycle, which became a root.
      case cycle([ID])
      /// The order key is not a valid key; the node got a new key after its keyed siblings.
      case invalidKey(String, OrderingError.Code)
      /// The order key is the same as a sibling's (`tiedWith`, the smaller id, kept it); the
      /// node got a new key right after it.
      case duplicateKey(String, tiedWith: ID)
      /// The position is the same as a sibling's (`tiedWith`, the smaller id, comes first).
      case duplicatePosition(Int, tiedWith: ID)
      /// The record has no order; the node went after its ordered siblings, by id.
      case missingOrder
    }

    /// The node the fix is about.
    public var id: ID
    /// What was wrong and what was done.
    public var kind: Kind

    /// Creates a repair.
    @inlinable
    public init(id: ID, kind: Kind) {
      self.id = id
      self.kind = kind
    }

    /// One sentence that names the node, the problem and the fix.
    public var description: String {
      switch kind {
      case .duplicateRecord(let index, let kept):
        "record \(index) repeats id \(id) of record \(kept): it was left out, and the store should delete it"
      case .missingParent(let parent):
        "\(id) names parent \(parent), which does not exist: it became a root"
      case .cycle(let members):
        "\(id) is in the parent cycle \(members.map { "\($0)" }.joined(separator: " -> ")) -> \(id): it became a root"
      case .invalidKey(let text, let code):
        "\(id) has the invalid order key \(OrderingError.quoted(text)) (\(code.rawValue)): it got a new key after its siblings"
      case .duplicateKey(let text, let other):
        "\(id) shares order key \(OrderingError.quoted(text)) with \(other): it got a new key right after \(other)"
      case .duplicatePosition(let position, let other):
        "\(id) shares position \(position) with \(other): it goes right after \(other)"
      case .missingOrder:
        "\(id) has no order: it went after its ordered siblings"
      }
    }

    /// The rank of a kind, for a deterministic report order.
    @inlinable
    var rank: Int {
      switch kind {
      case .duplicateRecord: 0
      case .missingParent: 1
      case .cycle: 2
      case .invalidKey: 3
      case .duplicateKey: 4
      case .duplicatePosition: 5
      case .missingOrder: 6
      }
    }
  }

  /// What ``build(from:constraints:)`` fixed, and which rows a store should rewrite.
  public struct RepairReport: Hashable, Sendable, CustomStringConvertible {
    /// Every fix, ordered by id, then kind.
    public var repairs: [Repair]
    /// The nodes whose stored parent or order differs from the forest's, in record order:
    /// write `forest.placement(of:)` for each to make the store agree with the forest.
    /// Records ordered by position are listed, since each got an order key.
    public var rewritten: [ID]

    @inlinable
    init(repairs: [Repair], rewritten: [ID]) {
      self.repairs = repairs
      self.rewritten = rewritten
    }

    /// Whether the records needed no fix.
    @inlinable
    public var isClean: Bool { repairs.isEmpty }

    /// One repair per line, or `no repairs`.
    public var description: String {
      repairs.isEmpty ? "no repairs" : repairs.map(\.description).joined(separator: "\n")
    }
  }
}
