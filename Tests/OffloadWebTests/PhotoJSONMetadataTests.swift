import Foundation
import Offload
import OffloadTestSupport
import PhotoSession
import Testing

/// `PhotoJSON.Metadata` writes the header's members as `PhotoMetadata` encodes them, its
/// modification time as an ISO 8601 date, and no rating or label: the same bytes as the flat
/// shape `photos status --json` and the pages have always read.
@Suite("PhotoJSON.Metadata: the header's members, the modification time as a date")
struct PhotoJSONMetadataTests {
  /// The flat shape the metadata was written in, member by member: what the bytes must stay.
  struct Flat: Encodable {
    var format: ImageFormat
    var byteCount: Int
    var pixelWidth: Int?
    var pixelHeight: Int?
    var orientation: Int
    var captureDate: String?
    var modificationTime: String
  }

  static func encode(_ value: some Encodable, pretty: Bool) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static func metadata(_ random: inout SplitMix64) -> PhotoMetadata {
    let formats = ImageFormat.allCases
    var metadata = PhotoMetadata(
      format: formats[random.index(below: formats.count)],
      byteCount: Int(random.next() % 100_000_000),
      pixelWidth: random.chance(0.8) ? Int(random.next() % 10_000) : nil,
      pixelHeight: random.chance(0.8) ? Int(random.next() % 10_000) : nil,
      orientation: 1 + random.index(below: 8),
      captureDate: random.chance(0.5) ? "2024-05-0\(1 + random.index(below: 9))T10:00:00" : nil,
      modificationTime: Double(random.next() % 2_000_000_000) + Double(random.next() % 1000) / 1000)
    if random.chance(0.5) { metadata.rating = random.index(below: 7) - 1 }
    if random.chance(0.5) { metadata.label = ["red", "green", "purple"][random.index(below: 3)] }
    return metadata
  }

  @Test func writesTheFlatShapesBytesForSeededHeaders() throws {
    var random = SplitMix64(seed: SplitMix64.testSeed(0x5EED_3E7A))
    for _ in 0..<300 {
      let metadata = Self.metadata(&random)
      let flat = Flat(
        format: metadata.format, byteCount: metadata.byteCount, pixelWidth: metadata.pixelWidth,
        pixelHeight: metadata.pixelHeight, orientation: metadata.orientation,
        captureDate: metadata.captureDate,
        modificationTime: PhotoJSON.isoDate(metadata.modificationTime))
      for pretty in [false, true] {
        #expect(
          try Self.encode(PhotoJSON.Metadata(metadata), pretty: pretty)
            == Self.encode(flat, pretty: pretty), "\(random) \(metadata)")
      }
    }
  }

  @Test func leavesOutTheSidecarsRatingAndLabelAndWritesTheTimeAsADate() throws {
    var metadata = PhotoMetadata(
      format: .jpeg, byteCount: 39, pixelWidth: 640, pixelHeight: nil, orientation: 6,
      captureDate: nil, modificationTime: 1_714_557_600.25)
    metadata.rating = 5
    metadata.label = "red"
    #expect(
      try Self.encode(PhotoJSON.Metadata(metadata), pretty: false)
        == #"{"byteCount":39,"format":"jpeg","modificationTime":"2024-05-01T10:00:00.250Z","#
        + #""orientation":6,"pixelWidth":640}"#)
  }
}
