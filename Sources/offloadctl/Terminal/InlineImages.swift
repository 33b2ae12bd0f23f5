import Foundation
import PhotoSession

/// An inline image protocol a terminal advertises.
enum InlineImageProtocol: String, Hashable {
  /// kitty's graphics protocol (PNG files only are sent as they are).
  case kitty
  /// iTerm2's inline images (any format the terminal decodes).
  case iTerm2

  /// The protocol the environment advertises: `TERM=xterm-kitty` (or `KITTY_WINDOW_ID`), or
  /// `TERM_PROGRAM=iTerm.app` (or `WezTerm`, which speaks it too). Nil otherwise: text only.
  static func detect(environment: [String: String]) -> InlineImageProtocol? {
    if environment["TERM"] == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil {
      return .kitty
    }
    if ["iTerm.app", "WezTerm"].contains(environment["TERM_PROGRAM"] ?? "") { return .iTerm2 }
    return nil
  }

  /// The largest file sent inline (a preview of a huge raw would stall the terminal).
  static let maximumBytes = 8 * 1024 * 1024

  /// The escape sequence that draws `bytes` (a file of `format`) in `columns`×`rows` cells at
  /// the cursor, or nil when this protocol cannot show the format.
  func sequence(bytes: [UInt8], format: ImageFormat, columns: Int, rows: Int) -> String? {
    guard bytes.count <= Self.maximumBytes, columns > 0, rows > 0 else { return nil }
    let base64 = Data(bytes).base64EncodedString()
    switch self {
    case .kitty:
      guard format == .png else { return nil }
      // Chunks of at most 4096 base64 bytes; m=1 on every chunk but the last.
      var output = ""
      var start = base64.startIndex
      var first = true
      while start < base64.endIndex {
        let end = base64.index(start, offsetBy: 4096, limitedBy: base64.endIndex) ?? base64.endIndex
        let more = end < base64.endIndex ? 1 : 0
        let control = first ? "a=T,f=100,q=2,c=\(columns),r=\(rows),m=\(more)" : "m=\(more)"
        output += "\u{1B}_G\(control);\(base64[start..<end])\u{1B}\\"
        first = false
        start = end
      }
      return output
    case .iTerm2:
      guard [.jpeg, .png, .gif, .tiff, .webp, .heif].contains(format) else { return nil }
      return
        "\u{1B}]1337;File=inline=1;size=\(bytes.count);width=\(columns);height=\(rows);preserveAspectRatio=1:\(base64)\u{07}"
    }
  }

  /// The sequence that removes images drawn before (kitty keeps them above the text).
  var clearSequence: String {
    switch self {
    case .kitty: "\u{1B}_Ga=d,q=2\u{1B}\\"
    case .iTerm2: ""
    }
  }
}

/// What the cull screen sends inline for a card: the file itself when it is small enough, else
/// a JPEG it embeds (a RAW's largest preview, a large JPEG's EXIF thumbnail), so a JPEG of any
/// size and a RAW show something.
enum InlinePreview {
  /// The bytes to draw and their format, or nil when there is nothing small enough to send.
  ///
  /// - Complexity: O(*s*) for a file of *s* bytes (a RAW is read whole, a large JPEG only its
  ///   first 256 KiB, where EXIF lives).
  static func image(path: String, format: ImageFormat) -> (bytes: [UInt8], format: ImageFormat)? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil else {
      return nil
    }
    let limit = UInt64(InlineImageProtocol.maximumBytes)
    if format.isRaw {
      guard size <= 64 * limit, let data = try? handle.readToEnd() else { return nil }
      let bytes = [UInt8](data)
      guard let range = EmbeddedPreview.jpegRange(in: bytes), range.count <= limit else {
        return nil
      }
      return (Array(bytes[range]), .jpeg)
    }
    if size <= limit {
      return (try? handle.readToEnd()).map { ([UInt8]($0), format) }
    }
    guard format == .jpeg, let data = try? handle.read(upToCount: 256 * 1024) else { return nil }
    return exifThumbnail([UInt8](data)).map { ($0, .jpeg) }
  }

  /// The EXIF thumbnail of a JPEG (the JPEG that IFD1 of its APP1 `Exif` segment names), or
  /// nil. `bytes` may be only the start of the file.
  ///
  /// - Complexity: O(*m*) for *m* markers before the EXIF segment, plus the IFD walk.
  static func exifThumbnail(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var offset = 2
    while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
      let marker = bytes[offset + 1]
      let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
      // Start of scan or end of image: no EXIF before the image data.
      if marker == 0xDA || marker == 0xD9 || length < 2 { return nil }
      let body = offset + 4
      let end = offset + 2 + length
      if marker == 0xE1, end <= bytes.count, end - body > 6,
        bytes[body..<body + 6].elementsEqual(Array("Exif".utf8) + [0, 0])
      {
        let tiff = Array(bytes[(body + 6)..<end])
        return EmbeddedPreview.jpegRange(in: tiff).map { Array(tiff[$0]) }
      }
      offset = end
    }
    return nil
  }
}
