import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

@Suite("DocumentStore: damaged files, quarantine and backups")
struct DocumentRecoveryTests {
  /// A store with two saves: `first` is the backup, `second` the current file.
  func twoSaves(_ folder: TemporaryDirectory) throws -> (DocumentStore<Plan>, Plan, Plan) {
    let store = DocumentStore(path: folder.appending("plan.json"), format: planFormat)
    var rng = SplitMix64(seed: SplitMix64.testSeed(3))
    let first = rng.plan(maxItems: 3)
    let second = rng.plan(maxItems: 3)
    try store.save(first)
    try store.save(second)
    return (store, first, second)
  }

  @Test func aTruncatedFileIsQuarantinedAndTheBackupRestored() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let (store, first, _) = try twoSaves(folder)
    let damaged = Array(try contents(store.path).dropLast(20))
    try overwrite(store.path, damaged)
    let error = try #require(throws: PersistenceError.self) { try store.load() }
    #expect(error.code == .damaged)
    #expect(error.offset == damaged.count)
    let quarantined = try #require(error.quarantinedPath)
    #expect(quarantined.hasPrefix(store.path + ".corrupt-"))
    #expect(try contents(quarantined) == damaged)
    #expect(error.backupPath == store.backupPath)
    #expect(error.description.contains("the text ends too soon"))
    #expect(error.description.contains("the file is truncated; it was moved to \(quarantined)"))
    #expect(
      error.description.hasSuffix("the previous save can be restored from \(store.backupPath)."))
    #expect(!FileManager.default.fileExists(atPath: store.path))
    #expect(try store.load() == nil)
    #expect(try store.restoreBackup() == first)
    #expect(try store.load() == first)
    #expect(try contents(quarantined) == damaged)
  }

  @Test func notJSONNamesLineColumnAndByte() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let store = DocumentStore(path: folder.appending("plan.json"), format: planFormat)
    try overwrite(store.path, Array("{\n  \"data\" : {\n    \"title\" x\n".utf8))
    let error = try #require(throws: PersistenceError.self) { try store.load() }
    #expect(error.code == .damaged)
    #expect(error.line == 3)
    #expect(error.offset == 27)
    #expect(
      error.description.hasPrefix(
        "\(store.path) is damaged at line 3, column 13 (byte 27): expected ':' after an object key, found 'x'; it was moved to \(store.path).corrupt-"
      ))
    #expect(error.description.hasSuffix(" and there is no backup to restore."))
    #expect(error.backupPath == nil)
    let restore = try #require(throws: PersistenceError.self) { try store.restoreBackup() }
    #expect(restore.code == .notFound)
    #expect(
      restore.description
        == "there is no backup of \(store.path) to restore (\(store.backupPath) does not exist).")
  }

  @Test func aWrongShapePointsAtTheValue() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let store = DocumentStore(path: folder.appending("plan.json"), format: planFormat)
    let text =
      #"{"data":{"items":[{"createdAt":"2020-01-01T00:00:00.000Z","id":"seven","key":"a0","text":""}],"score":0,"title":"t"},"format":"test.plan","version":1}"#
    try overwrite(store.path, Array(text.utf8))
    let error = try #require(throws: PersistenceError.self) { try store.load() }
    #expect(error.code == .damaged)
    let offset = try #require(error.offset)
    #expect(Array(text.utf8)[offset...].starts(with: Array(#""seven""#.utf8)))
    #expect(error.description.contains("expected Int at data.items[0].id"))
    #expect(error.underlying is DecodingError)
  }

  @Test func aMissingMemberAndABadDateAreNamed() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let store = DocumentStore(path: folder.appending("plan.json"), format: planFormat)
    try overwrite(
      store.path, Array(#"{"data":{"items":[],"score":0},"format":"test.plan","version":1}"#.utf8))
    var error = try #require(throws: PersistenceError.self) { try store.load() }
    #expect(error.description.contains("missing member \"title\" in data"))
    #expect(error.offset == 8)
    try overwrite(
      store.path,
      Array(
        #"{"data":{"items":[{"createdAt":"yesterday","id":1,"key":"a0","text":""}],"score":0,"title":"t"},"format":"test.plan","version":1}"#
          .utf8))
    error = try #require(throws: PersistenceError.self) { try store.load() }
    #expect(error.description.contains("invalid value at data.items[0].createdAt"))
    #expect(error.description.contains("is not an ISO 8601 UTC date"))
    for text in ["[1,2]", #"{"format":"test.plan"}"#, "\"just a string\""] {
      try overwrite(store.path, Array(text.utf8))
      error = try #require(throws: PersistenceError.self) { try store.load() }
      #expect(error.code == .damaged)
      #expect(error.description.contains("it is JSON but not a document envelope"), "\(text)")
    }
  }

  @Test func quarantineNeverOverwritesAnEarlierQuarantinedFile() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let store = DocumentStore(path: folder.appending("plan.json"), format: planFormat)
    var paths: [String] = []
    for attempt in 0..<3 {
      try overwrite(store.path, Array("damaged \(attempt)".utf8))
      let error = try #require(throws: PersistenceError.self) { try store.load() }
      paths.append(try #require(error.quarantinedPath))
    }
    #expect(Set(paths).count == 3)
    for (attempt, path) in paths.enumerated() {
      #expect(try contents(path) == Array("damaged \(attempt)".utf8))
    }
  }

  @Test func aDamagedBackupIsReportedAndLeftInPlace() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let (store, _, _) = try twoSaves(folder)
    try overwrite(store.backupPath, Array("{".utf8))
    let error = try #require(throws: PersistenceError.self) { try store.loadBackup() }
    #expect(error.code == .damaged)
    #expect(error.quarantinedPath == nil)
    #expect(FileManager.default.fileExists(atPath: store.backupPath))
    // The current file is damaged too: no backup is offered.
    try overwrite(store.path, Array("{".utf8))
    let load = try #require(throws: PersistenceError.self) { try store.load() }
    #expect(load.backupPath == nil)
  }

  @Test func updateQuarantinesWithoutWaitingForItsOwnLock() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let (store, _, _) = try twoSaves(folder)
    try overwrite(store.path, Array("nonsense".utf8))
    let quick = DocumentStore(
      path: store.path, format: planFormat,
      lock: FileLock(path: store.path + ".lock", timeout: .milliseconds(200)))
    let error = try #require(throws: PersistenceError.self) {
      try quick.update { $0?.title = "never saved" }
    }
    #expect(error.code == .damaged)
    #expect(error.quarantinedPath != nil)
  }
}

