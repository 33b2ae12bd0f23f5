/// A replica's (a device's) identity: three characters of the lowercase Crockford base-32
/// alphabet (`0-9`, `a-z` without `i l o u`), such as `k7q`.
///
/// Every id a replica makes starts with its replica id, and every replica id has the same
/// length, so ids made on different replicas never collide and stay short enough to type.
/// The identity itself is chosen at random by the caller once per device and kept outside
/// any synced folder.
public struct ReplicaID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The three characters.
  public let rawValue: String

  /// The characters a replica id and a counter are written with.
  public static let alphabet: [UInt8] = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

  /// The number of characters in every replica id.
  public static let length = 3

  /// Checks text as a replica id.
  ///
  /// - Parameter text: Three characters of ``alphabet``.
  /// - Throws: `ReplicationError` with code `invalidReplicaID`, naming the text.
  public init(_ text: String) throws(ReplicationError) {
    let bytes = Array(text.utf8)
    guard bytes.count == Self.length, bytes.allSatisfy({ Self.alphabet.contains($0) }) else {
      throw ReplicationError(
        .invalidReplicaID,
        "invalid replica id \"\(text)\": a replica id is \(Self.length) characters of "
          + "0-9 and a-z without i, l, o and u")
    }
    rawValue = text
  }

  /// Draws a random replica id.
  ///
  /// - Parameter generator: The source of randomness (seed it in tests).
  /// - Returns: A replica id of three random characters.
  public static func random<G: RandomNumberGenerator>(using generator: inout G) -> ReplicaID {
    let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<32, using: &generator)] }
    return ReplicaID(unchecked: String(decoding: bytes, as: UTF8.self))
  }

  init(unchecked rawValue: String) { self.rawValue = rawValue }

  /// Whether `lhs` sorts before `rhs` (byte order of the characters).
  public static func < (lhs: ReplicaID, rhs: ReplicaID) -> Bool {
    lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
  }

  /// The three characters.
  public var description: String { rawValue }
}

/// The id of a node of the replicated tree: an item, a collection or one of the three fixed
/// nodes (``root``, ``trash``, ``inbox``).
///
/// Ids a ``Replica`` makes are its ``ReplicaID`` followed by a base-32 counter (`k7q1`,
/// `k7q2`, … `k7qzz`): unique without coordination, and a unique prefix of one still names
/// it. Any other text (an id migrated from an older store) is accepted as it is.
public struct NodeID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The id's text.
  public let rawValue: String

  /// Wraps text as a node id.
  ///
  /// - Parameter rawValue: The id's text.
  public init(_ rawValue: String) { self.rawValue = rawValue }

  /// The fixed parent of every collection.
  public static let root = NodeID("_root")
  /// The fixed parent of every deleted node: a delete is a move here.
  public static let trash = NodeID("_trash")
  /// The fixed capture collection, which cannot be moved or deleted; rescued items land here.
  public static let inbox = NodeID("_inbox")

  /// Whether this is one of the fixed nodes that no operation may move.
  public var isFixed: Bool { self == .root || self == .trash || self == .inbox }

  /// Whether `lhs` sorts before `rhs` (byte order), the tie-break of equal order keys.
  public static func < (lhs: NodeID, rhs: NodeID) -> Bool {
    lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
  }

  /// The id's text.
  public var description: String { rawValue }

  /// The id a replica makes from its counter: the replica id, then the counter in base 32.
  ///
  /// - Parameters:
  ///   - replica: The replica making the id.
  ///   - counter: A number the replica never used for an id before (its sequence number).
  /// - Returns: For example `k7q1f` for replica `k7q` and counter 47.
  /// - Complexity: O(log₃₂ *counter*).
  public static func make(replica: ReplicaID, counter: UInt64) -> NodeID {
    var digits: [UInt8] = []
    var value = counter
    repeat {
      digits.append(ReplicaID.alphabet[Int(value % 32)])
      value /= 32
    } while value > 0
    return NodeID(replica.rawValue + String(decoding: digits.reversed(), as: UTF8.self))
  }
}

/// What a node is: an item of a list or plan, or a collection (a list or a plan).
public enum NodeKind: String, Sendable, Hashable {
  /// An item: its parent is a collection or another item.
  case item
  /// A collection: its parent is ``NodeID/root``.
  case collection
}

/// The one error type of Replication: a code and one sentence a user can act on.
public struct ReplicationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable {
    /// A replica id of the wrong length or with a character outside the alphabet.
    case invalidReplicaID
    /// An intent named a node this replica does not hold, or holds only in the trash.
    case unknownNode
    /// An intent would move a node into its own subtree.
    case intoOwnSubtree
    /// An intent would move a fixed node or put a node where its kind cannot go.
    case notAllowed
    /// Indent of a first sibling or outdent of a top-level item.
    case noPlace
    /// Undo with no change of this replica left to take back.
    case nothingToUndo
    /// A checkpoint of a merged state that cannot be read (damaged, cut short, another
    /// version): it is rebuilt from the logs.
    case badCheckpoint
  }

  /// What went wrong.
  public let code: Code
  /// One sentence naming what and where.
  public let description: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: What went wrong.
  ///   - description: One sentence naming what and where.
  public init(_ code: Code, _ description: String) {
    self.code = code
    self.description = description
  }
}
