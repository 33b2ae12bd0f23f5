import Foundation

/// One `Codable` document in one file, saved atomically and durably, loaded with precise errors.
///
/// A save writes a temporary file in the same folder, fsyncs it, keeps the file it replaces as
/// ``backupPath`` (a hard link, so no copy), renames the temporary file over ``path`` and fsyncs
/// the folder: after a crash at any moment the file holds the old document or the new one,
/// whole. A load that finds damage moves the file aside to a quarantine name, never overwrites
/// it, and tells whether the backup can be restored.
///
/// ```swift
/// let store = DocumentStore(
///   path: folder + "/settings.json", format: DocumentFormat<Settings>(name: "offload.settings"))
/// let settings = try store.load() ?? Settings()
/// try store.update { settings in  // read-modify-write under the lock
///   settings = (settings ?? Settings()).withTheme(.dark)
/// }
/// ```
///
/// ``load()`` and ``save(_:)`` do not lock: hold ``lock`` (or use ``update(_:)``) around a
/// read-modify-write that other processes may do at the same time.
public struct DocumentStore<Document: Codable>: Sendable {
  /// The document's file.
  public let path: String
  /// The format of the file: its name, version and migrations.
  public let format: DocumentFormat<Document>
  /// The lock that ``update(_:)`` holds (`<path>.lock` unless another was given).
  public let lock: FileLock
  /// The file operations used.
  public let fileSystem: any FileSystem

  /// The previous good copy of the document, refreshed on every save.
  public var backupPath: String { path + ".backup" }

  /// Creates a store for the document at `path`; nothing is read or written until asked.
  ///
  /// - Parameters:
  ///   - path: The document's file. Its folder must exist.
  ///   - format: The file's format, version and migrations.
  ///   - lock: The lock for read-modify-write; `<path>.lock` with a 10 s timeout by default.
  ///     Pass the same lock to several stores to update them together.
  ///   - fileSystem: The file operations; the real ones by default.
  public init(
    path: String, format: DocumentFormat<Document>, lock: FileLock? = nil,
    fileSystem: any FileSystem = POSIXFileSystem()
  ) {
    self.path = path
    self.format = format
    self.fileSystem = fileSystem
    self.lock = lock ?? FileLock(path: path + ".lock", fileSystem: fileSystem)
  }

  /// Loads the document, migrating an older version in memory (the file is left as it is).
  ///
  /// - Returns: The document, or nil when the file does not exist.
  /// - Throws: ``PersistenceError`` with code ``PersistenceError/Code/damaged`` (the file was
  ///   moved to ``PersistenceError/quarantinedPath``; ``PersistenceError/backupPath`` is set when
  ///   ``restoreBackup()`` can bring back the previous save), ``PersistenceError/Code/newerVersion``,
  ///   ``PersistenceError/Code/wrongFormat``, ``PersistenceError/Code/missingMigration``,
  ///   ``PersistenceError/Code/migrationFailed`` or ``PersistenceError/Code/ioFailure``.
  /// - Complexity: O(*n*), where *n* is the file's size.
  public func load() throws(PersistenceError) -> Document? {
    try loadDecoded(holdingLock: false, quarantining: true)?.document
  }

  /// Loads the document without changing anything: a damaged file is reported, not moved aside.
  ///
  /// Use it where a command must only read, such as a store check.
  ///
  /// - Returns: The document, or nil when the file does not exist.
  /// - Throws: ``PersistenceError`` as ``load()`` does, without a quarantine path.
  /// - Complexity: O(*n*), where *n* is the file's size.
  public func read() throws(PersistenceError) -> Document? {
    try loadDecoded(holdingLock: false, quarantining: false)?.document
  }

  /// Saves the document atomically and durably, keeping the previous file as the backup.
  ///
  /// When this returns, the document is on stable storage. When it throws, the file holds the
  /// previous document or (if the failure came after the rename) the new one, never a mix.
  ///
  /// - Parameter document: The document to save.
  /// - Throws: ``PersistenceError`` with code ``PersistenceError/Code/encodingFailed`` or
  ///   ``PersistenceError/Code/ioFailure``.
  /// - Complexity: O(*n*), where *n* is the encoded document's size.
  public func save(_ document: Document) throws(PersistenceError) {
    let bytes = try DocumentCodec.encode(document, format: format, path: path)
    var renamed = false
    try AtomicFile.write(
      bytes, to: path, backup: backupPath, fileSystem: fileSystem, renamed: &renamed)
  }

