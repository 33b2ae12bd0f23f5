import Foundation
import OffloadTestSupport
import Persistence

@testable import PhotoSession

/// Small image files with valid headers, written byte by byte: what the header reader must
/// understand, in every format it supports.
enum TestImages {
  /// A minimal TIFF structure (little or big endian): IFD0 with `entries`, and an EXIF IFD
  /// holding DateTimeOriginal when `date` is given.
  static func tiff(
    big: Bool = false, width: Int? = nil, height: Int? = nil, orientation: Int? = nil,
    date: String? = nil, extra: [(tag: Int, type: Int, count: Int, value: Int)] = [],
    canon: Bool = false
  ) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] {
      big ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
    }
    func u32(_ v: Int) -> [UInt8] {
      let b = [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
      return big ? b : b.reversed()
    }
    var entries: [(Int, Int, Int, [UInt8])] = []
    if let width { entries.append((0x0100, 4, 1, u32(width))) }
    if let height { entries.append((0x0101, 4, 1, u32(height))) }
    if let orientation { entries.append((0x0112, 3, 1, u16(orientation) + [0, 0])) }
    for e in extra {
      entries.append((e.tag, e.type, e.count, e.type == 3 ? u16(e.value) + [0, 0] : u32(e.value)))
    }
    let hasExif = date != nil
    if hasExif { entries.append((0x8769, 4, 1, [])) }
    entries.sort { $0.0 < $1.0 }
    let start = canon ? 16 : 8
    let ifd0Size = 2 + entries.count * 12 + 4
    let exifOffset = start + ifd0Size
    let exifSize = 2 + 12 + 4
    let dateOffset = exifOffset + exifSize
    var out: [UInt8] = big ? Array("MM".utf8) + u16(42) : Array("II".utf8) + u16(42)
    out += u32(start)
    if canon { out += Array("CR".utf8) + [2, 0] + u32(0) }
    out += u16(entries.count)
    for (tag, type, count, value) in entries {
      out += u16(tag) + u16(type) + u32(count)
      out += tag == 0x8769 ? u32(exifOffset) : value
    }
    out += u32(0)
    if let date {
      out += u16(1) + u16(0x9003) + u16(2) + u32(20) + u32(dateOffset) + u32(0)
      out += Array(date.utf8.prefix(19)) + [0]
    }
    return out
  }

  /// A baseline JPEG header: SOI, an EXIF APP1 (when orientation or date), SOF0, SOS, EOI.
  static func jpeg(
    width: Int, height: Int, orientation: Int? = nil, date: String? = nil, padding: Int = 0
  ) -> [UInt8] {
    var out: [UInt8] = [0xFF, 0xD8]
    if orientation != nil || date != nil {
      let payload =
        Array("Exif\u{0}\u{0}".utf8) + tiff(big: true, orientation: orientation, date: date)
      out += [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)]
      out += payload
    }
    if padding > 0 {
      // A comment segment, to push the frame header further into the file.
      var left = padding
      while left > 0 {
        let size = min(left, 65_000)
        out += [0xFF, 0xFE, UInt8((size + 2) >> 8), UInt8((size + 2) & 0xFF)]
        out += [UInt8](repeating: 0x20, count: size)
        left -= size
      }
    }
    out += [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF)]
    out += [UInt8(width >> 8), UInt8(width & 0xFF), 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    out += [0xFF, 0xDA, 0x00, 0x0C, 0x03, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0, 0x12, 0x34]
    out += [0xFF, 0xD9]
    return out
  }

  /// A PNG: signature, IHDR (with its CRC), IEND.
  static func png(width: Int, height: Int) -> [UInt8] {
    func be32(_ v: Int) -> [UInt8] {
      [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let body = Array(type.utf8) + data
      return be32(data.count) + body + be32(Int(CRC32.checksum(body)))
    }
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      + chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0]) + chunk("IEND", [])
  }

  /// A GIF89a with an empty image.
  static func gif(width: Int, height: Int) -> [UInt8] {
    Array("GIF89a".utf8) + [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF)]
      + [UInt8(height >> 8), 0, 0, 0, 0x3B]
  }

  private static func riff(_ chunks: [UInt8]) -> [UInt8] {
    let size = chunks.count + 4
    return Array("RIFF".utf8) + le32(size) + Array("WEBP".utf8) + chunks
  }

  private static func le32(_ v: Int) -> [UInt8] {
    [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)]
  }

  private static func webpChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    Array(type.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
  }

  /// A lossy WebP (VP8 key frame header).
  static func webpLossy(width: Int, height: Int) -> [UInt8] {
    let frame: [UInt8] =
      [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A, UInt8(width & 0xFF), UInt8(width >> 8)]
      + [UInt8(height & 0xFF), UInt8(height >> 8), 0, 0]
    return riff(webpChunk("VP8 ", frame))
  }

  /// A lossless WebP (VP8L header).
  static func webpLossless(width: Int, height: Int) -> [UInt8] {
    let bits = (width - 1) | (height - 1) << 14
    return riff(webpChunk("VP8L", [0x2F] + le32(bits) + [0, 0, 0]))
  }

  /// An extended WebP (VP8X) with an EXIF chunk.
  static func webpExtended(width: Int, height: Int, orientation: Int, date: String) -> [UInt8] {
    let w = width - 1
    let h = height - 1
    let vp8x: [UInt8] =
      [0x08, 0, 0, 0, UInt8(w & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w >> 16 & 0xFF)]
      + [UInt8(h & 0xFF), UInt8(h >> 8 & 0xFF), UInt8(h >> 16 & 0xFF)]
    return riff(
      webpChunk("VP8X", vp8x) + webpChunk("VP8L", [0x2F, 0, 0, 0, 0])
        + webpChunk("EXIF", tiff(orientation: orientation, date: date)))
  }

  private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    let size = payload.count + 8
    return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF)]
      + [UInt8(size & 0xFF)] + Array(type.utf8) + payload
  }

  private static func be32(_ v: Int) -> [UInt8] {
    [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }

  /// A HEIF: ftyp, meta with pitm, iprp (ipco: a thumbnail's ispe, the primary's ispe and
  /// irot; ipma mapping item 1 to properties 2 and 3, item 2 to property 1).
  static func heif(width: Int, height: Int, rotation: Int = 0) -> [UInt8] {
    let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
    let pitm = box("pitm", [0, 0, 0, 0, 0, 1])
    let thumb = box("ispe", [0, 0, 0, 0] + be32(160) + be32(120))
    let ispe = box("ispe", [0, 0, 0, 0] + be32(width) + be32(height))
    let irot = box("irot", [UInt8(rotation)])
    let ipco = box("ipco", thumb + ispe + irot)
    let ipma = box("ipma", [0, 0, 0, 0] + be32(2) + [0, 2, 1, 0x81] + [0, 1, 2, 0x82, 0x03])
    let meta = box(
      "meta",
      [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 24)) + pitm + box("iprp", ipco + ipma)
    )
    return ftyp + meta + box("mdat", [1, 2, 3, 4])
  }

  /// A Canon CR3: ftyp `crx `, moov with Canon's uuid box holding CMT1 (IFD0) and CMT2 (EXIF).
  static func cr3(width: Int, height: Int, orientation: Int, date: String) -> [UInt8] {
    let ftyp = box("ftyp", Array("crx ".utf8) + [0, 0, 0, 1] + Array("crx isom".utf8))
    let canon: [UInt8] = [
      0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A,
      0x48,
    ]
    let cmt1 = box("CMT1", tiff(width: width, height: height, orientation: orientation))
    // CMT2's IFD0 is the EXIF IFD itself.
    let cmt2 = box("CMT2", exifOnly(date: date))
    let moov = box("moov", box("uuid", canon + cmt1 + cmt2))
    return ftyp + moov
  }

  /// A TIFF whose IFD0 holds only DateTimeOriginal (as Canon's CMT2 is laid out).
  static func exifOnly(date: String) -> [UInt8] {
    var out: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0]
    out += [1, 0, 0x03, 0x90, 2, 0] + le32(20) + le32(26) + le32(0)
    out += Array(date.utf8.prefix(19)) + [0]
    return out
  }

  /// A Fujifilm RAF: its 92-byte header pointing at an embedded JPEG.
  static func raf(width: Int, height: Int, date: String) -> [UInt8] {
    let jpeg = jpeg(width: width, height: height, date: date)
    var header = Array("FUJIFILMCCD-RAW 0201FF383501".utf8)
    header += [UInt8](repeating: 0, count: 84 - header.count)
    header += be32(100) + be32(jpeg.count)
    header += [UInt8](repeating: 0, count: 100 - header.count)
    return header + jpeg
  }

  /// A raw file in TIFF form (CR2 signature when `canon`), with a small IFD0 preview and a
  /// larger SubIFD image.
  static func tiffRaw(canon: Bool, width: Int, height: Int, date: String) -> [UInt8] {
    var bytes = tiff(
      width: 160, height: 120, orientation: 1, date: date, extra: [(0x014A, 4, 1, 0)],
      canon: canon)
    // Append a SubIFD with the full size and point the 0x014A entry at it.
    let subOffset = bytes.count
    bytes +=
      [2, 0] + [0, 1, 4, 0] + le32(1) + le32(width) + [1, 1, 4, 0] + le32(1) + le32(height)
    bytes += le32(0)
    let start = canon ? 16 : 8
    let count = Int(bytes[start]) | Int(bytes[start + 1]) << 8
    for entry in 0..<count {
      let at = start + 2 + entry * 12
      if bytes[at] == 0x4A && bytes[at + 1] == 0x01 {
        bytes.replaceSubrange(at + 8..<at + 12, with: le32(subOffset))
      }
    }
    return bytes
  }

  /// Writes `bytes` to `name` inside `folder`, with a modification time when given.
  @discardableResult
  static func write(
    _ bytes: [UInt8], _ name: String, in folder: TemporaryDirectory, modified: Double? = nil
  ) throws -> String {
    let path = folder.appending(name)
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    if let modified {
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: modified)], ofItemAtPath: path)
    }
    return path
  }
}
