import Foundation
import OffloadTestSupport
import Testing

/// `offloadctl photos preview`, run as a user runs it: generated files with real decodable
/// JPEGs embedded, the output compared byte for byte, the refusals with their exit codes.
@Suite("offloadctl photos preview")
struct PhotoPreviewCommandTests {
  let folder: TemporaryDirectory
  var environment: [String: String] { ["OFFLOAD_HOME": folder.appending("store"), "TZ": "UTC"] }

  let main = TestJPEG.encode(width: 96, height: 64, seed: 1)
  let thumbnail = TestJPEG.encode(width: 24, height: 16, seed: 2)

  init() throws { folder = try TemporaryDirectory(prefix: "offload-preview") }

  func run(_ arguments: [String]) throws -> ProcessResult {
    try BuiltProduct.run("offloadctl", ["photos", "preview"] + arguments, environment: environment)
  }

  func file(_ name: String, _ bytes: [UInt8]) -> String {
    let path = folder.appending(name)
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    return path
  }

  func contents(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
  }

  @Test func writesTheEmbeddedJPEGOfEachFormat() throws {
    defer { folder.remove() }
    let rawPreview = TestJPEG.encode(width: 120, height: 80, seed: 3)
    let rawThumbnail = TestJPEG.encode(width: 16, height: 8, seed: 4)
    let cases: [(name: String, bytes: [UInt8], thumbnail: Bool, expected: [UInt8])] = [
      ("exif.jpg", TestJPEG.withEXIFThumbnail(main, thumbnail: thumbnail), true, thumbnail),
      (
        "raw.nef", TestJPEG.tiffRaw(preview: rawPreview, thumbnail: rawThumbnail), false, rawPreview
      ),
      (
        "raw.dng", TestJPEG.tiffRaw(preview: rawPreview, thumbnail: rawThumbnail), true,
        rawThumbnail
      ),
      (
        "canon.cr3",
        TestJPEG.cr3(
          preview: main, previewSize: (96, 64), thumbnail: thumbnail, thumbnailSize: (24, 16)),
        false, main
      ),
      (
        "canon2.cr3",
        TestJPEG.cr3(
          preview: main, previewSize: (96, 64), thumbnail: thumbnail, thumbnailSize: (24, 16)),
        true, thumbnail
      ),
    ]
    for (index, item) in cases.enumerated() {
      let photo = file(item.name, item.bytes)
      let output = folder.appending("out\(index).jpg")
      let result = try run([photo, "--output", output] + (item.thumbnail ? ["--thumbnail"] : []))
      #expect(result.status == 0, "\(item.name): \(result)")
      #expect(contents(output) == item.expected, "\(item.name)")
      #expect(result.stdout.hasPrefix("Wrote the "), "\(result)")
    }
  }

  @Test func jsonNamesWhatWasWritten() throws {
    defer { folder.remove() }
    let photo = file("exif.jpg", TestJPEG.withEXIFThumbnail(main, thumbnail: thumbnail))
    let output = folder.appending("thumb.jpg")
    let result = try run([photo, "-o", output, "--thumbnail", "--json"])
    #expect(result.status == 0, "\(result)")
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    let document = try #require(object as? [String: Any])
    #expect(document["kind"] as? String == "thumbnail")
    #expect(document["byteCount"] as? Int == thumbnail.count)
    #expect(document["pixelWidth"] as? Int == 24)
    #expect(document["pixelHeight"] as? Int == 16)
    #expect(document["schemaVersion"] as? Int == 1)
  }

  @Test func refusalsSayWhichFileAndWhyWithTheirExitCodes() throws {
    defer { folder.remove() }
    let plain = file("plain.jpg", main)
    let png = file("image.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])
    let output = folder.appending("out.jpg")
    // No EXIF thumbnail: 65, one line naming the file and the reason, nothing written.
    let none = try run([plain, "--output", output, "--thumbnail"])
    #expect(none.status == 65)
    #expect(
      none.stderr.contains(
        "no thumbnail in \(plain): it carries no embedded JPEG a browser can decode"), "\(none)")
    #expect(none.stderr.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: output))
    let unsupported = try run([png, "--output", output])
    #expect(unsupported.status == 65)
    #expect(unsupported.stderr.contains("its format carries no embedded JPEG"), "\(unsupported)")
    // A missing photo: 66.
    let missing = try run([folder.appending("nosuch.nef"), "--output", output])
    #expect(missing.status == 66)
    #expect(missing.stderr.contains("no such photo"), "\(missing)")
    // An existing output is kept unless --force: 73, the old bytes intact.
    let photo = file("exif.jpg", TestJPEG.withEXIFThumbnail(main, thumbnail: thumbnail))
    #expect(FileManager.default.createFile(atPath: output, contents: Data("keep".utf8)))
    let kept = try run([photo, "--output", output])
    #expect(kept.status == 73)
    #expect(kept.stderr.contains("exists; pass --force to replace it"), "\(kept)")
    #expect(contents(output) == Array("keep".utf8))
    let forced = try run([photo, "--output", output, "--thumbnail", "--force"])
    #expect(forced.status == 0, "\(forced)")
    #expect(contents(output) == thumbnail)
    // No temporary file is left beside the output.
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!names.contains { $0.hasPrefix(".") }, "\(names)")
    // A folder that does not exist: 73.
    let nowhere = try run([photo, "--output", folder.appending("no/such/out.jpg")])
    #expect(nowhere.status == 73, "\(nowhere)")
  }
}
