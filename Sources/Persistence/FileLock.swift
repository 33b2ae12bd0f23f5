import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive advisory lock (`flock`) on a lock file, shared by every process that uses the
/// same path, with a timeout instead of a hang.
///
/// Hold it around every read-modify-write of a store, so two processes never lose each other's
/// updates. It is reentrant on one thread: while a thread holds the lock of a path, taking the
/// lock of the same path (spelled the same way) on that thread succeeds at once, so
/// ``DocumentStore`` operations that lock (``DocumentStore/update(_:)``, moving a damaged file
/// aside) work inside ``withLock(_:)``. Other threads and processes wait.
/// The lock file is created when missing and never removed (removing it would let two
/// processes lock two different files of the same name).
///
/// ```swift
/// let lock = FileLock(path: storeFolder + "/.lock", timeout: .seconds(5))
/// try lock.withLock {
///   var index = try indexStore.load() ?? Index()
///   index.count += 1
///   try indexStore.save(index)
/// }
/// ```
public struct FileLock: Sendable {
  /// The lock file's path.
  public let path: String
  /// How long ``withLock(_:)`` waits for another holder before it gives up.
  public var timeout: Duration
  /// The file operations used.
  public let fileSystem: any FileSystem

  /// Creates a lock on `path` (the file is created on first use).
  ///
  /// - Parameters:
  ///   - path: The lock file.
  ///   - timeout: How long to wait for another holder; 10 seconds by default.
  ///   - fileSystem: The file operations; the real ones by default.
  public init(
    path: String, timeout: Duration = .seconds(10), fileSystem: any FileSystem = POSIXFileSystem()
  ) {
    self.path = path
    self.timeout = timeout
    self.fileSystem = fileSystem
  }

  /// Runs `body` while holding the lock, and releases it however `body` ends.
  ///
  /// - Parameter body: The work to do under the lock.
  /// - Returns: What `body` returns.
  /// - Throws: ``PersistenceError`` with code ``PersistenceError/Code/busy`` when another
  ///   holder kept the lock past ``timeout``, ``PersistenceError/Code/ioFailure`` when the lock
  ///   file cannot be opened, or whatever `body` throws.
  /// - Complexity: O(1) plus the wait for another holder and the cost of `body`.
  public func withLock<Result>(_ body: () throws -> Result) throws -> Result {
    let held = try acquire()
    defer { release(held) }
    return try body()
  }

  /// Runs `body` while holding the lock shared with other readers, and releases it however
  /// `body` ends.
  ///
  /// Readers hold it shared so they never see a writer's files half-way, and do not wait for
  /// each other. On a thread that already holds the lock (shared or exclusive), this reenters it.
  ///
  /// - Parameter body: The reading to do under the lock.
  /// - Returns: What `body` returns.
  /// - Throws: As ``withLock(_:)``.
  /// - Complexity: O(1) plus the wait for a writer and the cost of `body`.
  public func withSharedLock<Result>(_ body: () throws -> Result) throws -> Result {
    let held = try acquire(shared: true)
    defer { release(held) }
    return try body()
  }

  /// Takes the lock; the caller releases it with ``release(_:reentrant:)`` on the same thread.
  /// A lock taken with `reentrant: false` (a journal's, held for its lifetime and released
  /// from any thread) is never shared with another holder in this process.
  func acquire(reentrant: Bool = true, shared: Bool = false) throws(PersistenceError) -> OpenFile {
    if reentrant, let file = HeldLocks.shared.reenter(path) { return file }
    let file = try fileSystem.open(path, .readWrite)
    let deadline = ContinuousClock.now + timeout
    var pause: UInt32 = 1_000
    do throws(PersistenceError) {
      while try
        !(shared
        ? fileSystem.lockShared(file, wait: false) : fileSystem.lock(file, wait: false))
      {
        if ContinuousClock.now >= deadline {
          throw PersistenceError(
            .busy, path: path, operation: "flock",
            description:
              "the store is busy: another process has held \(path) for more than \(Self.format(timeout)); try again when it is done."
          )
        }
        usleep(pause)
        pause = min(pause * 2, 20_000)
      }
    } catch {
      fileSystem.closeQuietly(file)
      throw error
    }
    if reentrant { HeldLocks.shared.register(path, file) }
    return file
  }

  /// Releases a lock taken by ``acquire(reentrant:)`` (closing the descriptor drops the `flock`).
  func release(_ file: OpenFile, reentrant: Bool = true) {
    if !reentrant || HeldLocks.shared.leave(path) { fileSystem.closeQuietly(file) }
  }

  private static func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
  }
}

/// The locks this process holds, by path, with the thread that holds each and how many times.
private final class HeldLocks: @unchecked Sendable {
  static let shared = HeldLocks()

  private let mutex = NSLock()
  private var held: [String: (owner: pthread_t, depth: Int, file: OpenFile)] = [:]

  /// The held lock of `path` when this thread holds it (counting one more hold), else nil.
  func reenter(_ path: String) -> OpenFile? {
    mutex.withLock {
      guard let entry = held[path], pthread_equal(entry.owner, pthread_self()) != 0 else {
        return nil
      }
      held[path]?.depth += 1
      return entry.file
    }
  }

  /// Records that this thread now holds the lock of `path`.
  func register(_ path: String, _ file: OpenFile) {
    mutex.withLock { held[path] = (pthread_self(), 1, file) }
  }

  /// Counts one release; true when it was the last hold and the file must be closed.
  func leave(_ path: String) -> Bool {
    mutex.withLock {
      guard let entry = held[path], pthread_equal(entry.owner, pthread_self()) != 0 else {
        return true
      }
      if entry.depth > 1 {
        held[path]?.depth -= 1
        return false
      }
      held[path] = nil
      return true
    }
  }
}
