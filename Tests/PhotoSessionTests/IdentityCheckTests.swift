import Foundation
import OffloadTestSupport
import Persistence
import Testing

@testable import PhotoSession

/// Names of the entries of `folder`, sorted (empty when it does not exist).
private func names(_ folder: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

@Suite("Commit checks identity: a photo changed since start is skipped, never trashed")
struct IdentityCheckTests {
  /// A folder of six photos ordered by modification time (a.jpg first), a session that
  /// decided trash for the first five and favorite for the sixth.
  private func decidedSession(
    _ work: TemporaryDirectory, _ photos: TemporaryDirectory
  ) throws -> PhotoSessionStore.Opened {
    let files: [(String, [UInt8])] = [
      ("a.jpg", TestImages.jpeg(width: 4, height: 3, date: "2021:05:01 10:00:00")),
      ("b.png", TestImages.png(width: 5, height: 5)),
      ("c.jpg", TestImages.jpeg(width: 6, height: 3)),
      ("d.jpg", TestImages.jpeg(width: 7, height: 3)),
      ("e.jpg", TestImages.jpeg(width: 8, height: 3)),
      ("f.jpg", TestImages.jpeg(width: 9, height: 3)),
    ]
    for (index, (name, bytes)) in files.enumerated() {
      try TestImages.write(bytes, name, in: photos, modified: Double(1_600_000_000 + index))
    }
    let store = PhotoSessionStore(
      folder: work.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")))
    let opened = try store.start(folder: photos.path, options: .init(ordering: .modificationTime))
    #expect(opened.manifest.photos == files.map(\.0))
    for _ in 0..<5 { try opened.session.swipe(.left) }
    try opened.session.swipe(.right)
    return opened
  }

  @Test func aPhotoReplacedByAFolderOrAnotherFileIsSkippedAndReported() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-identity")
    defer { photos.remove() }
    let opened = try decidedSession(work, photos)
    let manager = FileManager.default
    // a.jpg: replaced by a folder holding a file.
    try manager.removeItem(atPath: photos.appending("a.jpg"))
    try TestImages.write(Array("keep me".utf8), "a.jpg/inside.txt", in: photos)
    // b.png: replaced by another file of the same size and modification time (a new inode).
    let original = try Array(Data(contentsOf: URL(fileURLWithPath: photos.appending("b.png"))))
    var other = original
    other[other.count - 1] ^= 0xFF
    try TestImages.write(other, "new.tmp", in: photos, modified: 1_600_000_001)
    #expect(rename(photos.appending("new.tmp"), photos.appending("b.png")) == 0)
    // c.jpg: grew by one byte; d.jpg: modified in place, same size.
    let grown = try FileHandle(forWritingTo: URL(fileURLWithPath: photos.appending("c.jpg")))
    try grown.seekToEnd()
    try grown.write(contentsOf: [0])
    try grown.close()
    try manager.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)],
      ofItemAtPath: photos.appending("d.jpg"))
    // f.jpg (favorite): replaced by a folder.
    try manager.removeItem(atPath: photos.appending("f.jpg"))
    try manager.createDirectory(
      atPath: photos.appending("f.jpg"), withIntermediateDirectories: false)

    let report = try opened.session.commit()
    #expect(report.applied.map(\.photo) == ["e.jpg"])
    #expect(report.failed.map(\.photo) == ["a.jpg", "b.png", "c.jpg", "d.jpg", "f.jpg"])
    #expect(report.failed.allSatisfy { $0.failure?.code == .photoChanged })
    #expect(
      report.failed.map(\.detail) == [
        "skipped \"a.jpg\": it is now a folder, not the photo shown; nothing was changed",
        "skipped \"b.png\": it is another file than the one the session saw (its inode changed); nothing was changed",
        "skipped \"c.jpg\": its size changed from \(TestImages.jpeg(width: 6, height: 3).count) to \(TestImages.jpeg(width: 6, height: 3).count + 1) bytes; nothing was changed",
        "skipped \"d.jpg\": it was modified since the session started; nothing was changed",
        "skipped \"f.jpg\": it is now a folder, not the photo shown; nothing was changed",
      ])
    // Only e.jpg went to the Trash; the folder and its contents are where they were.
    #expect(names(work.appending("data/Trash/files")) == ["e.jpg"])
    #expect(names(work.appending("data/Trash/info")) == ["e.jpg.trashinfo"])
    #expect(names(photos.appending("a.jpg")) == ["inside.txt"])
    #expect(
      try String(contentsOfFile: photos.appending("a.jpg/inside.txt"), encoding: .utf8)
        == "keep me")
    #expect(names(photos.path) == ["a.jpg", "b.png", "c.jpg", "d.jpg", "f.jpg"])
    #expect(names(photos.appending("f.jpg")).isEmpty)
    // The skipped photos stay pending; the next commit skips them again, trashing nothing.
    #expect(opened.session.statistics.failed == 5)
    let again = try opened.session.commit()
    #expect(again.applied.isEmpty && again.failed.count == 5)
    #expect(names(work.appending("data/Trash/files")) == ["e.jpg"])
  }

  @Test func theCheckHoldsAfterReopeningAndADamagedIdentitiesFileIsReported() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-identity")
    defer { photos.remove() }
    var opened: PhotoSessionStore.Opened? = try decidedSession(work, photos)
    let id = try #require(opened?.id)
    let store = PhotoSessionStore(
      folder: work.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")))
    opened = nil
    // Identities are written at start, one line per photo in manifest order.
    let file = work.appending("sessions/\(id)/identities")
    let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 6)
    let status = try POSIXFileSystem().status(photos.appending("a.jpg"), followingLinks: false)
    #expect(FileIdentity(line: lines[0]) == FileIdentity(status))
    #expect(FileIdentity(line: "1 2 x 4") == nil && FileIdentity(line: "1 2 3") == nil)

    try FileManager.default.removeItem(atPath: photos.appending("a.jpg"))
    try FileManager.default.createDirectory(
      atPath: photos.appending("a.jpg"), withIntermediateDirectories: false)
    let reopened = try store.open(id)
    let report = try reopened.session.commit()
    #expect(report.failed.map(\.photo) == ["a.jpg"])
    #expect(report.applied.count == 5)
    #expect(names(work.appending("data/Trash/files")) == ["b.png", "c.jpg", "d.jpg", "e.jpg"])

    // A damaged identities file refuses every trash, naming the file and the line.
    let other = try TemporaryDirectory()
    defer { other.remove() }
    let photos2 = try TemporaryDirectory(prefix: "offload-identity")
    defer { photos2.remove() }
    var second: PhotoSessionStore.Opened? = try decidedSession(other, photos2)
    let secondID = try #require(second?.id)
    second = nil
    let damaged = other.appending("sessions/\(secondID)/identities")
    try Data("1 2 3 4\nnot numbers\n1 2 3 4\n1 2 3 4\n1 2 3 4\n1 2 3 4\n".utf8).write(
      to: URL(fileURLWithPath: damaged))
    let store2 = PhotoSessionStore(
      folder: other.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: other.appending("data/Trash")))
    let secondAgain = try store2.open(secondID)
    let broken = try secondAgain.session.commit()
    #expect(broken.applied.isEmpty && broken.failed.count == 6)
    #expect(broken.failed.allSatisfy { $0.failure?.code == .sessionCorrupt })
    #expect(
      broken.failed.first?.detail == "the session file \"\(damaged)\" is damaged at line 2")
    #expect(names(other.appending("data/Trash/files")).isEmpty)
  }
}
