/// Reads dimensions, orientation and capture date from the first bytes of an image file, with
/// no image library: JPEG (SOF and EXIF APP1), PNG (IHDR), GIF, WebP (VP8, VP8L, VP8X and its
/// EXIF chunk), TIFF and TIFF-based raws (IFD0, SubIFDs, EXIF IFD), Fujifilm RAF (its embedded
/// JPEG), HEIF/HEIC (`ispe`, `irot` of the primary item) and Canon CR3 (`CMT1`, `CMT2`).
///
/// Every read is bounds-checked: truncated or corrupt input gives a ``Failure``, never a trap.
struct ImageHeader {
  /// What the header says.
  struct Info: Hashable {
    var format: ImageFormat
    var width: Int?
    var height: Int?
    var orientation = 1
    var captureDate: String?
  }

  /// Why a header could not be read.
  enum Failure: Error, Hashable {
    /// The data ends before `offset`, and the buffer was the whole file.
    case truncated(offset: Int, what: String)
    /// The data ends before `offset`, but the file has more: read more and try again.
    case needMore(offset: Int)
    /// The data is not a valid header at `offset`.
    case corrupt(offset: Int, reason: String)
    /// The signature is not one of a known format.
    case unsupported
  }

  let bytes: [UInt8]
  /// Whether `bytes` is the whole file.
  let isComplete: Bool
  /// What was found so far (kept when parsing stops early, for the capture date).
  var info: Info

  init(bytes: [UInt8], isComplete: Bool) {
    self.bytes = bytes
    self.isComplete = isComplete
    self.info = Info(format: .jpeg)
  }

  /// Parses a header; `hint` breaks ties between TIFF-based formats (from the extension).
  static func parse(
    _ bytes: [UInt8], isComplete: Bool, hint: ImageFormat? = nil
  ) -> Result<Info, Failure> {
    var parser = ImageHeader(bytes: bytes, isComplete: isComplete)
    do {
      try parser.parse(hint: hint)
      return .success(parser.info)
    } catch {
      return .failure(error)
    }
  }

  /// The capture date found before parsing stopped, whatever stopped it.
  static func captureDate(_ bytes: [UInt8], isComplete: Bool, hint: ImageFormat?) -> String? {
    var parser = ImageHeader(bytes: bytes, isComplete: isComplete)
    try? parser.parse(hint: hint)
    return parser.info.captureDate
  }

  // MARK: Bounds-checked reads

  func need(_ offset: Int, _ count: Int, _ what: String) throws(Failure) {
    guard offset >= 0, count >= 0, offset <= bytes.count - count else {
      let end = offset < 0 ? 0 : offset &+ count
      throw isComplete ? .truncated(offset: offset, what: what) : .needMore(offset: end)
    }
  }

  func u8(_ offset: Int, _ what: String = "data") throws(Failure) -> Int {
    try need(offset, 1, what)
    return Int(bytes[offset])
  }

  func u16(_ offset: Int, big: Bool, _ what: String = "data") throws(Failure) -> Int {
    try need(offset, 2, what)
    let a = Int(bytes[offset])
    let b = Int(bytes[offset + 1])
    return big ? a << 8 | b : b << 8 | a
  }

  func u32(_ offset: Int, big: Bool, _ what: String = "data") throws(Failure) -> Int {
    try need(offset, 4, what)
    var value = 0
    for i in 0..<4 {
      value |= Int(bytes[offset + (big ? i : 3 - i)]) << (8 * (3 - i))
    }
    return value
  }

  func matches(_ offset: Int, _ text: String) -> Bool {
    let pattern = Array(text.utf8)
    guard offset >= 0, offset <= bytes.count - pattern.count else { return false }
    return bytes[offset..<offset + pattern.count].elementsEqual(pattern)
  }

  // MARK: Dispatch

