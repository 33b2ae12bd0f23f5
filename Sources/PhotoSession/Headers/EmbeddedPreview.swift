/// The largest JPEG a raw file carries for display, found without decoding anything.
///
/// Cameras write a full-size or large JPEG preview inside their raw files, because no screen
/// shows raw sensor data as it is: TIFF-based raws (CR2, NEF, ARW, DNG, PEF) name it in an IFD
/// (`JPEGInterchangeFormat`/`Length`, or a strip of a JPEG-compressed IFD, often in a SubIFD),
/// Panasonic RW2 in its `JpgFromRaw` tag, Olympus ORF in the same TIFF structure, and Fujifilm
/// RAF at a fixed place in its header. A browser can show that preview where it cannot show
/// the raw file.
///
/// ```swift
/// if let range = EmbeddedPreview.jpegRange(in: bytes) {
///   serve(bytes[range], type: "image/jpeg")
/// }
/// ```
public enum EmbeddedPreview {
  /// The byte range of the largest baseline or progressive JPEG the file embeds, or nil.
  ///
  /// Candidates that do not start with a JPEG start-of-image marker, run past the end of the
  /// file, or are lossless JPEG (DNG raw data, which no browser decodes) are passed over.
  ///
  /// - Parameter bytes: The whole raw file.
  /// - Returns: The range of the preview in `bytes`, or nil when there is none.
  /// - Complexity: O(*i* + *s*), where *i* is the number of IFD entries read (at most 64 IFDs
  ///   of 1,024 entries) and *s* the bytes scanned for each candidate's frame marker.
  public static func jpegRange(in bytes: [UInt8]) -> Range<Int>? {
    var candidates: [Range<Int>] = []
    if bytes.starts(with: Array("FUJIFILMCCD-RAW".utf8)) {
      let reader = Reader(bytes: bytes, littleEndian: false)
      if let range = span(reader.u32(84), reader.u32(88)) { candidates.append(range) }
    } else if let reader = Reader(tiff: bytes), let first = reader.u32(4) {
      reader.walk(from: first, into: &candidates)
    }
    return
      candidates
      .filter { $0.lowerBound >= 0 && $0.upperBound <= bytes.count && isDisplayableJPEG(bytes, $0) }
      .max { $0.count < $1.count }
  }

  /// The range `start..<start + length` when both are known, positive and do not overflow.
  static func span(_ start: Int?, _ length: Int?) -> Range<Int>? {
    guard let start, let length, start >= 0, length > 4, start <= Int.max - length else {
      return nil
    }
    return start..<(start + length)
  }

  /// Whether `range` holds a JPEG a browser decodes: a start-of-image marker, then a
  /// baseline, extended or progressive frame header before any lossless one.
  static func isDisplayableJPEG(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
    guard range.count > 4, bytes[range.lowerBound] == 0xFF, bytes[range.lowerBound + 1] == 0xD8
    else { return false }
    var at = range.lowerBound + 2
    while at + 4 <= range.upperBound {
      guard bytes[at] == 0xFF else { return false }
      let marker = bytes[at + 1]
      switch marker {
      case 0xC0, 0xC1, 0xC2: return true
      case 0xC3, 0xC5...0xC7, 0xCB, 0xCD...0xCF: return false  // lossless or hierarchical
      case 0xD8, 0x01, 0xD0...0xD7:
        at += 2
        continue
      case 0xDA, 0xD9: return false  // scan data or end before any frame header
      default:
        let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        guard length >= 2 else { return false }
        at += 2 + length
      }
    }
    return false
  }

  /// Reads TIFF-style integers in the file's byte order.
  struct Reader {
    let bytes: [UInt8]
    let littleEndian: Bool

    init(bytes: [UInt8], littleEndian: Bool) {
      self.bytes = bytes
      self.littleEndian = littleEndian
    }

    /// A reader for a TIFF-structured file (TIFF, CR2, NEF, ARW, DNG, ORF, RW2), or nil.
    init?(tiff bytes: [UInt8]) {
      guard bytes.count >= 8 else { return nil }
      switch (bytes[0], bytes[1]) {
      case (0x49, 0x49): self.init(bytes: bytes, littleEndian: true)
      case (0x4D, 0x4D): self.init(bytes: bytes, littleEndian: false)
      default: return nil
      }
      // 42 for TIFF and its raws; "RO"/"RS" for ORF; 0x55 for RW2.
      guard let magic = u16(2), [42, 0x4F52, 0x5352, 0x55].contains(magic) else { return nil }
    }

    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= bytes.count else { return nil }
      let a = Int(bytes[at])
      let b = Int(bytes[at + 1])
      return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ at: Int) -> Int? {
      guard at >= 0, at + 4 <= bytes.count else { return nil }
      let values = (0..<4).map { Int(bytes[at + $0]) }
      return littleEndian
        ? values[0] | values[1] << 8 | values[2] << 16 | values[3] << 24
        : values[0] << 24 | values[1] << 16 | values[2] << 8 | values[3]
    }

    /// Collects the preview candidates of the IFD at `start`, its chain and its sub-IFDs.
    func walk(from start: Int, into candidates: inout [Range<Int>]) {
      var queue = [start]
      var seen: Set<Int> = []
      while let offset = queue.popLast(), seen.count < 64 {
        guard offset > 0, seen.insert(offset).inserted, let count = u16(offset), count <= 1_024
        else { continue }
        var jpegOffset: Int?
        var jpegLength: Int?
        var compression: Int?
        var stripOffset: Int?
        var stripLength: Int?
        for index in 0..<count {
          let entry = offset + 2 + index * 12
          guard let tag = u16(entry), let type = u16(entry + 2), let items = u32(entry + 4) else {
            break
          }
          // A single SHORT sits in the first two bytes of the value field.
          let value = type == 3 && items == 1 ? u16(entry + 8) : u32(entry + 8)
          switch tag {
          case 0x0201: jpegOffset = value
          case 0x0202: jpegLength = value
          case 0x0103: compression = value
          case 0x0111 where items == 1: stripOffset = value
          case 0x0117 where items == 1: stripLength = value
          case 0x002E:  // RW2 JpgFromRaw: the JPEG itself, as an undefined-type value
            if let range = span(value, items) { candidates.append(range) }
          case 0x014A, 0x8769:  // SubIFDs, the Exif IFD
            if items == 1, let value {
              queue.append(value)
            } else if let value, items <= 16 {
              for sub in 0..<items { if let next = u32(value + 4 * sub) { queue.append(next) } }
            }
          default: break
          }
        }
        if let range = span(jpegOffset, jpegLength) { candidates.append(range) }
        if let compression, [6, 7].contains(compression), let range = span(stripOffset, stripLength)
        {
          candidates.append(range)
        }
        if let next = u32(offset + 2 + count * 12), next != 0 { queue.append(next) }
      }
    }
  }
}
