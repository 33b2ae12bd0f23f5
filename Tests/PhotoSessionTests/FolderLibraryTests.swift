import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

private let utc = TimeZone(identifier: "UTC") ?? .current

/// A folder with one photo of every format, some with EXIF dates, some without.
func makeMixedFolder(_ folder: TemporaryDirectory) throws {
  // EXIF dates (UTC here): 2020-01-01 10:00:00 = 1577872800.
  try TestImages.write(
    TestImages.jpeg(width: 40, height: 30, orientation: 6, date: "2020:01:01 10:00:02"), "c.jpg",
    in: folder, modified: 1_700_000_000)
  try TestImages.write(
    TestImages.png(width: 10, height: 20), "b.png", in: folder, modified: 1_577_872_801)
  try TestImages.write(
    TestImages.gif(width: 5, height: 5), "a.gif", in: folder, modified: 1_577_872_801)
  try TestImages.write(
    TestImages.webpLossy(width: 8, height: 8), "d.webp", in: folder, modified: 1_600_000_000)
  try TestImages.write(
    TestImages.tiff(width: 3, height: 4, date: "2019:06:01 00:00:00"), "e.TIF", in: folder,
    modified: 1_700_000_000)
  try TestImages.write(
    TestImages.heif(width: 12, height: 6, rotation: 3), "f.heic", in: folder,
    modified: 1_650_000_000)
  try TestImages.write(Array("not an image".utf8), "notes.txt", in: folder)
  try TestImages.write(TestImages.png(width: 1, height: 1), ".hidden.png", in: folder)
  try TestImages.write([], "empty.jpg", in: folder)
  try TestImages.write(
    TestImages.jpeg(width: 1, height: 1), "sub/g.jpg", in: folder, modified: 1_500_000_000)
  try FileManager.default.createSymbolicLink(
    atPath: folder.appending("link.jpg"), withDestinationPath: folder.appending("c.jpg"))
}

