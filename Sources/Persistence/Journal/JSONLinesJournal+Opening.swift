import Foundation

// Opening a journal: recovery, the read-only look, and the file names and header it reads.

extension JSONLinesJournal {
  // MARK: - Opening

  /// Opens the journal for appending (creating it when missing), after recovering its contents.
  ///
  /// Takes the journal's lock, loads the snapshot, reads every entry after it, cuts off a torn
  /// last line (reported in ``JournalContents/tornTail`` of ``recovered``) and removes files left
  /// by an interrupted compaction.
  ///
  /// - Parameters:
  ///   - directory: The folder of the journal's files; created when missing.
  ///   - name: The journal's name, the prefix of its file names.
  ///   - format: The snapshot's format (name, version, migrations).
  ///   - durability: When appends are fsynced; every entry by default.
  ///   - lockTimeout: How long to wait for another process that has the journal open.
  ///   - fileSystem: The file operations; the real ones by default.
  /// - Returns: The open journal; its ``recovered`` contents are what was on disk.
  /// - Throws: ``PersistenceError``: ``PersistenceError/Code/busy`` when another process keeps
  ///   it open, ``PersistenceError/Code/damaged`` for damage before the last line (read the valid
  ///   prefix with ``read(directory:name:format:fileSystem:)``),
  ///   ``PersistenceError/Code/journalMismatch``, the snapshot's load errors, or
  ///   ``PersistenceError/Code/ioFailure``.
  /// - Complexity: O(*n*), where *n* is the size of the snapshot and the journal.
  public static func open(
    directory: String, name: String, format: DocumentFormat<Snapshot>,
    durability: JournalDurability = .everyEntry, lockTimeout: Duration = .seconds(10),
    fileSystem: any FileSystem = POSIXFileSystem()
  ) throws(PersistenceError) -> JSONLinesJournal {
    try fileSystem.makeDirectory(directory)
    let lock = FileLock(
      path: PathName.join(directory, name + ".lock"), timeout: lockTimeout, fileSystem: fileSystem)
    let lockFile = try lock.acquire(reentrant: false)
    do throws(PersistenceError) {
      var (contents, position, scan) = try readContents(
        directory: directory, name: name, format: format, fileSystem: fileSystem)
      if let damage = contents.damage { throw damage }
      let path = journalPath(directory, name, position.generation)
      // Files of a compaction that did not commit (g + 1) or did not finish (g - 1).
      try fileSystem.unlinkIfPresent(journalPath(directory, name, position.generation + 1))
      if position.generation > 0 {
        try fileSystem.unlinkIfPresent(journalPath(directory, name, position.generation - 1))
      }
      var length = scan?.validLength ?? 0
      if scan?.header == nil {
        // A new journal, or one whose header line was torn: write the header afresh.
        length = try writeHeader(
          path: path, position: position, format: format, fileSystem: fileSystem)
      } else if contents.tornTail != nil {
        try fileSystem.truncateDurably(path, to: length)
      }
      let file = try fileSystem.open(path, .append)
      contents.damage = nil
      return JSONLinesJournal(
        directory: directory, name: name, format: format, durability: durability,
        recovered: contents, generation: position.generation, length: length, file: file,
        lock: lock, lockFile: lockFile, fileSystem: fileSystem)
    } catch {
      lock.release(lockFile, reentrant: false)
      throw error
    }
  }

  /// Reads a journal without changing anything: the snapshot, the valid entries, a torn tail
  /// that opening would cut, and damage before the tail (reported, not thrown).
  ///
  /// - Parameters:
  ///   - directory: The folder of the journal's files.
  ///   - name: The journal's name.
  ///   - format: The snapshot's format.
  ///   - fileSystem: The file operations; the real ones by default.
  /// - Returns: What the journal holds; empty when it does not exist.
  /// - Throws: ``PersistenceError`` when the snapshot cannot be loaded, the journal file cannot
  ///   be read, or the two do not belong together.
  /// - Complexity: O(*n*), where *n* is the size of the snapshot and the journal.
  public static func read(
    directory: String, name: String, format: DocumentFormat<Snapshot>,
    fileSystem: any FileSystem = POSIXFileSystem()
  ) throws(PersistenceError) -> JournalContents<Entry, Snapshot> {
    try readContents(directory: directory, name: name, format: format, fileSystem: fileSystem).0
  }

