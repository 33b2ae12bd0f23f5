import Foundation
import OffloadTestSupport
import PhotoSession
import Testing

@testable import offloadctl

@Suite("photos cull --viewer: a command run on every card, without a shell")
struct PhotoViewerTests {
  @Test func theCommandIsSplitLikeArgumentsWithoutAShell() throws {
    #expect(try PhotoViewer.split("feh  --reload 1") == ["feh", "--reload", "1"])
    #expect(
      try PhotoViewer.split("a 'b c' \"d \\\" e\" f\\ g ''") == ["a", "b c", "d \" e", "f g", ""])
    #expect(try PhotoViewer.split("x; rm -rf $HOME") == ["x;", "rm", "-rf", "$HOME"])
    let open = #expect(throws: PhotoViewer.ViewerError.self) { try PhotoViewer.split("a 'b") }
    #expect(open?.description == "the --viewer command \"a 'b\" has an unclosed quote")
    #expect(throws: PhotoViewer.ViewerError.self) { try PhotoViewer(command: "  ") }
  }

  @Test func aMissingViewerIsReportedOnceAndAFailingOneToo() throws {
    var missing = try PhotoViewer(command: "/nonexistent/viewer --flag")
    #expect(
      missing.show("/p/a.jpg")
        == "the viewer /nonexistent/viewer was not found or is not executable; the screen goes on without it"
    )
    #expect(missing.show("/p/b.jpg") == nil)
    var failing = try PhotoViewer(command: "false")
    #expect(failing.show("/p/a.jpg") == nil)
    var waited = 0
    while waited < 200, failing.show("/p/b.jpg") == nil, !failing.reported {
      usleep(20_000)
      waited += 1
    }
    #expect(failing.reported)
  }

  @Test func cullRunsTheViewerWithEachPhotosPathAsLastArgument() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    let log = fixture.folder.appending("viewer.log")
    let script = fixture.folder.appending("viewer.sh")
    try Data("#!/bin/sh\necho \"$@\" >> '\(log)'\n".utf8).write(to: URL(fileURLWithPath: script))
    chmod(script, 0o755)
    let terminal = try PseudoTerminal(
      product: "offloadctl",
      [
        "photos", "cull", fixture.photos, "--order", "mtime", "--viewer",
        script + " --one 'two words'",
      ],
      columns: 90, rows: 20,
      environment: fixture.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 })
    try terminal.waitForScreen { $0.contains("Session: 0 / 4") }
    terminal.send("\u{1B}[C")  // →
    try terminal.waitForScreen { $0.contains("Session: 1 / 4") }
    terminal.send("q")
    #expect(try terminal.waitForExit() == .exited(0))
    var lines: [String] = []
    for _ in 0..<100 {
      lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        .map(String.init)
      if lines.count >= 2 { break }
      usleep(20_000)
    }
    #expect(
      lines == [
        "--one two words \(fixture.photos)/a.jpg", "--one two words \(fixture.photos)/b.png",
      ])
  }
}

@Suite("The cull screen's inline image: the file, or the JPEG it embeds when large")
struct InlinePreviewTests {
  /// A JPEG whose APP1 `Exif` segment holds a little-endian TIFF whose IFD1 names `thumbnail`.
  static func jpegWithThumbnail(_ thumbnail: [UInt8]) -> [UInt8] {
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
    // Header (8), IFD0 with no entry (6), IFD1 with two entries (30), then the thumbnail.
    var tiff: [UInt8] = Array("II".utf8) + le16(42) + le32(8)
    tiff += le16(0) + le32(14)
    tiff += le16(2)
    tiff += le16(0x201) + le16(4) + le32(1) + le32(44)
    tiff += le16(0x202) + le16(4) + le32(1) + le32(thumbnail.count)
    tiff += le32(0) + thumbnail
    let body = Array("Exif".utf8) + [0, 0] + tiff
    let app1: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)]
    let main = PhotoFiles.jpeg(width: 4000, height: 3000)
    return [0xFF, 0xD8] + app1 + body + main.dropFirst(2)
  }

  @Test func aLargeJPEGSendsItsEXIFThumbnailAndASmallOneItself() throws {
    let folder = try TemporaryDirectory(prefix: "offloadctl-inline")
    defer { folder.remove() }
    let thumbnail = PhotoFiles.jpeg(width: 160, height: 120)
    let small = Self.jpegWithThumbnail(thumbnail)
    #expect(InlinePreview.exifThumbnail(small) == thumbnail)
    #expect(InlinePreview.exifThumbnail(PhotoFiles.jpeg(width: 4, height: 3)) == nil)
    #expect(InlinePreview.exifThumbnail(Array(small.prefix(30))) == nil)
    try Data(small).write(to: URL(fileURLWithPath: folder.appending("small.jpg")))
    #expect(
      InlinePreview.image(path: folder.appending("small.jpg"), format: .jpeg)?.bytes == small)
    // Over the inline limit: only the thumbnail goes to the terminal.
    let large = small + [UInt8](repeating: 0, count: InlineImageProtocol.maximumBytes)
    try Data(large).write(to: URL(fileURLWithPath: folder.appending("large.jpg")))
    let sent = try #require(InlinePreview.image(path: folder.appending("large.jpg"), format: .jpeg))
    #expect(sent.bytes == thumbnail && sent.format == .jpeg)
    try Data(large).write(to: URL(fileURLWithPath: folder.appending("large.png")))
    #expect(InlinePreview.image(path: folder.appending("large.png"), format: .png) == nil)
    #expect(InlinePreview.image(path: folder.appending("missing.jpg"), format: .jpeg) == nil)
  }
}
