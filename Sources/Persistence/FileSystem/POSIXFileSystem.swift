#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real file operations: thin wrappers over the POSIX calls.
///
/// `sync` uses `fcntl(F_FULLFSYNC)` on Apple platforms (plain `fsync` does not flush the
/// drive's cache there) and `fsync` elsewhere. Every descriptor is opened close-on-exec.
public struct POSIXFileSystem: FileSystem {
  /// Creates the real file system.
  public init() {}

  /// Opens a file with the flags of `mode` (close-on-exec, permissions 0644 for new files unless
  /// ``FileOpenMode/createNew(permissions:)`` gives others).
  public func open(_ path: String, _ mode: FileOpenMode) throws(PersistenceError) -> OpenFile {
    let flags: Int32
    var permissions: mode_t = 0o644
    switch mode {
    case .read: flags = O_RDONLY | O_NONBLOCK
    case .readNotFollowingLinks: flags = O_RDONLY | O_NONBLOCK | O_NOFOLLOW
    case .create: flags = O_WRONLY | O_CREAT | O_TRUNC
    case .append: flags = O_WRONLY | O_APPEND
    case .readWrite: flags = O_RDWR | O_CREAT
    case .directory: flags = O_RDONLY | O_DIRECTORY
    case .createNew(let bits):
      flags = O_WRONLY | O_CREAT | O_EXCL
      permissions = mode_t(bits & 0o7777)
    }
    let descriptor = retrying { sysOpen(path, flags | O_CLOEXEC, permissions) }
    guard descriptor >= 0 else { throw Self.failure("open", path: path) }
    // A FIFO, device or folder where a file belongs would block or mislead a reader: refuse it
    // (opening for reading never blocks, thanks to O_NONBLOCK).
    if mode == .read {
      var info = stat()
      guard fstat(descriptor, &info) == 0 else {
        let error = Self.failure("fstat", path: path)
        _ = sysClose(descriptor)
        throw error
      }
      guard info.st_mode & S_IFMT == S_IFREG else {
        _ = sysClose(descriptor)
        throw PersistenceError(
          .ioFailure, path: path, operation: "open",
          description:
            "\(path) is not a regular file (\(Self.kind(of: info.st_mode))); move it away.")
      }
    }
    return OpenFile(descriptor: descriptor, path: path)
  }

