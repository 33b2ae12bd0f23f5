import Persistence

extension PhotoSessionStore {
  /// A session opened from the store, holding its lock until it is released.
  public final class Opened {
    /// The session's manifest.
    public let manifest: Manifest
    /// The session.
    public let session: CullingSession
    /// The folder library the session applies decisions to.
    public let library: FolderLibrary
    /// What the scan skipped or could not read (only for a session just started).
    public let issues: [ScanIssue]
    /// The session's journal, whose lock is the session's.
    private let journal: JSONLinesSessionJournal
    /// The file operations of the store (for a rescan).
    let fileSystem: any Persistence.FileSystem

    init(
      manifest: Manifest, session: CullingSession, library: FolderLibrary, issues: [ScanIssue],
      journal: JSONLinesSessionJournal, fileSystem: any Persistence.FileSystem
    ) {
      self.manifest = manifest
      self.session = session
      self.library = library
      self.issues = issues
      self.journal = journal
      self.fileSystem = fileSystem
    }

    deinit {
      try? journal.close()
    }

    /// Closes the session's journal and releases its lock; another process can open the
    /// session afterwards, and this one's session refuses every further change.
    ///
    /// - Throws: ``PhotoSessionError/Code/writeFailed`` when the final flush fails.
    public func close() throws(PhotoSessionError) {
      try journal.close()
    }

    /// Releases the session's lock between changes while the session stays in memory (see
    /// ``JSONLinesSessionJournal/suspend()``); ``resume()`` takes it again before the next
    /// change.
    ///
    /// - Throws: ``PhotoSessionError/Code/writeFailed`` when the final sync or close fails.
    public func suspend() throws(PhotoSessionError) {
      try journal.suspend()
    }

    /// Takes the session's lock again after ``suspend()``: true when no other process changed
    /// the session meanwhile, false when one did (the session is closed then: open it again).
    ///
    /// - Returns: Whether ``session`` is still the session on disk.
    /// - Throws: ``PhotoSessionError/Code/sessionBusy`` when another process keeps the session
    ///   open, or an I/O failure.
    /// - Complexity: O(1): a lock, two `stat` calls and an open.
    public func resume() throws(PhotoSessionError) -> Bool {
      try journal.resume()
    }

    /// Whether the session's files are still as ``suspend()`` left them, read without the
    /// lock (see ``JSONLinesSessionJournal/isUnchangedSinceSuspend()``).
    ///
    /// - Returns: Whether ``session`` is still the session on disk; false when not suspended.
    /// - Throws: A read error for an I/O failure other than a missing file.
    /// - Complexity: O(1): two `stat` calls.
    public func isUnchanged() throws(PhotoSessionError) -> Bool {
      try journal.isUnchangedSinceSuspend()
    }

    /// The session id.
    public var id: String { manifest.id }
  }

  /// One line of ``sessions()``.
  public struct Summary: Hashable, Sendable, Codable {
    /// The session id.
    public var id: String
    /// The library folder.
    public var root: String
    /// When the session started, seconds since 1970.
    public var createdAt: Double
    /// The session's statistics, or nil when it could not be read (see ``problem``).
    public var statistics: SessionStatistics?
    /// Why the session could not be read, or nil.
    public var problem: String?
  }
}
