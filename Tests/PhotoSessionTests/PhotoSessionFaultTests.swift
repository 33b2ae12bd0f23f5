import Foundation
import OffloadTestSupport
import Persistence
import Testing

@testable import PhotoSession

/// Every file under `folder`, relative to it, sorted.
private func allFiles(_ folder: String) -> [String] {
  let names = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
  return names.sorted()
}

/// Whether a file was left by an atomic write that did not finish.
private func isTemporary(_ name: String) -> Bool {
  name.contains(".tmp-")
}

/// Whether the error reports the injected fault (the system's sentence for EIO, or the
/// fault's own) and names a file.
private func namesTheFault(_ error: PhotoSessionError) -> Bool {
  (error.description.contains("Input/output error") || error.description.contains("injected"))
    && error.path != nil
}

/// Three photos in a fresh folder, with distinct modification times.
private func photoFolder() throws -> TemporaryDirectory {
  let photos = try TemporaryDirectory(prefix: "offload-fault-photos")
  for (index, name) in ["a.jpg", "b.jpg", "c.jpg"].enumerated() {
    _ = try TestImages.write(
      TestImages.jpeg(width: 4, height: 3), name, in: photos,
      modified: 1_700_000_000 + 60 * Double(index))
  }
  return photos
}

private func store(
  _ work: TemporaryDirectory, _ fileSystem: any Persistence.FileSystem = POSIXFileSystem()
) -> PhotoSessionStore {
  PhotoSessionStore(
    folder: work.appending("sessions"),
    trash: FreedesktopTrash(homeTrash: work.appending("Trash"), fileSystem: fileSystem),
    clock: { 1_732_227_300.25 }, fileSystem: fileSystem)
}

@Suite("Fault injection reaches the manifest, the Trash, the sidecars and the journal")
struct PhotoSessionFaultTests {
  /// Starting a session fails at each of its file operations in turn (scan, identities,
  /// manifest, journal): the store then lists no session or a whole one that opens, and no
  /// temporary file is left.
  @Test func aStartThatFailsAnywhereLeavesNoSessionOrAWholeOne() throws {
    let photos = try photoFolder()
    defer { photos.remove() }
    let dryWork = try TemporaryDirectory()
    defer { dryWork.remove() }
    let dry = FaultInjectingFileSystem()
    _ = try store(dryWork, dry).start(
      folder: photos.path, options: .init(ordering: .modificationTime))
    let manifestOperations = dry.operations.indices.filter {
      dry.operations[$0].contains("manifest.json")
    }.map { $0 + 1 }
    #expect(manifestOperations.count >= 5, "\(dry.operations)")
    for failing in 1...dry.operationCount {
      let work = try TemporaryDirectory()
      defer { work.remove() }
      let faulty = FaultInjectingFileSystem(failingOperation: failing)
      do {
        _ = try store(work, faulty).start(
          folder: photos.path, options: .init(ordering: .modificationTime))
      } catch {
        #expect(namesTheFault(error), "operation \(failing): \(error)")
        if manifestOperations.contains(failing) {
          #expect(error.code == .writeFailed, "operation \(failing): \(error)")
          #expect(error.description.contains("manifest.json"), "\(error)")
        }
      }
      let real = store(work)
      for id in try real.sessionIDs() {
        let opened = try real.open(id)
        #expect(opened.manifest.root == photos.path)
        #expect(Set(opened.manifest.photos).isSubset(of: ["a.jpg", "b.jpg", "c.jpg"]))
      }
      #expect(!allFiles(work.path).contains(where: isTemporary), "operation \(failing)")
    }
  }

