import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

/// The path of `exiftool`, when it is installed.
private let exiftool: String? = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// `exiftool -s3 -XMP:Rating -XMP:Label FILE`: the values exiftool reads, one a line.
private func exifRead(_ file: String) throws -> [String] {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: try #require(exiftool))
  process.arguments = ["-s3", "-XMP:Rating", "-XMP:Label", file]
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
}

/// A folder of four cards: RAW + JPEG with a rated, labelled `NAME.xmp` holding other fields;
/// a PNG; a JPEG; a JPEG with a sidecar in element form.
private func makeFolder(_ photos: TemporaryDirectory) throws -> String {
  let shared = """
    <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="2" xmp:Label="Blue"
        xmp:CreatorTool="Camera 1.0">
       <dc:subject><rdf:Bag><rdf:li>trip</rdf:li></rdf:Bag></dc:subject>
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    <?xpacket end="w"?>

    """
  let element = """
    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
    <xmp:Rating>1</xmp:Rating></rdf:Description></rdf:RDF></x:xmpmeta>
    """
  let files: [(String, [UInt8])] = [
    ("IMG_1.JPG", TestImages.jpeg(width: 40, height: 30)),
    (
      "IMG_1.dng",
      TestImages.tiffRaw(canon: false, width: 40, height: 30, date: "2021:05:01 10:00:00")
    ),
    ("IMG_1.xmp", Array(shared.utf8)),
    ("B.png", TestImages.png(width: 3, height: 2)),
    ("C.jpg", TestImages.jpeg(width: 4, height: 3)),
    ("D.jpg", TestImages.jpeg(width: 5, height: 3)),
    ("D.jpg.xmp", Array(element.utf8)),
  ]
  for (index, (name, bytes)) in files.enumerated() {
    try TestImages.write(bytes, name, in: photos, modified: Double(1_600_000_000 + index))
  }
  return shared
}

@Suite("Ratings and labels: read from existing sidecars, written into every image's XMP")
struct RatingCommitTests {
  @Test func ratingsFlagsAndLabelsAreReadShownAndWrittenIntoEveryImage() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-ratings")
    defer { photos.remove() }
    let shared = try makeFolder(photos)
    let store = PhotoSessionStore(
      folder: work.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")))
    var opened: PhotoSessionStore.Opened? = try store.start(
      folder: photos.path, options: .init(ordering: .modificationTime))
    let id = try #require(opened?.id)
    #expect(opened?.manifest.photos == ["IMG_1.JPG", "B.png", "C.jpg", "D.jpg"])
    // The existing sidecar's rating and label are shown before anything is set.
    #expect(opened?.session.current?.rating == 2 && opened?.session.current?.label == "blue")
    try opened?.session.rate(4)
    try opened?.session.label(.red)
    #expect(opened?.session.current?.rating == 4 && opened?.session.current?.label == "red")
    try opened?.session.decide(.keep)  // IMG_1: rating 4, Red into IMG_1.xmp (both images)
    try opened?.session.flag(.reject)
    try opened?.session.decide(.favorite)  // B.png: a reject wins: -1
    try opened?.session.decide(.favorite)  // C.jpg: a favorite with no rating: 5
    #expect(opened?.session.current?.rating == 1)  // D.jpg's element-form sidecar
    try opened?.session.rate(0)
    try opened?.session.label(.purple)
    try opened?.session.decide(.favorite)  // D.jpg: the rating set wins over the favorite's 5
    opened = nil
    let again = try store.open(id)
    let dry = try again.session.commit(dryRun: true)
    #expect(
      dry.applied.map(\.detail) == [
        "rate \"IMG_1.JPG\" 4 with label Red in \"\(photos.appending("IMG_1.xmp"))\"",
        "rate \"B.png\" -1 (reject) in \"\(photos.appending("B.png.xmp"))\"",
        "rate \"C.jpg\" 5 in \"\(photos.appending("C.jpg.xmp"))\"",
        "rate \"D.jpg\" 0 with label Purple in \"\(photos.appending("D.jpg.xmp"))\"",
      ])
    let report = try again.session.commit()
    #expect(report.failed.isEmpty, "\(report.failed.map(\.detail))")
    #expect(
      report.applied.first?.detail
        == "rated \"IMG_1.JPG\" 4 with label Red in \"\(photos.appending("IMG_1.xmp"))\"")
    // The shared sidecar: only the two values changed, every other byte kept.
    let written = try String(contentsOfFile: photos.appending("IMG_1.xmp"), encoding: .utf8)
    #expect(
      written
        == shared.replacingOccurrences(of: "xmp:Rating=\"2\"", with: "xmp:Rating=\"4\"")
        .replacingOccurrences(of: "xmp:Label=\"Blue\"", with: "xmp:Label=\"Red\""))
    let expected: [String: (Int, String?)] = [
      "IMG_1.xmp": (4, "Red"), "B.png.xmp": (-1, nil), "C.jpg.xmp": (5, nil),
      "D.jpg.xmp": (0, "Purple"),
    ]
    for (name, (rating, label)) in expected {
      let text = try String(contentsOfFile: photos.appending(name), encoding: .utf8)
      let read = XMPSidecar.read(text)
      #expect(read.rating == rating && read.label == label, "\(name)")
    }
    // A new session over the folder reads the written values back.
    let next = try store.start(folder: photos.path, options: .init(ordering: .modificationTime))
    #expect(next.session.current?.rating == 4 && next.session.current?.label == "red")
    #expect(try again.session.commit().applied.isEmpty)
  }

  /// exiftool, as photo tools read XMP, reads what commit wrote. CI installs exiftool
  /// (`.ci/run`), so there the test always runs; elsewhere it runs when exiftool is installed.
  @Test(
    .enabled(
      if: exiftool != nil || ProcessInfo.processInfo.environment["CI"] != nil,
      "needs exiftool (apt-get install libimage-exiftool-perl)"))
  func exiftoolReadsTheWrittenSidecars() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-exiftool")
    defer { photos.remove() }
    _ = try makeFolder(photos)
    let store = PhotoSessionStore(
      folder: work.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")))
    let opened = try store.start(folder: photos.path, options: .init(ordering: .modificationTime))
    try opened.session.rate(3)
    try opened.session.label(.yellow)
    try opened.session.decide(.keep)
    try opened.session.flag(.reject)
    try opened.session.decide(.keep)
    try opened.session.decide(.favorite)
    try opened.session.label(.green)
    try opened.session.decide(.keep)
    #expect(try opened.session.commit().failed.isEmpty)
    #expect(try exifRead(photos.appending("IMG_1.xmp")) == ["3", "Yellow"])
    #expect(try exifRead(photos.appending("B.png.xmp")) == ["-1"])
    #expect(try exifRead(photos.appending("C.jpg.xmp")) == ["5"])
    #expect(try exifRead(photos.appending("D.jpg.xmp")) == ["1", "Green"])
  }

  @Test func readTakesAttributesAndElementsAndIgnoresOtherNamespaces() {
    #expect(XMPSidecar.read("<x xmp:Rating=\"3\" xmp:Label='Red'/>") == (3, "Red"))
    #expect(XMPSidecar.read("<xmp:Rating> 5 </xmp:Rating>") == (5, nil))
    #expect(XMPSidecar.read("<x MicrosoftPhotoxmp:Rating=\"3\"/>") == (nil, nil))
    #expect(XMPSidecar.read("<x xmp:Rating=\"9\" xmp:Label=\"\"/>") == (nil, nil))
    #expect(XMPSidecar.read("no packet") == (nil, nil))
  }
}
