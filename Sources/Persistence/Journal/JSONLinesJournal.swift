import Foundation

/// An append-only journal of `Codable` entries, one JSON object per line, with a sequence
/// number and a CRC-32 per line, torn-tail recovery, and compaction into a snapshot.
///
/// The journal named `name` in `directory` is three files and a lock:
///
/// - `<name>.snapshot.json`: the snapshot document (an envelope like ``DocumentStore``'s) with
///   the journal generation *g* that continues it and the last sequence number it includes;
/// - `<name>.<g>.jsonl`: the journal of generation *g*: a header line, then entry lines;
/// - `<name>.lock`: held for as long as the journal is open, so one process appends at a time.
///
/// ```swift
/// let journal = try JSONLinesJournal<Decision, Deck>.open(
///   directory: folder, name: "session", format: DocumentFormat(name: "offload.deck"))
/// var deck = journal.recovered.snapshot ?? Deck()
/// for record in journal.recovered.entries { deck.apply(record.entry) }
/// try journal.append(.trash(photo))      // returns once the entry is fsynced
/// try journal.compact(deck)              // snapshot + new empty journal, atomically
/// ```
///
/// A journal is not thread-safe: use it from one task or thread at a time.
public final class JSONLinesJournal<Entry: Codable, Snapshot: Codable> {
  /// The folder holding the journal's files.
  public let directory: String
  /// The journal's name (the prefix of its file names).
  public let name: String
  /// The snapshot's format; the journal header records its name and version.
  public let format: DocumentFormat<Snapshot>
  /// When appends are fsynced.
  public let durability: JournalDurability
  /// What was on disk when the journal was opened.
  public let recovered: JournalContents<Entry, Snapshot>
  /// The sequence number of the last entry appended (or recovered).
  public private(set) var lastSequence: Int
  /// The generation of the current journal file (one more after each compaction).
  public private(set) var generation: Int

  let fileSystem: any FileSystem
  private let lock: FileLock
  private var lockFile: OpenFile?
  private var file: OpenFile?
  private var length: Int
  /// The length known to be on stable storage.
  private var syncedLength: Int
  private var pending = 0
  private var firstPending: ContinuousClock.Instant?
  private var unusable: PersistenceError?
  private let encoder = LineEncoder()
  private var encoded: [UInt8] = []
  /// The line being appended, or (with ``JournalDurability/never``) the lines not yet written.
  private var line: [UInt8] = []
  /// How many appended entries are in ``line`` and not yet written.
  private var buffered = 0

  /// The path of the snapshot document.
  public var snapshotPath: String { Self.snapshotPath(directory, name) }
  /// The path of the current journal file.
  public var journalPath: String { Self.journalPath(directory, name, generation) }

  init(
    directory: String, name: String, format: DocumentFormat<Snapshot>,
    durability: JournalDurability, recovered: JournalContents<Entry, Snapshot>, generation: Int,
    length: Int, file: OpenFile, lock: FileLock, lockFile: OpenFile, fileSystem: any FileSystem
  ) {
    self.directory = directory
    self.name = name
    self.format = format
    self.durability = durability
    self.recovered = recovered
    self.lastSequence = recovered.lastSequence
    self.generation = generation
    self.length = length
    self.syncedLength = length
    self.file = file
    self.lock = lock
    self.lockFile = lockFile
    self.fileSystem = fileSystem
    line.reserveCapacity(durability == .never ? Self.bufferCapacity + 1024 : 256)
  }

  deinit {
    if let file {
      if unusable == nil { try? sync() }
      fileSystem.closeQuietly(file)
    }
    if let lockFile { lock.release(lockFile, reentrant: false) }
  }

  // MARK: - Appending

  /// Appends an entry and returns its sequence number once it is as durable as ``durability``
  /// asks (with ``JournalDurability/everyEntry``: on stable storage).
  ///
  /// With ``JournalDurability/never`` the entry may wait in a 64 KiB buffer until the buffer
  /// fills or ``sync()``, ``compact(_:)`` or ``close()`` writes it.
  ///
  /// When this throws, the entry is not acknowledged. After a failed write the journal cuts the
  /// partial line and stays usable (unless buffered entries were lost with it); after a failed fsync (whose effect on disk is unknown) it
  /// refuses further appends with ``PersistenceError/Code/journalUnusable``: reopen it.
  ///
  /// - Parameter entry: The entry to append.
  /// - Returns: The entry's sequence number.
  /// - Throws: ``PersistenceError`` with code ``PersistenceError/Code/encodingFailed``,
  ///   ``PersistenceError/Code/ioFailure`` or ``PersistenceError/Code/journalUnusable``.
  /// - Complexity: O(*m*), where *m* is the size of the encoded entry.
  @discardableResult
  public func append(_ entry: Entry) throws(PersistenceError) -> Int {
    let file = try usableFile()
    encoded.removeAll(keepingCapacity: true)
    do {
      try encoder.encode(entry, into: &encoded)
    } catch {
      throw PersistenceError(
        .encodingFailed, path: journalPath, underlying: error,
        description:
          "cannot encode an entry for \(journalPath): \(DocumentCodec.describe(error)).")
    }
    let sequence = lastSequence + 1
    if buffered == 0 { line.removeAll(keepingCapacity: true) }
    encoded.withUnsafeBytes { JournalLine.append(sequence: sequence, entry: $0, to: &line) }
    if durability == .never && line.count < Self.bufferCapacity {
      buffered += 1
      lastSequence = sequence
      pending += 1
      return sequence
    }
    try writeBuffer(file)
    lastSequence = sequence
    pending += 1
    if firstPending == nil { firstPending = .now }
    switch durability {
    case .everyEntry:
      try sync()
    case .batched(let entries, let interval):
      if let first = firstPending, pending >= entries || ContinuousClock.now - first >= interval {
        try sync()
      }
    case .never:
      break
    }
    return sequence
  }

