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
  /// Which embedded image to look for.
  public enum Kind: String, Sendable, CaseIterable {
    /// The largest JPEG the file carries: a raw file's display preview, a JPEG itself.
    case preview
    /// The smallest: a JPEG's EXIF thumbnail (IFD1), a raw file's thumbnail, CR3's `THMB`,
    /// a HEIF thumbnail item when it is JPEG-coded.
    case thumbnail
  }

  /// Why a file has no embedded JPEG of the kind asked for.
  public enum Absence: Error, Hashable, Sendable {
    /// The file is not in a format that embeds a JPEG (PNG, GIF, WebP, unknown bytes).
    case unsupportedFormat
    /// The format can embed one, but this file carries none that a browser decodes.
    case noneEmbedded
    /// A HEIF whose images are coded with `codec` (`hvc1` for HEVC, `av01` for AV1): a JPEG
    /// cannot be served without decoding and re-encoding it, which this reader never does.
    case notJPEGCoded(codec: String)

    /// One line saying why, for an error message.
    public var reason: String {
      switch self {
      case .unsupportedFormat: "its format carries no embedded JPEG"
      case .noneEmbedded: "it carries no embedded JPEG a browser can decode"
      case .notJPEGCoded(let codec):
        "its embedded image is coded as '\(codec)', not JPEG"
      }
    }
  }

  /// The byte range of the largest baseline or progressive JPEG the file embeds, or nil:
  /// ``locate(_:in:)`` for the ``Kind/preview`` without the reason (so a JPEG file is its own
  /// preview).
  ///
  /// Candidates that do not start with a JPEG start-of-image marker, run past the end of the
  /// file, or are lossless JPEG (DNG raw data, which no browser decodes) are passed over.
  ///
  /// - Parameter bytes: The whole file.
  /// - Returns: The range of the preview in `bytes`, or nil when there is none.
  /// - Complexity: O(*i* + *s*), where *i* is the number of IFD entries read (at most 64 IFDs
  ///   of 1,024 entries) and *s* the bytes scanned for each candidate's frame marker.
  public static func jpegRange(in bytes: [UInt8]) -> Range<Int>? {
    try? locate(.preview, in: bytes).get()
  }

  /// Finds the embedded JPEG of `kind` in a whole image file, or says why there is none.
  ///
  /// For a JPEG file the preview is the file itself and the thumbnail its EXIF thumbnail
  /// (IFD1 of the APP1 `Exif` block). For TIFF-based raws (CR2, NEF, ARW, DNG, PEF, ORF, RW2)
  /// and RAF the preview is the largest displayable JPEG of the IFDs and SubIFDs and the
  /// thumbnail the smallest. For CR3 they are the `PRVW` and `THMB` boxes. For HEIF the
  /// thumbnail item is served only when it is JPEG-coded; a HEVC- or AV1-coded image is
  /// reported as ``Absence/notJPEGCoded(codec:)``. Every read is bounds-checked.
  ///
  /// ```swift
  /// switch EmbeddedPreview.locate(.thumbnail, in: bytes) {
  /// case .success(let range): serve(bytes[range])
  /// case .failure(let absence): print("no thumbnail: \(absence.reason)")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - kind: The preview or the thumbnail.
  ///   - bytes: The whole file.
  /// - Returns: The range of a displayable JPEG inside `bytes`, or why there is none.
  /// - Complexity: O(*i* + *s* + *b*): *i* IFD entries read (at most 64 IFDs of 1,024
  ///   entries), *s* bytes scanned for frame markers, *b* boxes read (at most 4,096 a level).
  public static func locate(_ kind: Kind, in bytes: [UInt8]) -> Result<Range<Int>, Absence> {
    var candidates: [Range<Int>] = []
    if bytes.starts(with: [0xFF, 0xD8]) {
      if kind == .preview {
        return isDisplayableJPEG(bytes, 0..<bytes.count)
          ? .success(0..<bytes.count) : .failure(.noneEmbedded)
      }
      candidates = exifThumbnails(bytes)
    } else if bytes.starts(with: Array("FUJIFILMCCD-RAW".utf8)) {
      let reader = Reader(bytes: bytes, littleEndian: false)
      if let range = span(reader.u32(84), reader.u32(88)) { candidates.append(range) }
    } else if let reader = Reader(tiff: bytes), let first = reader.u32(4) {
      reader.walk(from: first, into: &candidates)
    } else if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) {
      return isoMedia(kind, bytes)
    } else {
      return .failure(.unsupportedFormat)
    }
    let shown = candidates.filter {
      $0.lowerBound >= 0 && $0.upperBound <= bytes.count && isDisplayableJPEG(bytes, $0)
    }
    let found =
      kind == .preview ? shown.max { $0.count < $1.count } : shown.min { $0.count < $1.count }
    return found.map { .success($0) } ?? .failure(.noneEmbedded)
  }

  /// The pixel size a JPEG's frame header states, or nil when it has none.
  ///
  /// - Parameter jpeg: A JPEG, for example the bytes ``locate(_:in:)`` found.
  /// - Returns: Width and height in pixels.
  /// - Complexity: O(*s*) for the *s* bytes before the frame header.
  public static func pixelSize(ofJPEG jpeg: [UInt8]) -> (width: Int, height: Int)? {
    guard case .success(let info) = ImageHeader.parse(jpeg, isComplete: true),
      let width = info.width, let height = info.height
    else { return nil }
    return (width, height)
  }

  /// The thumbnails named in the EXIF block of a JPEG: IFD1's `JPEGInterchangeFormat`, read
  /// with the TIFF walker relative to the block's start and kept inside the APP1 segment.
  static func exifThumbnails(_ bytes: [UInt8]) -> [Range<Int>] {
    var at = 2
    while at + 4 <= bytes.count, bytes[at] == 0xFF {
      let marker = bytes[at + 1]
      if marker == 0xDA || marker == 0xD9 || (0xC0...0xC2).contains(marker) { break }
      let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
      guard length >= 2 else { break }
      let data = at + 4
      let end = min(data + length - 2, bytes.count)
      if marker == 0xE1, data + 6 <= end,
        bytes[data..<data + 6].elementsEqual("Exif\u{0}\u{0}".utf8),
        let reader = Reader(tiff: bytes, base: data + 6), let first = reader.u32(4)
      {
        var candidates: [Range<Int>] = []
        reader.walk(from: first, into: &candidates)
        return candidates.filter { $0.upperBound <= end }
      }
      at = data + length - 2
    }
    return []
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
  /// Offsets are relative to `base`: 0 for a raw file, the TIFF header inside a JPEG's APP1.
  struct Reader {
    let bytes: [UInt8]
    let littleEndian: Bool
    let base: Int

    init(bytes: [UInt8], littleEndian: Bool, base: Int = 0) {
      self.bytes = bytes
      self.littleEndian = littleEndian
      self.base = base
    }

    /// A reader for a TIFF structure at `base` (TIFF, CR2, NEF, ARW, DNG, ORF, RW2, EXIF), or nil.
    init?(tiff bytes: [UInt8], base: Int = 0) {
      guard base >= 0, base <= bytes.count - 8 else { return nil }
      switch (bytes[base], bytes[base + 1]) {
      case (0x49, 0x49): self.init(bytes: bytes, littleEndian: true, base: base)
      case (0x4D, 0x4D): self.init(bytes: bytes, littleEndian: false, base: base)
      default: return nil
      }
      // 42 for TIFF and its raws; "RO"/"RS" for ORF; 0x55 for RW2.
      guard let magic = u16(2), [42, 0x4F52, 0x5352, 0x55].contains(magic) else { return nil }
    }

    func u16(_ offset: Int) -> Int? {
      guard offset >= 0, offset <= bytes.count - base - 2 else { return nil }
      let at = base + offset
      let a = Int(bytes[at])
      let b = Int(bytes[at + 1])
      return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ offset: Int) -> Int? {
      guard offset >= 0, offset <= bytes.count - base - 4 else { return nil }
      let at = base + offset
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
            if let range = span(value, items) { candidates.append(range.shifted(base)) }
          case 0x014A, 0x8769:  // SubIFDs, the Exif IFD
            if items == 1, let value {
              queue.append(value)
            } else if let value, items <= 16 {
              for sub in 0..<items { if let next = u32(value + 4 * sub) { queue.append(next) } }
            }
          default: break
          }
        }
        if let range = span(jpegOffset, jpegLength) { candidates.append(range.shifted(base)) }
        if let compression, [6, 7].contains(compression), let range = span(stripOffset, stripLength)
        {
          candidates.append(range.shifted(base))
        }
        if let next = u32(offset + 2 + count * 12), next != 0 { queue.append(next) }
      }
    }
  }
}

extension Range<Int> {
  /// The range moved `base` bytes on, or an empty range at the end when that would overflow.
  fileprivate func shifted(_ base: Int) -> Range<Int> {
    guard base > 0 else { return self }
    guard upperBound <= Int.max - base else { return Int.max..<Int.max }
    return (lowerBound + base)..<(upperBound + base)
  }
}
