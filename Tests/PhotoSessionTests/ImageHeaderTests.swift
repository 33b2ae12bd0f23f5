import OffloadTestSupport
import Testing

@testable import PhotoSession

private typealias Info = ImageHeader.Info

private func parse(_ bytes: [UInt8], hint: ImageFormat? = nil) -> Result<Info, ImageHeader.Failure>
{
  ImageHeader.parse(bytes, isComplete: true, hint: hint)
}

@Suite("ImageHeader: dimensions, orientation and date from file headers")
struct ImageHeaderTests {
  static let date = "2023:07:14 09:30:05"
  static let iso = "2023-07-14T09:30:05"

  @Test func jpegWithExif() throws {
    let info = try parse(
      TestImages.jpeg(width: 4032, height: 3024, orientation: 6, date: Self.date)
    )
    .get()
    #expect(
      info == Info(format: .jpeg, width: 4032, height: 3024, orientation: 6, captureDate: Self.iso))
  }

  @Test func jpegWithoutExifAndWithLongSegments() throws {
    let info = try parse(TestImages.jpeg(width: 7, height: 9, padding: 200_000)).get()
    #expect(info == Info(format: .jpeg, width: 7, height: 9, orientation: 1, captureDate: nil))
  }

  @Test func jpegFrameBeyondTheBufferAsksForMore() {
    let bytes = TestImages.jpeg(width: 7, height: 9, padding: 200_000)
    let result = ImageHeader.parse(Array(bytes.prefix(4096)), isComplete: false)
    guard case .failure(.needMore(let offset)) = result else {
      Issue.record("expected needMore, got \(result)")
      return
    }
    #expect(offset > 4096)
  }

  @Test func png() throws {
    #expect(
      try parse(TestImages.png(width: 640, height: 480)).get()
        == Info(format: .png, width: 640, height: 480))
  }

  @Test func gif() throws {
    #expect(
      try parse(TestImages.gif(width: 300, height: 2)).get()
        == Info(format: .gif, width: 300, height: 2))
  }

  @Test func webpVariants() throws {
    #expect(
      try parse(TestImages.webpLossy(width: 1024, height: 768)).get()
        == Info(format: .webp, width: 1024, height: 768))
    #expect(
      try parse(TestImages.webpLossless(width: 16383, height: 1)).get()
        == Info(format: .webp, width: 16383, height: 1))
    #expect(
      try parse(
        TestImages.webpExtended(width: 20000, height: 3000, orientation: 8, date: Self.date)
      )
      .get()
        == Info(format: .webp, width: 20000, height: 3000, orientation: 8, captureDate: Self.iso))
  }

  @Test(arguments: [false, true])
  func tiff(bigEndian: Bool) throws {
    let bytes = TestImages.tiff(
      big: bigEndian, width: 100, height: 50, orientation: 3, date: Self.date)
    #expect(
      try parse(bytes).get()
        == Info(format: .tiff, width: 100, height: 50, orientation: 3, captureDate: Self.iso))
  }

  @Test(arguments: [ImageFormat.nef, .arw, .dng])
  func tiffBasedRawsTakeTheLargestImage(format: ImageFormat) throws {
    let bytes = TestImages.tiffRaw(canon: false, width: 6000, height: 4000, date: Self.date)
    #expect(
      try parse(bytes, hint: format).get()
        == Info(format: format, width: 6000, height: 4000, orientation: 1, captureDate: Self.iso))
  }

  @Test func cr2() throws {
    let bytes = TestImages.tiffRaw(canon: true, width: 5472, height: 3648, date: Self.date)
    #expect(
      try parse(bytes).get()
        == Info(format: .cr2, width: 5472, height: 3648, orientation: 1, captureDate: Self.iso))
  }

  @Test func orfAndRw2Signatures() throws {
    var orf = TestImages.tiff(width: 10, height: 20)
    orf.replaceSubrange(0..<4, with: Array("IIRO".utf8))
    #expect(try parse(orf).get() == Info(format: .orf, width: 10, height: 20))
    var rw2 = TestImages.tiff(extra: [(0x0002, 3, 1, 5184), (0x0003, 3, 1, 3888)])
    rw2.replaceSubrange(0..<4, with: Array("IIU\u{0}".utf8))
    #expect(try parse(rw2).get() == Info(format: .rw2, width: 5184, height: 3888))
  }

  @Test func raf() throws {
    #expect(
      try parse(TestImages.raf(width: 1920, height: 1280, date: Self.date)).get()
        == Info(format: .raf, width: 1920, height: 1280, captureDate: Self.iso))
  }

  @Test(arguments: [(0, 1), (1, 8), (2, 3), (3, 6)])
  func heifPrimaryItem(rotation: Int, orientation: Int) throws {
    #expect(
      try parse(TestImages.heif(width: 4032, height: 3024, rotation: rotation)).get()
        == Info(format: .heif, width: 4032, height: 3024, orientation: orientation))
  }

  @Test func cr3() throws {
    #expect(
      try parse(TestImages.cr3(width: 6000, height: 4000, orientation: 8, date: Self.date)).get()
        == Info(format: .cr3, width: 6000, height: 4000, orientation: 8, captureDate: Self.iso))
  }

  @Test func displaySizeFollowsOrientation() {
    var metadata = PhotoMetadata(
      format: .jpeg, byteCount: 1, pixelWidth: 4000, pixelHeight: 3000, orientation: 6,
      captureDate: nil, modificationTime: 0)
    #expect(metadata.displayWidth == 3000 && metadata.displayHeight == 4000)
    #expect(metadata.orientationName == "right")
    metadata.orientation = 3
    #expect(metadata.displayWidth == 4000 && metadata.orientationName == "down")
  }

  @Test(arguments: [
    ("2023:02:30 10:00:00", nil as String?), ("2023:13:01 10:00:00", nil),
    ("20x3:01:01 10:00:00", nil),
    ("2023:01:01 24:00:00", nil), ("0000:00:00 00:00:00", nil),
    ("2024:02:29 23:59:59", "2024-02-29T23:59:59"),
  ])
  func dateValidation(text: String, expected: String?) {
    // Day 30 of February passes the cheap range check (1...31): the reader does not check
    // month lengths, so only the impossible fields are refused.
    let result = ImageHeader.isoDate(ArraySlice(Array(text.utf8)))
    if text.hasPrefix("2023:02:30") {
      #expect(result == "2023-02-30T10:00:00")
    } else {
      #expect(result == expected)
    }
  }

  // MARK: Bad input

  static let samples: [(String, [UInt8])] = [
    ("jpeg", TestImages.jpeg(width: 640, height: 480, orientation: 6, date: date)),
    ("png", TestImages.png(width: 640, height: 480)),
    ("gif", TestImages.gif(width: 64, height: 48)),
    ("webp-lossy", TestImages.webpLossy(width: 64, height: 48)),
    ("webp-lossless", TestImages.webpLossless(width: 64, height: 48)),
    ("webp-extended", TestImages.webpExtended(width: 64, height: 48, orientation: 6, date: date)),
    ("tiff", TestImages.tiff(big: true, width: 64, height: 48, orientation: 6, date: date)),
    ("cr2", TestImages.tiffRaw(canon: true, width: 64, height: 48, date: date)),
    ("raf", TestImages.raf(width: 64, height: 48, date: date)),
    ("heif", TestImages.heif(width: 64, height: 48, rotation: 1)),
    ("cr3", TestImages.cr3(width: 64, height: 48, orientation: 3, date: date)),
  ]

  @Test func everyTruncationIsAnErrorOrAnAnswerNeverATrap() throws {
    for (name, bytes) in Self.samples {
      for length in 0..<bytes.count {
        let result = ImageHeader.parse(Array(bytes.prefix(length)), isComplete: true)
        switch result {
        case .success(let info):
          // Only a tail the reader does not need may be cut (the JPEG's scan, a WebP's chunk).
          #expect(info.width != nil, "\(name) cut at \(length)")
        case .failure(.truncated(let offset, _)):
          // The offset is where the missing data was expected (maybe past the cut, where a
          // segment length points).
          #expect(offset >= 0, "\(name) cut at \(length): truncated at \(offset)")
        case .failure(.corrupt), .failure(.unsupported), .failure(.needMore):
          Issue.record("\(name) cut at \(length) is not reported as truncated: \(result)")
        }
      }
    }
  }

  @Test func signaturesAndStructuralErrors() {
    #expect(parse([]) == .failure(.truncated(offset: 0, what: "signature")))
    #expect(parse(Array("hello, this is not an image".utf8)) == .failure(.unsupported))
    #expect(parse(Array("hi".utf8)) == .failure(.truncated(offset: 0, what: "signature")))
    var png = TestImages.png(width: 1, height: 1)
    png.replaceSubrange(12..<16, with: Array("IDAT".utf8))
    #expect(parse(png) == .failure(.corrupt(offset: 12, reason: "the first PNG chunk is not IHDR")))
    let zero = TestImages.png(width: 0, height: 1)
    #expect(
      parse(zero) == .failure(.corrupt(offset: 16, reason: "the PNG has a zero width or height")))
    let noFrame: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0, 4, 0, 0]
    #expect(
      parse(noFrame)
        == .failure(
          .corrupt(offset: 2, reason: "the JPEG has no frame header before its image data")))
    let badLength: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 1, 0, 0]
    #expect(
      parse(badLength)
        == .failure(.corrupt(offset: 4, reason: "a JPEG segment length of 1 is too small")))
    var tiff = TestImages.tiff(width: 1, height: 1)
    tiff[0] = UInt8(ascii: "X")
    #expect(parse(tiff) == .failure(.unsupported))
  }

  @Test func fuzzSeededRandomAndMutatedInputsNeverTrap() {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0xF022))
    var outcomes = [0, 0]
    for round in 0..<30_000 {
      var bytes: [UInt8]
      if round % 3 == 0 {
        bytes = (0..<rng.index(below: 200)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        // Give random data a real signature half the time, so parsers go deep.
        if rng.chance(0.5), let sample = Self.samples.randomElement(using: &rng) {
          bytes = Array(sample.1.prefix(12)) + bytes
        }
      } else {
        bytes = Self.samples[rng.index(below: Self.samples.count)].1
        for _ in 0...rng.index(below: 8) {
          guard !bytes.isEmpty else { break }
          let at = rng.index(below: bytes.count)
          switch rng.index(below: 4) {
          case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
          case 1: bytes[at] ^= 0xFF
          case 2: bytes.removeSubrange(at..<min(bytes.count, at + rng.index(below: 16) + 1))
          default: bytes.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF], at: at)
          }
        }
      }
      let complete = rng.chance(0.8)
      switch ImageHeader.parse(bytes, isComplete: complete) {
      case .success: outcomes[0] += 1
      case .failure(.needMore(let offset)):
        outcomes[1] += 1
        #expect(!complete && offset >= 0, "\(rng) round \(round)")
      case .failure: outcomes[1] += 1
      }
      _ = ImageHeader.captureDate(bytes, isComplete: complete, hint: nil)
    }
    // Both outcomes happen: the mutations keep many headers valid and break many others.
    #expect(outcomes[0] > 1000 && outcomes[1] > 1000, "\(outcomes)")
  }
}
