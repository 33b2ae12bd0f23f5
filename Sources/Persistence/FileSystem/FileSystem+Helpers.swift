public import Foundation

extension FileSystem {
  /// Reads a whole file.
  ///
  /// - Parameter path: The file.
  /// - Returns: Its bytes.
  /// - Throws: ``PersistenceError`` (``PersistenceError/Code/notFound`` when it does not exist).
  /// - Complexity: O(*n*), where *n* is the file's size.
  public func readAll(_ path: String) throws(PersistenceError) -> Data {
    let file = try open(path, .read)
    defer { closeQuietly(file) }
    var data = Data(count: max(try size(file), 0) + 1)
    var filled = 0
    while true {
      if filled == data.count { data.count += max(data.count, 4096) }
      let wanted = data.count - filled
      let count = try data.withUnsafeMutableBytes {
        fill(file, UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
      }.get()
      filled += count
      if count < wanted { break }
    }
    data.count = filled
    return data
  }

  /// Reads into `buffer` until it is full or the file ends.
  ///
  /// - Returns: How many bytes were read (fewer than `buffer.count` at the end of the file),
  ///   or the failed read's error.
  /// - Complexity: O(*n*), where *n* is `buffer.count`.
  private func fill(
    _ file: OpenFile, _ buffer: UnsafeMutableRawBufferPointer
  ) -> Result<Int, PersistenceError> {
    var done = 0
    while done < buffer.count {
      do throws(PersistenceError) {
        let count = try read(file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
        if count == 0 { break }
        done += count
      } catch {
        return .failure(error)
      }
    }
    return .success(done)
  }

  /// Writes every byte, looping over short writes.
  ///
  /// - Parameters:
  ///   - file: A file open for writing.
  ///   - bytes: The bytes to write at its position.
  /// - Throws: ``PersistenceError/Code/ioFailure`` when a write fails or makes no progress;
  ///   some of the bytes may have been written.
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public func writeAll(_ file: OpenFile, _ bytes: some ContiguousBytes) throws(PersistenceError) {
    var failure: PersistenceError?
    bytes.withUnsafeBytes { buffer in
      var written = 0
      while written < buffer.count {
        do throws(PersistenceError) {
          let count = try write(file, from: UnsafeRawBufferPointer(rebasing: buffer[written...]))
          if count == 0 {
            failure = PersistenceError(
              .ioFailure, path: file.path, operation: "write",
              description: "write to \(file.path) made no progress (the disk may be full).")
            return
          }
          written += count
        } catch {
          failure = error
          return
        }
      }
    }
    if let failure { throw failure }
  }

  /// Syncs a folder, so the names created, renamed or removed in it are durable.
  ///
  /// - Parameter path: The folder.
  /// - Throws: ``PersistenceError`` when it cannot be opened or synced.
  public func syncDirectory(_ path: String) throws(PersistenceError) {
    let folder = try open(path, .directory)
    do throws(PersistenceError) {
      try sync(folder)
    } catch {
      closeQuietly(folder)
      throw error
    }
    try close(folder)
  }

  /// Closes a file after another failure, ignoring a second failure.
  ///
  /// - Parameter file: The file to close; its descriptor is released either way.
  public func closeQuietly(_ file: OpenFile) {
    do throws(PersistenceError) { try close(file) } catch {}
  }

  /// Cuts a file to `length` bytes and makes the cut durable (open, truncate, fsync, close):
  /// how a journal drops a torn last line before it appends again.
  ///
  /// - Parameters:
  ///   - path: The file to cut.
  ///   - length: The length it keeps.
  /// - Throws: ``PersistenceError`` when a step fails; the file is closed either way.
  func truncateDurably(_ path: String, to length: Int) throws(PersistenceError) {
    let file = try open(path, .append)
    do throws(PersistenceError) {
      try truncate(file, to: length)
      try sync(file)
    } catch {
      closeQuietly(file)
      throw error
    }
    try close(file)
  }

  /// Copies a file atomically and durably (temporary file, fsync, rename, folder fsync).
  ///
  /// - Parameters:
  ///   - source: The file to copy.
  ///   - destination: The copy's path; its folder must exist, and a file there is replaced.
  /// - Throws: ``PersistenceError`` from reading or writing.
  /// - Complexity: O(*n*), where *n* is the file's size.
  public func copyFile(_ source: String, to destination: String) throws(PersistenceError) {
    let bytes = try readAll(source)
    var renamed = false
    try AtomicFile.write(bytes, to: destination, backup: nil, fileSystem: self, renamed: &renamed)
  }

  /// Removes a name, ignoring a missing one.
  ///
  /// - Parameter path: The name to remove.
  /// - Throws: ``PersistenceError`` for any failure but a missing name.
  public func unlinkIfPresent(_ path: String) throws(PersistenceError) {
    do throws(PersistenceError) {
      try unlink(path)
    } catch  where error.code == .notFound {
    }
  }

  /// The status of a path, or nil when nothing is there.
  ///
  /// - Parameters:
  ///   - path: The path.
  ///   - followingLinks: Whether a final symbolic link is followed (`stat`) or reported
  ///     (`lstat`).
  /// - Throws: ``PersistenceError`` for any failure but a missing name.
  public func statusIfPresent(_ path: String, followingLinks: Bool) throws(PersistenceError)
    -> FileStatus?
  {
    do throws(PersistenceError) {
      return try status(path, followingLinks: followingLinks)
    } catch  where error.code == .notFound {
      return nil
    }
  }

  /// Reads up to `limit` bytes from the start of a regular file, and tells the file's size.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - limit: The most bytes to read.
  ///   - followingLinks: When false, a symbolic link at `path` is refused by the open itself
  ///     (``FileOpenMode/readNotFollowingLinks``).
  /// - Returns: The bytes read (fewer than `limit` when the file is shorter) and the size.
  /// - Throws: ``PersistenceError`` (``PersistenceError/Code/notFound`` when it does not exist;
  ///   a FIFO, device or folder is refused, and a link when `followingLinks` is false).
  /// - Complexity: O(min(*n*, `limit`)), where *n* is the file's size.
  public func readPrefix(
    _ path: String, limit: Int, followingLinks: Bool = true
  ) throws(PersistenceError) -> (bytes: [UInt8], size: Int) {
    let file = try open(path, followingLinks ? .read : .readNotFollowingLinks)
    defer { closeQuietly(file) }
    let size = try self.size(file)
    let wanted = max(0, min(limit, size))
    var bytes = [UInt8](repeating: 0, count: wanted)
    let done = try bytes.withUnsafeMutableBytes { fill(file, $0) }.get()
    if done < wanted { bytes.removeLast(wanted - done) }
    return (bytes, size)
  }

  /// Creates a folder and its missing parents (`mkdir -p`), each new one with `permissions`.
  ///
  /// - Parameters:
  ///   - path: The folder.
  ///   - permissions: The permission bits of the folders created (`0o700`, `0o755`, ...).
  /// - Throws: ``PersistenceError/Code/ioFailure`` when a folder cannot be created, or when a
  ///   file that is not a folder has the name.
  /// - Complexity: O(*d*) file operations, where *d* is the number of missing folders.
  public func makeDirectories(_ path: String, permissions: Int) throws(PersistenceError) {
    if let found = try statusIfPresent(path, followingLinks: true) {
      if found.kind == .directory { return }
      throw PersistenceError(
        .ioFailure, path: path, operation: "mkdir",
        description: "cannot create folder \"\(path)\": a file is there")
    }
    let above = PathName.directory(of: path)
    if above != path && above != "." { try makeDirectories(above, permissions: permissions) }
    do throws(PersistenceError) {
      try createDirectory(path, permissions: permissions)
    } catch  where error.errorNumber == EEXIST {
      // Another process created it in between.
    }
  }

  /// Replaces `path` with `bytes` atomically and durably: a temporary file beside it (created
  /// exclusively), write, fsync, rename over `path`, fsync the folder.
  ///
  /// After a crash at any moment `path` holds the old bytes or the new ones, whole. On failure
  /// before the rename the temporary file is removed and `path` is untouched.
  ///
  /// - Parameters:
  ///   - bytes: The new contents.
  ///   - path: The file to replace (or create); its folder must exist.
  ///   - temporaryPath: The temporary file's path, in the same folder; `<path>.tmp-<pid>-<n>`
  ///     by default.
  ///   - syncFolder: Whether to fsync the folder after the rename; false when the caller
  ///     syncs it later, once for many files.
  /// - Throws: ``PersistenceError`` from any step.
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public func writeAtomically(
    _ bytes: Data, to path: String, temporaryPath: String? = nil, syncFolder: Bool = true
  ) throws(PersistenceError) {
    var renamed = false
    try AtomicFile.write(
      bytes, to: path, backup: nil, fileSystem: self, renamed: &renamed,
      temporary: temporaryPath, syncFolder: syncFolder)
  }
}

/// Splits and joins paths as plain text, without Foundation's URL machinery.
public enum PathName {
  /// The folder of `path` (`"."` when it has none, `"/"` for a name in the root).
  ///
  /// - Complexity: O(*m*), where *m* is the length of the path.
  public static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// The last component of `path` (all of it when it has no `/`).
  ///
  /// - Complexity: O(*m*), where *m* is the length of the path.
  public static func lastComponent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// `name` inside `directory`.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the result.
  public static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