  /// Loads, changes and saves the document while holding ``lock``, so concurrent updates from
  /// other processes are never lost.
  ///
  /// `body` receives the current document (nil when there is none) and may change it; the
  /// document is saved afterwards unless `body` leaves it nil or throws.
  ///
  /// - Parameter body: The change to make.
  /// - Returns: What `body` returns.
  /// - Throws: ``PersistenceError`` (``PersistenceError/Code/busy`` when another process held
  ///   the lock past its timeout, or any error of ``load()`` and ``save(_:)``), or what `body`
  ///   throws (then nothing is saved).
  /// - Complexity: O(*n*) plus the cost of `body`, where *n* is the document's size.
  public func update<Result>(_ body: (inout Document?) throws -> Result) throws -> Result {
    let held = try lock.acquire()
    defer { lock.release(held) }
    var document = try loadDecoded(holdingLock: true, quarantining: true)?.document
    let result = try body(&document)
    if let document { try save(document) }
    return result
  }

  /// Loads the backup: the document as it was before the last save.
  ///
  /// - Returns: The backup, or nil when there is none.
  /// - Throws: ``PersistenceError`` as ``load()`` does, except that a damaged backup is reported
  ///   and left in place.
  /// - Complexity: O(*n*), where *n* is the backup's size.
  public func loadBackup() throws(PersistenceError) -> Document? {
    let data: Data
    do throws(PersistenceError) {
      data = try fileSystem.readAll(backupPath)
    } catch  where error.code == .notFound {
      return nil
    }
    return try DocumentCodec.decode(data, format: format, path: backupPath).document
  }

  /// Makes the backup the current document again, under the lock, and returns it.
  ///
  /// Use it after ``load()`` reported damage with a ``PersistenceError/backupPath``. When a
  /// current file exists, it is kept as `<path>.replaced-<UTC time>` first, so restoring never
  /// loses a save; the backup stays as it is.
  ///
  /// - Returns: The restored document.
  /// - Throws: ``PersistenceError`` with code ``PersistenceError/Code/notFound`` when there is no
  ///   backup, or any error of ``loadBackup()`` and ``save(_:)``.
  /// - Complexity: O(*n*), where *n* is the backup's size.
  public func restoreBackup() throws(PersistenceError) -> Document {
    let held = try lock.acquire()
    defer { lock.release(held) }
    guard let document = try loadBackup() else {
      throw PersistenceError(
        .notFound, path: backupPath,
        description: "there is no backup of \(path) to restore (\(backupPath) does not exist).")
    }
    let bytes = try DocumentCodec.encode(document, format: format, path: path)
    // Keep the current file, if any, under an unused name: restoring never loses a save.
    do throws(PersistenceError) {
      _ = try AtomicFile.linkAside(path, label: "replaced", fileSystem: fileSystem)
    } catch  where error.code == .notFound {
    }
    var renamed = false
    try AtomicFile.write(bytes, to: path, backup: nil, fileSystem: fileSystem, renamed: &renamed)
    return document
  }

  // MARK: - Internals shared with the journal

  /// Loads the file with its envelope; quarantines a damaged file.
  func loadDecoded(holdingLock: Bool, quarantining: Bool) throws(PersistenceError)
    -> DecodedDocument<Document>?
  {
    let data: Data
    do throws(PersistenceError) {
      data = try fileSystem.readAll(path)
    } catch  where error.code == .notFound {
      return nil
    }
    do throws(PersistenceError) {
      return try DocumentCodec.decode(data, format: format, path: path)
    } catch  where error.code == .damaged && quarantining {
      throw quarantine(error, seen: data, holdingLock: holdingLock)
    }
  }

  /// Saves with a journal position in the envelope.
  func save(_ document: Document, journal: JournalPosition, renamed: inout Bool)
    throws(PersistenceError)
  {
    let bytes = try DocumentCodec.encode(document, format: format, journal: journal, path: path)
    try AtomicFile.write(
      bytes, to: path, backup: backupPath, fileSystem: fileSystem, renamed: &renamed)
  }

  /// Moves a damaged file aside (when it is still the same file) and completes the error.
  private func quarantine(_ damage: PersistenceError, seen: Data, holdingLock: Bool)
    -> PersistenceError
  {
    var damage = damage
    do throws(PersistenceError) {
      let held = holdingLock ? nil : try lock.acquire()
      defer { if let held { lock.release(held) } }
      // Another process may have saved a good file since: only move what was seen.
      guard try fileSystem.readAll(path) == seen else { return damage }
      damage.quarantinedPath = try AtomicFile.moveAside(path, fileSystem: fileSystem)
    } catch {
      damage.description += " It could not be moved aside (\(error.description))."
      return damage
    }
    if (try? loadBackup()) != nil { damage.backupPath = backupPath }
    damage.description.removeLast()  // the final period
    damage.description +=
      "; it was moved to \(damage.quarantinedPath ?? "")"
      + (damage.backupPath.map { " and the previous save can be restored from \($0)." }
        ?? " and there is no backup to restore.")
    return damage
  }
}