  /// What kind of file a mode names, in words.
  static func kind(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a folder"
    case S_IFIFO: "a FIFO"
    case S_IFCHR, S_IFBLK: "a device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "not a regular file"
    }
  }

  /// Closes the descriptor.
  public func close(_ file: OpenFile) throws(PersistenceError) {
    // Never retry close: on Linux the descriptor is gone even when it reports EINTR.
    guard sysClose(file.descriptor) == 0 else { throw Self.failure("close", path: file.path) }
  }

  /// Reads from the current position.
  public func read(_ file: OpenFile, into buffer: UnsafeMutableRawBufferPointer)
    throws(PersistenceError) -> Int
  {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    let count = retrying { sysRead(file.descriptor, base, buffer.count) }
    guard count >= 0 else { throw Self.failure("read", path: file.path) }
    return count
  }

  /// Writes at the current position (at the end for ``FileOpenMode/append``).
  public func write(_ file: OpenFile, from buffer: UnsafeRawBufferPointer) throws(PersistenceError)
    -> Int
  {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    let count = retrying { sysWrite(file.descriptor, base, buffer.count) }
    guard count >= 0 else { throw Self.failure("write", path: file.path) }
    return count
  }

  /// Flushes to stable storage.
  public func sync(_ file: OpenFile) throws(PersistenceError) {
    #if canImport(Darwin)
      if retrying({ fcntl(file.descriptor, F_FULLFSYNC) }) == 0 { return }
    #endif
    guard retrying({ fsync(file.descriptor) }) == 0 else {
      throw Self.failure("fsync", path: file.path)
    }
  }

  /// The size from `fstat`.
  public func size(_ file: OpenFile) throws(PersistenceError) -> Int {
    var info = stat()
    guard fstat(file.descriptor, &info) == 0 else { throw Self.failure("fstat", path: file.path) }
    return Int(info.st_size)
  }

  /// `ftruncate`.
  public func truncate(_ file: OpenFile, to length: Int) throws(PersistenceError) {
    guard retrying({ ftruncate(file.descriptor, off_t(length)) }) == 0 else {
      throw Self.failure("ftruncate", path: file.path)
    }
  }

  /// `flock(LOCK_EX)`, with `LOCK_NB` when not waiting.
  public func lock(_ file: OpenFile, wait: Bool) throws(PersistenceError) -> Bool {
    let result = retrying { flock(file.descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) }
    if result == 0 { return true }
    if !wait && errno == EWOULDBLOCK { return false }
    throw Self.failure("flock", path: file.path)
  }

  /// `flock(LOCK_SH)`, with `LOCK_NB` when not waiting.
  public func lockShared(_ file: OpenFile, wait: Bool) throws(PersistenceError) -> Bool {
    let result = retrying { flock(file.descriptor, LOCK_SH | (wait ? 0 : LOCK_NB)) }
    if result == 0 { return true }
    if !wait && errno == EWOULDBLOCK { return false }
    throw Self.failure("flock", path: file.path)
  }

  /// The names from ``readDirectory(_:)``, decoded as UTF-8 (invalid bytes replaced).
  public func listDirectory(_ path: String) throws(PersistenceError) -> [String] {
    try readDirectory(path).map { String(decoding: $0.rawName, as: UTF8.self) }
  }

  /// `opendir` and `readdir`, with `d_type` as the kind where the file system fills it in.
  public func readDirectory(_ path: String) throws(PersistenceError) -> [DirectoryEntry] {
    guard let folder = opendir(path) else { throw Self.failure("opendir", path: path) }
    defer { closedir(folder) }
    var entries: [DirectoryEntry] = []
    while let entry = readdir(folder) {
      let raw = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
      if raw == [0x2E] || raw == [0x2E, 0x2E] { continue }
      let kind: FileStatus.Kind?
      switch Int32(entry.pointee.d_type) {
      case Int32(DT_REG): kind = .regular
      case Int32(DT_DIR): kind = .directory
      case Int32(DT_LNK): kind = .symbolicLink
      case Int32(DT_UNKNOWN): kind = nil
      default: kind = .other
      }
      entries.append(DirectoryEntry(rawName: raw, kind: kind))
    }
    return entries
  }

  /// `stat`, or `lstat` when not following links; a missing name or folder on the way
  /// (`ENOENT`, `ENOTDIR`) is ``PersistenceError/Code/notFound``.
  public func status(_ path: String, followingLinks: Bool) throws(PersistenceError) -> FileStatus {
    var info = stat()
    let result = followingLinks ? stat(path, &info) : lstat(path, &info)
    guard result == 0 else {
      if errno == ENOTDIR { errno = ENOENT }
      throw Self.failure(followingLinks ? "stat" : "lstat", path: path)
    }
    let kind: FileStatus.Kind
    switch info.st_mode & S_IFMT {
    case S_IFREG: kind = .regular
    case S_IFDIR: kind = .directory
    case S_IFLNK: kind = .symbolicLink
    default: kind = .other
    }
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    return FileStatus(
      kind: kind, device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
      size: Int64(info.st_size), owner: UInt32(info.st_uid),
      permissions: Int(info.st_mode) & 0o7777,
      modified: FileStatus.Time(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec)))
  }

  /// One `mkdir`.
  public func createDirectory(_ path: String, permissions: Int) throws(PersistenceError) {
    guard mkdir(path, mode_t(permissions & 0o7777)) == 0 else {
      throw Self.failure("mkdir", path: path)
    }
  }

  /// `rename`.
  public func rename(_ source: String, to destination: String) throws(PersistenceError) {
    guard sysRename(source, destination) == 0 else {
      throw Self.failure("rename", path: source, other: destination)
    }
  }

  /// `link`.
  public func link(_ source: String, to destination: String) throws(PersistenceError) {
    guard sysLink(source, destination) == 0 else {
      throw Self.failure("link", path: source, other: destination)
    }
  }

  /// `unlink`.
  public func unlink(_ path: String) throws(PersistenceError) {
    guard sysUnlink(path) == 0 else { throw Self.failure("unlink", path: path) }
  }

  /// `mkdir` for the folder and each missing parent.
  public func makeDirectory(_ path: String) throws(PersistenceError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += prefix.isEmpty || prefix == "/" ? String(component) : "/" + component
      if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
        throw Self.failure("mkdir", path: prefix)
      }
    }
  }

  // MARK: - Plumbing

  private func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
      let result = call()
      if result >= 0 || errno != EINTR { return result }
    }
  }

  static func failure(_ operation: String, path: String, other: String? = nil) -> PersistenceError {
    let number = errno
    let reason = String(cString: strerror(number))
    let target = other.map { "\(path) to \($0)" } ?? path
    if number == ENOENT && operation != "rename" && operation != "mkdir" {
      return PersistenceError(
        .notFound, path: path, operation: operation, errorNumber: number,
        description: "\(path) does not exist (\(operation): \(reason)).")
    }
    return PersistenceError(
      .ioFailure, path: path, operation: operation, errorNumber: number,
      description: "\(operation) failed for \(target): \(reason) (errno \(number)).")
  }
}

// The C library's calls at file scope, where `POSIXFileSystem`'s methods of the same names
// (`open`, `read`, `rename`, ...) do not hide them: one spelling for Glibc, Musl and Darwin.

private func sysOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}
private func sysClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func sysRead(_ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, base, count)
}
private func sysWrite(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, base, count)
}
private func sysRename(_ source: String, _ destination: String) -> Int32 {
  rename(source, destination)
}
private func sysLink(_ source: String, _ destination: String) -> Int32 {
  link(source, destination)
}
private func sysUnlink(_ path: String) -> Int32 { unlink(path) }