  /// Flushes every appended entry to stable storage.
  ///
  /// - Throws: ``PersistenceError`` with code ``PersistenceError/Code/ioFailure`` (the journal is
  ///   then unusable) or ``PersistenceError/Code/journalUnusable``.
  /// - Complexity: O(*p*), where *p* is the size of the entries not yet synced.
  public func sync() throws(PersistenceError) {
    let file = try usableFile()
    try writeBuffer(file)
    guard pending > 0 else { return }
    do throws(PersistenceError) {
      try fileSystem.sync(file)
    } catch {
      markUnusable(after: error)
      // The unsynced lines were never acknowledged when this is the append's own fsync: cut
      // them, so a reader does not take a failed append for a committed one.
      if pending == 1 && durability == .everyEntry {
        cutLastLine(file)
      }
      throw error
    }
    syncedLength = length
    pending = 0
    firstPending = nil
  }

  /// Cuts the file back to its last synced length and syncs that (best effort).
  private func cutLastLine(_ file: OpenFile) {
    do throws(PersistenceError) {
      try fileSystem.truncate(file, to: syncedLength)
      try fileSystem.sync(file)
      length = syncedLength
      lastSequence -= 1
    } catch {}
  }

  /// Flushes pending entries, closes the journal and releases its lock.
  ///
  /// - Throws: ``PersistenceError`` when the final fsync or close fails.
  /// - Complexity: O(*p*), where *p* is the size of the entries not yet synced.
  public func close() throws(PersistenceError) {
    defer {
      if let lockFile { lock.release(lockFile, reentrant: false) }
      lockFile = nil
      if unusable == nil {
        unusable = PersistenceError(
          .journalUnusable, path: journalPath,
          description: "the journal \(journalPath) was closed; open it again to append.")
      }
    }
    guard let file else { return }
    if unusable == nil {
      do throws(PersistenceError) {
        try sync()
      } catch {
        detachFile()
        throw error
      }
    }
    self.file = nil
    try fileSystem.close(file)
  }

  // MARK: - Internals

  /// The most bytes ``JournalDurability/never`` keeps in memory before writing them.
  static var bufferCapacity: Int { 64 * 1024 }

  /// Writes the lines in ``line`` (one line, or the buffered ones), cutting a partial write.
  private func writeBuffer(_ file: OpenFile) throws(PersistenceError) {
    guard !line.isEmpty else { return }
    let earlier = buffered
    defer {
      line.removeAll(keepingCapacity: true)
      buffered = 0
    }
    do throws(PersistenceError) {
      try fileSystem.writeAll(file, line)
    } catch {
      // Cut whatever part reached the file, so the next append starts clean.
      do throws(PersistenceError) {
        try fileSystem.truncate(file, to: length)
      } catch let cut {
        markUnusable(after: cut)
      }
      // Buffered entries were already acknowledged: the journal cannot go on without them.
      if earlier > 0 { markUnusable(after: error) }
      throw error
    }
    length += line.count
  }

  func usableFile() throws(PersistenceError) -> OpenFile {
    if let unusable { throw unusable }
    guard let file else {
      throw PersistenceError(
        .journalUnusable, path: journalPath,
        description: "the journal \(journalPath) is not open; open it again to append.")
    }
    return file
  }

  func markUnusable(after error: PersistenceError) {
    unusable = PersistenceError(
      .journalUnusable, path: journalPath, underlying: error,
      description:
        "the journal \(journalPath) stopped accepting entries after a failure (\(error.description)); open it again to continue."
    )
  }

  /// Switches to the next generation's file after a compaction committed.
  func switchTo(generation next: Int, file newFile: OpenFile, length newLength: Int) {
    if let file { fileSystem.closeQuietly(file) }
    file = newFile
    generation = next
    length = newLength
    syncedLength = newLength
    // Lines still buffered belong to the old journal, and the snapshot holds their entries.
    line.removeAll(keepingCapacity: true)
    buffered = 0
    pending = 0
    firstPending = nil
  }

  func detachFile() {
    if let file { fileSystem.closeQuietly(file) }
    file = nil
  }
}
