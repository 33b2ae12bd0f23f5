/// The video formats a folder scan recognises by file name extension: a Live Photo's `.mov`
/// beside its photo is a companion of the photo's card; a video with no photo of its base name
/// is a card of its own (``CardKind/video``).
public enum VideoFormat: String, Hashable, Sendable, CaseIterable, Codable {
  /// QuickTime (`.mov`, `.qt`).
  case quickTime = "mov"
  /// MPEG-4 (`.mp4`).
  case mp4
  /// Apple's MPEG-4 video (`.m4v`).
  case m4v
  /// 3GPP (`.3gp`).
  case threeGP = "3gp"
  /// AVI (`.avi`).
  case avi
  /// Matroska (`.mkv`).
  case matroska = "mkv"
  /// WebM (`.webm`).
  case webm

  /// Each lowercased extension and its format.
  static let extensions: [String: VideoFormat] = [
    "mov": .quickTime, "qt": .quickTime, "mp4": .mp4, "m4v": .m4v, "3gp": .threeGP,
    "avi": .avi, "mkv": .matroska, "webm": .webm,
  ]

  /// The format of a file name, from its extension (case-insensitive), or nil.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the name.
  public init?(fileName: some StringProtocol) {
    guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex,
      let format = Self.extensions[fileName[fileName.index(after: dot)...].lowercased()]
    else { return nil }
    self = format
  }

  /// Whether the file is an ISO base media file (QuickTime, MP4, M4V, 3GPP), whose movie
  /// header gives the duration.
  public var isISOMedia: Bool {
    switch self {
    case .quickTime, .mp4, .m4v, .threeGP: true
    case .avi, .matroska, .webm: false
    }
  }
}

/// What a card is: a photo (shown from its image) or a video alone (shown by its metadata).
public enum CardKind: String, Hashable, Sendable, CaseIterable, Codable {
  /// A photo: its shown file is an image.
  case photo
  /// A video with no photo of its base name beside it: its shown file is the video.
  case video

  /// The kind of a card whose shown file is `path`.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the path.
  public init(path: some StringProtocol) {
    self = VideoFormat(fileName: path) == nil ? .photo : .video
  }
}

/// What a video card shows: its format, size, dates and, when the movie header is near the
/// start of the file, its duration.
public struct VideoMetadata: Hashable, Sendable, Codable {
  /// The format, by extension.
  public var format: VideoFormat
  /// The file's size in bytes.
  public var byteCount: Int
  /// The file's modification time in seconds since 1970.
  public var modificationTime: Double
  /// The movie header's creation time in seconds since 1970 (UTC), when it has one.
  public var creationTime: Double?
  /// The duration in seconds, when the movie header (`moov`/`mvhd`) lies within the first
  /// ``VideoMetadata/headerProbeBytes`` of the file; nil otherwise (a movie written with its
  /// header at the end would have to be read whole).
  public var durationSeconds: Double?

  /// How many bytes at the start of a video are read for its movie header.
  public static let headerProbeBytes = 256 * 1024

  /// Creates video metadata from its parts.
  public init(
    format: VideoFormat, byteCount: Int, modificationTime: Double, creationTime: Double? = nil,
    durationSeconds: Double? = nil
  ) {
    self.format = format
    self.byteCount = byteCount
    self.modificationTime = modificationTime
    self.creationTime = creationTime
    self.durationSeconds = durationSeconds
  }

  /// The duration and creation time in an ISO base media file's movie header (`moov` →
  /// `mvhd`), when the header lies within `bytes` (the start of the file); nil for each part
  /// not found. Never reads past `bytes` and never traps on damaged input.
  ///
  /// - Complexity: O(*b*) in the number of top-level boxes within `bytes`.
  public static func movieHeader(_ bytes: [UInt8]) -> (duration: Double?, created: Double?) {
    func u32(_ at: Int) -> UInt64? {
      guard at >= 0, at + 4 <= bytes.count else { return nil }
      return bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt64($1) }
    }
    func u64(_ at: Int) -> UInt64? {
      guard let high = u32(at), let low = u32(at + 4) else { return nil }
      return high << 32 | low
    }
    /// Each box in `start..<end`: its type, payload start and end (clipped to `bytes`).
    func boxes(_ start: Int, _ end: Int) -> [(type: String, payload: Int, end: Int)] {
      var result: [(String, Int, Int)] = []
      var offset = start
      while offset + 8 <= end, result.count < 1024, let size32 = u32(offset) {
        let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
        var size = size32
        var payload = offset + 8
        if size32 == 1 {
          guard let large = u64(offset + 8), large < UInt64(Int32.max) * 1024 else { break }
          size = large
          payload += 8
        } else if size32 == 0 {
          size = UInt64(end - offset)
        }
        guard size >= UInt64(payload - offset) else { break }
        let boxEnd = offset + Int(clamping: size)
        result.append((type, payload, min(boxEnd, end)))
        guard boxEnd > offset else { break }
        offset = boxEnd
      }
      return result
    }
    guard let moov = boxes(0, bytes.count).first(where: { $0.type == "moov" }),
      let mvhd = boxes(moov.payload, moov.end).first(where: { $0.type == "mvhd" })
    else { return (nil, nil) }
    let at = mvhd.payload
    guard at < bytes.count else { return (nil, nil) }
    let version = bytes[at]
    let created: UInt64?
    let timescale: UInt64?
    let duration: UInt64?
    if version == 1 {
      (created, timescale, duration) = (u64(at + 4), u32(at + 20), u64(at + 24))
    } else {
      (created, timescale, duration) = (u32(at + 4), u32(at + 12), u32(at + 16))
    }
    // The movie header counts seconds from 1904-01-01 UTC; 0 means unset.
    let since1904To1970: UInt64 = 2_082_844_800
    let creation = created.flatMap { $0 > since1904To1970 ? Double($0 - since1904To1970) : nil }
    guard let timescale, timescale > 0, let duration, duration != UInt64.max,
      duration != UInt64(UInt32.max)
    else { return (nil, creation) }
    return (Double(duration) / Double(timescale), creation)
  }
}
