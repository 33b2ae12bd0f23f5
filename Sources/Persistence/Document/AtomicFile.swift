import Foundation

/// The crash-safe file protocol under documents and snapshots.
enum AtomicFile {
  private static let counterLock = NSLock()
  nonisolated(unsafe) private static var counter = 0

  /// A name for a temporary file beside `path`, unique in this process and among processes.
  static func temporaryPath(for path: String) -> String {
    counterLock.lock()
    counter += 1
    let number = counter
    counterLock.unlock()
    return "\(path).tmp-\(ProcessInfo.processInfo.processIdentifier)-\(number)"
  }

  /// Replaces `path` with `bytes`: temporary file, write, fsync, keep the old file as `backup`
  /// (hard link), rename, fsync the folder. `renamed` tells whether the new file took the name.
  /// A `temporary` path given by the caller is created exclusively; with `syncFolder` false the
  /// caller fsyncs the folder later.
  static func write(
    _ bytes: Data, to path: String, backup: String?, fileSystem: any FileSystem,
    renamed: inout Bool, temporary chosen: String? = nil, syncFolder: Bool = true
  ) throws(PersistenceError) {
    let temporary = chosen ?? temporaryPath(for: path)
    let file = try fileSystem.open(
      temporary, chosen == nil ? .create : .createNew(permissions: 0o644))
    do throws(PersistenceError) {
      try fileSystem.writeAll(file, bytes)
      try fileSystem.sync(file)
    } catch {
      fileSystem.closeQuietly(file)
      removeQuietly(temporary, fileSystem: fileSystem)
      throw error
    }
    do throws(PersistenceError) {
      try fileSystem.close(file)
      if let backup {
        // Link the current file under a temporary name, then rename it over the backup: the
        // backup is replaced atomically too, and the current name never goes missing.
        let staging = temporaryPath(for: backup)
        do throws(PersistenceError) {
          try fileSystem.link(path, to: staging)
          do throws(PersistenceError) {
            try fileSystem.rename(staging, to: backup)
          } catch {
            removeQuietly(staging, fileSystem: fileSystem)
            throw error
          }
        } catch  where error.code == .notFound {
          // No current file yet: nothing to back up.
        }
      }
      try fileSystem.rename(temporary, to: path)
    } catch {
      removeQuietly(temporary, fileSystem: fileSystem)
      throw error
    }
    renamed = true
    if syncFolder { try fileSystem.syncDirectory(PathName.directory(of: path)) }
  }

  /// Moves `path` to an unused `<path>.corrupt-<UTC time>[-n]` name without ever replacing a
  /// file, fsyncs the folder, and returns the new name.
  static func moveAside(_ path: String, fileSystem: any FileSystem) throws(PersistenceError)
    -> String
  {
    let aside = try linkAside(path, fileSystem: fileSystem)
    try fileSystem.unlink(path)
    try fileSystem.syncDirectory(PathName.directory(of: path))
    return aside
  }

  /// Gives `path` a second, unused name `<path>.<label>-<UTC time>[-n]` (`link` refuses to
  /// replace an existing name) and returns it.
  static func linkAside(_ path: String, label: String = "corrupt", fileSystem: any FileSystem)
    throws(PersistenceError) -> String
  {
    let stamp = ISO8601Milliseconds.compactStamp(Date())
    var attempt = 1
    while true {
      let candidate = "\(path).\(label)-\(stamp)" + (attempt == 1 ? "" : "-\(attempt)")
      do throws(PersistenceError) {
        try fileSystem.link(path, to: candidate)
        return candidate
      } catch  where error.errorNumber == EEXIST && attempt < 1000 {
        attempt += 1
      }
    }
  }

  static func removeQuietly(_ path: String, fileSystem: any FileSystem) {
    do throws(PersistenceError) { try fileSystem.unlink(path) } catch {}
  }
}

extension ISO8601Milliseconds {
  /// `20261121T222115Z`: a UTC time usable in a file name.
  static func compactStamp(_ date: Date) -> String {
    let text = (try? format(date)) ?? "00000000T000000Z"
    return text.prefix(19).filter { $0 != "-" && $0 != ":" } + "Z"
  }
}
