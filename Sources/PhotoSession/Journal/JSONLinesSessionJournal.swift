import Foundation
public import Persistence

/// A session journal in a folder, kept by the `Persistence` module's `JSONLinesJournal`:
/// `journal.<g>.jsonl` (a header, then one event per line with a sequence number and a CRC-32),
/// `journal.snapshot.json` (written by compaction) and `journal.lock`, which the writer holds
/// for as long as the journal is open: the session's one lock.
///
/// An entry line reads `{"crc":"1c291ca3","entry":{"d":"trash","i":11,...},"seq":12}`. The
/// underlying journal is opened with `JournalDurability.never` (it buffers and never syncs on
/// its own); ``append(_:)`` appends each event, then calls `JSONLinesJournal.sync()` once,
/// which writes the lines with one `write` and makes them durable with one `fsync` before
/// returning. Replay reports a torn last line (what a crash in the middle of an append
/// leaves), which opening cut off, as a repair; damage before the tail throws an error naming
/// the line. Compaction is the journal's own: a new generation's file, the snapshot saved
/// atomically (the commit point), the old file removed.
///
/// After a failed write or sync the journal refuses further appends: the session must be
/// opened again. A failed write leaves the file as it was; a failed sync leaves it unknown, so
/// the reopened session replays the failed events or not, exactly as after a crash in the
/// middle of the append. Either way an acknowledged event is never lost and the live session
/// never goes on past an event whose fate is unknown.
public final class JSONLinesSessionJournal: SessionJournal {
  /// The folder holding the journal and the snapshot.
  public let folder: String
  /// Whether this instance only reads: it takes no lock, replay reports a torn tail without
  /// cutting it, and append and compaction throw. For listing sessions another process has open.
  public let readOnly: Bool
  /// The file operations (injectable for fault tests).
  public let fileSystem: any Persistence.FileSystem
  /// How long opening waits for another holder of the journal's lock.
  public let lockTimeout: Duration

  private var journal: JSONLinesJournal<SessionEvent, SessionSnapshot>?
  private var closed = false
  /// Where ``suspend()`` left the journal, while it is suspended.
  private var resumePoint: JSONLinesJournal<SessionEvent, SessionSnapshot>.ResumePoint?

  /// The name of the journal's files in the session folder.
  public static let name = "journal"
  /// The snapshot's document format.
  public static let format = DocumentFormat<SessionSnapshot>(
    name: "offload.photo-session.snapshot", version: 1, prettyPrinted: false)

  /// Prepares the journal in `folder`; it is opened (and recovered) by the first replay or
  /// append.
  ///
  /// - Parameters:
  ///   - folder: The session folder.
  ///   - readOnly: Never write (see ``readOnly``).
  ///   - lockTimeout: How long to wait for another process holding the journal; none by default.
  ///   - fileSystem: The file operations; the real ones by default.
  public init(
    folder: String, readOnly: Bool = false, lockTimeout: Duration = .zero,
    fileSystem: any Persistence.FileSystem = POSIXFileSystem()
  ) {
    self.folder = folder
    self.readOnly = readOnly
    self.lockTimeout = lockTimeout
    self.fileSystem = fileSystem
  }

  /// The path of the current journal file.
  public var journalPath: String {
    journal?.journalPath ?? PathName.join(folder, "\(Self.name).0.jsonl")
  }
  /// The snapshot file's path.
  public var snapshotPath: String { PathName.join(folder, "\(Self.name).snapshot.json") }
  /// The lock file held while the journal is open for writing: the session's one lock.
  public var lockPath: String { PathName.join(folder, "\(Self.name).lock") }

  /// Flushes and closes the underlying journal and releases its lock; afterwards every call
  /// throws ``PhotoSessionError/Code/writeFailed`` (open the session again instead).
  ///
  /// - Throws: ``PhotoSessionError/Code/writeFailed`` when the final flush fails.
  public func close() throws(PhotoSessionError) {
    closed = true
    resumePoint = nil
    guard let journal else { return }
    self.journal = nil
    do throws(PersistenceError) {
      try journal.close()
    } catch {
      throw Self.translate(error, writing: true)
    }
  }

  private func requireWritable() throws(PhotoSessionError) {
    if readOnly {
      throw PhotoSessionError(
        .writeFailed, path: journalPath,
        description: "cannot write the journal \"\(journalPath)\": it was opened read-only")
    }
  }