  /// Keeps the valid prefix of a journal damaged before its last line: the damaged file is kept
  /// under a quarantine name and the journal is replaced, atomically, by the lines before the
  /// damage. Afterwards ``open(directory:name:format:durability:lockTimeout:fileSystem:)``
  /// succeeds with the entries of the prefix.
  ///
  /// - Parameters:
  ///   - directory: The folder of the journal's files.
  ///   - name: The journal's name.
  ///   - format: The snapshot's format.
  ///   - lockTimeout: How long to wait for another process that has the journal open.
  ///   - fileSystem: The file operations; the real ones by default.
  /// - Returns: Where the damaged journal was kept, or nil when it was not damaged.
  /// - Throws: ``PersistenceError`` as ``read(directory:name:format:fileSystem:)`` does, or
  ///   ``PersistenceError/Code/busy`` and ``PersistenceError/Code/ioFailure``.
  /// - Complexity: O(*n*), where *n* is the size of the snapshot and the journal.
  public static func keepValidPrefix(
    directory: String, name: String, format: DocumentFormat<Snapshot>,
    lockTimeout: Duration = .seconds(10), fileSystem: any FileSystem = POSIXFileSystem()
  ) throws(PersistenceError) -> String? {
    let lock = FileLock(
      path: PathName.join(directory, name + ".lock"), timeout: lockTimeout, fileSystem: fileSystem)
    let lockFile = try lock.acquire(reentrant: false)
    defer { lock.release(lockFile, reentrant: false) }
    let (contents, position, scan) = try readContents(
      directory: directory, name: name, format: format, fileSystem: fileSystem)
    guard contents.damage != nil, let scan else { return nil }
    let path = journalPath(directory, name, position.generation)
    let prefix = try fileSystem.readAll(path).prefix(scan.validLength)
    let aside = try AtomicFile.linkAside(path, fileSystem: fileSystem)
    var renamed = false
    try AtomicFile.write(
      Data(prefix), to: path, backup: nil, fileSystem: fileSystem, renamed: &renamed)
    return aside
  }

  static func snapshotStore(
    _ directory: String, _ name: String, _ format: DocumentFormat<Snapshot>,
    _ fileSystem: any FileSystem
  ) -> DocumentStore<Snapshot> {
    DocumentStore(
      path: snapshotPath(directory, name), format: format,
      lock: FileLock(path: PathName.join(directory, name + ".lock"), fileSystem: fileSystem),
      fileSystem: fileSystem)
  }

  static func snapshotPath(_ directory: String, _ name: String) -> String {
    PathName.join(directory, name + ".snapshot.json")
  }

  static func journalPath(_ directory: String, _ name: String, _ generation: Int) -> String {
    PathName.join(directory, "\(name).\(generation).jsonl")
  }

  /// Writes a journal file holding only its header, fsyncs it and its folder; returns its length.
  static func writeHeader(
    path: String, position: JournalPosition, format: DocumentFormat<Snapshot>,
    fileSystem: any FileSystem
  ) throws(PersistenceError) -> Int {
    let header = JournalHeader(
      baseSequence: position.lastSequence, format: format.name, generation: position.generation,
      journal: 1, version: format.version)
    let bytes = try header.line()
    let file = try fileSystem.open(path, .create)
    do throws(PersistenceError) {
      try fileSystem.writeAll(file, bytes)
      try fileSystem.sync(file)
    } catch {
      fileSystem.closeQuietly(file)
      throw error
    }
    try fileSystem.close(file)
    try fileSystem.syncDirectory(PathName.directory(of: path))
    return bytes.count
  }

  /// Loads the snapshot and scans the journal of its generation.
  static func readContents(
    directory: String, name: String, format: DocumentFormat<Snapshot>, fileSystem: any FileSystem
  ) throws(PersistenceError) -> (
    JournalContents<Entry, Snapshot>, JournalPosition, JournalScan<Entry>?
  ) {
    let snapshotStore = snapshotStore(directory, name, format, fileSystem)
    // A damaged snapshot stays in place: moving it aside would orphan its journal.
    let snapshot = try snapshotStore.loadDecoded(holdingLock: true, quarantining: false)
    let position = snapshot?.journal ?? JournalPosition(generation: 0, lastSequence: 0)
    if snapshot != nil && snapshot?.journal == nil {
      throw PersistenceError(
        .journalMismatch, path: snapshotStore.path,
        description:
          "\(snapshotStore.path) is a document but not a journal snapshot (it has no \"journal\" member)."
      )
    }
    var contents = JournalContents<Entry, Snapshot>(
      snapshot: snapshot?.document, snapshotSequence: position.lastSequence, entries: [])
    let path = journalPath(directory, name, position.generation)
    let data: Data
    do throws(PersistenceError) {
      data = try fileSystem.readAll(path)
    } catch  where error.code == .notFound {
      guard position.generation == 0 else {
        throw PersistenceError(
          .journalMismatch, path: path,
          description:
            "\(snapshotStore.path) is continued by \(path), which is missing; the snapshot alone holds entries up to \(position.lastSequence)."
        )
      }
      return (contents, position, nil)
    }
    let scan = JournalScan<Entry>.scan(data, path: path, decoder: CanonicalJSON.decoder())
    if let header = scan.header {
      guard header.format == format.name else {
        throw PersistenceError(
          .wrongFormat, path: path, line: 1,
          description:
            "\(path) is a journal of \"\(header.format.prefix(60))\", not \"\(format.name)\".")
      }
      guard header.version <= format.version else {
        throw PersistenceError(
          .newerVersion, path: path, line: 1,
          description:
            "\(path) was written by a newer version (\(format.name) version \(header.version), this program reads up to \(format.version)); the file was left untouched."
        )
      }
      guard header.generation == position.generation,
        header.baseSequence == position.lastSequence
      else {
        throw PersistenceError(
          .journalMismatch, path: path, line: 1,
          description:
            "\(path) starts after entry \(header.baseSequence) in generation \(header.generation), but its snapshot ends at entry \(position.lastSequence) in generation \(position.generation)."
        )
      }
    }
    contents.entries = scan.entries
    contents.tornTail = scan.tornTail
    contents.damage = scan.damage
    return (contents, position, scan)
  }
}
