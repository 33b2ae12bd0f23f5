import Foundation
import OffloadTestSupport
import Synchronization
import Testing

@testable import OffloadWeb

/// The server's store watch sees other devices' changes arrive through a sync engine: a log
/// renamed into `replicas/<id>/` (a device folder made after the watch started included)
/// wakes the pages; the engine's temporary files, conflict copies and markers do not.
@Suite("Store changes: other devices' folders")
struct StoreChangesTests {
  /// Counts one listener's wake-ups.
  final class Wakes: Sendable {
    let count = Mutex(0)
    var value: Int { count.withLock { $0 } }

    func wait(past seen: Int, seconds: Double = 5) async -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      while Date() < deadline {
        if value > seen { return true }
        try? await Task.sleep(for: .milliseconds(5))
      }
      return value > seen
    }
  }

  func write(_ text: String, _ path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  func makeFolder(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  @Test("the watch descends into replicas/ and the device folders, nothing else")
  func subfolders() {
    for path in ["replicas", "replicas/k7q", "replicas/a1b"] {
      #expect(StoreChanges.watchesSubfolder(path), "\(path)")
    }
    for path in [
      "collections", "history", "backups", "photos", "replicas/k7q/photos", "replicas/.stversions",
      "replicas/.syncthing.x.tmp", "replicas/", "replicasx", ".stfolder", "",
    ] {
      #expect(!StoreChanges.watchesSubfolder(path), "\(path)")
    }
  }

  @Test("lock files and a sync engine's files are ignored; logs and checkpoints are not")
  func ignoredNames() {
    for name in [
      "store.lock", "ops.lock", ".syncthing.ops.1.jsonl.tmp", "~syncthing~ops.1.jsonl.tmp",
      "ops.1.sync-conflict-20261127-085239-6FUUMND.jsonl", ".stfolder", ".stignore",
      ".stversions", ".dropbox.cache", "ops.1.jsonl.icloud",
    ] {
      #expect(StoreChanges.ignores(name), "\(name)")
    }
    for name in ["ops.1.jsonl", "checkpoint.json", "device.json", "k7q", "changes.1.jsonl"] {
      #expect(!StoreChanges.ignores(name), "\(name)")
    }
  }

  @Test("a device folder and log arriving as Syncthing delivers them wake the page once each")
  func anotherDeviceArrives() async throws {
    let store = try TemporaryDirectory(prefix: "offload-store-changes")
    defer { store.remove() }
    try makeFolder(store.appending("replicas/k7q"))
    let changes = StoreChanges(folder: store.path)
    let listener = changes.listen()
    defer { changes.stop(listener) }
    #if os(Linux)
      #expect(changes.mechanism == .inotify)
    #endif
    let wakes = Wakes()
    let counting = Task {
      for await _ in listener.stream { wakes.count.withLock { $0 += 1 } }
    }
    defer { counting.cancel() }

    // A new device's folder, then its log: a temporary file written, then renamed.
    var seen = wakes.value
    try makeFolder(store.appending("replicas/a1b"))
    #expect(await wakes.wait(past: seen), "a new device folder did not wake the page")
    try await Task.sleep(for: .milliseconds(100))
    seen = wakes.value
    let temporary = store.appending("replicas/a1b/.syncthing.ops.1.jsonl.tmp")
    try write("{\"seq\":1}\n", temporary)
    #expect(!(await wakes.wait(past: seen, seconds: 0.6)), "a temporary file woke the page")
    #expect(rename(temporary, store.appending("replicas/a1b/ops.1.jsonl")) == 0)
    #expect(await wakes.wait(past: seen), "the log's arrival did not wake the page")

    // A conflict copy and Syncthing's marker stay quiet; a checkpoint written does not.
    try await Task.sleep(for: .milliseconds(100))
    seen = wakes.value
    try write("x", store.appending("replicas/k7q/ops.1.sync-conflict-20261127-1-ABC.jsonl"))
    try makeFolder(store.appending(".stfolder"))
    #expect(!(await wakes.wait(past: seen, seconds: 0.6)), "a sync engine's file woke the page")
    try write("{}", store.appending("replicas/k7q/checkpoint.json"))
    #expect(await wakes.wait(past: seen), "a device's checkpoint did not wake the page")
  }
}