@Suite("FileLock and read-modify-write")
struct FileLockTests {
  @Test func aHeldLockGivesStoreBusyAfterTheTimeout() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let lockPath = folder.appending("store.lock")
    // A holder that is not this thread's reentrant hold, as another process would be.
    let holder = FileLock(path: lockPath)
    let held = try holder.acquire(reentrant: false)
    defer { holder.release(held, reentrant: false) }
    let store = DocumentStore(
      path: folder.appending("plan.json"), format: planFormat,
      lock: FileLock(path: lockPath, timeout: .milliseconds(50)))
    let error = try #require(throws: PersistenceError.self) {
      try store.update { $0 = Plan(title: "x", items: []) }
    }
    #expect(error.code == .busy)
    #expect(
      error.description
        == "the store is busy: another process has held \(lockPath) for more than 50 ms; try again when it is done."
    )
    #expect(try store.load() == nil)
  }

  @Test func concurrentUpdatesFromManyThreadsLoseNothing() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.appending("plan.json")
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      let store = DocumentStore(path: path, format: planFormat)
      for step in 0..<25 {
        try? store.update { plan in
          var updated = plan ?? Plan(title: "counter", items: [])
          updated.items.append(
            Item(
              id: worker * 100 + step, text: "", key: "", parentId: nil,
              createdAt: Date(timeIntervalSince1970: 0)))
          plan = updated
        }
      }
    }
    let plan = try #require(try DocumentStore(path: path, format: planFormat).load())
    #expect(plan.items.count == 100)
    #expect(Set(plan.items.map(\.id)).count == 100)
  }

  @Test func withLockReturnsTheBodysValueAndReleases() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let lock = FileLock(path: folder.appending("l.lock"), timeout: .milliseconds(10))
    #expect(try lock.withLock { 42 } == 42)
    struct Stop: Error {}
    #expect(throws: Stop.self) { try lock.withLock { throw Stop() } }
    #expect(try lock.withLock { "again" } == "again")
  }
}

@Suite("FileLock: reentrancy on one thread")
struct FileLockReentrancyTests {
  @Test func storesThatLockWorkInsideWithLock() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let lock = FileLock(path: folder.appending("store.lock"), timeout: .milliseconds(100))
    let plans = DocumentStore(path: folder.appending("plan.json"), format: planFormat, lock: lock)
    let other = DocumentStore(path: folder.appending("other.json"), format: planFormat, lock: lock)
    try plans.save(Plan(title: "one", items: []))
    try overwrite(other.path, Array("{oops".utf8))
    let error = try lock.withLock { () throws -> PersistenceError? in
      try plans.update { $0?.title = "two" }
      try lock.withLock { try plans.update { $0?.title = "three" } }
      do throws(PersistenceError) {
        _ = try other.load()
        return nil
      } catch {
        return error
      }
    }
    #expect(try plans.load()?.title == "three")
    // The damaged file was moved aside at once, not after waiting for the lock.
    #expect(error?.code == .damaged)
    #expect(error?.quarantinedPath != nil)
    // Released: another thread can take it now.
    let taken = onAnotherThread { (try? lock.withLock { true }) ?? false }
    #expect(taken)
  }

  @Test func anotherThreadWaitsAndGetsBusy() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let lock = FileLock(path: folder.appending("store.lock"), timeout: .milliseconds(30))
    let code = try lock.withLock {
      onAnotherThread { () -> PersistenceError.Code? in
        do {
          try lock.withLock {}
          return nil
        } catch {
          return (error as? PersistenceError)?.code
        }
      }
    }
    #expect(code == .busy)
  }
}

/// Runs `body` on a new thread and waits for its result.
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}

private func onAnotherThread<T>(_ body: @escaping @Sendable () -> T) -> T {
  let box = ResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    box.value = body()
    done.signal()
  }
  thread.start()
  done.wait()
  return box.value!
}

@Suite("DocumentStore: restoring the backup")
struct RestoreBackupTests {
  @Test func restoringKeepsTheReplacedDocumentAside() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let store = DocumentStore(path: folder.appending("plan.json"), format: planFormat)
    let first = Plan(title: "first", items: [])
    let second = Plan(title: "second", items: [])
    try store.save(first)
    try store.save(second)
    #expect(try store.restoreBackup() == first)
    #expect(try store.load() == first)
    #expect(try store.loadBackup() == first)
    let replaced = try #require(try listing(folder).first { $0.hasPrefix("plan.json.replaced-") })
    let kept = DocumentStore(path: folder.appending(replaced), format: planFormat)
    #expect(try kept.load() == second)
  }
}
