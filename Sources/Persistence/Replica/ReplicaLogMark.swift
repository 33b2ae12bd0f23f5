import Foundation

/// Where a reader stopped in a device's log: the generation, the byte length read, the
/// sequence number of the last line read, and a CRC-32 of that line's last bytes, so a
/// later read can tell that the file still starts with what was read and go on from there.
public struct ReplicaLogMark: Sendable, Hashable, CustomStringConvertible {
  /// The generation of the log file (`ops.<g>.jsonl`).
  public var generation: Int
  /// The bytes read, up to and with the last whole line's newline.
  public var length: Int
  /// The journal sequence number of the last line read (0: the header only).
  public var lastSequence: Int
  /// A CRC-32 of the last (up to) 64 bytes before `length`.
  public var boundary: UInt32

  /// A mark.
  ///
  /// - Parameters:
  ///   - generation: The generation of the log file.
  ///   - length: The bytes read.
  ///   - lastSequence: The sequence number of the last line read.
  ///   - boundary: A CRC-32 of the last (up to) 64 bytes read.
  public init(generation: Int, length: Int, lastSequence: Int, boundary: UInt32) {
    self.generation = generation
    self.length = length
    self.lastSequence = lastSequence
    self.boundary = boundary
  }

  /// `generation:length:lastSequence:boundary`, the form a checkpoint keeps.
  public var description: String { "\(generation):\(length):\(lastSequence):\(boundary)" }

  /// Reads the form ``description`` writes.
  ///
  /// - Parameter text: The mark's text.
  public init?(_ text: Substring) {
    let parts = text.split(separator: ":")
    guard parts.count == 4, let generation = Int(parts[0]), let length = Int(parts[1]),
      let sequence = Int(parts[2]), let boundary = UInt32(parts[3])
    else { return nil }
    self.init(generation: generation, length: length, lastSequence: sequence, boundary: boundary)
  }

  static func boundary(_ data: Data, _ length: Int) -> UInt32 {
    data[(data.startIndex + max(0, length - 64))..<(data.startIndex + length)].withUnsafeBytes {
      CRC32.checksum($0)
    }
  }

  /// Whether `data` (a whole log file) starts with what this mark read.
  func matches(_ data: Data) -> Bool {
    guard length > 0, data.count >= length, data[data.startIndex + length - 1] == 0x0A else {
      return false
    }
    return Self.boundary(data, length) == boundary
  }
}

extension ReplicaFolders {
  /// Reads one device's log from a mark on: only the lines past it, when the mark is of the
  /// log's current generation and the file still starts with what the mark read.
  ///
  /// - Parameters:
  ///   - replica: The device's replica id.
  ///   - format: The format of the log's snapshot.
  ///   - mark: Where an earlier read stopped, or `nil` to read from the start.
  /// - Returns: The read (its entries: the lines past the mark, or every line when the mark
  ///   no longer matches), whether it went on from the mark, and the mark where it stopped.
  /// - Complexity: O(*n*) to read the file, plus the decoding of the lines past the mark.
  public func readLog<Entry: Codable, Snapshot: Codable>(
    of replica: String, format: DocumentFormat<Snapshot>, after mark: ReplicaLogMark?
  ) -> (read: ReplicaLogRead<Entry, Snapshot>, continued: Bool, end: ReplicaLogMark?) {
    let directory = folder(of: replica)
    let generation = currentGeneration(of: replica)
    // A mark of an older generation does not go on: that file may still lie beside the new
    // one (a sync engine delivered the new generation before removing the old).
    if let mark, mark.generation == generation {
      let path = JSONLinesJournal<Entry, Snapshot>.journalPath(
        directory, Self.logName, mark.generation)
      if let data = try? fileSystem.readAll(path), mark.matches(data),
        let tail = Self.scanTail(data, path: path, mark: mark, format: format, as: Entry.self)
      {
        var problem: String?
        if let torn = tail.scan.tornTail {
          problem =
            "\(replica)'s log: a line is not whole yet (\(torn.reason)); "
            + "it is read once the rest arrives"
        } else if let damage = tail.scan.damage {
          problem = "\(replica)'s log is read up to the damage: \(damage.description)"
        }
        let contents = JournalContents<Entry, Snapshot>(
          snapshot: nil, snapshotSequence: mark.lastSequence, entries: tail.scan.entries)
        return (
          ReplicaLogRead(replica: replica, contents: contents, problem: problem), true, tail.end
        )
      }
    }
    if generation > 0 {
      let whole: (read: ReplicaLogRead<Entry, Snapshot>, end: ReplicaLogMark?) = readGeneration(
        of: replica, generation: generation, format: format)
      return (whole.read, false, whole.end)
    }
    let read: ReplicaLogRead<Entry, Snapshot> = readLog(of: replica, format: format)
    return (read, false, currentMark(of: replica, generation: 0, read: read))
  }

