/// The image formats a ``FolderLibrary`` recognises, by file name extension and by signature.
public enum ImageFormat: String, Hashable, Sendable, CaseIterable, Codable {
  /// JPEG (`.jpg`, `.jpeg`, `.jpe`).
  case jpeg
  /// PNG.
  case png
  /// GIF.
  case gif
  /// WebP (lossy VP8, lossless VP8L, extended VP8X).
  case webp
  /// TIFF.
  case tiff
  /// HEIF and HEIC (ISO base media file format).
  case heif
  /// Canon CR2 (TIFF based).
  case cr2
  /// Canon CR3 (ISO base media file format).
  case cr3
  /// Nikon NEF (TIFF based).
  case nef
  /// Sony ARW (TIFF based).
  case arw
  /// Adobe DNG (TIFF based).
  case dng
  /// Fujifilm RAF (a header followed by an embedded JPEG).
  case raf
  /// Olympus ORF (TIFF variant).
  case orf
  /// Panasonic RW2 (TIFF variant).
  case rw2

  /// The format a file name's extension names (case-insensitive), or nil.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the extension.
  public init?(fileExtension: some StringProtocol) {
    switch fileExtension.lowercased() {
    case "jpg", "jpeg", "jpe": self = .jpeg
    case "png": self = .png
    case "gif": self = .gif
    case "webp": self = .webp
    case "tif", "tiff": self = .tiff
    case "heic", "heif", "hif": self = .heif
    case "cr2": self = .cr2
    case "cr3": self = .cr3
    case "nef": self = .nef
    case "arw": self = .arw
    case "dng": self = .dng
    case "raf": self = .raf
    case "orf": self = .orf
    case "rw2": self = .rw2
    default: return nil
    }
  }

  /// The format of a file name, from its extension, or nil.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the name.
  public init?(fileName: some StringProtocol) {
    guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
    self.init(fileExtension: fileName[fileName.index(after: dot)...])
  }

  /// Whether this is a camera raw format.
  public var isRaw: Bool {
    switch self {
    case .cr2, .cr3, .nef, .arw, .dng, .raf, .orf, .rw2: true
    default: false
    }
  }
}

/// What a photo's header says: format, dimensions, orientation and capture date.
public struct PhotoMetadata: Hashable, Sendable, Codable {
  /// The format found by the file's signature.
  public var format: ImageFormat
  /// The file's size in bytes.
  public var byteCount: Int
  /// The stored width in pixels, before orientation, when the header gives it.
  public var pixelWidth: Int?
  /// The stored height in pixels, before orientation, when the header gives it.
  public var pixelHeight: Int?
  /// The EXIF orientation, 1 (upright) to 8; 1 when the file has none.
  public var orientation: Int
  /// EXIF DateTimeOriginal as `YYYY-MM-DDThh:mm:ss` (camera local time), when present.
  public var captureDate: String?
  /// The file's modification time in seconds since 1970.
  public var modificationTime: Double
  /// The `xmp:Rating` of the card's existing sidecar (-1 for a reject, 0 to 5), when it has
  /// one; ``FolderLibrary`` reads it with the header.
  public var rating: Int?
  /// The `xmp:Label` of the card's existing sidecar (lowercased: `red`, ...), when it has one.
  public var label: String?

  /// Creates metadata from its parts.
  public init(
    format: ImageFormat, byteCount: Int, pixelWidth: Int?, pixelHeight: Int?, orientation: Int,
    captureDate: String?, modificationTime: Double
  ) {
    self.format = format
    self.byteCount = byteCount
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.orientation = orientation
    self.captureDate = captureDate
    self.modificationTime = modificationTime
  }

  /// Whether showing the photo upright swaps width and height (orientations 5 to 8).
  public var isRotatedQuarterTurn: Bool { (5...8).contains(orientation) }

  /// The width as displayed (after orientation), when known.
  public var displayWidth: Int? { isRotatedQuarterTurn ? pixelHeight : pixelWidth }
  /// The height as displayed (after orientation), when known.
  public var displayHeight: Int? { isRotatedQuarterTurn ? pixelWidth : pixelHeight }

  /// A name for the orientation: `up`, `up-mirrored`, `down`, `down-mirrored`, `left-mirrored`,
  /// `right` (rotate 90° clockwise to show), `right-mirrored`, `left`.
  public var orientationName: String {
    switch orientation {
    case 2: "up-mirrored"
    case 3: "down"
    case 4: "down-mirrored"
    case 5: "left-mirrored"
    case 6: "right"
    case 7: "right-mirrored"
    case 8: "left"
    default: "up"
    }
  }
}
