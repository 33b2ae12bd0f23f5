import OffloadTestSupport
import PhotoSession
import Testing

@Suite("EmbeddedPreview: the JPEG a raw file carries")
struct EmbeddedPreviewTests {
  func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }

  /// Patches the 4-byte value of IFD0's entry `tag` (little-endian TIFF starting at `start`).
  func patch(_ bytes: inout [UInt8], tag: Int, value: Int, start: Int = 8) {
    let count = Int(bytes[start]) | Int(bytes[start + 1]) << 8
    for entry in 0..<count {
      let at = start + 2 + entry * 12
      if Int(bytes[at]) | Int(bytes[at + 1]) << 8 == tag {
        bytes.replaceSubrange(at + 8..<at + 12, with: le32(value))
      }
    }
  }

  /// A TIFF-based raw with a small JPEG named in IFD0 and, optionally, a larger one as the
  /// strip of a JPEG-compressed SubIFD (as NEF and DNG store their full-size preview).
  func raw(small: [UInt8], large: [UInt8]?, canon: Bool = false) -> [UInt8] {
    var extra: [(tag: Int, type: Int, count: Int, value: Int)] = [
      (0x0201, 4, 1, 0), (0x0202, 4, 1, small.count),
    ]
    if large != nil { extra.append((0x014A, 4, 1, 0)) }
    var bytes = TestImages.tiff(width: 160, height: 120, extra: extra, canon: canon)
    let start = canon ? 16 : 8
    patch(&bytes, tag: 0x0201, value: bytes.count, start: start)
    bytes += small
    if let large {
      let sub = bytes.count
      patch(&bytes, tag: 0x014A, value: sub, start: start)
      // SubIFD: Compression 6 (JPEG), StripOffsets, StripByteCounts.
      let stripAt = sub + 2 + 3 * 12 + 4
      bytes += [3, 0]
      bytes += [0x03, 0x01, 3, 0] + le32(1) + [6, 0, 0, 0]
      bytes += [0x11, 0x01, 4, 0] + le32(1) + le32(stripAt)
      bytes += [0x17, 0x01, 4, 0] + le32(1) + le32(large.count)
      bytes += le32(0)
      bytes += large
    }
    return bytes
  }

  @Test func theLargestPreviewWins() throws {
    let small = TestImages.jpeg(width: 160, height: 120)
    let large = TestImages.jpeg(width: 6000, height: 4000, padding: 5_000)
    for canon in [false, true] {
      let bytes = raw(small: small, large: large, canon: canon)
      let range = try #require(EmbeddedPreview.jpegRange(in: bytes))
      #expect(Array(bytes[range]) == large)
    }
    let onlySmall = raw(small: small, large: nil)
    let range = try #require(EmbeddedPreview.jpegRange(in: onlySmall))
    #expect(Array(onlySmall[range]) == small)
  }

  @Test func aFujifilmRAFNamesItsPreviewInTheHeader() throws {
    let date = "2026:11:23 10:00:00"
    let jpeg = TestImages.jpeg(width: 320, height: 240, date: date)
    let bytes = TestImages.raf(width: 320, height: 240, date: date)
    let range = try #require(EmbeddedPreview.jpegRange(in: bytes))
    #expect(Array(bytes[range]) == jpeg)
  }

  @Test func losslessJPEGAndBrokenCandidatesArePassedOver() {
    // A lossless frame (SOF3), as DNG raw data is stored: no browser decodes it.
    var lossless = TestImages.jpeg(width: 100, height: 100)
    if let sof = lossless.indices.dropLast().first(where: {
      lossless[$0] == 0xFF && lossless[$0 + 1] == 0xC0
    }) {
      lossless[sof + 1] = 0xC3
    }
    #expect(EmbeddedPreview.jpegRange(in: raw(small: lossless, large: nil)) == nil)
    // A preview named past the end of the file.
    var truncated = raw(small: TestImages.jpeg(width: 10, height: 10), large: nil)
    truncated.removeLast(5)
    #expect(EmbeddedPreview.jpegRange(in: truncated) == nil)
    #expect(EmbeddedPreview.jpegRange(in: Array("not a raw file".utf8)) == nil)
  }

  @Test func randomBytesNeverTrap() {
    var generator = SplitMix64(seed: 20_261_123)
    let base = raw(
      small: TestImages.jpeg(width: 16, height: 16),
      large: TestImages.jpeg(width: 64, height: 64))
    for _ in 0..<2_000 {
      var bytes = base
      for _ in 0..<8 {
        let at = Int(generator.next() % UInt64(bytes.count))
        bytes[at] = UInt8(truncatingIfNeeded: generator.next())
      }
      if let range = EmbeddedPreview.jpegRange(in: bytes) {
        #expect(range.upperBound <= bytes.count)
      }
    }
  }

  // MARK: Thumbnails, CR3 and HEIF

  let main = TestJPEG.encode(width: 96, height: 64, seed: 1)
  let small = TestJPEG.encode(width: 24, height: 16, seed: 2)

  func found(_ kind: EmbeddedPreview.Kind, _ bytes: [UInt8]) -> [UInt8]? {
    (try? EmbeddedPreview.locate(kind, in: bytes).get()).map { Array(bytes[$0]) }
  }

  @Test func aJPEGsEXIFThumbnailIsReadFromIFD1() {
    let bytes = TestJPEG.withEXIFThumbnail(main, thumbnail: small)
    #expect(found(.thumbnail, bytes) == small)
    #expect(found(.preview, bytes) == bytes)
    // Without an EXIF block there is no thumbnail, and the reason says so.
    #expect(EmbeddedPreview.locate(.thumbnail, in: main) == .failure(.noneEmbedded))
    // A thumbnail named past the end of its APP1 segment is refused.
    var cut = bytes
    let lengthAt = 4
    let length = Int(cut[lengthAt]) << 8 | Int(cut[lengthAt + 1])
    cut[lengthAt] = UInt8((length - 10) >> 8)
    cut[lengthAt + 1] = UInt8((length - 10) & 0xFF)
    #expect(EmbeddedPreview.locate(.thumbnail, in: cut) == .failure(.noneEmbedded))
  }

  @Test func aTIFFRawsThumbnailIsItsSmallestJPEG() {
    let bytes = TestJPEG.tiffRaw(preview: main, thumbnail: small)
    #expect(found(.preview, bytes) == main)
    #expect(found(.thumbnail, bytes) == small)
    #expect(EmbeddedPreview.jpegRange(in: bytes).map { Array(bytes[$0]) } == main)
  }

  @Test func aCR3sPreviewAndThumbnailAreItsPRVWAndTHMBBoxes() {
    let bytes = TestJPEG.cr3(
      preview: main, previewSize: (96, 64), thumbnail: small, thumbnailSize: (24, 16))
    #expect(found(.preview, bytes) == main)
    #expect(found(.thumbnail, bytes) == small)
    #expect(EmbeddedPreview.jpegRange(in: bytes).map { Array(bytes[$0]) } == main)
  }

  @Test func aHEIFThumbnailIsServedOnlyWhenJPEGCoded() {
    let jpeg = TestJPEG.heif(thumbnail: small, thumbnailType: "jpeg")
    #expect(found(.thumbnail, jpeg) == small)
    // HEIC as phones write it: the primary image and its thumbnail are HEVC.
    let hevc = TestJPEG.heif(thumbnail: [0, 0, 0, 1], thumbnailType: "hvc1")
    #expect(EmbeddedPreview.locate(.thumbnail, in: hevc) == .failure(.notJPEGCoded(codec: "hvc1")))
    #expect(EmbeddedPreview.locate(.preview, in: jpeg) == .failure(.notJPEGCoded(codec: "hvc1")))
    #expect(
      EmbeddedPreview.Absence.notJPEGCoded(codec: "hvc1").reason
        == "its embedded image is coded as 'hvc1', not JPEG")
  }

  @Test func formatsWithoutEmbeddedJPEGsSaySo() {
    let png = TestImages.png(width: 4, height: 4)
    #expect(EmbeddedPreview.locate(.preview, in: png) == .failure(.unsupportedFormat))
    #expect(EmbeddedPreview.locate(.thumbnail, in: []) == .failure(.unsupportedFormat))
    #expect(
      EmbeddedPreview.Absence.unsupportedFormat.reason == "its format carries no embedded JPEG")
  }

  /// Seeded damage (flipped bytes, then a cut at a random length) to every reader: no trap,
  /// and whatever is found lies inside the file and starts with a JPEG start-of-image marker.
  @Test func damagedFilesOfEveryReaderNeverTrap() {
    var generator = SplitMix64(seed: 20_261_124)
    let bases = [
      TestJPEG.withEXIFThumbnail(main, thumbnail: small),
      TestJPEG.tiffRaw(preview: main, thumbnail: small),
      TestJPEG.cr3(preview: main, previewSize: (96, 64), thumbnail: small, thumbnailSize: (24, 16)),
      TestJPEG.heif(thumbnail: small, thumbnailType: "jpeg"),
    ]
    var found = 0
    for base in bases {
      for round in 0..<500 {
        var bytes = base
        for _ in 0..<6 {
          let at = Int(generator.next() % UInt64(bytes.count))
          bytes[at] = UInt8(truncatingIfNeeded: generator.next())
        }
        if round % 2 == 1 { bytes.removeLast(Int(generator.next() % UInt64(bytes.count))) }
        for kind in EmbeddedPreview.Kind.allCases {
          if case .success(let range) = EmbeddedPreview.locate(kind, in: bytes) {
            found += 1
            #expect(range.lowerBound >= 0 && range.upperBound <= bytes.count)
            #expect(bytes[range.lowerBound] == 0xFF && bytes[range.lowerBound + 1] == 0xD8)
          }
        }
      }
    }
    // The damage leaves many files readable: the readers were exercised, not just refused.
    #expect(found > 500)
  }
}