  private func opened(writing: Bool = false) throws(PhotoSessionError) -> JSONLinesJournal<
    SessionEvent, SessionSnapshot
  > {
    if let journal { return journal }
    if resumePoint != nil {
      throw PhotoSessionError(
        .writeFailed, path: folder,
        description: "the journal in \"\(folder)\" is suspended; resume it before a change")
    }
    if closed {
      throw PhotoSessionError(
        .writeFailed, path: folder,
        description: "the journal in \"\(folder)\" was closed; open the session again")
    }
    try refuseEarlierLayout()
    do throws(PersistenceError) {
      let journal = try JSONLinesJournal<SessionEvent, SessionSnapshot>.open(
        directory: folder, name: Self.name, format: Self.format, durability: .never,
        lockTimeout: lockTimeout, fileSystem: fileSystem)
      self.journal = journal
      return journal
    } catch {
      throw Self.translate(error, writing: writing)
    }
  }

  /// Refuses a session folder in the layout of earlier development builds (`journal.jsonl`),
  /// which this journal would otherwise take for a new, empty session.
  private func refuseEarlierLayout() throws(PhotoSessionError) {
    let files = PhotoFiles(fileSystem)
    let earlier = PathName.join(folder, "journal.jsonl")
    guard try files.status(earlier, followingLinks: true) != nil,
      try files.status(PathName.join(folder, "\(Self.name).0.jsonl"), followingLinks: true) == nil,
      try files.status(snapshotPath, followingLinks: true) == nil
    else { return }
    throw PhotoSessionError(
      .sessionCorrupt, path: earlier,
      description:
        "the session in \"\(folder)\" was written by an earlier development build (\"journal.jsonl\"); this build cannot read it: start a new session"
    )
  }

  // MARK: Suspend and resume

  /// Whether the journal is suspended (see ``suspend()``).
  public var isSuspended: Bool { resumePoint != nil }

  /// Releases the lock between changes while the session stays in memory: syncs, notes where
  /// the journal stopped and closes it. Another process may open the session until
  /// ``resume()``. Does nothing when the journal is not open for writing.
  ///
  /// - Throws: ``PhotoSessionError/Code/writeFailed`` when the sync or close fails (every
  ///   acknowledged event was synced already); the journal is closed then.
  /// - Complexity: O(1): two `stat` calls and a close.
  public func suspend() throws(PhotoSessionError) {
    guard let journal, !readOnly else { return }
    self.journal = nil
    do throws(PersistenceError) {
      resumePoint = try journal.suspend()
    } catch {
      closed = true
      throw Self.translate(error, writing: true)
    }
  }

  /// Whether the journal's files are still as ``suspend()`` left them, read without the lock:
  /// false once another process appended, cut, compacted or repaired it, and when the
  /// journal is not suspended.
  ///
  /// - Returns: Whether the session in memory is still the session on disk.
  /// - Throws: A read error for an I/O failure other than a missing file.
  /// - Complexity: O(1): two `stat` calls.
  public func isUnchangedSinceSuspend() throws(PhotoSessionError) -> Bool {
    guard let point = resumePoint else { return false }
    do throws(PersistenceError) {
      let now = try JSONLinesJournal<SessionEvent, SessionSnapshot>.point(
        directory: folder, name: Self.name, generation: point.generation,
        lastSequence: point.lastSequence, fileSystem: fileSystem)
      return now == point
    } catch  where error.code == .notFound {
      return false
    } catch {
      throw Self.translate(error, writing: false)
    }
  }

  /// Takes the lock again after ``suspend()``: true when nothing changed the journal meanwhile
  /// (the session in memory is current and the next append follows on), false when another
  /// process changed it (the lock is released and this journal is closed: open the session
  /// again to replay what the other process wrote). True when the journal was not suspended.
  ///
  /// - Returns: Whether the session in memory is still the session on disk.
  /// - Throws: ``PhotoSessionError/Code/sessionBusy`` when another process keeps the session
  ///   open longer than ``lockTimeout``, or an I/O failure.
  /// - Complexity: O(1): a lock, two `stat` calls and an open.
  public func resume() throws(PhotoSessionError) -> Bool {
    guard let point = resumePoint else { return !closed || journal != nil }
    do throws(PersistenceError) {
      guard
        let resumed = try JSONLinesJournal<SessionEvent, SessionSnapshot>.resume(
          at: point, directory: folder, name: Self.name, format: Self.format,
          durability: .never, lockTimeout: lockTimeout, fileSystem: fileSystem)
      else {
        resumePoint = nil
        closed = true
        return false
      }
      journal = resumed
      resumePoint = nil
      return true
    } catch {
      throw Self.translate(error, writing: false)
    }
  }

