import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

/// Names of the entries of `folder`, sorted (empty when it does not exist).
private func listing(_ folder: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// A camera folder: RAW + JPEG with a shared sidecar, an edit file and a Live Photo video; a
/// PNG with its `NAME.EXT.xmp`; RAW + JPEG without sidecars; a JPEG with an existing rated
/// sidecar; a RAW alone; an orphaned sidecar and a video alone.
private func makeCameraFolder(_ photos: TemporaryDirectory) throws {
  let files: [(String, [UInt8])] = [
    ("A.png", TestImages.png(width: 3, height: 2)),
    ("A.png.xmp", Array(XMPSidecar.newPacket(rating: 1).utf8)),
    ("IMG_0100.JPG", TestImages.jpeg(width: 40, height: 30, date: "2021:05:01 10:00:00")),
    (
      "IMG_0100.dng",
      TestImages.tiffRaw(canon: false, width: 40, height: 30, date: "2021:05:01 10:00:00")
    ),
    ("IMG_0100.xmp", Array(XMPSidecar.newPacket(rating: 2).utf8)),
    ("img_0100.aae", Array("<?xml version=\"1.0\"?><plist/>".utf8)),
    ("IMG_0100.MOV", [0, 0, 0, 8] + Array("ftypqt  ".utf8)),
    ("P1.cr2", TestImages.tiffRaw(canon: true, width: 6, height: 4, date: "2021:05:01 10:00:01")),
    ("P1.jpg", TestImages.jpeg(width: 6, height: 4)),
    ("RAW.nef", TestImages.tiffRaw(canon: false, width: 8, height: 6, date: "2021:05:01 10:00:02")),
    ("orphan.xmp", Array(XMPSidecar.newPacket(rating: 3).utf8)),
    ("clip.mov", [0, 0, 0, 8] + Array("ftypqt  ".utf8)),
  ]
  for (index, (name, bytes)) in files.enumerated() {
    try TestImages.write(bytes, name, in: photos, modified: Double(1_600_000_000 + index))
  }
}

@Suite("Companions: files sharing a base name are one card, and every decision acts on all")
struct CompanionTests {
  @Test func theScanGroupsByBaseNameCaseInsensitivelyAndPrefersTheJPEG() throws {
    let photos = try TemporaryDirectory(prefix: "offload-companions")
    defer { photos.remove() }
    try makeCameraFolder(photos)
    let scan = try FolderScan.scan(photos.path, options: .init(ordering: .modificationTime))
    let byPhoto = Dictionary(uniqueKeysWithValues: zip(scan.photos, scan.companions))
    #expect(Set(scan.photos) == ["A.png", "IMG_0100.JPG", "P1.jpg", "RAW.nef", "clip.mov"])
    #expect(byPhoto["A.png"] == ["A.png.xmp"])
    #expect(
      byPhoto["IMG_0100.JPG"] == ["IMG_0100.MOV", "IMG_0100.dng", "IMG_0100.xmp", "img_0100.aae"])
    #expect(byPhoto["P1.jpg"] == ["P1.cr2"])
    #expect(byPhoto["RAW.nef"] == [])
    // A video alone is a card of its own.
    #expect(byPhoto["clip.mov"] == [])
    #expect(scan.identities.count == scan.photos.count)
    #expect(scan.companionIdentities.map(\.count) == scan.companions.map(\.count))
    // A sidecar alone is reported, not dropped silently and not a card.
    #expect(scan.issues.map(\.path) == ["orphan.xmp"])
    #expect(
      scan.issues.first?.message
        == "\"orphan.xmp\" has no photo or video beside it (a sidecar or edit file alone); it is not a card and stays where it is"
    )
    #expect(scan.issues.allSatisfy { $0.code == .unsupportedFormat })
    #expect(Companion.stem("x/A.PNG.XMP") == "x/a" && Companion.stem("x.y/b") == "x.y/b")
    #expect(Companion.stem("IMG.1.jpg") == "img.1" && Companion.stem("IMG.xmp") == "img")
  }

  @Test func trashMovesEveryFileOfTheCardAndFavoriteRatesEveryImage() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-companions")
    defer { photos.remove() }
    try makeCameraFolder(photos)
    let store = PhotoSessionStore(
      folder: work.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")))
    var opened: PhotoSessionStore.Opened? = try store.start(
      folder: photos.path, options: .init(ordering: .modificationTime))
    let id = try #require(opened?.id)
    let order = try #require(opened?.manifest.photos)
    #expect(order == ["A.png", "IMG_0100.JPG", "P1.jpg", "RAW.nef", "clip.mov"])
    #expect(opened?.manifest.companions?["IMG_0100.JPG"]?.count == 4)
    try opened?.session.swipe(.left)  // A.png
    try opened?.session.swipe(.left)  // IMG_0100.JPG
    try opened?.session.swipe(.right)  // P1.jpg
    try opened?.session.swipe(.up)  // RAW.nef
    opened = nil
    let again = try store.open(id)
    let dry = try again.session.commit(dryRun: true)
    #expect(dry.applied.first?.detail.hasSuffix(" with \"A.png.xmp\"") == true)
    let report = try again.session.commit()
    #expect(report.failed.isEmpty, "\(report.failed.map(\.detail))")
    #expect(
      report.applied.map(\.detail)[1]
        == "moved \"IMG_0100.JPG\" to the Trash as \"\(work.appending("data/Trash/files/IMG_0100.JPG"))\" with \"IMG_0100.MOV\", \"IMG_0100.dng\", \"IMG_0100.xmp\", \"img_0100.aae\""
    )
    let trashed = [
      "A.png", "A.png.xmp", "IMG_0100.JPG", "IMG_0100.MOV", "IMG_0100.dng",
      "IMG_0100.xmp", "img_0100.aae",
    ]
    #expect(listing(work.appending("data/Trash/files")) == trashed.sorted())
    #expect(
      listing(work.appending("data/Trash/info")) == trashed.map { $0 + ".trashinfo" }.sorted())
    for name in trashed {
      let info = try String(
        contentsOfFile: work.appending("data/Trash/info/\(name).trashinfo"), encoding: .utf8)
      #expect(info.contains("Path=\(FreedesktopTrash.percentEncode(photos.appending(name)))\n"))
    }
    // The favorite's two images each got a sidecar rated 5; the kept RAW is untouched.
    for image in ["P1.jpg", "P1.cr2"] {
      let sidecar = try String(contentsOfFile: photos.appending(image + ".xmp"), encoding: .utf8)
      #expect(sidecar.contains("xmp:Rating=\"5\""), "\(image)")
    }
    #expect(
      listing(photos.path) == [
        "P1.cr2", "P1.cr2.xmp", "P1.jpg", "P1.jpg.xmp", "RAW.nef", "clip.mov", "orphan.xmp",
      ])
    #expect(try again.session.commit().applied.isEmpty)
  }
}

