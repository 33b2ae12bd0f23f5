#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin, throwing wrappers over the POSIX file calls the module needs, each failure turned into
/// a ``PhotoSessionError`` that names the file and the system's reason.
enum FileSystem {
  /// The system's text for an error number.
  static func reason(_ number: Int32) -> String {
    String(cString: strerror(number))
  }

  /// An error for a failed system call on `path`.
  static func failure(
    _ code: PhotoSessionError.Code, _ action: String, _ path: String, _ number: Int32 = errno
  ) -> PhotoSessionError {
    PhotoSessionError(
      code, path: path, errno: number,
      description: "cannot \(action) \"\(path)\": \(reason(number))")
  }

  /// The status of a path without following a final symbolic link, or nil when it does not exist.
  static func linkStatus(_ path: String) throws(PhotoSessionError) -> stat? {
    var status = stat()
    if lstat(path, &status) == 0 { return status }
    if errno == ENOENT || errno == ENOTDIR { return nil }
    throw failure(.unreadable, "inspect", path)
  }

  /// The status of a path, following symbolic links, or nil when it does not exist.
  static func status(_ path: String) throws(PhotoSessionError) -> stat? {
    var status = stat()
    if stat(path, &status) == 0 { return status }
    if errno == ENOENT || errno == ENOTDIR { return nil }
    throw failure(.unreadable, "inspect", path)
  }

  /// Whether a status describes a regular file.
  static func isRegular(_ status: stat) -> Bool { (status.st_mode & S_IFMT) == S_IFREG }
  /// Whether a status describes a folder.
  static func isDirectory(_ status: stat) -> Bool { (status.st_mode & S_IFMT) == S_IFDIR }
  /// Whether a status describes a symbolic link.
  static func isSymbolicLink(_ status: stat) -> Bool { (status.st_mode & S_IFMT) == S_IFLNK }

  /// Modification time of a status in seconds since 1970.
  static func modificationTime(_ status: stat) -> Double {
    #if canImport(Darwin)
      Double(status.st_mtimespec.tv_sec) + Double(status.st_mtimespec.tv_nsec) / 1e9
    #else
      Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
    #endif
  }

  /// Reads up to `limit` bytes from the start of a file; returns them and the file's size.
  static func readPrefix(_ path: String, limit: Int) throws(PhotoSessionError) -> (
    bytes: [UInt8], size: Int
  ) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT || errno == ENOTDIR {
        throw PhotoSessionError(
          .photoMissing, path: path, errno: errno,
          description: "\"\(path)\" is no longer there: it was moved or deleted")
      }
      throw failure(.unreadable, "open", path)
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw failure(.unreadable, "inspect", path) }
    let size = Int(status.st_size)
    let wanted = max(0, min(limit, size))
    var bytes = [UInt8](repeating: 0, count: wanted)
    var done = 0
    while done < wanted {
      let count = bytes.withUnsafeMutableBytes { buffer in
        pread(fd, buffer.baseAddress.map { $0 + done }, wanted - done, off_t(done))
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(.unreadable, "read", path)
      }
      if count == 0 { break }
      done += count
    }
    if done < wanted { bytes.removeLast(wanted - done) }
    return (bytes, size)
  }

  /// Reads a whole file.
  static func readAll(_ path: String) throws(PhotoSessionError) -> [UInt8] {
    try readPrefix(path, limit: Int.max).bytes
  }

  /// Writes every byte to an open descriptor, retrying short writes.
  static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(PhotoSessionError) {
    var done = 0
    while done < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        write(fd, buffer.baseAddress.map { $0 + done }, bytes.count - done)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(.writeFailed, "write", path)
      }
      done += count
    }
  }

  /// Flushes a descriptor's data to stable storage.
  static func sync(_ fd: Int32, path: String) throws(PhotoSessionError) {
    #if canImport(Darwin)
      // On Apple platforms fsync does not flush the drive's cache; F_FULLFSYNC does.
      if fcntl(fd, F_FULLFSYNC) == 0 { return }
    #endif
    if fsync(fd) != 0 { throw failure(.writeFailed, "sync", path) }
  }

  /// Flushes a folder's entries (names created, renamed or removed) to stable storage.
  static func syncDirectory(_ path: String) throws(PhotoSessionError) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if fd < 0 { throw failure(.writeFailed, "open folder", path) }
    defer { close(fd) }
    if fsync(fd) != 0 && errno != EINVAL { throw failure(.writeFailed, "sync folder", path) }
  }

  /// The folder part of a path (`.` for a bare name).
  static func parent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// The last component of a path.
  static func lastComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// Joins a folder and a relative path.
  static func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// Writes a file atomically: a temporary file in the same folder, fsync, rename, folder fsync.
  ///
  /// A crash at any point leaves either the old file or the new one, never a mix.
  /// With `syncFolder` false the caller syncs the folder later (once for many files).
  static func writeAtomically(
    _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, syncFolder: Bool = true
  ) throws(PhotoSessionError) {
    let folder = parent(path)
    let temporary = join(
      folder, ".\(lastComponent(path)).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    if fd < 0 { throw failure(.writeFailed, "create", temporary) }
    do {
      try writeAll(fd, bytes, path: temporary)
      try sync(fd, path: temporary)
    } catch {
      close(fd)
      unlink(temporary)
      throw error
    }
    close(fd)
    if rename(temporary, path) != 0 {
      let number = errno
      unlink(temporary)
      throw failure(.writeFailed, "replace", path, number)
    }
    if syncFolder { try syncDirectory(folder) }
  }

  /// Creates a folder and its missing parents with the given mode.
  static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(PhotoSessionError) {
    if let status = try self.status(path) {
      if isDirectory(status) { return }
      throw PhotoSessionError(
        .writeFailed, path: path, description: "cannot create folder \"\(path)\": a file is there")
    }
    let above = parent(path)
    if above != path && above != "." { try makeDirectories(above, mode: mode) }
    if mkdir(path, mode) != 0 && errno != EEXIST {
      throw failure(.writeFailed, "create folder", path)
    }
  }

  /// The current real user id.
  static var userID: UInt32 { UInt32(getuid()) }

  /// The names in a folder (without `.` and `..`), unsorted.
  static func names(in folder: String) throws(PhotoSessionError) -> [String] {
    guard let handle = opendir(folder) else { throw failure(.unreadable, "list folder", folder) }
    defer { closedir(handle) }
    var result: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { result.append(name) }
    }
    return result
  }
}