  private mutating func parse(hint: ImageFormat?) throws(Failure) {
    guard !bytes.isEmpty else { throw .truncated(offset: 0, what: "signature") }
    if bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8 {
      info.format = .jpeg
      try parseJPEG(at: 0)
    } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      info.format = .png
      try parsePNG()
    } else if matches(0, "GIF87a") || matches(0, "GIF89a") {
      info.format = .gif
      info.width = try u16(6, big: false, "GIF screen width")
      info.height = try u16(8, big: false, "GIF screen height")
    } else if matches(0, "RIFF") && matches(8, "WEBP") {
      info.format = .webp
      try parseWebP()
    } else if matches(0, "FUJIFILMCCD-RAW") {
      info.format = .raf
      try parseRAF()
    } else if matches(0, "IIRO") || matches(0, "IIRS") || matches(0, "MMOR") {
      info.format = .orf
      try parseTIFF(base: 0, raw: true)
    } else if matches(0, "IIU\u{0}") {
      info.format = .rw2
      try parseTIFF(base: 0, raw: true)
    } else if matches(0, "II*\u{0}") || matches(0, "MM\u{0}*") {
      if matches(8, "CR") {
        info.format = .cr2
      } else if let hint, [.nef, .arw, .dng, .cr2].contains(hint) {
        info.format = hint
      } else {
        info.format = .tiff
      }
      try parseTIFF(base: 0, raw: info.format != .tiff)
    } else if matches(4, "ftyp") {
      try parseISOBMFF()
    } else {
      try need(0, 16, "signature")
      throw .unsupported
    }
  }

  // MARK: JPEG

  private static func isStartOfFrame(_ marker: Int) -> Bool {
    (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
  }

  private mutating func parseJPEG(at start: Int) throws(Failure) {
    var offset = start + 2
    while true {
      guard try u8(offset, "JPEG marker") == 0xFF else {
        throw .corrupt(offset: offset, reason: "expected a JPEG marker (0xFF)")
      }
      var marker = try u8(offset + 1, "JPEG marker")
      while marker == 0xFF {
        offset += 1
        marker = try u8(offset + 1, "JPEG marker")
      }
      if marker == 0x01 || (0xD0...0xD7).contains(marker) {
        offset += 2
        continue
      }
      if marker == 0xD9 || marker == 0xDA || marker == 0x00 {
        throw .corrupt(offset: offset, reason: "the JPEG has no frame header before its image data")
      }
      let length = try u16(offset + 2, big: true, "JPEG segment length")
      guard length >= 2 else {
        throw .corrupt(
          offset: offset + 2, reason: "a JPEG segment length of \(length) is too small")
      }
      let data = offset + 4
      if Self.isStartOfFrame(marker) {
        info.height = try u16(data + 1, big: true, "JPEG frame height")
        info.width = try u16(data + 3, big: true, "JPEG frame width")
        guard info.width ?? 0 > 0 else {
          throw .corrupt(offset: data + 3, reason: "the JPEG frame has a width of 0")
        }
        return
      }
      if marker == 0xE1 && matches(data, "Exif\u{0}\u{0}") && info.captureDate == nil {
        let end = min(data + length - 2, bytes.count)
        try parseTIFF(base: data + 6, raw: false, limit: end)
      }
      offset = data + length - 2
    }
  }

  // MARK: PNG, WebP, RAF

  private mutating func parsePNG() throws(Failure) {
    guard matches(12, "IHDR") else {
      try need(12, 4, "PNG IHDR chunk")
      throw .corrupt(offset: 12, reason: "the first PNG chunk is not IHDR")
    }
    info.width = try u32(16, big: true, "PNG width")
    info.height = try u32(20, big: true, "PNG height")
    guard info.width ?? 0 > 0, info.height ?? 0 > 0 else {
      throw .corrupt(offset: 16, reason: "the PNG has a zero width or height")
    }
  }

  private mutating func parseWebP() throws(Failure) {
    var offset = 12
    var first = true
    while true {
      try need(offset, 8, "WebP chunk header")
      let size = try u32(offset + 4, big: false)
      let data = offset + 8
      if matches(offset, "VP8 ") && first {
        guard try u8(data + 3) == 0x9D, try u8(data + 4) == 0x01, try u8(data + 5) == 0x2A else {
          throw .corrupt(offset: data + 3, reason: "the VP8 frame has no start code")
        }
        info.width = try u16(data + 6, big: false, "VP8 width") & 0x3FFF
        info.height = try u16(data + 8, big: false, "VP8 height") & 0x3FFF
        return
      } else if matches(offset, "VP8L") && first {
        guard try u8(data) == 0x2F else {
          throw .corrupt(offset: data, reason: "the VP8L signature byte is not 0x2F")
        }
        let bits = try u32(data + 1, big: false, "VP8L size")
        info.width = (bits & 0x3FFF) + 1
        info.height = (bits >> 14 & 0x3FFF) + 1
        return
      } else if matches(offset, "VP8X") && first {
        let widthLow = try u16(data + 4, big: false)
        let widthHigh = try u8(data + 6)
        let heightLow = try u16(data + 7, big: false)
        let heightHigh = try u8(data + 9)
        info.width = (widthLow | widthHigh << 16) + 1
        info.height = (heightLow | heightHigh << 16) + 1
        let flags = try u8(data)
        if flags & 0x08 == 0 { return }  // no EXIF chunk
      } else if matches(offset, "EXIF") {
        let tiff = matches(data, "Exif\u{0}\u{0}") ? data + 6 : data
        try parseTIFF(base: tiff, raw: false, limit: min(data + size, bytes.count))
        return
      } else if first {
        throw .corrupt(offset: offset, reason: "the first WebP chunk is not VP8, VP8L or VP8X")
      }
      first = false
      offset = data + size + (size & 1)
    }
  }

  private mutating func parseRAF() throws(Failure) {
    let jpeg = try u32(84, big: true, "RAF JPEG offset")
    guard jpeg >= 92 else {
      throw .corrupt(
        offset: 84, reason: "the RAF's embedded JPEG offset \(jpeg) is inside its header")
    }
    guard try u16(jpeg, big: true, "RAF embedded JPEG") == 0xFFD8 else {
      throw .corrupt(offset: jpeg, reason: "the RAF's embedded image is not a JPEG")
    }
    try parseJPEG(at: jpeg)
    info.format = .raf
  }

  // MARK: TIFF and EXIF

  /// Tags read from an IFD.
  private struct Directory {
    var width: Int?
    var height: Int?
    var orientation: Int?
    var exif: Int?
    var subDirectories: [Int] = []
    var dateOriginal: String?
    var next: Int = 0
  }

  private func readDirectory(
    at offset: Int, base: Int, big: Bool, limit: Int
  ) throws(Failure) -> Directory {
    var directory = Directory()
    let count = try u16(offset, big: big, "TIFF directory")
    guard count > 0, count <= 4096 else {
      throw .corrupt(offset: offset, reason: "a TIFF directory claims \(count) entries")
    }
    for entry in 0..<count {
      let at = offset + 2 + entry * 12
      let tag = try u16(at, big: big, "TIFF entry")
      let type = try u16(at + 2, big: big)
      let valueCount = try u32(at + 4, big: big)
      func scalar() throws(Failure) -> Int {
        type == 3 ? try u16(at + 8, big: big) : try u32(at + 8, big: big)
      }
      switch tag {
      case 0x0100, 0xA002, 0x0002: directory.width = try scalar()
      case 0x0101, 0xA003, 0x0003: directory.height = try scalar()
      case 0x0112: directory.orientation = try u16(at + 8, big: big)
      case 0x8769: directory.exif = base + (try u32(at + 8, big: big))
      case 0x014A:
        if valueCount == 1 {
          directory.subDirectories = [base + (try u32(at + 8, big: big))]
        } else if valueCount > 1 && valueCount <= 8 {
          let list = base + (try u32(at + 8, big: big))
          for i in 0..<valueCount {
            directory.subDirectories.append(base + (try u32(list + 4 * i, big: big)))
          }
        }
      case 0x9003:
        guard type == 2, valueCount >= 19, valueCount <= 64 else { break }
        let at = base + (try u32(at + 8, big: big))
        try need(at, 19, "EXIF DateTimeOriginal")
        directory.dateOriginal = Self.isoDate(bytes[at..<at + 19])
      default: break
      }
    }
    directory.next = try u32(offset + 2 + count * 12, big: big, "TIFF next directory")
    return directory
  }

  /// `YYYY:MM:DD hh:mm:ss` as `YYYY-MM-DDThh:mm:ss`, or nil when it is not a valid date.
  static func isoDate(_ text: ArraySlice<UInt8>) -> String? {
    let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
    let raw = Array(text)
    guard raw.count >= 19, digits.allSatisfy({ (0x30...0x39).contains(raw[$0]) }) else {
      return nil
    }
    func number(_ range: Range<Int>) -> Int {
      range.reduce(0) { $0 * 10 + Int(raw[$1] - 0x30) }
    }
    let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
    let (hour, minute, second) = (number(11..<13), number(14..<16), number(17..<19))
    guard year > 0, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
      second < 61
    else { return nil }
    var out = raw[0..<19]
    out[4] = UInt8(ascii: "-")
    out[7] = UInt8(ascii: "-")
    out[10] = UInt8(ascii: "T")
    return String(decoding: out, as: UTF8.self)
  }

  /// Parses a TIFF structure at `base`: IFD0, its SubIFDs (raws) and its EXIF IFD.
  mutating func parseTIFF(
    base: Int, raw: Bool, limit: Int? = nil, exifOnly: Bool = false
  ) throws(Failure) {
    let order = try u16(base, big: true, "TIFF byte order")
    let big: Bool
    switch order {
    case 0x4949: big = false
    case 0x4D4D: big = true
    default: throw .corrupt(offset: base, reason: "the TIFF byte order mark is not II or MM")
    }
    let first = try u32(base + 4, big: big, "TIFF first directory offset")
    guard first >= 8 else {
      throw .corrupt(
        offset: base + 4, reason: "the first TIFF directory offset \(first) is too small")
    }
    let end = limit ?? Int.max
    let zero = try readDirectory(at: base + first, base: base, big: big, limit: end)
    if exifOnly {
      if let date = zero.dateOriginal { info.captureDate = date }
      return
    }
    if let orientation = zero.orientation, (1...8).contains(orientation) {
      info.orientation = orientation
    }
    var best = (zero.width ?? 0, zero.height ?? 0)
    if let exif = zero.exif {
      let directory = try readDirectory(at: exif, base: base, big: big, limit: end)
      if let date = directory.dateOriginal { info.captureDate = date }
      if info.width == nil, let w = directory.width, let h = directory.height,
        w * h > best.0 * best.1
      {
        best = (w, h)
      }
    }
    if raw {
      for sub in zero.subDirectories.prefix(8) {
        guard let directory = try? readDirectory(at: sub, base: base, big: big, limit: end),
          let w = directory.width, let h = directory.height, w * h > best.0 * best.1
        else { continue }
        best = (w, h)
      }
    }
    if info.width == nil && best.0 > 0 && best.1 > 0 {
      info.width = best.0
      info.height = best.1
    }
  }
}
