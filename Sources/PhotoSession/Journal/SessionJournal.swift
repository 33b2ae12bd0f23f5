/// The storage seam of a session: an append-only journal of ``SessionEvent``s with snapshots.
///
/// A ``CullingSession`` appends every event through this protocol and acknowledges it only when
/// ``append(_:)`` returns, so an implementation must make the events durable (on stable storage)
/// before returning. ``JSONLinesSessionJournal`` is the file implementation;
/// ``MemorySessionJournal`` keeps events in memory for tests and previews. Another journal (for
/// example one from the `Persistence` module) can take their place by conforming.
public protocol SessionJournal: AnyObject {
  /// Appends events in order and returns once they are durable.
  ///
  /// Either all of `events` are kept or none is: a failed append leaves the journal as it was.
  ///
  /// - Throws: ``PhotoSessionError/Code/writeFailed`` when writing or syncing fails.
  func append(_ events: [SessionEvent]) throws(PhotoSessionError)

  /// Reads the latest snapshot and the events appended after it, in order.
  ///
  /// A torn last line (a crash in the middle of an append) is cut off and reported in
  /// ``SessionJournalContents/repairs``; damage before the tail throws.
  ///
  /// - Throws: ``PhotoSessionError/Code/journalCorrupt`` naming the line, or
  ///   ``PhotoSessionError/Code/sessionCorrupt`` for a damaged snapshot.
  func replay() throws(PhotoSessionError) -> SessionJournalContents

  /// Replaces the journal by `snapshot`, so the next replay starts from it with no events.
  ///
  /// A crash at any point leaves either the old snapshot and events or the new snapshot.
  ///
  /// - Throws: ``PhotoSessionError/Code/writeFailed`` when writing fails; the old data stays.
  func compact(into snapshot: SessionSnapshot) throws(PhotoSessionError)

  /// Flushes what is buffered, releases the files and the lock; afterwards every call throws
  /// ``PhotoSessionError/Code/writeFailed``. Closing twice does nothing more.
  ///
  /// - Throws: ``PhotoSessionError/Code/writeFailed`` when the final flush fails.
  func close() throws(PhotoSessionError)
}

/// What a session journal holds: a snapshot, the events after it, and what replay repaired.
///
/// The session's view of the `Persistence` module's `JournalContents`, whose entries carry
/// sequence numbers and whose torn tail is a structure; here repairs are sentences.
public struct SessionJournalContents: Hashable, Sendable {
  /// The latest snapshot, or nil when the journal was never compacted.
  public var snapshot: SessionSnapshot?
  /// The events appended after the snapshot, in order.
  public var events: [SessionEvent]
  /// Repairs made while reading (a torn tail cut off), one sentence each.
  public var repairs: [String]

  /// Creates journal contents.
  public init(snapshot: SessionSnapshot?, events: [SessionEvent], repairs: [String] = []) {
    self.snapshot = snapshot
    self.events = events
    self.repairs = repairs
  }
}

/// A journal that keeps its events in memory: for tests, previews and fault injection.
///
/// `failAppends` makes the next appends throw, as a full disk would.
public final class MemorySessionJournal: SessionJournal {
  /// The snapshot of the last compaction.
  public private(set) var snapshot: SessionSnapshot?
  /// The events appended since the last compaction.
  public private(set) var events: [SessionEvent] = []
  /// How many of the next appends fail with ``PhotoSessionError/Code/writeFailed``.
  public var failAppends = 0
  private var closed = false

  /// Creates an empty journal.
  public init() {}

  /// Appends events, or fails when ``failAppends`` is positive.
  ///
  /// - Complexity: O(*k*) amortized, where *k* is the number of events.
  public func append(_ events: [SessionEvent]) throws(PhotoSessionError) {
    try requireOpen()
    if failAppends > 0 {
      failAppends -= 1
      throw PhotoSessionError(
        .writeFailed, description: "cannot append to the journal: injected failure")
    }
    self.events.append(contentsOf: events)
  }

  /// The snapshot and the events after it.
  ///
  /// - Complexity: O(*e*), where *e* is the number of events.
  public func replay() throws(PhotoSessionError) -> SessionJournalContents {
    try requireOpen()
    return SessionJournalContents(snapshot: snapshot, events: events)
  }

  /// Keeps `snapshot` and drops the events.
  ///
  /// - Complexity: O(*e*), where *e* is the number of events dropped.
  public func compact(into snapshot: SessionSnapshot) throws(PhotoSessionError) {
    try requireOpen()
    self.snapshot = snapshot
    events.removeAll()
  }

  /// Closes the journal: later calls throw, as they do on a closed file journal.
  public func close() throws(PhotoSessionError) {
    closed = true
  }

  private func requireOpen() throws(PhotoSessionError) {
    if closed {
      throw PhotoSessionError(
        .writeFailed, description: "the journal was closed; open the session again")
    }
  }
}
