import Foundation
import OffloadTestSupport
import Testing

@testable import Offload

/// Fixture folders with a sync engine's markers in them or in their ancestors.
@Suite("SyncEngineMarker: the signs that a sync engine carries a folder")
struct SyncEngineMarkerTests {
  /// Makes `path` (relative to the fixture) a folder, or a file when `file` is true.
  func make(_ folder: TemporaryDirectory, _ path: String, file: Bool = false) throws {
    let full = folder.appending(path)
    if file {
      try FileManager.default.createDirectory(
        atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      #expect(FileManager.default.createFile(atPath: full, contents: Data()))
    } else {
      try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
    }
  }

  @Test(
    "each engine's marker in the store folder is found and named",
    arguments: [
      (".stfolder", false, "Syncthing"), (".stfolder", true, "Syncthing"),
      (".stignore", true, "Syncthing"), (".dropbox", true, "Dropbox"),
      (".dropbox.cache", false, "Dropbox"), (".sync_4f2a9c.db", true, "Nextcloud or ownCloud"),
      ("._sync_4f2a9c.db", true, "Nextcloud or ownCloud"),
      (".owncloudsync.log", true, "Nextcloud or ownCloud"),
    ])
  func markerInTheStoreFolder(name: String, file: Bool, engine: String) throws {
    let folder = try TemporaryDirectory(prefix: "offload-marker")
    defer { folder.remove() }
    try make(folder, "store/" + name, file: file)
    let marker = try #require(SyncEngineMarker.find(from: folder.appending("store")))
    #expect(
      marker == SyncEngineMarker(engine: engine, name: name, folder: folder.appending("store")))
    #expect(marker.description == "\(engine)'s \(name) in \(folder.appending("store"))")
  }

  @Test("a folder without markers, and names that only look like them, find nothing")
  func nothingFound() throws {
    let folder = try TemporaryDirectory(prefix: "offload-marker")
    defer { folder.remove() }
    for name in [
      "stfolder", ".stfolder.bak", ".sync_4f2a9c.db-wal", ".sync_.dbx", "dropbox", ".stversions",
      "_sync_1.db", ".owncloudsync.log.1",
    ] {
      try make(folder, "a/store/" + name, file: true)
    }
    #expect(SyncEngineMarker.find(from: folder.appending("a/store")) == nil)
    // A store folder that does not exist yet has no markers, nor do its ancestors here.
    #expect(SyncEngineMarker.find(from: folder.appending("a/store/new/deeper")) == nil)
  }

