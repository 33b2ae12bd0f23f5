import Foundation
public import Persistence

/// A file system that forwards to the real one and lets another writer in at one chosen
/// moment: just before this process takes an exclusive lock on a file whose path ends with a
/// given suffix (`/store.lock`, say), it runs the armed closure once.
///
/// A change that reads first and takes the store's lock later is exactly the gap this opens:
/// the closure (another `Workspace` on the same folder, or a spawned `offloadctl`) commits its
/// own change between the read and the write, every time, with no sleeps. The closure runs
/// before the lock is asked for, so it may take the lock itself.
///
/// ```swift
/// let files = InterleavingFileSystem(lockSuffix: "/store.lock")
/// files.arm { try? other.moveItem(id, to: .firstRoot) }  // lands before the next write
/// ```
public final class InterleavingFileSystem: FileSystem, @unchecked Sendable {
  private let base: any FileSystem
  private let suffix: String
  private let mutex = NSLock()
  private var armed: (@Sendable () -> Void)?
  private var afterRelease: (@Sendable () -> Void)?
  private var runs = 0

  /// Creates a file system that interleaves before exclusive locks of paths ending in
  /// `lockSuffix`, over `base` (the real one by default).
  public init(lockSuffix: String, base: any FileSystem = POSIXFileSystem()) {
    self.suffix = lockSuffix
    self.base = base
  }

  /// Runs `writer` once, just before the next exclusive lock of a matching path.
  public func arm(_ writer: @escaping @Sendable () -> Void) {
    mutex.withLock { armed = writer }
  }

  /// Runs `writer` once, just after the next close of a matching path: after this process
  /// lets go of the lock (a lock is released by closing its file), before it does anything
  /// else.
  public func armAfterRelease(_ writer: @escaping @Sendable () -> Void) {
    mutex.withLock { afterRelease = writer }
  }

  /// Drops an armed writer that has not run.
  public func disarm() { mutex.withLock { (armed, afterRelease) = (nil, nil) } }

  /// How many times an armed writer ran.
  public var interleavings: Int { mutex.withLock { runs } }

  public func lock(_ file: OpenFile, wait: Bool) throws(PersistenceError) -> Bool {
    if file.path.hasSuffix(suffix) {
      let writer = mutex.withLock { () -> (@Sendable () -> Void)? in
        defer { armed = nil }
        if armed != nil { runs += 1 }
        return armed
      }
      writer?()
    }
    return try base.lock(file, wait: wait)
  }

  public func lockShared(_ file: OpenFile, wait: Bool) throws(PersistenceError) -> Bool {
    try base.lockShared(file, wait: wait)
  }

  public func open(_ path: String, _ mode: FileOpenMode) throws(PersistenceError) -> OpenFile {
    try base.open(path, mode)
  }

  public func close(_ file: OpenFile) throws(PersistenceError) {
    try base.close(file)
    guard file.path.hasSuffix(suffix) else { return }
    let writer = mutex.withLock { () -> (@Sendable () -> Void)? in
      defer { afterRelease = nil }
      if afterRelease != nil { runs += 1 }
      return afterRelease
    }
    writer?()
  }

  public func read(_ file: OpenFile, into buffer: UnsafeMutableRawBufferPointer)
    throws(PersistenceError) -> Int
  {
    try base.read(file, into: buffer)
  }

  public func write(_ file: OpenFile, from buffer: UnsafeRawBufferPointer) throws(PersistenceError)
    -> Int
  {
    try base.write(file, from: buffer)
  }

  public func sync(_ file: OpenFile) throws(PersistenceError) { try base.sync(file) }

  public func size(_ file: OpenFile) throws(PersistenceError) -> Int { try base.size(file) }

  public func truncate(_ file: OpenFile, to length: Int) throws(PersistenceError) {
    try base.truncate(file, to: length)
  }

  public func rename(_ source: String, to destination: String) throws(PersistenceError) {
    try base.rename(source, to: destination)
  }

  public func link(_ source: String, to destination: String) throws(PersistenceError) {
    try base.link(source, to: destination)
  }

  public func unlink(_ path: String) throws(PersistenceError) { try base.unlink(path) }

  public func makeDirectory(_ path: String) throws(PersistenceError) {
    try base.makeDirectory(path)
  }

  public func listDirectory(_ path: String) throws(PersistenceError) -> [String] {
    try base.listDirectory(path)
  }

  public func readDirectory(_ path: String) throws(PersistenceError) -> [DirectoryEntry] {
    try base.readDirectory(path)
  }

  public func status(_ path: String, followingLinks: Bool) throws(PersistenceError)
    -> FileStatus
  {
    try base.status(path, followingLinks: followingLinks)
  }

  public func createDirectory(_ path: String, permissions: Int) throws(PersistenceError) {
    try base.createDirectory(path, permissions: permissions)
  }
}