  /// A Trash move fails at each of its file operations in turn: afterwards the photo is where
  /// it was with no info file, or in the Trash with its whole info file; nothing else.
  @Test func aTrashMoveThatFailsAnywhereLeavesThePhotoOrAWholeItem() throws {
    let utc = try #require(TimeZone(identifier: "UTC"))
    let now = Date(timeIntervalSince1970: 1_732_227_300)
    func run(_ fileSystem: FaultInjectingFileSystem, _ folder: TemporaryDirectory) throws
      -> String
    {
      let photo = try TestImages.write([1, 2, 3], "photos/p.jpg", in: folder)
      let trash = FreedesktopTrash(
        homeTrash: folder.appending("Trash"), timeZone: utc, fileSystem: fileSystem)
      _ = try trash.trash(photo, now: now)
      return photo
    }
    let dryFolder = try TemporaryDirectory()
    defer { dryFolder.remove() }
    let dry = FaultInjectingFileSystem()
    let dryPhoto = try run(dry, dryFolder)
    #expect(
      dry.operations.contains(
        "open createNew(permissions: 384) \(dryFolder.path)/Trash/info/p.jpg.trashinfo"))
    #expect(dry.operations.contains("rename \(dryPhoto)"))
    for failing in 1...dry.operationCount {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let photo = folder.appending("photos/p.jpg")
      do {
        _ = try run(FaultInjectingFileSystem(failingOperation: failing), folder)
      } catch let error as PhotoSessionError {
        #expect(namesTheFault(error), "operation \(failing): \(error)")
        #expect(error.description.hasPrefix("cannot "), "\(error)")
      }
      let files = allFiles(folder.appending("Trash/files"))
      let infos = allFiles(folder.appending("Trash/info"))
      if FileManager.default.fileExists(atPath: photo) {
        #expect(files.isEmpty && infos.isEmpty, "operation \(failing): \(files) \(infos)")
      } else {
        #expect(files == ["p.jpg"] && infos == ["p.jpg.trashinfo"], "operation \(failing)")
        let info = try String(
          contentsOfFile: folder.appending("Trash/info/p.jpg.trashinfo"), encoding: .utf8)
        #expect(
          info
            == "[Trash Info]\nPath=\(FreedesktopTrash.percentEncode(photo))\nDeletionDate=2024-11-21T22:15:00\n"
        )
      }
    }
  }

  /// An XMP sidecar write (a new sidecar, or a rating merged into an existing one) fails at
  /// each of its file operations in turn: the sidecar is absent or as it was, or whole and
  /// new; no temporary file is left; the error names the file.
  @Test(arguments: [false, true])
  func aSidecarWriteThatFailsAnywhereLeavesTheOldOrTheNewSidecar(existing: Bool) throws {
    let old = XMPSidecar.newPacket(rating: 2)
    let new = XMPSidecar.newPacket(rating: 5)
    func prepare(_ folder: TemporaryDirectory) throws -> String {
      let photo = try TestImages.write(TestImages.jpeg(width: 2, height: 2), "a.jpg", in: folder)
      if existing { _ = try TestImages.write(Array(old.utf8), "a.jpg.xmp", in: folder) }
      return photo
    }
    let dryFolder = try TemporaryDirectory()
    defer { dryFolder.remove() }
    let dry = FaultInjectingFileSystem()
    let written = try XMPSidecar.setRating(
      5, forPhoto: try prepare(dryFolder), cleanUp: true, fileSystem: dry)
    #expect(written.written && dry.operations.contains { $0.hasPrefix("fsync ") })
    for failing in 1...dry.operationCount {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let photo = try prepare(folder)
      do {
        _ = try XMPSidecar.setRating(
          5, forPhoto: photo, cleanUp: true,
          fileSystem: FaultInjectingFileSystem(failingOperation: failing))
      } catch {
        #expect(namesTheFault(error), "operation \(failing): \(error)")
        #expect(error.code == .sidecarFailed || error.code == .unreadable, "\(error)")
      }
      let sidecar = try? String(contentsOfFile: photo + ".xmp", encoding: .utf8)
      #expect(
        sidecar == new || sidecar == (existing ? old : nil),
        "operation \(failing): \(sidecar ?? "none")")
      #expect(allFiles(folder.path) == ["a.jpg", "a.jpg.xmp"] || (!existing && sidecar == nil))
      #expect(!allFiles(folder.path).contains(where: isTemporary), "operation \(failing)")
    }
  }

  /// A swipe's journal append fails at each of its file operations, reached through the
  /// store's file system: the swipe throws `writeFailed`, and the reopened session holds the
  /// swipe or not (a failed write: not), never anything else.
  @Test func aSwipeWhoseAppendFailsIsNotAcknowledged() throws {
    let photos = try photoFolder()
    defer { photos.remove() }
    let dryWork = try TemporaryDirectory()
    defer { dryWork.remove() }
    let dry = FaultInjectingFileSystem()
    let opened = try store(dryWork, dry).start(
      folder: photos.path, options: .init(ordering: .modificationTime))
    let start = dry.operationCount
    try opened.session.swipe(.left)
    let end = dry.operationCount
    try opened.close()
    #expect(end - start == 2, "\(dry.operations.suffix(end - start))")  // one write, one fsync
    for failing in (start + 1)...end {
      let work = try TemporaryDirectory()
      defer { work.remove() }
      let faulty = FaultInjectingFileSystem(failingOperation: failing)
      let session = try store(work, faulty).start(
        folder: photos.path, options: .init(ordering: .modificationTime))
      let error = #expect(throws: PhotoSessionError.self) { try session.session.swipe(.left) }
      #expect(error?.code == .writeFailed)
      #expect(error.map(namesTheFault) == true, "\(String(describing: error))")
      try? session.close()
      let reopened = try store(work).openLatest()
      let decided = reopened.session.state.cursor
      #expect(failing == start + 1 ? decided == 0 : decided <= 1, "operation \(failing)")
    }
  }
}

