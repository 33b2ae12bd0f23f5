/// Real, decodable baseline JPEG files, encoded byte by byte, and the containers that embed
/// them as previews and thumbnails: a JPEG with an EXIF thumbnail, a TIFF-based raw, a CR3
/// and a HEIF.
///
/// The encoder writes one grey level per 8×8 block (DC coefficients only, quantizer 1), so
/// any decoder shows the image at its stated size and a test can tell two images apart.
public enum TestJPEG {
  /// A grayscale baseline JPEG of `width`×`height` pixels, a diagonal gradient set by `seed`.
  ///
  /// - Complexity: O(*w* × *h* / 64) blocks.
  public static func encode(width: Int, height: Int, seed: Int = 0) -> [UInt8] {
    var out: [UInt8] = [0xFF, 0xD8]
    out += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
    out += segment(
      0xC0,
      [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
    out += segment(0xC4, [0x00] + dcBits + (0...11).map { UInt8($0) })
    out += segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
    out += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
    var writer = BitWriter()
    let codes = canonicalCodes(dcBits)
    var previous = 0
    let columns = (width + 7) / 8
    let rows = (height + 7) / 8
    for row in 0..<rows {
      for column in 0..<columns {
        let level = (row * 37 + column * 23 + seed * 59) % 200 + 28
        let dc = 8 * (level - 128)
        let difference = dc - previous
        previous = dc
        let category = difference == 0 ? 0 : Int.bitWidth - abs(difference).leadingZeroBitCount
        writer.write(codes[category].code, count: codes[category].length)
        if category > 0 {
          let bits = difference >= 0 ? difference : difference + (1 << category) - 1
          writer.write(bits, count: category)
        }
        writer.write(0, count: 1)  // end of block: the AC table's only code
      }
    }
    out += writer.finish()
    return out + [0xFF, 0xD9]
  }

  /// `main` with an APP1 `Exif` block after its start-of-image marker whose IFD1 names
  /// `thumbnail` (`JPEGInterchangeFormat`/`Length`), as cameras write it.
  public static func withEXIFThumbnail(_ main: [UInt8], thumbnail: [UInt8]) -> [UInt8] {
    // IFD0: Orientation 1; IFD1 at 26: the thumbnail's offset and length; the thumbnail at 56.
    var tiff: [UInt8] = Array("II".utf8) + le16(42) + le32(8)
    tiff += le16(1) + le16(0x0112) + le16(3) + le32(1) + le16(1) + le16(0) + le32(26)
    tiff += le16(2) + le16(0x0201) + le16(4) + le32(1) + le32(56)
    tiff += le16(0x0202) + le16(4) + le32(1) + le32(thumbnail.count) + le32(0)
    tiff += thumbnail
    return [0xFF, 0xD8] + segment(0xE1, Array("Exif\u{0}\u{0}".utf8) + tiff) + main.dropFirst(2)
  }

  /// A little-endian TIFF-based raw: IFD0 names `thumbnail`, a JPEG-compressed SubIFD holds
  /// `preview` as its strip (as NEF and DNG store them).
  public static func tiffRaw(preview: [UInt8], thumbnail: [UInt8]) -> [UInt8] {
    // IFD0 at 8 with 4 entries (size 54), SubIFD at 62 with 3 entries (size 42), data at 104.
    let thumbnailAt = 104
    let previewAt = thumbnailAt + thumbnail.count
    var out: [UInt8] = Array("II".utf8) + le16(42) + le32(8)
    out += le16(4)
    out += entry(0x0103, 3, 1, 1)
    out += entry(0x014A, 4, 1, 62)
    out += entry(0x0201, 4, 1, thumbnailAt)
    out += entry(0x0202, 4, 1, thumbnail.count) + le32(0)
    out += le16(3)
    out += entry(0x0103, 3, 1, 6)
    out += entry(0x0111, 4, 1, previewAt)
    out += entry(0x0117, 4, 1, preview.count) + le32(0)
    return out + thumbnail + preview
  }

  /// A Canon CR3: `ftyp crx `, `moov` with Canon's metadata box (`CMT1`, `THMB`), then
  /// Canon's preview box with `PRVW`.
  public static func cr3(
    preview: [UInt8], previewSize: (Int, Int), thumbnail: [UInt8], thumbnailSize: (Int, Int)
  ) -> [UInt8] {
    let ftyp = box("ftyp", Array("crx ".utf8) + [0, 0, 0, 1] + Array("crx isom".utf8))
    var cmt1: [UInt8] = Array("II".utf8) + le16(42) + le32(8) + le16(2)
    cmt1 += entry(0x0100, 4, 1, previewSize.0) + entry(0x0101, 4, 1, previewSize.1) + le32(0)
    let thmb = box(
      "THMB",
      [0, 0, 0, 0] + be16(thumbnailSize.0) + be16(thumbnailSize.1) + be32(thumbnail.count)
        + [0, 1, 0, 0] + thumbnail)
    let metadata: [UInt8] = [
      0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A,
      0x48,
    ]
    let moov = box("moov", box("uuid", metadata + box("CMT1", cmt1) + thmb))
    let prvw = box(
      "PRVW",
      be32(0) + be16(1) + be16(previewSize.0) + be16(previewSize.1) + be16(1)
        + be32(preview.count) + preview)
    let previewBox: [UInt8] = [
      0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D,
      0x16,
    ]
    return ftyp + moov + box("uuid", previewBox + [0, 0, 0, 0, 0, 0, 0, 1] + prvw)
      + box("mdat", [1, 2, 3, 4])
  }

  /// A HEIF: primary item 1 (`hvc1`), thumbnail item 2 of type `thumbnailType` holding
  /// `thumbnail`, linked by `iref thmb`, both located by `iloc` in `mdat`.
  public static func heif(thumbnail: [UInt8], thumbnailType: String) -> [UInt8] {
    let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
    let primary: [UInt8] = [0, 0, 0, 4, 0x26, 0x01, 0xAF, 0x00]
    func infe(_ id: Int, _ type: String) -> [UInt8] {
      box("infe", [2, 0, 0, 0] + be16(id) + be16(0) + Array(type.utf8) + [0])
    }
    let iinf = box("iinf", [0, 0, 0, 0] + be16(2) + infe(1, "hvc1") + infe(2, thumbnailType))
    let iref = box("iref", [0, 0, 0, 0] + box("thmb", be16(2) + be16(1) + be16(1)))
    func iloc(_ data: Int) -> [UInt8] {
      box(
        "iloc",
        [0, 0, 0, 0, 0x44, 0x00] + be16(2)
          + be16(1) + be16(0) + be16(1) + be32(data) + be32(primary.count)
          + be16(2) + be16(0) + be16(1) + be32(data + primary.count) + be32(thumbnail.count))
    }
    func meta(_ data: Int) -> [UInt8] {
      box(
        "meta",
        [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 24))
          + box("pitm", [0, 0, 0, 0] + be16(1)) + iinf + iref + iloc(data))
    }
    let data = ftyp.count + meta(0).count + 8
    return ftyp + meta(data) + box("mdat", primary + thumbnail)
  }

  // MARK: Encoding helpers

  /// The standard luminance DC table's code counts by length (ITU T.81, K.3).
  static let dcBits: [UInt8] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]

