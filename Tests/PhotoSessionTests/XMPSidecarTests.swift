import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

@Suite("XMPSidecar: rating merged into sidecars, atomically")
struct XMPSidecarTests {
  @Test func newSidecarIsNamedAfterTheWholeFileName() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let photo = try TestImages.write([1], "IMG_1.CR2", in: folder)
    let (path, written) = try XMPSidecar.setRating(5, forPhoto: photo)
    #expect(path == photo + ".xmp" && written)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text == XMPSidecar.newPacket(rating: 5) && text.contains("xmp:Rating=\"5\""))
    #expect(try XMPSidecar.setRating(5, forPhoto: photo) == (path, false))
    let (adobe, _) = try XMPSidecar.setRating(
      5, forPhoto: try TestImages.write([1], "b.NEF", in: folder), naming: .replaceExtension)
    #expect(adobe == folder.appending("b.xmp"))
  }

  @Test func anExistingSidecarOfEitherNameIsUpdatedKeepingItsFields() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let photo = try TestImages.write([1], "IMG_2.jpg", in: folder)
    let lightroom = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/">
       <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
         xmp:Rating="2" xmp:Label="Red">
         <dc:subject><rdf:Bag><rdf:li>beach</rdf:li></rdf:Bag></dc:subject>
        </rdf:Description>
       </rdf:RDF>
      </x:xmpmeta>
      """
    try TestImages.write(Array(lightroom.utf8), "IMG_2.xmp", in: folder)
    let (path, written) = try XMPSidecar.setRating(5, forPhoto: photo)
    #expect(path == folder.appending("IMG_2.xmp") && written)
    #expect(
      try String(contentsOfFile: path, encoding: .utf8)
        == lightroom.replacingOccurrences(of: "xmp:Rating=\"2\"", with: "xmp:Rating=\"5\""))
  }

  @Test(arguments: [
    (
      "<rdf:RDF><rdf:Description rdf:about=\"\"><xmp:Rating> 1 </xmp:Rating></rdf:Description></rdf:RDF>",
      "<rdf:RDF><rdf:Description rdf:about=\"\"><xmp:Rating>5</xmp:Rating></rdf:Description></rdf:RDF>"
    ),
    (
      "<rdf:RDF><rdf:Description xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:Rating='0'/></rdf:RDF>",
      "<rdf:RDF><rdf:Description xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:Rating='5'/></rdf:RDF>"
    ),
    (
      "<rdf:RDF><rdf:Description rdf:about=\"\" xmlns:dc=\"d\"/></rdf:RDF>",
      "<rdf:RDF><rdf:Description xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:Rating=\"5\" rdf:about=\"\" xmlns:dc=\"d\"/></rdf:RDF>"
    ),
    (
      "<x:xmpmeta><rdf:RDF xmlns:rdf=\"r\"></rdf:RDF></x:xmpmeta>",
      "<x:xmpmeta><rdf:RDF xmlns:rdf=\"r\">\n  <rdf:Description rdf:about=\"\" xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:Rating=\"5\"/></rdf:RDF></x:xmpmeta>"
    ),
  ])
  func mergeForms(before: String, after: String) throws {
    #expect(try XMPSidecar.merge(rating: 5, into: before, path: "s.xmp") == after)
    #expect(try XMPSidecar.merge(rating: 5, into: after, path: "s.xmp") == nil)
  }

  @Test func aSidecarThatIsNotXMPIsLeftUntouched() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let photo = try TestImages.write([1], "p.jpg", in: folder)
    let sidecar = try TestImages.write(Array("my notes".utf8), "p.jpg.xmp", in: folder)
    let error = #expect(throws: PhotoSessionError.self) {
      try XMPSidecar.setRating(5, forPhoto: photo)
    }
    #expect(error?.code == .sidecarFailed)
    #expect(
      error?.description
        == "the sidecar \"\(sidecar)\" is not an XMP packet (no rdf:RDF element); it was left untouched"
    )
    #expect(try String(contentsOfFile: sidecar, encoding: .utf8) == "my notes")
  }

  @Test func aReadOnlyFolderGivesAClearError() throws {
    let mount = TemporaryMount.make()
    let folder = try TemporaryDirectory()
    defer {
      mount?.remove()
      chmod(folder.path, 0o755)
      folder.remove()
    }
    let base = mount?.path ?? folder.path
    let photo = base + "/p.jpg"
    try Data([1]).write(to: URL(fileURLWithPath: photo))
    if let mount {
      #expect(mount.makeReadOnly())
    } else {
      chmod(folder.path, 0o555)
    }
    let error = #expect(throws: PhotoSessionError.self) {
      try XMPSidecar.setRating(5, forPhoto: photo)
    }
    #expect(error?.code == .sidecarFailed)
    let reason = mount == nil ? "Permission denied" : "Read-only file system"
    #expect(error?.description == "cannot write the sidecar \"\(photo).xmp\": \(reason)")
  }
}