@Suite("Restore: trashed cards come back byte for byte")
struct RestoreTests {
  @Test func restoreBringsEveryFileBackAndRefusesATakenPath() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-restore")
    defer { photos.remove() }
    try makeCameraFolder(photos)
    let before = try folderDigest(photos.path)
    #expect(before.split(separator: "\n").count == 12)
    let store = PhotoSessionStore(
      folder: work.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")))
    let opened = try store.start(folder: photos.path, options: .init(ordering: .modificationTime))
    try opened.session.swipe(.left)  // A.png
    try opened.session.swipe(.left)  // IMG_0100.JPG
    try opened.session.swipe(.up)  // P1.jpg
    try opened.session.swipe(.left)  // RAW.nef
    #expect(try opened.session.commit().failed.isEmpty)
    #expect(try folderDigest(photos.path) != before)
    // RAW.nef's path is taken by a new file: refused, nothing moved.
    try TestImages.write(Array("new".utf8), "RAW.nef", in: photos)
    let taken = #expect(throws: PhotoSessionError.self) { try opened.library.restore("RAW.nef") }
    #expect(taken?.code == .restoreRefused)
    #expect(
      taken?.description
        == "cannot restore \"RAW.nef\": \"RAW.nef\" is taken by another file; nothing was moved")
    #expect(listing(work.appending("data/Trash/files")).contains("RAW.nef"))
    #expect(
      try opened.library.restore("IMG_0100.JPG")
        == "restored from the Trash with 4 companion files")
    #expect(try opened.library.restore("A.png") == "restored from the Trash with 1 companion file")
    try opened.library.flush()
    try FileManager.default.removeItem(atPath: photos.appending("RAW.nef"))
    #expect(try opened.library.restore("RAW.nef") == "restored from the Trash")
    #expect(try folderDigest(photos.path) == before)
    #expect(listing(work.appending("data/Trash/files")).isEmpty)
    #expect(listing(work.appending("data/Trash/info")).isEmpty)
    let again = #expect(throws: PhotoSessionError.self) { try opened.library.restore("A.png") }
    #expect(again?.description == "\"A.png\" is not in the Trash")
  }
}
