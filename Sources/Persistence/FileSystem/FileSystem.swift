/// The file operations `Persistence` performs, as a seam: the real one calls the operating
/// system, a test one can fail the *n*-th operation.
///
/// Every durable write of the module goes through these calls and nothing else, so a test that
/// wraps ``POSIXFileSystem`` and fails operation *n* for every *n* reaches every failure point
/// of a save, an append and a compaction. Implementations throw ``PersistenceError`` with code
/// ``PersistenceError/Code/ioFailure`` (or ``PersistenceError/Code/notFound`` for a missing
/// file), naming the operation, the path and the error number.
///
/// ```swift
/// let files: any FileSystem = POSIXFileSystem()  // or a wrapper that fails the n-th call
/// let store = DocumentStore(path: path, format: format, fileSystem: files)
/// ```
public protocol FileSystem: Sendable {
  /// Opens a file (or a folder, for ``FileOpenMode/directory``).
  func open(_ path: String, _ mode: FileOpenMode) throws(PersistenceError) -> OpenFile
  /// Closes an open file. The descriptor is released even when this throws.
  func close(_ file: OpenFile) throws(PersistenceError)
  /// Reads up to `buffer.count` bytes at the current position; returns 0 at the end of the file.
  func read(_ file: OpenFile, into buffer: UnsafeMutableRawBufferPointer) throws(PersistenceError)
    -> Int
  /// Writes up to `buffer.count` bytes; returns how many were written (possibly fewer).
  func write(_ file: OpenFile, from buffer: UnsafeRawBufferPointer) throws(PersistenceError) -> Int
  /// Flushes the file's data and metadata to stable storage (`fsync`, or `F_FULLFSYNC`).
  func sync(_ file: OpenFile) throws(PersistenceError)
  /// The file's size in bytes.
  func size(_ file: OpenFile) throws(PersistenceError) -> Int
  /// Cuts the file to `length` bytes.
  func truncate(_ file: OpenFile, to length: Int) throws(PersistenceError)
  /// Takes an exclusive advisory lock (`flock`); returns false when `wait` is false and another
  /// open file holds it.
  func lock(_ file: OpenFile, wait: Bool) throws(PersistenceError) -> Bool
  /// Renames `source` to `destination`, atomically replacing `destination`.
  func rename(_ source: String, to destination: String) throws(PersistenceError)
  /// Makes `destination` a second name of `source`; fails when `destination` exists.
  func link(_ source: String, to destination: String) throws(PersistenceError)
  /// Removes a name.
  func unlink(_ path: String) throws(PersistenceError)
  /// Creates a folder (and its missing parents); succeeds when it exists.
  func makeDirectory(_ path: String) throws(PersistenceError)
  /// Takes a shared advisory lock (`flock(LOCK_SH)`): readers share it, a writer's exclusive lock
  /// excludes them; returns false when `wait` is false and a writer holds the lock.
  func lockShared(_ file: OpenFile, wait: Bool) throws(PersistenceError) -> Bool
  /// The names in a folder, without `.` and `..`, in no particular order.
  func listDirectory(_ path: String) throws(PersistenceError) -> [String]
  /// The entries of a folder (`readdir`), without `.` and `..`, in no particular order: each
  /// name's bytes and, where the listing tells it, the kind of file.
  func readDirectory(_ path: String) throws(PersistenceError) -> [DirectoryEntry]
  /// The status of a path (`stat`, or `lstat` when `followingLinks` is false, so a symbolic
  /// link is reported as one). Throws ``PersistenceError/Code/notFound`` when nothing is there
  /// (a missing name or a missing folder on the way).
  func status(_ path: String, followingLinks: Bool) throws(PersistenceError) -> FileStatus
  /// Creates one folder with the given permission bits (`mkdir`); fails, with error number
  /// `EEXIST`, when the name is taken, so it also settles which of two processes creates it.
  func createDirectory(_ path: String, permissions: Int) throws(PersistenceError)
}

extension FileSystem {
  /// Takes the exclusive lock: a file system without shared locks makes readers wait for each
  /// other, which is slower but never wrong.
  public func lockShared(_ file: OpenFile, wait: Bool) throws(PersistenceError) -> Bool {
    try lock(file, wait: wait)
  }
}

/// How ``FileSystem/open(_:_:)`` opens a file.
public enum FileOpenMode: Sendable, Hashable {
  /// Read only; the file must exist.
  case read
  /// Read only; the file must exist and its last path component must not be a symbolic link
  /// (`O_NOFOLLOW`: the open itself refuses a link, so nothing can swap one in between a
  /// check and the read).
  case readNotFollowingLinks
  /// Write only, created, truncated if it exists.
  case create
  /// Write only, appending; the file must exist.
  case append
  /// Read and write, created if missing, never truncated (lock files).
  case readWrite
  /// A folder, opened to be synced.
  case directory
  /// Write only, created with the given permission bits; fails, with error number `EEXIST`,
  /// when the name exists (`O_CREAT | O_EXCL`), so two processes never take one name.
  case createNew(permissions: Int)
}

/// An open file: its descriptor and the path it was opened with (for messages).
public struct OpenFile: Sendable, Hashable {
  /// The operating system's file descriptor.
  public let descriptor: Int32
  /// The path the file was opened with.
  public let path: String

  /// Wraps a descriptor.
  public init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }
}
