// Suspending a journal between changes and resuming it without reading it again, for a
// process that keeps the state in memory but must not keep the lock.

extension JSONLinesJournal {
  /// Where a suspended journal stopped: its generation and last sequence number, and what its
  /// file and its snapshot looked like on disk when the lock was let go.
  public struct ResumePoint: Sendable, Hashable {
    /// The generation of the journal file.
    public var generation: Int
    /// The sequence number of the last entry.
    public var lastSequence: Int
    /// The journal file's identity: device, inode, size and modification time.
    var journal: FileIdentity
    /// The snapshot's, or nil when there was none.
    var snapshot: FileIdentity?
  }

  /// Syncs, notes where the journal stopped, then closes it and releases its lock, so another
  /// process may open the journal until ``resume(at:directory:name:format:durability:lockTimeout:fileSystem:)`` takes it again.
  ///
  /// The point is taken while the lock is still held, so a change another process makes
  /// afterwards always differs from it.
  ///
  /// - Returns: The point to resume at.
  /// - Throws: ``PersistenceError`` when the sync, a `stat` or the close fails; the journal is
  ///   closed all the same.
  /// - Complexity: O(*p*), where *p* is the size of the entries not yet synced.
  public func suspend() throws(PersistenceError) -> ResumePoint {
    let point: ResumePoint
    do throws(PersistenceError) {
      try sync()
      point = try Self.point(
        directory: directory, name: name, generation: generation, lastSequence: lastSequence,
        fileSystem: fileSystem)
    } catch {
      try? close()
      throw error
    }
    try close()
    return point
  }

  /// Takes the journal's lock again after ``suspend()`` and opens it for appending, without
  /// reading it, when nothing changed it since; nil (and the lock released) when anything did:
  /// another process appended, cut a torn tail, compacted or repaired it. Then open it again
  /// with ``open(directory:name:format:durability:lockTimeout:fileSystem:)``, which reads what
  /// the other process wrote.
  ///
  /// The resumed journal's ``recovered`` holds no entries: its ``lastSequence`` is the
  /// point's.
  ///
  /// - Parameters:
  ///   - point: What ``suspend()`` returned.
  ///   - directory: The folder of the journal's files.
  ///   - name: The journal's name.
  ///   - format: The snapshot's format.
  ///   - durability: When appends are fsynced.
  ///   - lockTimeout: How long to wait for another process that has the journal open.
  ///   - fileSystem: The file operations; the real ones by default.
  /// - Returns: The journal, open at the point, or nil when it changed.
  /// - Throws: ``PersistenceError/Code/busy`` when another process keeps it open, or an I/O
  ///   failure.
  /// - Complexity: O(1): a lock, two `stat` calls and an open.
  public static func resume(
    at point: ResumePoint, directory: String, name: String, format: DocumentFormat<Snapshot>,
    durability: JournalDurability = .everyEntry, lockTimeout: Duration = .seconds(10),
    fileSystem: any FileSystem = POSIXFileSystem()
  ) throws(PersistenceError) -> JSONLinesJournal? {
    let lock = FileLock(
      path: PathName.join(directory, name + ".lock"), timeout: lockTimeout, fileSystem: fileSystem)
    let lockFile = try lock.acquire(reentrant: false)
    do throws(PersistenceError) {
      let now = try Self.point(
        directory: directory, name: name, generation: point.generation,
        lastSequence: point.lastSequence, fileSystem: fileSystem)
      guard now == point else {
        lock.release(lockFile, reentrant: false)
        return nil
      }
      let file = try fileSystem.open(journalPath(directory, name, point.generation), .append)
      return JSONLinesJournal(
        directory: directory, name: name, format: format, durability: durability,
        recovered: JournalContents(
          snapshot: nil, snapshotSequence: point.lastSequence, entries: []),
        generation: point.generation, length: Int(point.journal.size), file: file, lock: lock,
        lockFile: lockFile, fileSystem: fileSystem)
    } catch  where error.code == .notFound {
      lock.release(lockFile, reentrant: false)
      return nil
    } catch {
      lock.release(lockFile, reentrant: false)
      throw error
    }
  }

  /// The point of generation `generation` as the files are now (two `stat` calls): equal to
  /// a suspended journal's point while no process changed its files.
  package static func point(
    directory: String, name: String, generation: Int, lastSequence: Int,
    fileSystem: any FileSystem
  ) throws(PersistenceError) -> ResumePoint {
    let journal = try fileSystem.status(
      journalPath(directory, name, generation), followingLinks: false)
    let snapshot = try fileSystem.statusIfPresent(
      snapshotPath(directory, name), followingLinks: false)
    return ResumePoint(
      generation: generation, lastSequence: lastSequence, journal: FileIdentity(journal),
      snapshot: snapshot.map(FileIdentity.init))
  }
}
