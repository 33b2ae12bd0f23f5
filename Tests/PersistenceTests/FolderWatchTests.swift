import Foundation
import OffloadTestSupport
import Persistence
import Synchronization
import Testing

/// The folder watch: a write, a rename into the folder and a delete each reported within a
/// bounded time; nothing reported while nothing changes, nor for ignored names.
@Suite("Folder watch")
struct FolderWatchTests {
  /// Counts the watch's reports.
  final class Reports: Sendable {
    let count = Mutex(0)
    var value: Int { count.withLock { $0 } }

    /// Waits up to `seconds` for the count to pass `seen`; returns whether it did.
    func wait(past seen: Int, seconds: Double = 5) -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      while Date() < deadline {
        if value > seen { return true }
        usleep(5_000)
      }
      return value > seen
    }
  }

  func watching(
    _ body: (TemporaryDirectory, TemporaryDirectory, FolderWatch, Reports) throws -> Void
  ) throws {
    let folder = try TemporaryDirectory(prefix: "offload-watch")
    let outside = try TemporaryDirectory(prefix: "offload-watch-outside")
    defer {
      folder.remove()
      outside.remove()
    }
    let reports = Reports()
    let watch = FolderWatch(folder: folder.path, ignoring: { $0.hasSuffix(".lock") }) {
      reports.count.withLock { $0 += 1 }
    }
    defer { watch.stop() }
    try body(folder, outside, watch, reports)
  }

  @Test("a write, a rename into the folder and a delete are each reported")
  func reportsChanges() throws {
    try watching { folder, outside, watch, reports in
      #if os(Linux)
        #expect(watch.mechanism == .inotify)
      #endif
      var seen = reports.value
      try Data("one".utf8).write(to: URL(fileURLWithPath: folder.appending("changes.jsonl")))
      #expect(reports.wait(past: seen), "a write went unreported")
      seen = reports.value
      let staged = outside.appending("index.json")
      try Data("{}".utf8).write(to: URL(fileURLWithPath: staged))
      #expect(rename(staged, folder.appending("index.json")) == 0)
      #expect(reports.wait(past: seen), "a rename into the folder went unreported")
      seen = reports.value
      try FileManager.default.removeItem(atPath: folder.appending("changes.jsonl"))
      #expect(reports.wait(past: seen), "a delete went unreported")
    }
  }

  @Test("nothing is reported while nothing changes, nor a change to an ignored name")
  func quiet() throws {
    try watching { folder, _, _, reports in
      try Data("one".utf8).write(to: URL(fileURLWithPath: folder.appending("changes.jsonl")))
      #expect(reports.wait(past: 0))
      usleep(300_000)
      let seen = reports.value
      // Reading changes nothing; a lock file opened for writing is ignored.
      _ = FileManager.default.contents(atPath: folder.appending("changes.jsonl"))
      _ = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      try Data().write(to: URL(fileURLWithPath: folder.appending("store.lock")))
      #expect(!reports.wait(past: seen, seconds: 0.6), "reported \(reports.value - seen) times")
    }
  }

  @Test("a stopped watch reports nothing more")
  func stopped() throws {
    try watching { folder, _, watch, reports in
      watch.stop()
      watch.stop()
      usleep(50_000)
      let seen = reports.value
      try Data("one".utf8).write(to: URL(fileURLWithPath: folder.appending("changes.jsonl")))
      #expect(!reports.wait(past: seen, seconds: 0.5))
    }
  }
}
