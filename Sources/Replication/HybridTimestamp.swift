/// A hybrid logical clock value: wall time in milliseconds, a counter and the replica.
///
/// Timestamps order every operation of every replica the same way: by wall time, then
/// counter, then replica id. A replica's own timestamps strictly increase, and a timestamp
/// made after a replica received another is greater than it, whatever the wall clocks say
/// (Kulkarni et al., "Logical physical clocks", 2014).
public struct HybridTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Milliseconds since an epoch the caller chooses (the same on every replica).
  public let wallTime: UInt64
  /// Orders timestamps that share a wall time.
  public let counter: UInt32
  /// The replica that made the timestamp: the final tie-break.
  public let replica: ReplicaID

  /// Creates a timestamp.
  ///
  /// - Parameters:
  ///   - wallTime: Milliseconds since the epoch.
  ///   - counter: The logical counter.
  ///   - replica: The replica that made it.
  public init(wallTime: UInt64, counter: UInt32, replica: ReplicaID) {
    self.wallTime = wallTime
    self.counter = counter
    self.replica = replica
  }

  /// Whether `lhs` comes first: wall time, then counter, then replica id.
  public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
    if lhs.wallTime != rhs.wallTime { return lhs.wallTime < rhs.wallTime }
    if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
    return lhs.replica < rhs.replica
  }

  /// `wallTime.counter@replica`, for example `1700000000000.2@k7q`.
  public var description: String { "\(wallTime).\(counter)@\(replica)" }
}

/// A replica's hybrid logical clock: pure, the caller supplies the wall time.
///
/// ```swift
/// var clock = HybridClock(replica: try ReplicaID("k7q"))
/// let t1 = clock.tick(wallTime: 1_000)
/// clock.receive(remote, wallTime: 1_001)   // after merging another replica's operations
/// let t2 = clock.tick(wallTime: 1_001)     // greater than t1 and than remote
/// ```
public struct HybridClock: Sendable, Hashable {
  /// The replica whose timestamps this clock makes.
  public let replica: ReplicaID
  /// The greatest wall time seen so far (own or received).
  public private(set) var wallTime: UInt64 = 0
  /// The counter paired with ``wallTime``.
  public private(set) var counter: UInt32 = 0

  /// A clock that has seen nothing yet.
  ///
  /// - Parameter replica: The replica whose timestamps this clock makes.
  public init(replica: ReplicaID) { self.replica = replica }

  /// Makes the next timestamp of this replica.
  ///
  /// - Parameter now: The device's wall time now, in milliseconds.
  /// - Returns: A timestamp greater than every timestamp made or received before.
  public mutating func tick(wallTime now: UInt64) -> HybridTimestamp {
    if now > wallTime {
      wallTime = now
      counter = 0
    } else {
      counter += 1
    }
    return HybridTimestamp(wallTime: wallTime, counter: counter, replica: replica)
  }

  /// Takes in a timestamp received from another replica, so the next tick is after it.
  ///
  /// - Parameters:
  ///   - remote: A timestamp read from another replica's operation.
  ///   - now: The device's wall time now, in milliseconds.
  public mutating func receive(_ remote: HybridTimestamp, wallTime now: UInt64) {
    let wall = max(now, wallTime, remote.wallTime)
    let local = wallTime
    if wall == local && wall == remote.wallTime {
      counter = max(counter, remote.counter) + 1
    } else if wall == local {
      counter += 1
    } else if wall == remote.wallTime {
      counter = remote.counter + 1
    } else {
      counter = 0
    }
    wallTime = wall
  }
}