@Suite("FolderScan and FolderLibrary: ordering, bad files, metadata")
struct FolderLibraryTests {
  @Test func ordersByCaptureDateThenModificationTimeThenName() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try makeMixedFolder(folder)
    let scan = try FolderScan.scan(folder.path, options: .init(timeZone: utc))
    #expect(scan.photos == ["e.TIF", "a.gif", "b.png", "c.jpg", "d.webp", "f.heic"])
    #expect(scan.issues.map(\.path) == ["empty.jpg", "link.jpg"])
    #expect(
      scan.issues.map(\.message) == [
        "\"empty.jpg\" is an empty file; it was skipped",
        "\"link.jpg\" is a symbolic link; it was skipped (trashing it would not trash the photo)",
      ])
    let byTime = try FolderScan.scan(
      folder.path, options: .init(recursive: true, ordering: .modificationTime))
    #expect(byTime.photos == ["sub/g.jpg", "a.gif", "b.png", "d.webp", "f.heic", "c.jpg", "e.TIF"])
    // The same folder scans to the same order every time.
    #expect(try FolderScan.scan(folder.path, options: .init(timeZone: utc)).photos == scan.photos)
  }

  @Test func badFolders() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let missing = #expect(throws: PhotoSessionError.self) {
      try FolderScan.scan(folder.appending("nope"))
    }
    #expect(missing?.code == .notAFolder)
    #expect(
      missing?.description
        == "\"\(folder.appending("nope"))\" is not a folder: give the folder that holds the photos")
    let file = try TestImages.write([1], "file.jpg", in: folder)
    #expect(
      (#expect(throws: PhotoSessionError.self) { try FolderScan.scan(file) })?.code == .notAFolder)
    let emptyFolder = folder.appending("empty")
    try FileManager.default.createDirectory(atPath: emptyFolder, withIntermediateDirectories: true)
    try TestImages.write([1], "empty/sub/deep.jpg", in: folder)
    let empty = #expect(throws: PhotoSessionError.self) { try FolderScan.scan(emptyFolder) }
    #expect(empty?.code == .emptyLibrary)
    #expect(
      empty?.description
        == "\"\(emptyFolder)\" holds no photos (JPEG, PNG, HEIC, GIF, WebP, TIFF or raw); add --recursive to look in subfolders"
    )
    #expect(
      try FolderScan.scan(emptyFolder, options: .init(recursive: true)).photos == ["sub/deep.jpg"])
  }

  @Test(.enabled(if: geteuid() != 0, "root reads every file"))
  func unreadableFilesAreKeptAndReported() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = try TestImages.write(TestImages.png(width: 1, height: 1), "locked.png", in: folder)
    chmod(path, 0)
    let scan = try FolderScan.scan(folder.path)
    #expect(scan.photos == ["locked.png"])
    #expect(scan.issues.map(\.code) == [.unreadable])
  }

  @Test func metadataOfEveryKindOfFile() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try makeMixedFolder(folder)
    try TestImages.write(
      Array(TestImages.png(width: 9, height: 9).prefix(20)), "cut.png", in: folder)
    try TestImages.write(
      [0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "bad.jpg", in: folder)
    try TestImages.write(Array(repeating: 0x41, count: 40), "text.png", in: folder)
    let library = FolderLibrary(
      root: folder.path, trash: FreedesktopTrash(homeTrash: folder.appending("T")))
    let jpeg = try library.metadata(of: "c.jpg")
    #expect(jpeg.format == .jpeg && jpeg.pixelWidth == 40 && jpeg.displayWidth == 30)
    #expect(jpeg.captureDate == "2020-01-01T10:00:02" && jpeg.modificationTime == 1_700_000_000)
    #expect(try library.metadata(of: "f.heic").orientation == 6)
    func failure(_ photo: String) -> PhotoSessionError? {
      #expect(throws: PhotoSessionError.self) { try library.metadata(of: photo) }
    }
    #expect(
      failure("cut.png")?.description
        == "\"cut.png\" is cut short: its PNG height at byte 20 is missing")
    #expect(
      failure("bad.jpg")?.description
        == "\"bad.jpg\" is damaged at byte 2: the JPEG has no frame header before its image data")
    #expect(
      failure("text.png")?.description
        == "\"text.png\" is not an image this reader knows (its signature is unknown)")
    #expect(failure("empty.jpg")?.description == "\"empty.jpg\" is an empty file")
    #expect(
      failure("gone.jpg")?.description
        == "\"gone.jpg\" is no longer in the folder: it was moved or deleted")
    #expect(failure("link.jpg")?.code == .unsupportedFormat)
  }

  @Test func aLongHeaderIsReadBeyondTheFirstRead() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try TestImages.write(
      TestImages.jpeg(width: 33, height: 44, padding: 600_000), "long.jpg", in: folder)
    let library = FolderLibrary(
      root: folder.path, trash: FreedesktopTrash(homeTrash: folder.appending("T")))
    #expect(try library.metadata(of: "long.jpg").pixelHeight == 44)
  }

  @Test func exifDatesAreReadInTheGivenTimeZone() {
    #expect(FolderScan.secondsSince1970("1970-01-01T00:00:00", timeZone: utc) == 0)
    #expect(FolderScan.secondsSince1970("2020-01-01T10:00:00", timeZone: utc) == 1_577_872_800)
    let paris = TimeZone(identifier: "Europe/Paris") ?? utc
    #expect(FolderScan.secondsSince1970("2020-07-01T12:00:00", timeZone: paris) == 1_593_597_600)
  }

  @Test func formatsByExtension() {
    #expect(ImageFormat(fileName: "a.JPEG") == .jpeg && ImageFormat(fileName: "b.Rw2") == .rw2)
    #expect(ImageFormat(fileName: ".jpg") == nil && ImageFormat(fileName: "noext") == nil)
    #expect(ImageFormat.allCases.filter(\.isRaw).count == 8)
  }
}
