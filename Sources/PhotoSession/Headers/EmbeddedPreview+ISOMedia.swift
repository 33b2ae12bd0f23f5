/// The embedded JPEGs of ISO base media files: Canon CR3 (`PRVW`, `THMB`) and HEIF
/// (a thumbnail item referenced by `thmb`, located by `iloc`).
extension EmbeddedPreview {
  /// One box: its type, where its payload starts and where it ends.
  struct Box {
    var type: String
    var payload: Int
    var end: Int
  }

  /// Canon's metadata box in `moov`, which holds `CMT1`…`CMT4` and `THMB`.
  static let canonMetadata: [UInt8] = [
    0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
  ]
  /// Canon's top-level preview box, which holds `PRVW` after 8 bytes of its own.
  static let canonPreview: [UInt8] = [
    0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16,
  ]

  /// The boxes laid end to end in `start..<end` (at most 4,096); stops at the first box that
  /// does not fit.
  static func boxes(_ bytes: [UInt8], from start: Int, to limit: Int) -> [Box] {
    let reader = Reader(bytes: bytes, littleEndian: false)
    let end = min(limit, bytes.count)
    var result: [Box] = []
    var at = start
    while at >= 0, at <= end - 8, result.count < 4_096 {
      guard var size = reader.u32(at) else { break }
      var payload = at + 8
      if size == 1 {
        guard let high = reader.u32(at + 8), let low = reader.u32(at + 12), high < 0x7FFF else {
          break
        }
        size = high << 32 | low
        payload = at + 16
      } else if size == 0 {
        size = end - at
      }
      guard size >= payload - at, size <= end - at else { break }
      let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
      result.append(Box(type: type, payload: payload, end: at + size))
      at += size
    }
    return result
  }

  /// Whether the 16 bytes at `at` are `uuid`.
  static func has(_ bytes: [UInt8], _ uuid: [UInt8], at: Int) -> Bool {
    at >= 0 && at <= bytes.count - 16 && bytes[at..<at + 16].elementsEqual(uuid)
  }

  /// The preview or thumbnail of a CR3 or HEIF file.
  static func isoMedia(_ kind: Kind, _ bytes: [UInt8]) -> Result<Range<Int>, Absence> {
    let top = boxes(bytes, from: 0, to: bytes.count)
    guard let ftyp = top.first, ftyp.type == "ftyp", ftyp.payload + 4 <= ftyp.end else {
      return .failure(.unsupportedFormat)
    }
    let brand = String(decoding: bytes[ftyp.payload..<ftyp.payload + 4], as: UTF8.self)
    if brand == "crx " {
      return (kind == .preview ? cr3Preview(bytes, top) : cr3Thumbnail(bytes, top))
        .map { .success($0) } ?? .failure(.noneEmbedded)
    }
    let heif: Set<String> = [
      "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif",
    ]
    guard heif.contains(brand) else { return .failure(.unsupportedFormat) }
    return heifImage(kind, bytes, top)
  }

  /// The JPEG of a `PRVW` or `THMB` box: it starts 16 bytes into the payload, its length is
  /// the 32-bit value at `sizeAt`, and it must end inside the box.
  static func canonJPEG(_ bytes: [UInt8], _ box: Box, sizeAt: Int) -> Range<Int>? {
    let reader = Reader(bytes: bytes, littleEndian: false)
    guard let range = span(box.payload + 16, reader.u32(box.payload + sizeAt)),
      range.upperBound <= box.end, isDisplayableJPEG(bytes, range)
    else { return nil }
    return range
  }

  static func cr3Preview(_ bytes: [UInt8], _ top: [Box]) -> Range<Int>? {
    for box in top where box.type == "uuid" && has(bytes, canonPreview, at: box.payload) {
      for inner in boxes(bytes, from: box.payload + 24, to: box.end) where inner.type == "PRVW" {
        if let range = canonJPEG(bytes, inner, sizeAt: 12) { return range }
      }
    }
    return nil
  }

  static func cr3Thumbnail(_ bytes: [UInt8], _ top: [Box]) -> Range<Int>? {
    for moov in top where moov.type == "moov" {
      for box in boxes(bytes, from: moov.payload, to: moov.end)
      where box.type == "uuid" && has(bytes, canonMetadata, at: box.payload) {
        for part in boxes(bytes, from: box.payload + 16, to: box.end) where part.type == "THMB" {
          if let range = canonJPEG(bytes, part, sizeAt: 8) { return range }
        }
      }
    }
    return nil
  }

