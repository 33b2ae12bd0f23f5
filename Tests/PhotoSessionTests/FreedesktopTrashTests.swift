import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

private let utc = TimeZone(identifier: "UTC") ?? .current

@Suite("FreedesktopTrash: info first, exclusive names, volume Trash")
struct FreedesktopTrashTests {
  @Test func trashWritesInfoAndMovesTheFile() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let photo = try TestImages.write(
      TestImages.png(width: 1, height: 1), "My Photos/a b%#é.png", in: folder)
    let trash = FreedesktopTrash(homeTrash: folder.appending("data/Trash"), timeZone: utc)
    let item = try trash.trash(photo, now: Date(timeIntervalSince1970: 1_700_000_000))
    #expect(item.name == "a b%#é.png")
    #expect(!FileManager.default.fileExists(atPath: photo))
    #expect(FileManager.default.fileExists(atPath: folder.appending("data/Trash/files/a b%#é.png")))
    let info = try String(contentsOfFile: item.info, encoding: .utf8)
    let encoded = FreedesktopTrash.percentEncode(photo)
    #expect(encoded.hasSuffix("/My%20Photos/a%20b%25%23%C3%A9.png"))
    #expect(info == "[Trash Info]\nPath=\(encoded)\nDeletionDate=2023-11-14T22:13:20\n")
    #expect(FreedesktopTrash.percentDecode(Substring(encoded)) == photo)
    #expect(FreedesktopTrash.percentDecode("%G1") == nil)
    #expect(trash.locate(original: photo)?.file == item.file)
  }

  @Test func nameCollisionsGetNumberedNames() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let trash = FreedesktopTrash(homeTrash: folder.appending("Trash"), timeZone: utc)
    var names: [String] = []
    for round in 0..<3 {
      let photo = try TestImages.write([UInt8(round)], "d\(round)/IMG.JPG", in: folder)
      names.append(try trash.trash(photo).name)
    }
    // A stale file in files/ without an info file also blocks its name.
    try TestImages.write([9], "Trash/files/IMG.4.JPG", in: folder)
    names.append(try trash.trash(try TestImages.write([3], "d3/IMG.JPG", in: folder)).name)
    names.append(try trash.trash(try TestImages.write([4], "noext", in: folder)).name)
    names.append(try trash.trash(try TestImages.write([5], "x/noext", in: folder)).name)
    #expect(names == ["IMG.JPG", "IMG.2.JPG", "IMG.3.JPG", "IMG.5.JPG", "noext", "noext.2"])
    #expect(
      !FileManager.default.fileExists(atPath: folder.appending("Trash/info/IMG.4.JPG.trashinfo")))
  }

  @Test func missingFileAndUnwritableTrash() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let trash = FreedesktopTrash(homeTrash: folder.appending("Trash"))
    let missing = #expect(throws: PhotoSessionError.self) {
      try trash.trash(folder.appending("gone.jpg"))
    }
    #expect(missing?.code == .photoMissing)
    #expect(
      missing?.description
        == "cannot trash \"\(folder.appending("gone.jpg"))\": it is no longer there (moved or deleted)"
    )
    // A file where the Trash folder should be.
    try TestImages.write([1], "Trash", in: folder)
    let photo = try TestImages.write([1], "p.jpg", in: folder)
    let blocked = #expect(throws: PhotoSessionError.self) { try trash.trash(photo) }
    #expect(blocked?.code == .trashFailed)
    #expect(FileManager.default.fileExists(atPath: photo))
  }

  /// Another file system, simulated by device numbers: the volume's `.Trash-$uid` is used, with
  /// a `Path=` relative to the volume's top directory.
  @Test func filesOnAnotherDeviceGoToTheVolumeTrash() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let volume = folder.appending("volume")
    let uid = UInt32(getuid())
    let photo = try TestImages.write([1], "volume/DCIM/p.jpg", in: folder)
    let devices: @Sendable (String) -> UInt64? = { path in path.hasPrefix(volume) ? 2 : 1 }
    let trash = FreedesktopTrash(
      homeTrash: folder.appending("home/Trash"), userID: uid, timeZone: utc, deviceOf: devices)
    let item = try trash.trash(photo, now: Date(timeIntervalSince1970: 0))
    #expect(item.trash == volume + "/.Trash-\(uid)")
    #expect(
      try String(contentsOfFile: item.info, encoding: .utf8)
        == "[Trash Info]\nPath=DCIM/p.jpg\nDeletionDate=1970-01-01T00:00:00\n")
    #expect(trash.locate(original: photo)?.file == item.file)
    // An administrator's sticky `.Trash` is preferred: `.Trash/$uid`.
    try FileManager.default.createDirectory(
      atPath: volume + "/.Trash", withIntermediateDirectories: true)
    chmod(volume + "/.Trash", 0o1777)
    let second = try TestImages.write([2], "volume/q.jpg", in: folder)
    #expect(try trash.trash(second).trash == volume + "/.Trash/\(uid)")
    // A `.Trash` without the sticky bit is not safe and is skipped.
    chmod(volume + "/.Trash", 0o777)
    let third = try TestImages.write([3], "volume/r.jpg", in: folder)
    #expect(try trash.trash(third).trash == volume + "/.Trash-\(uid)")
  }

  @Test func volumeTrashThatCannotBeMadeRefusesAndLeavesTheFile() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let volume = folder.appending("volume")
    let photo = try TestImages.write([1], "volume/p.jpg", in: folder)
    // `.Trash-1234` exists but is a file: unusable.
    try TestImages.write([0], "volume/.Trash-1234", in: folder)
    let trash = FreedesktopTrash(
      homeTrash: folder.appending("home/Trash"), userID: 1234,
      deviceOf: { path in path.hasPrefix(volume) ? 2 : 1 })
    let error = #expect(throws: PhotoSessionError.self) { try trash.trash(photo) }
    #expect(error?.code == .crossDevice)
    #expect(
      error?.description
        == "cannot trash \"\(photo)\": it is on another file system than the home Trash \"\(folder.appending("home/Trash"))\" and no Trash can be made at \"\(volume)/.Trash-1234\"; nothing was moved"
    )
    #expect(FileManager.default.fileExists(atPath: photo))
  }

  @Test(.enabled(if: geteuid() == 0, "needs to mount a second file system"))
  func aRealSecondFileSystem() throws {
    guard let mount = TemporaryMount.make() else {
      Issue.record("could not mount a tmpfs")
      return
    }
    defer { mount.remove() }
    let home = try TemporaryDirectory()
    defer { home.remove() }
    let photo = mount.path + "/p.jpg"
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: photo))
    let trash = FreedesktopTrash(homeTrash: home.appending("Trash"))
    let item = try trash.trash(photo)
    #expect(item.trash == mount.path + "/.Trash-\(getuid())")
    #expect(try Data(contentsOf: URL(fileURLWithPath: item.file)) == Data([1, 2, 3]))
  }

  @Test func orphanedInfoFilesAreRemoved() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let photo = try TestImages.write([1], "p.jpg", in: folder)
    let trash = FreedesktopTrash(homeTrash: folder.appending("Trash"))
    // What a crash between the info file and the move leaves.
    try TestImages.write(
      Array(
        "[Trash Info]\nPath=\(FreedesktopTrash.percentEncode(photo))\nDeletionDate=2020-01-01T00:00:00\n"
          .utf8), "Trash/info/p.jpg.trashinfo", in: folder)
    // What a crash right after the exclusive create leaves: an empty info file.
    try TestImages.write([], "Trash/info/p.2.jpg.trashinfo", in: folder)
    // Another file's info file, and one whose file is in the Trash, are kept.
    try TestImages.write(
      Array("[Trash Info]\nPath=/elsewhere/p.jpg\n".utf8), "Trash/info/p.3.jpg.trashinfo",
      in: folder)
    try TestImages.write([], "Trash/info/p.4.jpg.trashinfo", in: folder)
    try TestImages.write([1], "Trash/files/p.4.jpg", in: folder)
    #expect(trash.locate(original: photo) == nil)
    trash.removeOrphanedInfo(original: photo)
    #expect(!FileManager.default.fileExists(atPath: folder.appending("Trash/info/p.jpg.trashinfo")))
    #expect(
      !FileManager.default.fileExists(atPath: folder.appending("Trash/info/p.2.jpg.trashinfo")))
    #expect(
      FileManager.default.fileExists(atPath: folder.appending("Trash/info/p.3.jpg.trashinfo")))
    #expect(
      FileManager.default.fileExists(atPath: folder.appending("Trash/info/p.4.jpg.trashinfo")))
    #expect(try trash.trash(photo).name == "p.jpg")
    #expect(trash.locate(original: photo)?.name == "p.jpg")
  }

  @Test func userTrashFollowsXDGDataHome() {
    #expect(
      FreedesktopTrash.user(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/h"]).homeTrash
        == "/x/data/Trash")
    #expect(
      FreedesktopTrash.user(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).homeTrash
        == "/h/.local/share/Trash")
    #expect(FreedesktopTrash.user(environment: ["HOME": "/h"]).homeTrash == "/h/.local/share/Trash")
  }
}
