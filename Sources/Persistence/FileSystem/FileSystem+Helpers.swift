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
    var failure: PersistenceError?
    while failure == nil {
      if filled == data.count { data.count += max(data.count, 4096) }
      let count = data.withUnsafeMutableBytes { buffer -> Int in
        do throws(PersistenceError) {
          return try read(file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
        } catch {
          failure = error
          return 0
        }
      }
      if count == 0 { break }
      filled += count
    }
    if let failure { throw failure }
    data.count = filled
    return data
  }

  /// Writes every byte, looping over short writes.
  func writeAll(_ file: OpenFile, _ bytes: some ContiguousBytes) throws(PersistenceError) {
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
  func syncDirectory(_ path: String) throws(PersistenceError) {
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
  func closeQuietly(_ file: OpenFile) {
    do throws(PersistenceError) { try close(file) } catch {}
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
}

/// Splits paths into folder and name without Foundation's URL machinery.
enum PathName {
  /// The folder of `path` (`"."` when it has none).
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// `name` inside `directory`.
  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