  /// The mark at the end of what a whole read of a log took in.
  func currentMark<Entry: Codable, Snapshot: Codable>(
    of replica: String, generation: Int, read: ReplicaLogRead<Entry, Snapshot>
  ) -> ReplicaLogMark? {
    guard let contents = read.contents else { return nil }
    let path = JSONLinesJournal<Entry, Snapshot>.journalPath(
      folder(of: replica), Self.logName, generation)
    guard let data = try? fileSystem.readAll(path) else { return nil }
    // The whole lines: up to the last newline before a torn tail.
    var length = data.count
    if read.contents?.tornTail != nil || read.contents?.damage != nil {
      return nil
    }
    while length > 0 && data[data.startIndex + length - 1] != 0x0A { length -= 1 }
    guard length > 0 else { return nil }
    return ReplicaLogMark(
      generation: generation, length: length, lastSequence: contents.lastSequence,
      boundary: ReplicaLogMark.boundary(data, length))
  }

  /// The mark at the end of this device's own log as it is on disk now.
  ///
  /// - Parameters:
  ///   - replica: The device's replica id.
  ///   - generation: The log's generation.
  ///   - lastSequence: The sequence number of its last line.
  /// - Returns: The mark, or `nil` when the file cannot be read or does not end a line.
  /// - Complexity: O(*n*), the file's size.
  public func ownMark(replica: String, generation: Int, lastSequence: Int) -> ReplicaLogMark? {
    let path = PathName.join(folder(of: replica), "\(Self.logName).\(generation).jsonl")
    guard let data = try? fileSystem.readAll(path), let last = data.last, last == 0x0A else {
      return nil
    }
    return ReplicaLogMark(
      generation: generation, length: data.count, lastSequence: lastSequence,
      boundary: ReplicaLogMark.boundary(data, data.count))
  }

  /// Scans the lines of `data` past `mark`, as lines after a header at the mark.
  static func scanTail<Entry: Codable, Snapshot: Codable>(
    _ data: Data, path: String, mark: ReplicaLogMark, format: DocumentFormat<Snapshot>,
    as: Entry.Type
  ) -> (scan: JournalScan<Entry>, end: ReplicaLogMark)? {
    let header = JournalHeader(
      baseSequence: mark.lastSequence, format: format.name, generation: mark.generation,
      journal: 1, version: format.version)
    guard let headerLine = try? header.line() else { return nil }
    var bytes = headerLine
    bytes.append(data[(data.startIndex + mark.length)...])
    let scan = JournalScan<Entry>.scan(bytes, path: path, decoder: CanonicalJSON.decoder())
    let length = mark.length + max(0, scan.validLength - headerLine.count)
    let end = ReplicaLogMark(
      generation: mark.generation, length: length,
      lastSequence: scan.entries.last?.sequence ?? mark.lastSequence,
      boundary: ReplicaLogMark.boundary(data, length))
    return (scan, end)
  }
}

