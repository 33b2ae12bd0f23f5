import Foundation
import PhotoSession

/// `photos cull --viewer CMD`: runs CMD with the current photo's path as its last argument on
/// every card change, for terminals that show no images (an image viewer that reloads, a
/// script). No shell is involved: CMD is split into arguments (spaces separate them; single
/// or double quotes and backslashes group them); a program without a slash is looked up in
/// `PATH`. Its standard streams are `/dev/null`, so it never draws over the screen. A failure
/// (not found, not startable, a non-zero exit) is reported once; the screen keeps going.
struct PhotoViewer {
  /// The program and its arguments, before the photo's path.
  let arguments: [String]
  /// Whether a failure was already reported.
  private(set) var reported = false
  /// The last process started, checked for a non-zero exit at the next card change.
  private var last: Process?

  /// Splits `command` into arguments.
  ///
  /// - Throws: A message naming the problem: an empty command or an unclosed quote.
  init(command: String) throws(ViewerError) {
    arguments = try Self.split(command)
    guard !arguments.isEmpty else { throw ViewerError("--viewer needs a command, not \"\"") }
  }

  /// A problem with the `--viewer` command.
  struct ViewerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// `command` split into arguments: whitespace separates; `'...'` keeps everything,
  /// `"..."` keeps everything but `\"` and `\\`; a backslash outside quotes escapes the next
  /// character.
  ///
  /// - Complexity: O(*m*) for a command of *m* characters.
  static func split(_ command: String) throws(ViewerError) -> [String] {
    var result: [String] = []
    var current = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in command {
      if escaped {
        current.append(character)
        escaped = false
        continue
      }
      switch (quote, character) {
      case ("'", "'"), ("\"", "\""): quote = nil
      case ("'", _): current.append(character)
      case ("\"", "\\"), (nil, "\\"):
        escaped = true
        inWord = true
      case ("\"", _): current.append(character)
      case (nil, "'"), (nil, "\""):
        quote = character
        inWord = true
      case (nil, let c) where c.isWhitespace:
        if inWord { result.append(current) }
        current = ""
        inWord = false
      default:
        current.append(character)
        inWord = true
      }
    }
    if quote != nil || escaped {
      throw ViewerError("the --viewer command \"\(command)\" has an unclosed quote")
    }
    if inWord { result.append(current) }
    return result
  }

  /// The program's path: as given when it has a slash, else the first executable in `PATH`.
  static func resolve(_ program: String, path: String?) -> String? {
    if program.contains("/") {
      return FileManager.default.isExecutableFile(atPath: program) ? program : nil
    }
    for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = folder + "/" + program
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs the viewer on `photo` (an absolute path) without waiting for it.
  ///
  /// - Returns: A one-line failure message the first time something fails, else nil.
  mutating func show(_ photo: String) -> String? {
    var failure: String?
    if let last, !last.isRunning, last.terminationReason == .exit, last.terminationStatus != 0 {
      failure = "the viewer \(arguments[0]) exited with status \(last.terminationStatus)"
    }
    last = nil
    if failure == nil {
      let environment = ProcessInfo.processInfo.environment
      if let program = Self.resolve(arguments[0], path: environment["PATH"]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(arguments.dropFirst()) + [photo]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
          try process.run()
          last = process
        } catch {
          failure = "the viewer \(arguments[0]) could not be started: \(error.localizedDescription)"
        }
      } else {
        failure = "the viewer \(arguments[0]) was not found or is not executable"
      }
    }
    guard let failure, !reported else { return nil }
    reported = true
    return failure + "; the screen goes on without it"
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