@Suite("PhotoSessionStore: ids, one lock, manifests old and new")
struct PhotoSessionStoreLayoutTests {
  /// Twelve sessions started in the same second, each over its own folder: the listing is in
  /// start order (`-10` after `-9`) and the latest is the twelfth.
  @Test func twelveSessionsInOneSecondSortByStartAndTheLatestIsTheLast() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let sessions = store(work)
    var started: [(id: String, root: String)] = []
    for index in 0..<12 {
      let folder = try TemporaryDirectory(prefix: "offload-twelve-\(index)")
      defer { folder.remove() }
      _ = try TestImages.write(TestImages.jpeg(width: 2, height: 2), "p\(index).jpg", in: folder)
      let opened = try sessions.start(folder: folder.path)
      started.append((opened.id, opened.manifest.root))
      try opened.close()
    }
    #expect(started[0].id == "20241121-221500")
    #expect(started.dropFirst().map(\.id) == (2...12).map { "20241121-221500-\($0)" })
    #expect(try sessions.sessionIDs() == started.map(\.id))
    #expect(try sessions.sessions().map(\.id) == started.map(\.id))
    let latest = try sessions.openLatest()
    #expect(latest.id == "20241121-221500-12" && latest.manifest.root == started[11].root)
  }

  @Test func idsOfEveryShapeSortByStart() {
    let ids = [
      "notes", "20241121-221500-10", "20241121-221500-2", "20241121-221500",
      "20241120-235959-3", "20241121-221500-9", "20241121-221501", "20241121-221500-x",
    ]
    #expect(
      ids.sorted(by: PhotoSessionStore.startsBefore) == [
        "20241120-235959-3", "20241121-221500", "20241121-221500-2", "20241121-221500-9",
        "20241121-221500-10", "20241121-221500-x", "20241121-221501", "notes",
      ])
  }

  /// A new session takes one lock, its journal's; closing releases it for another opener,
  /// and the closed session refuses further changes.
  @Test func oneLockPerSessionReleasedByClose() throws {
    let photos = try photoFolder()
    defer { photos.remove() }
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let sessions = store(work)
    let first = try sessions.start(folder: photos.path)
    let folder = work.appending("sessions/\(first.id)")
    #expect(allFiles(folder).filter { $0.hasSuffix("lock") } == ["journal.lock"])
    let busy = #expect(throws: PhotoSessionError.self) { try sessions.open(first.id) }
    #expect(busy?.code == .sessionBusy)
    #expect(
      busy?.description
        == "the photo session \"\(first.id)\" is open in another process; close it there first")
    try first.close()
    try first.close()  // twice does nothing more
    let closed = #expect(throws: PhotoSessionError.self) { try first.session.swipe(.left) }
    #expect(closed?.code == .writeFailed)
    let second = try sessions.open(first.id)
    try second.session.swipe(.right)
    #expect(second.session.state.cursor == 1)
  }

  /// A session of an earlier build (a bare version-1 manifest, and the old `lock` file beside
  /// `journal.lock`) still opens and replays; a bare manifest of a newer version or another
  /// format is refused.
  @Test func sessionsOfEarlierBuildsStillOpen() throws {
    let photos = try photoFolder()
    defer { photos.remove() }
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let sessions = store(work)
    var opened: PhotoSessionStore.Opened? = try sessions.start(folder: photos.path)
    let id = try #require(opened?.id)
    try opened?.session.swipe(.left)
    var manifest = try #require(opened?.manifest)
    opened = nil
    let folder = work.appending("sessions/\(id)")
    let text = try String(contentsOfFile: folder + "/manifest.json", encoding: .utf8)
    #expect(text.hasPrefix("{\"data\":{") && text.contains("\"format\":\"offload.photo-session\""))
    manifest.version = 1
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    try (encoder.encode(manifest) + Data("\n".utf8)).write(
      to: URL(fileURLWithPath: folder + "/manifest.json"))
    _ = try TestImages.write([], "sessions/\(id)/lock", in: work)
    let again = try sessions.open(id)
    #expect(again.manifest == manifest && again.session.state.cursor == 1)
    #expect(try sessions.readManifest(id) == manifest)
    try again.close()
    manifest.version = 7
    try encoder.encode(manifest).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
    let newer = #expect(throws: PhotoSessionError.self) { try sessions.open(id) }
    #expect(newer?.code == .sessionCorrupt)
    #expect(
      newer?.description.hasPrefix(
        "the session manifest \"\(folder)/manifest.json\" cannot be read: ")
        == true && newer?.description.contains("newer version") == true,
      "\(newer?.description ?? "")")
    manifest.version = 1
    manifest.format = "offload.other"
    try encoder.encode(manifest).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
    let other = #expect(throws: PhotoSessionError.self) { try sessions.open(id) }
    #expect(other?.code == .sessionCorrupt)
    #expect(
      other?.description.contains("holds a \"offload.other\" document") == true,
      "\(other?.description ?? "")")
  }
}
