import Foundation
import OffloadTestSupport
import Synchronization
import Testing

@testable import Persistence

/// The folder watch's subfolders: the ones the caller asks for are watched, those that
/// appear later too (a new device's folder a sync engine creates), others are not; ignored
/// names (a sync engine's temporary file) stay unreported inside subfolders as well.
@Suite("Folder watch: subfolders")
struct FolderWatchSubfolderTests {
  typealias Reports = FolderWatchTests.Reports

  /// `replicas` and the folders in it, as the web server's store watch descends.
  static func replicaFolders(_ path: String) -> Bool {
    let parts = path.split(separator: "/")
    return parts.first == "replicas" && parts.count <= 2
  }

  static func ignored(_ name: String) -> Bool {
    name.hasSuffix(".lock") || (name.hasPrefix(".syncthing.") && name.hasSuffix(".tmp"))
  }

  func write(_ text: String, _ path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  func watching(
    prepare: (TemporaryDirectory) throws -> Void = { _ in },
    _ body: (TemporaryDirectory, FolderWatch, Reports) throws -> Void
  ) throws {
    let folder = try TemporaryDirectory(prefix: "offload-watch-sub")
    defer { folder.remove() }
    try prepare(folder)
    let reports = Reports()
    let watch = FolderWatch(
      folder: folder.path, subfolders: Self.replicaFolders, ignoring: Self.ignored
    ) { reports.count.withLock { $0 += 1 } }
    defer { watch.stop() }
    #if os(Linux)
      #expect(watch.mechanism == .inotify)
    #endif
    try body(folder, watch, reports)
  }

  func makeFolder(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  @Test("a write in a device folder that existed at the start is reported; one elsewhere is not")
  func existingSubfolders() throws {
    try watching(prepare: { folder in
      try makeFolder(folder.appending("replicas/k7q"))
      try makeFolder(folder.appending("collections"))
      try makeFolder(folder.appending("replicas/k7q/photos"))
    }) { folder, _, reports in
      var seen = reports.value
      try write("{}", folder.appending("collections/trip.json"))
      try write("x", folder.appending("replicas/k7q/photos/a.json"))
      #expect(!reports.wait(past: seen, seconds: 0.6), "a subfolder not asked for was watched")
      seen = reports.value
      try write("{}\n", folder.appending("replicas/k7q/ops.1.jsonl"))
      #expect(reports.wait(past: seen), "a write in replicas/k7q went unreported")
    }
  }

  @Test("folders made later are watched: replicas/, then a new device's folder and its log")
  func laterSubfolders() throws {
    try watching { folder, _, reports in
      var seen = reports.value
      try makeFolder(folder.appending("replicas"))
      #expect(reports.wait(past: seen), "replicas/ appearing went unreported")
      usleep(100_000)
      seen = reports.value
      try makeFolder(folder.appending("replicas/a1b"))
      #expect(reports.wait(past: seen), "a new device folder went unreported")
      usleep(100_000)
      // As Syncthing delivers a file: a temporary name, written and closed, then renamed.
      seen = reports.value
      let temporary = folder.appending("replicas/a1b/.syncthing.ops.1.jsonl.tmp")
      try write("{\"seq\":1}\n", temporary)
      #expect(!reports.wait(past: seen, seconds: 0.6), "the temporary file was reported")
      seen = reports.value
      #expect(rename(temporary, folder.appending("replicas/a1b/ops.1.jsonl")) == 0)
      #expect(reports.wait(past: seen), "the rename that ends the transfer went unreported")
      seen = reports.value
      let log = folder.appending("replicas/a1b/ops.1.jsonl")
      let handle = try #require(FileHandle(forWritingAtPath: log))
      try handle.seekToEnd()
      try handle.write(contentsOf: Data("{\"seq\":2}\n".utf8))
      try handle.close()
      #expect(reports.wait(past: seen), "an append to the new device's log went unreported")
    }
  }

  @Test("a folder made with files already in it is watched from then on")
  func folderMadeWithFiles() throws {
    try watching(prepare: { try makeFolder($0.appending("replicas")) }) { folder, _, reports in
      var seen = reports.value
      // Made elsewhere and moved in whole, as a sync engine or a copy may do.
      let outside = try TemporaryDirectory(prefix: "offload-watch-staged")
      defer { outside.remove() }
      try write("{}\n", outside.appending("ops.1.jsonl"))
      #expect(rename(outside.path, folder.appending("replicas/m2n")) == 0)
      #expect(reports.wait(past: seen), "a device folder moved in went unreported")
      usleep(100_000)
      seen = reports.value
      try write("{}\n{}\n", folder.appending("replicas/m2n/ops.1.jsonl"))
      #expect(reports.wait(past: seen), "a write in the moved-in folder went unreported")
    }
  }

  @Test("a folder moved out is no longer watched")
  func movedOut() throws {
    try watching(prepare: { try makeFolder($0.appending("replicas/k7q")) }) { folder, _, reports in
      let outside = try TemporaryDirectory(prefix: "offload-watch-away")
      defer { outside.remove() }
      var seen = reports.value
      #expect(rename(folder.appending("replicas/k7q"), outside.appending("k7q")) == 0)
      #expect(reports.wait(past: seen), "the move out went unreported")
      usleep(100_000)
      seen = reports.value
      try write("{}\n", outside.appending("k7q/ops.1.jsonl"))
      #expect(!reports.wait(past: seen, seconds: 0.6), "a folder outside the store is watched")
    }
  }

  @Test("the polling fallback's stamp covers the watched subfolders, not the others")
  func pollStamp() throws {
    let folder = try TemporaryDirectory(prefix: "offload-watch-stamp")
    defer { folder.remove() }
    try makeFolder(folder.appending("replicas/k7q"))
    try makeFolder(folder.appending("collections"))
    try write("{}", folder.appending("replicas/k7q/ops.1.jsonl"))
    try write("{}", folder.appending("replicas/k7q/.syncthing.ops.2.jsonl.tmp"))
    try write("{}", folder.appending("collections/trip.json"))
    try write("", folder.appending("store.lock"))
    let paths = FolderWatch.stamp(
      folder.path, subfolders: Self.replicaFolders, ignoring: Self.ignored
    ).map { $0.split(separator: "|")[0] }
    #expect(paths == ["collections", "replicas", "replicas/k7q", "replicas/k7q/ops.1.jsonl"])
    let before = FolderWatch.stamp(
      folder.path, subfolders: Self.replicaFolders, ignoring: Self.ignored)
    try write("{}\n{}", folder.appending("replicas/k7q/ops.1.jsonl"))
    #expect(
      FolderWatch.stamp(folder.path, subfolders: Self.replicaFolders, ignoring: Self.ignored)
        != before)
  }
}