  /// A HEIF's thumbnail item (`thmb` reference to the primary item) when it is JPEG-coded and
  /// stored as one extent of the file; its codec otherwise. The primary image is never JPEG
  /// in HEIC, so the preview is always reported by its codec.
  static func heifImage(
    _ kind: Kind, _ bytes: [UInt8], _ top: [Box]
  ) -> Result<Range<Int>, Absence> {
    let reader = Reader(bytes: bytes, littleEndian: false)
    guard let meta = top.first(where: { $0.type == "meta" }) else {
      return .failure(.noneEmbedded)
    }
    let inside = boxes(bytes, from: meta.payload + 4, to: meta.end)
    func version(_ box: Box) -> Int { box.payload < bytes.count ? Int(bytes[box.payload]) : -1 }
    guard let pitm = inside.first(where: { $0.type == "pitm" }),
      let primary = version(pitm) == 0 ? reader.u16(pitm.payload + 4) : reader.u32(pitm.payload + 4)
    else { return .failure(.noneEmbedded) }
    var wanted = primary
    if kind == .thumbnail {
      guard let iref = inside.first(where: { $0.type == "iref" }),
        let thumbnail = thumbnailItem(of: primary, iref, version: version(iref), reader)
      else { return .failure(.noneEmbedded) }
      wanted = thumbnail
    }
    guard let type = itemType(wanted, inside.first { $0.type == "iinf" }, bytes) else {
      return .failure(.noneEmbedded)
    }
    guard type == "jpeg" else {
      let printable = String(
        type.unicodeScalars.map {
          $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?"
        })
      return .failure(.notJPEGCoded(codec: printable))
    }
    guard let iloc = inside.first(where: { $0.type == "iloc" }),
      let range = location(of: wanted, iloc, bytes), range.upperBound <= bytes.count,
      isDisplayableJPEG(bytes, range)
    else { return .failure(.noneEmbedded) }
    return .success(range)
  }

  /// The item whose `thmb` reference names `primary`.
  static func thumbnailItem(of primary: Int, _ iref: Box, version: Int, _ reader: Reader) -> Int? {
    let wide = version != 0
    for reference in boxes(reader.bytes, from: iref.payload + 4, to: iref.end)
    where reference.type == "thmb" {
      var at = reference.payload
      guard let from = wide ? reader.u32(at) : reader.u16(at) else { continue }
      at += wide ? 4 : 2
      guard let count = reader.u16(at) else { continue }
      at += 2
      for _ in 0..<min(count, 1_024) {
        guard at + (wide ? 4 : 2) <= reference.end, let to = wide ? reader.u32(at) : reader.u16(at)
        else { break }
        if to == primary { return from }
        at += wide ? 4 : 2
      }
    }
    return nil
  }

  /// The four-character type of `item` in `iinf` (`infe` version 2 or 3), or nil.
  static func itemType(_ item: Int, _ iinf: Box?, _ bytes: [UInt8]) -> String? {
    guard let iinf, iinf.payload < bytes.count else { return nil }
    let reader = Reader(bytes: bytes, littleEndian: false)
    let first = iinf.payload + (bytes[iinf.payload] == 0 ? 6 : 8)
    for infe in boxes(bytes, from: first, to: iinf.end) where infe.type == "infe" {
      guard infe.payload < bytes.count else { continue }
      let version = bytes[infe.payload]
      guard version >= 2 else { continue }
      let idSize = version == 2 ? 2 : 4
      guard let id = idSize == 2 ? reader.u16(infe.payload + 4) : reader.u32(infe.payload + 4),
        id == item
      else { continue }
      let typeAt = infe.payload + 4 + idSize + 2
      guard typeAt + 4 <= infe.end else { return nil }
      return String(decoding: bytes[typeAt..<typeAt + 4], as: UTF8.self)
    }
    return nil
  }

  /// The bytes of `item` per `iloc` (versions 0 to 2) when it is one extent in the file itself
  /// (construction method 0, data reference 0), or nil.
  static func location(of item: Int, _ iloc: Box, _ bytes: [UInt8]) -> Range<Int>? {
    let reader = Reader(bytes: bytes, littleEndian: false)
    guard iloc.payload + 8 <= iloc.end else { return nil }
    let version = Int(bytes[iloc.payload])
    guard version <= 2 else { return nil }
    let offsetSize = Int(bytes[iloc.payload + 4] >> 4)
    let lengthSize = Int(bytes[iloc.payload + 4] & 0xF)
    let baseSize = Int(bytes[iloc.payload + 5] >> 4)
    let indexSize = version == 0 ? 0 : Int(bytes[iloc.payload + 5] & 0xF)
    var at = iloc.payload + 6
    func read(_ size: Int) -> Int? {
      defer { at += size }
      guard at + size <= iloc.end else { return nil }
      switch size {
      case 0: return 0
      case 2: return reader.u16(at)
      case 4: return reader.u32(at)
      case 8:
        guard let high = reader.u32(at), let low = reader.u32(at + 4), high < 0x7FFF else {
          return nil
        }
        return high << 32 | low
      default: return nil
      }
    }
    guard let count = read(version < 2 ? 2 : 4) else { return nil }
    for _ in 0..<min(count, 65_536) {
      guard let id = read(version < 2 ? 2 : 4) else { return nil }
      let method = version == 0 ? 0 : (read(2) ?? -1) & 0xF
      guard let reference = read(2), let base = read(baseSize), let extents = read(2) else {
        return nil
      }
      var found: [Range<Int>] = []
      for _ in 0..<extents {
        guard read(indexSize) != nil, let offset = read(offsetSize), let length = read(lengthSize)
        else { return nil }
        if id == item, let range = span(base <= Int.max - offset ? base + offset : nil, length) {
          found.append(range)
        }
      }
      if id == item {
        return method == 0 && reference == 0 && found.count == 1 && extents == 1 ? found[0] : nil
      }
    }
    return nil
  }
}
