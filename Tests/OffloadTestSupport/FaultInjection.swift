import Foundation
public import Persistence

/// A file system that forwards to the real one and fails a chosen operation, for fault tests.
///
/// Every call counts as one operation (open, close, read, write, fsync, size, truncate, lock,
/// rename, link, unlink, mkdir, readdir, stat, lstat). With `failingOperation: n` the *n*-th
/// call (1-based) throws an I/O error instead of running; a failing `write` first writes half its bytes when `tornWrites`
/// is on, like a disk that filled up mid-write. A failing `close` still releases the descriptor.
///
/// ```swift
/// let dry = FaultInjectingFileSystem()           // count the operations of a save
/// try store(dry).save(document)
/// for n in 1...dry.operationCount {
///   let faulty = FaultInjectingFileSystem(failingOperation: n)
///   #expect(throws: PersistenceError.self) { try store(faulty).save(document) }
/// }
/// ```
public final class FaultInjectingFileSystem: FileSystem, @unchecked Sendable {
  private let base: any FileSystem
  private let failing: Int?
  private let errorNumber: Int32
  private let tornWrites: Bool
  private let crashes: Bool
  private let mutex = NSLock()
  private var count = 0
  private var names: [String] = []

  /// Creates a file system that fails operation `failingOperation` (never when nil) with
  /// `errorNumber` (5, EIO, by default). With `crashes`, every operation from that one on
  /// fails too, as if the process had died there: nothing after it reaches the disk.
  public init(
    failingOperation: Int? = nil, errorNumber: Int32 = 5, tornWrites: Bool = true,
    crashes: Bool = false, base: any FileSystem = POSIXFileSystem()
  ) {
    self.base = base
    self.failing = failingOperation
    self.errorNumber = errorNumber
    self.tornWrites = tornWrites
    self.crashes = crashes
  }

  /// How many operations ran (or were failed) so far.
  public var operationCount: Int { mutex.withLock { count } }
  /// The operations so far, in order, as `name path` (`open mode path` for opens).
  public var operations: [String] { mutex.withLock { names } }
  /// Whether the failure was injected.
  public var failed: Bool { mutex.withLock { failing.map { count >= $0 } ?? false } }

  private func step(_ name: String, _ path: String) -> Bool {
    mutex.withLock {
      count += 1
      names.append("\(name) \(path)")
      if crashes, let failing { return count >= failing }
      return count == failing
    }
  }

  private func injected(_ name: String, _ path: String) -> PersistenceError {
    PersistenceError(
      .ioFailure, path: path, operation: name, errorNumber: errorNumber,
      description:
        "\(name) failed for \(path): injected fault at operation \(failing ?? 0) (errno \(errorNumber))."
    )
  }

  public func open(_ path: String, _ mode: FileOpenMode) throws(PersistenceError) -> OpenFile {
    if step("open \(mode)", path) { throw injected("open", path) }
    return try base.open(path, mode)
  }

  public func close(_ file: OpenFile) throws(PersistenceError) {
    if step("close", file.path) {
      try? base.close(file)  // The descriptor goes with the process, too.
      throw injected("close", file.path)
    }
    try base.close(file)
  }

  public func read(_ file: OpenFile, into buffer: UnsafeMutableRawBufferPointer)
    throws(PersistenceError) -> Int
  {
    if step("read", file.path) { throw injected("read", file.path) }
    return try base.read(file, into: buffer)
  }

  public func write(_ file: OpenFile, from buffer: UnsafeRawBufferPointer) throws(PersistenceError)
    -> Int
  {
    if step("write", file.path) {
      if tornWrites && buffer.count > 1 {
        _ = try? base.write(
          file, from: UnsafeRawBufferPointer(rebasing: buffer[..<(buffer.count / 2)]))
      }
      throw injected("write", file.path)
    }
    return try base.write(file, from: buffer)
  }

  public func sync(_ file: OpenFile) throws(PersistenceError) {
    if step("fsync", file.path) { throw injected("fsync", file.path) }
    try base.sync(file)
  }

  public func size(_ file: OpenFile) throws(PersistenceError) -> Int {
    if step("size", file.path) { throw injected("fstat", file.path) }
    return try base.size(file)
  }

  public func truncate(_ file: OpenFile, to length: Int) throws(PersistenceError) {
    if step("truncate", file.path) { throw injected("ftruncate", file.path) }
    try base.truncate(file, to: length)
  }

  public func lock(_ file: OpenFile, wait: Bool) throws(PersistenceError) -> Bool {
    if step("lock", file.path) { throw injected("flock", file.path) }
    return try base.lock(file, wait: wait)
  }

  public func lockShared(_ file: OpenFile, wait: Bool) throws(PersistenceError) -> Bool {
    if step("lock-shared", file.path) { throw injected("flock", file.path) }
    return try base.lockShared(file, wait: wait)
  }

  public func listDirectory(_ path: String) throws(PersistenceError) -> [String] {
    if step("list", path) { throw injected("opendir", path) }
    return try base.listDirectory(path)
  }

  public func rename(_ source: String, to destination: String) throws(PersistenceError) {
    if step("rename", source) { throw injected("rename", source) }
    try base.rename(source, to: destination)
  }

  public func link(_ source: String, to destination: String) throws(PersistenceError) {
    if step("link", source) { throw injected("link", source) }
    try base.link(source, to: destination)
  }

  public func unlink(_ path: String) throws(PersistenceError) {
    if step("unlink", path) { throw injected("unlink", path) }
    try base.unlink(path)
  }

  public func makeDirectory(_ path: String) throws(PersistenceError) {
    if step("mkdir", path) { throw injected("mkdir", path) }
    try base.makeDirectory(path)
  }

  public func readDirectory(_ path: String) throws(PersistenceError) -> [DirectoryEntry] {
    if step("readdir", path) { throw injected("opendir", path) }
    return try base.readDirectory(path)
  }

  public func status(_ path: String, followingLinks: Bool) throws(PersistenceError)
    -> FileStatus
  {
    if step(followingLinks ? "stat" : "lstat", path) {
      throw injected(followingLinks ? "stat" : "lstat", path)
    }
    return try base.status(path, followingLinks: followingLinks)
  }

  public func createDirectory(_ path: String, permissions: Int) throws(PersistenceError) {
    if step("mkdir-one", path) { throw injected("mkdir", path) }
    try base.createDirectory(path, permissions: permissions)
  }
}