  @Test("a marker in an ancestor is found, from a store folder that does not exist yet too")
  func markerInAnAncestor() throws {
    let folder = try TemporaryDirectory(prefix: "offload-marker")
    defer { folder.remove() }
    try make(folder, "Sync/.stfolder")
    try make(folder, "Sync/notes/lists")
    let found = SyncEngineMarker.find(from: folder.appending("Sync/notes/lists"))
    #expect(
      found
        == SyncEngineMarker(
          engine: "Syncthing", name: ".stfolder", folder: folder.appending("Sync")))
    let later = SyncEngineMarker.find(from: folder.appending("Sync/notes/not-yet/offload"))
    #expect(later == found)
    // A trailing slash and repeated slashes name the same folders.
    #expect(SyncEngineMarker.find(from: folder.appending("Sync//notes/lists/")) == found)
  }

  @Test("the nearest folder with a marker wins; within one folder the engines' order does")
  func nearestFirst() throws {
    let folder = try TemporaryDirectory(prefix: "offload-marker")
    defer { folder.remove() }
    try make(folder, "Dropbox/.dropbox", file: true)
    try make(folder, "Dropbox/Sync/.stignore", file: true)
    try make(folder, "Dropbox/Sync/.owncloudsync.log", file: true)
    try make(folder, "Dropbox/Sync/store")
    let marker = SyncEngineMarker.find(from: folder.appending("Dropbox/Sync/store"))
    #expect(marker?.name == ".stignore")
    #expect(marker?.folder == folder.appending("Dropbox/Sync"))
    #expect(SyncEngineMarker.find(from: folder.appending("Dropbox"))?.engine == "Dropbox")
  }

  @Test("iCloud Drive and the File Provider place are read from the path alone")
  func placesOnThePath() throws {
    let never = FaultInjectingFileSystem()
    let icloud = SyncEngineMarker.find(
      from: "/Users/ada/Library/Mobile Documents/com~apple~CloudDocs/offload", fileSystem: never)
    #expect(
      icloud
        == SyncEngineMarker(
          engine: "iCloud Drive", name: "Library/Mobile Documents",
          folder: "/Users/ada/Library/Mobile Documents"))
    let drive = SyncEngineMarker.find(
      from: "/Users/ada/Library/CloudStorage/GoogleDrive-ada@example.com/My Drive/offload",
      fileSystem: never)
    #expect(drive?.engine == "a cloud storage provider")
    #expect(drive?.folder == "/Users/ada/Library/CloudStorage")
    #expect(never.operationCount == 0)
    // "Library" alone, or "Mobile Documents" elsewhere, is not the place.
    #expect(SyncEngineMarker.find(from: "/srv/Library/offload", fileSystem: never) == nil)
    #expect(SyncEngineMarker.find(from: "/srv/Mobile Documents/x", fileSystem: never) == nil)
    // Without a place, each folder up to the root is listed once: 3 + 1 and 3 + 1.
    #expect(never.operations.filter { $0.hasPrefix("list ") }.count == 4 + 4)
  }

  @Test("a folder that cannot be listed is passed over and its ancestors are still looked at")
  func unlistableFolder() throws {
    let folder = try TemporaryDirectory(prefix: "offload-marker")
    defer { folder.remove() }
    try make(folder, "Sync/.stfolder")
    try make(folder, "Sync/locked/store")
    // The second listing (of Sync/locked, after Sync/locked/store) fails.
    let failing = FaultInjectingFileSystem(failingOperation: 2)
    let marker = SyncEngineMarker.find(
      from: folder.appending("Sync/locked/store"), fileSystem: failing)
    #expect(marker?.folder == folder.appending("Sync"))
    #expect(
      failing.operations.prefix(3) == [
        "list " + folder.appending("Sync/locked/store"), "list " + folder.appending("Sync/locked"),
        "list " + folder.appending("Sync"),
      ])
  }

  /// Seeded trees: markers at random depths above a store folder; the nearest one is found.
  @Test("over 200 seeded trees, the marker found is the one nearest the store folder")
  func seededNearest() throws {
    let folder = try TemporaryDirectory(prefix: "offload-marker")
    defer { folder.remove() }
    let names = [".stfolder", ".stignore", ".dropbox", ".sync_a1.db", ".owncloudsync.log"]
    var random = SplitMix64(seed: SplitMix64.testSeed(0x5EED_28))
    for round in 0..<200 {
      let depth = 1 + random.index(below: 6)
      let parts = (0..<depth).map { "d\($0)" }
      let base = "t\(round)"
      var nearest: (level: Int, name: String)?
      for level in 0...depth where random.chance(0.3) {
        let name = names[random.index(below: names.count)]
        let path = ([base] + parts.prefix(level)).joined(separator: "/") + "/" + name
        try make(folder, path, file: random.chance(0.5))
        nearest = (level, name)
      }
      try make(folder, ([base] + parts).joined(separator: "/"))
      let found = SyncEngineMarker.find(
        from: folder.appending(([base] + parts).joined(separator: "/")))
      if let nearest {
        let expected = folder.appending(
          ([base] + parts.prefix(nearest.level)).joined(separator: "/"))
        #expect(found?.folder == expected, "round \(round), \(random)")
        #expect(found?.name == nearest.name, "round \(round), \(random)")
      } else {
        #expect(found == nil, "round \(round), \(random)")
      }
    }
  }
}