  // MARK: Append

  /// Appends events and returns once they are durable (one write, one fsync).
  ///
  /// - Throws: ``PhotoSessionError/Code/writeFailed``; afterwards the journal refuses appends
  ///   until the session is opened again (see the type's discussion).
  /// - Complexity: O(*k*) for *k* events.
  public func append(_ events: [SessionEvent]) throws(PhotoSessionError) {
    guard !events.isEmpty else { return }
    try requireWritable()
    let journal = try opened(writing: true)
    do throws(PersistenceError) {
      for event in events { try journal.append(event) }
      try journal.sync()
    } catch {
      throw Self.translate(error, writing: true)
    }
  }

  // MARK: Replay

  /// Reads the snapshot and the events after it; a torn last line is reported in
  /// ``SessionJournalContents/repairs`` (and, unless read-only, was cut off when the journal opened).
  ///
  /// - Throws: ``PhotoSessionError/Code/journalCorrupt`` naming the line and byte offset of
  ///   damage before the tail; ``PhotoSessionError/Code/sessionCorrupt`` for a damaged or newer
  ///   snapshot; ``PhotoSessionError/Code/sessionBusy`` when another process holds the journal.
  /// - Complexity: O(*b*), where *b* is the size of the journal and the snapshot in bytes.
  public func replay() throws(PhotoSessionError) -> SessionJournalContents {
    let contents: Persistence.JournalContents<SessionEvent, SessionSnapshot>
    if closed { _ = try opened() }
    if readOnly || journal != nil {
      // Read-only, or opened already: everything appended since opening is on disk.
      if journal == nil { try refuseEarlierLayout() }
      do throws(PersistenceError) {
        contents = try JSONLinesJournal<SessionEvent, SessionSnapshot>.read(
          directory: folder, name: Self.name, format: Self.format, fileSystem: fileSystem)
        if let damage = contents.damage { throw damage }
      } catch {
        throw Self.translate(error, writing: false)
      }
    } else {
      contents = try opened().recovered
    }
    var repairs: [String] = []
    if let torn = contents.tornTail {
      repairs.append(
        "\(readOnly ? "found" : "cut off") a torn last line \(torn.line) of \"\(journalPath)\" (\(torn.length) bytes at offset \(torn.offset)): \(torn.reason)"
      )
    }
    return SessionJournalContents(
      snapshot: contents.snapshot, events: contents.entries.map(\.entry), repairs: repairs)
  }

  // MARK: Compaction

  /// Replaces the journal by `snapshot` (the underlying journal's atomic compaction).
  ///
  /// - Throws: ``PhotoSessionError/Code/writeFailed``; on failure before the commit point the
  ///   previous snapshot and journal still replay to the same state.
  /// - Complexity: O(*n*), where *n* is the number of photos in the snapshot.
  public func compact(into snapshot: SessionSnapshot) throws(PhotoSessionError) {
    try requireWritable()
    let journal = try opened(writing: true)
    do throws(PersistenceError) {
      try journal.compact(snapshot)
    } catch {
      throw Self.translate(error, writing: true)
    }
  }

  // MARK: Errors

  /// A `Persistence` error as this module's error, keeping its sentence, file and line.
  static func translate(_ error: PersistenceError, writing: Bool) -> PhotoSessionError {
    let code: PhotoSessionError.Code
    switch error.code {
    case .busy: code = .sessionBusy
    case .damaged:
      code = error.path?.hasSuffix(".snapshot.json") == true ? .sessionCorrupt : .journalCorrupt
    case .journalMismatch: code = .journalCorrupt
    case .newerVersion, .wrongFormat, .missingMigration, .migrationFailed: code = .sessionCorrupt
    case .encodingFailed, .journalUnusable: code = .writeFailed
    // notFound, ioFailure, and any code a later Persistence adds: a failed read or write.
    default: code = writing ? .writeFailed : .unreadable
    }
    let description =
      code == .sessionBusy
      ? "the photo session in \"\(PathName.directory(of: error.path ?? ""))\" is open in another process; close it there first"
      : error.description
    return PhotoSessionError(
      code, path: error.path, offset: error.line, errno: error.errorNumber,
      description: description)
  }
}
