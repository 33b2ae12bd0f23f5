public import OrderingCore

/// One replicated change: made by one replica, numbered in its log, stamped with its clock.
///
/// A replica's operations carry the sequence numbers 1, 2, 3, … in the order it made them,
/// so a receiver can tell a repeat (already merged) from a gap (an earlier one still on its
/// way) without comparing contents.
public struct ReplicaOperation: Hashable, Sendable, CustomStringConvertible {
  /// The place of this operation in its replica's log, from 1.
  public let sequence: UInt64
  /// When it was made; its replica is ``HybridTimestamp/replica``.
  public let timestamp: HybridTimestamp
  /// What it changes.
  public let change: Change

  /// Creates an operation.
  ///
  /// - Parameters:
  ///   - sequence: The place in the replica's log, from 1.
  ///   - timestamp: When it was made, with the replica that made it.
  ///   - change: What it changes.
  public init(sequence: UInt64, timestamp: HybridTimestamp, change: Change) {
    self.sequence = sequence
    self.timestamp = timestamp
    self.change = change
  }

  /// The replica that made the operation.
  public var replica: ReplicaID { timestamp.replica }

  /// `replica#sequence change`, for logs and failure messages.
  public var description: String { "\(replica)#\(sequence) \(change)" }
}

/// What an operation changes.
///
/// Structure (create, move, delete) follows Kleppmann et al.'s replicated move: every
/// replica applies these in timestamp order, undoing and redoing later ones when an earlier
/// one arrives late, and skips one that would make a cycle. Fields are last-writer-wins
/// registers, one per node and field, so a ``set(_:_:)`` never needs undoing.
public enum Change: Hashable, Sendable, CustomStringConvertible {
  /// Makes a node under a parent at an order key, with first values for its fields.
  case create(NodeID, kind: NodeKind, parent: NodeID, key: OrderKey, fields: [FieldValue])
  /// Moves a node (with its subtree) under a parent at an order key; restores from the trash.
  case move(NodeID, parent: NodeID, key: OrderKey)
  /// Moves a node to ``NodeID/trash``; `seen` is what its replica had merged at the time,
  /// so a child added or edited without that knowledge is rescued instead of lost.
  case delete(NodeID, seen: VersionVector)
  /// Sets one field of a node.
  case set(NodeID, FieldValue)

  /// The node the change is about.
  public var node: NodeID {
    switch self {
    case .create(let id, _, _, _, _), .move(let id, _, _), .delete(let id, _), .set(let id, _):
      id
    }
  }

  /// Whether the change is part of the replicated tree's structure (not a field).
  public var isStructural: Bool {
    if case .set = self { return false }
    return true
  }

  /// A short form such as `move k7q3 -> k7q1 @a0V`.
  public var description: String {
    switch self {
    case .create(let id, let kind, let parent, let key, let fields):
      "create \(kind) \(id) -> \(parent) @\(key) \(fields)"
    case .move(let id, let parent, let key): "move \(id) -> \(parent) @\(key)"
    case .delete(let id, _): "delete \(id)"
    case .set(let id, let value): "set \(id) \(value)"
    }
  }
}

/// A field and its value: the last writer (by timestamp) wins, per node and field.
public enum FieldValue: Hashable, Sendable, CustomStringConvertible {
  /// An item's text, or a collection's title.
  case text(String)
  /// An item's note.
  case note(String)
  /// An item's placement role (a day header, a fixed entry, …), as the editor spells it.
  case role(String)
  /// Whether an item is done.
  case done(Bool)
  /// A collection's layout, `list` or `plan`.
  case layout(String)
  /// When the node was made, in milliseconds since 1970 as decimal text (kept from a migrated
  /// store's records; set once by a create).
  case created(String)

  /// The field this value belongs to, as a small number for storage.
  public var field: Int {
    switch self {
    case .text: 0
    case .note: 1
    case .role: 2
    case .done: 3
    case .layout: 4
    case .created: 5
    }
  }

  /// The field's name and value, such as `text="Pack"`.
  public var description: String {
    switch self {
    case .text(let text), .note(let text), .role(let text), .layout(let text):
      "\(name)=\(Canonical.quoted(text))"
    case .done(let flag): "done=\(flag)"
    case .created(let text): "created=\(text)"
    }
  }
}

/// For each replica, how many of its operations (a prefix of its log) are known.
public struct VersionVector: Hashable, Sendable, CustomStringConvertible {
  /// The known prefix length per replica; a replica absent here has 0.
  public private(set) var counts: [ReplicaID: UInt64] = [:]

  /// An empty vector (nothing known).
  public init() {}

  /// Creates a vector from counts.
  ///
  /// - Parameter counts: The known prefix length per replica.
  public init(_ counts: [ReplicaID: UInt64]) { self.counts = counts.filter { $0.value > 0 } }

  /// The known prefix length of a replica's log.
  ///
  /// - Parameter replica: A replica.
  public subscript(replica: ReplicaID) -> UInt64 {
    get { counts[replica] ?? 0 }
    set { counts[replica] = newValue == 0 ? nil : newValue }
  }

  /// Whether the operation with this replica and sequence number is known.
  ///
  /// - Parameters:
  ///   - replica: The operation's replica.
  ///   - sequence: The operation's sequence number.
  /// - Returns: `true` when `sequence` is within the known prefix.
  public func includes(_ replica: ReplicaID, _ sequence: UInt64) -> Bool {
    sequence <= self[replica]
  }

  /// The entry-wise minimum: what every vector in `vectors` knows (for compaction).
  ///
  /// - Parameter vectors: The vectors of every known replica.
  /// - Returns: The vector known to all of them; empty for no vectors.
  /// - Complexity: O(*v* · *r*), *v* vectors of *r* replicas.
  public static func common(_ vectors: [VersionVector]) -> VersionVector {
    guard var result = vectors.first else { return VersionVector() }
    for vector in vectors.dropFirst() {
      for (replica, count) in result.counts { result[replica] = min(count, vector[replica]) }
    }
    return result
  }

  /// `replica:count` pairs sorted by replica, such as `a1b:4 k7q:12`.
  public var description: String {
    counts.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
  }
}

extension OrderKey {
  /// A key strictly between two keys that ends in the replica's id, so keys made by
  /// different replicas for one gap never tie.
  ///
  /// The plain key between the bounds is the same on every replica; it is first stepped
  /// toward `upper` until it is not a prefix of it, then the replica id and `1` are appended
  /// (an order key may not end in `0`).
  ///
  /// - Parameters:
  ///   - lower: The key to sort after, or `nil`.
  ///   - upper: The key to sort before, or `nil`.
  ///   - replica: The replica making the key.
  /// - Returns: A key strictly between the bounds.
  /// - Throws: The errors of `OrderKey.between(_:_:)` (bounds not ascending).
  /// - Complexity: O(*m*), where *m* is the longer bound's length.
  public static func between(_ lower: OrderKey?, _ upper: OrderKey?, replica: ReplicaID)
    throws(OrderingError) -> OrderKey
  {
    var base = try between(lower, upper)
    if let upper {
      while upper.rawValue.utf8.starts(with: base.rawValue.utf8) {
        base = try between(base, upper)
      }
    }
    return try OrderKey(validating: base.rawValue + replica.rawValue + "1")
  }
}