extension ReplicaFolders {
  /// Opens this device's own log for appending from a mark: only the lines past it are read
  /// (and a torn last line cut, as ``openOwnLog(replica:format:durability:)`` does); when the
  /// mark is of an older generation or the file no longer starts with what the mark read,
  /// the whole log is read instead.
  ///
  /// - Parameters:
  ///   - replica: This device's replica id.
  ///   - format: The format of the log's snapshot.
  ///   - mark: Where an earlier read stopped, or `nil`.
  /// - Returns: The open journal (its `recovered` entries: the lines past the mark, or all of
  ///   them) and whether it went on from the mark.
  /// - Throws: The errors of ``openOwnLog(replica:format:durability:)``.
  /// - Complexity: O(*n*) to read the file, plus the decoding of the lines read.
  public func openOwnLog<Entry: Codable, Snapshot: Codable>(
    replica: String, format: DocumentFormat<Snapshot>, after mark: ReplicaLogMark?
  ) throws(PersistenceError) -> (log: JSONLinesJournal<Entry, Snapshot>, continued: Bool) {
    guard let mark else { return (try openOwnLog(replica: replica, format: format), false) }
    let directory = folder(of: replica)
    let name = Self.logName
    let lock = logLock(directory)
    let lockFile = try lock.acquire(reentrant: false)
    let path = JSONLinesJournal<Entry, Snapshot>.journalPath(directory, name, mark.generation)
    let snapshot = try? fileSystem.statusIfPresent(
      JSONLinesJournal<Entry, Snapshot>.snapshotPath(directory, name), followingLinks: false)
    guard (snapshot ?? nil) == nil || mark.generation > 0,
      mark.generation == currentGeneration(of: replica), let data = try? fileSystem.readAll(path),
      mark.matches(data),
      let tail = Self.scanTail(data, path: path, mark: mark, format: format, as: Entry.self),
      tail.scan.damage == nil
    else {
      lock.release(lockFile, reentrant: false)
      return (try openOwnLog(replica: replica, format: format), false)
    }
    do throws(PersistenceError) {
      if tail.scan.tornTail != nil {
        try fileSystem.truncateDurably(path, to: tail.end.length)
      }
      let file = try fileSystem.open(path, .append)
      let journal = JSONLinesJournal<Entry, Snapshot>(
        directory: directory, name: name, format: format, durability: .everyEntry,
        recovered: JournalContents(
          snapshot: nil, snapshotSequence: mark.lastSequence, entries: tail.scan.entries,
          tornTail: tail.scan.tornTail),
        generation: mark.generation, length: tail.end.length, file: file, lock: lock,
        lockFile: lockFile, fileSystem: fileSystem)
      return (journal, true)
    } catch {
      lock.release(lockFile, reentrant: false)
      throw error
    }
  }
}

extension ReplicaFolders {
  /// The name of a device's checkpoint of the merged state, in its own folder.
  public static let checkpointName = "merged.checkpoint"

  /// Reads a device's checkpoint of the merged state.
  ///
  /// - Parameter replica: The device's replica id.
  /// - Returns: The checkpoint's text, or `nil` when there is none or it cannot be read.
  /// - Complexity: O(*n*), the file's size.
  public func readCheckpoint(of replica: String) -> String? {
    let path = PathName.join(folder(of: replica), Self.checkpointName)
    guard let data = try? fileSystem.readAll(path) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// Replaces this device's checkpoint of the merged state, atomically (a cache: a reader
  /// that finds it damaged rebuilds it from the logs).
  ///
  /// - Parameters:
  ///   - text: The checkpoint's text.
  ///   - replica: This device's replica id.
  /// - Throws: ``PersistenceError`` with code ``PersistenceError/Code/ioFailure``.
  /// - Complexity: O(*n*), the text's size.
  public func writeCheckpoint(_ text: String, of replica: String) throws(PersistenceError) {
    let path = PathName.join(folder(of: replica), Self.checkpointName)
    var renamed = false
    try AtomicFile.write(
      Data(text.utf8), to: path, backup: nil, fileSystem: fileSystem, renamed: &renamed)
  }
}
