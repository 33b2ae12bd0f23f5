import Foundation

// A device's log is rewritten into a new generation when it is compacted (decision 0013):
// `ops.<g+1>.jsonl` is written whole to a temporary file, fsynced and renamed into place, and
// only then is `ops.<g>.jsonl` removed. The generation a reader takes is the highest one
// present, so a crash after the rename (both files present) reads the new one, and a crash
// before it (only a temporary file beside the old one) reads the old one.

extension ReplicaFolders {
  /// The generation of a device's log: the highest `ops.<g>.jsonl` in its folder (0 when
  /// there is none, or the folder cannot be listed).
  ///
  /// - Parameter replica: The device's replica id.
  /// - Returns: The generation a reader takes.
  /// - Complexity: O(*f*), *f* files in the device's folder.
  public func currentGeneration(of replica: String) -> Int {
    let prefix = Self.logName + "."
    let names = (try? fileSystem.listDirectory(folder(of: replica))) ?? []
    var highest = 0
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".jsonl") {
      let middle = name.dropFirst(prefix.count).dropLast(".jsonl".count)
      if let generation = Int(middle), generation > highest { highest = generation }
    }
    return highest
  }

  /// The generations of a device's log older than `generation` still present.
  func olderGenerations(of replica: String, than generation: Int) -> [Int] {
    let prefix = Self.logName + "."
    let names = (try? fileSystem.listDirectory(folder(of: replica))) ?? []
    return names.compactMap { name -> Int? in
      guard name.hasPrefix(prefix), name.hasSuffix(".jsonl"),
        let older = Int(name.dropFirst(prefix.count).dropLast(".jsonl".count)), older < generation
      else { return nil }
      return older
    }
  }

  /// The one line a read of a device's log says when it stops before the file's end.
  static func problem(_ replica: String, damage: PersistenceError?, torn: TornTail?) -> String? {
    if let damage { return "\(replica)'s log is read up to the damage: \(damage.description)" }
    guard let torn else { return nil }
    return "\(replica)'s log: line \(torn.line) is not whole yet (\(torn.reason)); "
      + "it is read once the rest arrives"
  }

  /// Reads a device's log of a generation past 0 (one a compaction wrote), without writing.
  ///
  /// - Parameters:
  ///   - replica: The device's replica id.
  ///   - generation: The generation to read.
  ///   - format: The format named in the log's header.
  /// - Returns: The read and the mark at the end of its whole lines (`nil` when the file
  ///   cannot be read at all).
  /// - Complexity: O(*n*), the file's size.
  func readGeneration<Entry: Codable, Snapshot: Codable>(
    of replica: String, generation: Int, format: DocumentFormat<Snapshot>
  ) -> (read: ReplicaLogRead<Entry, Snapshot>, end: ReplicaLogMark?) {
    let path = JSONLinesJournal<Entry, Snapshot>.journalPath(
      folder(of: replica), Self.logName, generation)
    let data: Data
    do {
      data = try fileSystem.readAll(path)
    } catch {
      return (ReplicaLogRead(replica: replica, contents: nil, problem: error.description), nil)
    }
    let scan = JournalScan<Entry>.scan(data, path: path, decoder: CanonicalJSON.decoder())
    if let header = scan.header {
      var problem: String?
      if header.format != format.name {
        problem = "\(path) is a journal of \"\(header.format.prefix(60))\", not \"\(format.name)\"."
      } else if header.version > format.version {
        problem =
          "\(path) was written by a newer version (\(format.name) version \(header.version), "
          + "this program reads up to \(format.version)); the file was left untouched."
      }
      if let problem {
        return (ReplicaLogRead(replica: replica, contents: nil, problem: problem), nil)
      }
    }
    let base = scan.header?.baseSequence ?? 0
    let contents = JournalContents<Entry, Snapshot>(
      snapshot: nil, snapshotSequence: base, entries: scan.entries, tornTail: scan.tornTail,
      damage: scan.damage)
    let problem = Self.problem(replica, damage: scan.damage, torn: scan.tornTail)
    var end: ReplicaLogMark?
    if scan.header != nil, scan.damage == nil, scan.tornTail == nil, scan.validLength > 0 {
      end = ReplicaLogMark(
        generation: generation, length: scan.validLength, lastSequence: contents.lastSequence,
        boundary: ReplicaLogMark.boundary(data, scan.validLength))
    }
    return (ReplicaLogRead(replica: replica, contents: contents, problem: problem), end)
  }

  /// Opens this device's log of a generation past 0 for appending: every line read, a torn
  /// last line cut; damage before the last line is an error (the file is never replaced by
  /// an empty log).
  ///
  /// - Parameters:
  ///   - replica: This device's replica id.
  ///   - generation: The log's generation.
  ///   - format: The format named in the log's header.
  /// - Returns: The open journal.
  /// - Throws: ``PersistenceError`` when the lock cannot be taken, the log is damaged or in
  ///   another format, or the file cannot be opened.
  /// - Complexity: O(*n*), the file's size.
  func openGeneration<Entry: Codable, Snapshot: Codable>(
    replica: String, generation: Int, format: DocumentFormat<Snapshot>
  ) throws(PersistenceError) -> JSONLinesJournal<Entry, Snapshot> {
    let directory = folder(of: replica)
    let name = Self.logName
    let lock = logLock(directory)
    let lockFile = try lock.acquire(reentrant: false)
    do throws(PersistenceError) {
      let path = JSONLinesJournal<Entry, Snapshot>.journalPath(directory, name, generation)
      let data = try fileSystem.readAll(path)
      let scan = JournalScan<Entry>.scan(data, path: path, decoder: CanonicalJSON.decoder())
      if let damage = scan.damage { throw damage }
      guard let header = scan.header, header.format == format.name,
        header.version <= format.version
      else {
        throw PersistenceError(
          .journalMismatch, path: path, line: 1,
          description: "\(path) does not start with a header of \(format.name) that this "
            + "program reads; the file was left untouched.")
      }
      if scan.tornTail != nil { try fileSystem.truncateDurably(path, to: scan.validLength) }
      let file = try fileSystem.open(path, .append)
      return JSONLinesJournal<Entry, Snapshot>(
        directory: directory, name: name, format: format, durability: .everyEntry,
        recovered: JournalContents(
          snapshot: nil, snapshotSequence: header.baseSequence, entries: scan.entries,
          tornTail: scan.tornTail),
        generation: generation, length: scan.validLength, file: file, lock: lock,
        lockFile: lockFile, fileSystem: fileSystem)
    } catch {
      lock.release(lockFile, reentrant: false)
      throw error
    }
  }

  /// Writes generation `generation` of this device's log whole: a header, then one line per
  /// entry, to a temporary file that is fsynced and renamed into place (the rename is the
  /// commit point); then every older generation is removed. The caller holds the log's lock.
  ///
  /// - Parameters:
  ///   - entries: The entries of the new generation, in order.
  ///   - replica: This device's replica id.
  ///   - generation: The new generation (one past the current one).
  ///   - format: The format named in the header.
  /// - Throws: ``PersistenceError`` from encoding or from any file step; after a failure
  ///   before the rename the old generation is untouched.
  /// - Complexity: O(*n*), the size of the entries.
  public func writeGeneration<Entry: Codable, Snapshot: Codable>(
    _ entries: [Entry], replica: String, generation: Int, format: DocumentFormat<Snapshot>
  ) throws(PersistenceError) {
    let directory = folder(of: replica)
    let header = JournalHeader(
      baseSequence: 0, format: format.name, generation: generation, journal: 1,
      version: format.version)
    var bytes = [UInt8](try header.line())
    let encoder = LineEncoder()
    var encoded: [UInt8] = []
    for (index, entry) in entries.enumerated() {
      encoded.removeAll(keepingCapacity: true)
      do {
        try encoder.encode(entry, into: &encoded)
      } catch {
        throw PersistenceError(
          .encodingFailed, underlying: error,
          description: "cannot encode an entry of \(replica)'s log: \(error).")
      }
      encoded.withUnsafeBytes { JournalLine.append(sequence: index + 1, entry: $0, to: &bytes) }
    }
    let path = JSONLinesJournal<Entry, Snapshot>.journalPath(directory, Self.logName, generation)
    try fileSystem.writeAtomically(Data(bytes), to: path, temporaryPath: path + ".tmp")
    for older in olderGenerations(of: replica, than: generation) {
      try fileSystem.unlinkIfPresent(
        JSONLinesJournal<Entry, Snapshot>.journalPath(directory, Self.logName, older))
    }
  }
}

extension ReplicaFolders {
  /// The lock a device's log is opened under in `directory` (a second process waits for it
  /// up to ten seconds).
  func logLock(_ directory: String) -> FileLock {
    FileLock(
      path: PathName.join(directory, Self.logName + ".lock"), timeout: .seconds(10),
      fileSystem: fileSystem)
  }
}