  static func canonicalCodes(_ bits: [UInt8]) -> [(code: Int, length: Int)] {
    var codes: [(code: Int, length: Int)] = []
    var code = 0
    for (index, count) in bits.enumerated() {
      for _ in 0..<Int(count) {
        codes.append((code, index + 1))
        code += 1
      }
      code <<= 1
    }
    return codes
  }

  struct BitWriter {
    var bytes: [UInt8] = []
    var current = 0
    var used = 0

    mutating func write(_ value: Int, count: Int) {
      for shift in stride(from: count - 1, through: 0, by: -1) {
        current = current << 1 | (value >> shift & 1)
        used += 1
        if used == 8 { flush() }
      }
    }

    private mutating func flush() {
      bytes.append(UInt8(current))
      if current == 0xFF { bytes.append(0) }  // byte stuffing
      current = 0
      used = 0
    }

    mutating func finish() -> [UInt8] {
      while used != 0 { write(1, count: 1) }
      return bytes
    }
  }

  static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    [0xFF, marker] + be16(payload.count + 2) + payload
  }

  static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    be32(payload.count + 8) + Array(type.utf8) + payload
  }

  static func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] {
    le16(tag) + le16(type) + le32(count) + (type == 3 ? le16(value) + [0, 0] : le32(value))
  }

  static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
  static func be32(_ v: Int) -> [UInt8] { be16(v >> 16) + be16(v) }
  static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
  static func le32(_ v: Int) -> [UInt8] { le16(v) + le16(v >> 16) }
}
