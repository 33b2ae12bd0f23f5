import ArgumentParser
import Foundation
import PhotoSession
import TerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `offloadctl photos preview`: writes the JPEG preview or thumbnail a photo embeds.
struct PhotoPreviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preview",
    abstract: "Write the JPEG preview (or, with --thumbnail, the thumbnail) a photo embeds.",
    discussion: """
      The preview is the largest JPEG a raw file carries (CR2, NEF, ARW, DNG, PEF, ORF, RW2, RAF: \
      IFDs and SubIFDs; CR3: its PRVW box); a JPEG is its own preview. The thumbnail is a JPEG's \
      EXIF thumbnail (IFD1), a raw file's smallest JPEG, CR3's THMB box, or a HEIF thumbnail when \
      it is JPEG-coded (HEVC-coded HEIF images are reported, never converted). The output is \
      written atomically and an existing file is kept unless --force.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The photo file.", valueName: "photo"), completion: .file())
  var photo: String

  @Option(
    name: .shortAndLong, help: ArgumentHelp("The JPEG file to write.", valueName: "file"),
    completion: .file())
  var output: String

  @Flag(help: "Write the embedded thumbnail instead of the preview.")
  var thumbnail = false

  @Flag(help: "Replace the output file when it exists.")
  var force = false

  /// What `--json` prints.
  struct Written: Encodable {
    var photo: String
    var output: String
    var kind: String
    var byteCount: Int
    var pixelWidth: Int?
    var pixelHeight: Int?
  }

  func run() throws {
    let kind: EmbeddedPreview.Kind = thumbnail ? .thumbnail : .preview
    let bytes = try Self.read(photo)
    let range: Range<Int>
    switch EmbeddedPreview.locate(kind, in: bytes) {
    case .success(let found): range = found
    case .failure(let absence):
      throw CommandFailure(
        code: .dataError, message: "no \(kind.rawValue) in \(Self.quoted(photo)): \(absence.reason)"
      )
    }
    let jpeg = Array(bytes[range])
    try Self.store(jpeg, at: output, replacing: force)
    let size = EmbeddedPreview.pixelSize(ofJPEG: jpeg)
    if global.json {
      try Output.document(
        Written(
          photo: photo, output: output, kind: kind.rawValue, byteCount: jpeg.count,
          pixelWidth: size?.width, pixelHeight: size?.height))
    } else if !global.quiet {
      let pixels = size.map { " \($0.width)×\($0.height)" } ?? ""
      Output.line(
        "Wrote the\(pixels) JPEG \(kind.rawValue) of \(Self.quoted(photo)) (\(jpeg.count) bytes) to \(Self.quoted(output))."
      )
    }
  }

  /// A path as it is printed: control characters escaped.
  static func quoted(_ path: String) -> String { TerminalText.escaped(path) }

  /// The whole photo, or a failure naming it: not found (66), unreadable (74).
  static func read(_ path: String) throws -> [UInt8] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw CommandFailure(code: .noInput, message: "no such photo: \(quoted(path))")
    }
    guard !isFolder.boolValue else {
      throw CommandFailure(code: .noInput, message: "\(quoted(path)) is a folder, not a photo")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CommandFailure(code: .ioError, message: "cannot read the photo \(quoted(path))")
    }
    return [UInt8](data)
  }

  /// Writes `bytes` to a temporary file beside `path`, syncs it, then links it into place
  /// (which fails when `path` exists) or, when `replacing`, renames it over `path`: a reader
  /// sees the old file or the whole new one, never part of it.
  static func store(_ bytes: [UInt8], at path: String, replacing: Bool) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
      guard !isFolder.boolValue else {
        throw CommandFailure(code: .cannotCreate, message: "\(quoted(path)) is a folder")
      }
      guard replacing else {
        throw CommandFailure(
          code: .cannotCreate, message: "\(quoted(path)) exists; pass --force to replace it")
      }
    }
    let temporary = folder + "/." + url.lastPathComponent + ".preview-\(getpid())"
    func failed(_ what: String) -> CommandFailure {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      return CommandFailure(
        code: .cannotCreate, message: "cannot \(what) \(quoted(path)): \(reason)")
    }
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failed("create") }
    var written = 0
    let ok = bytes.withUnsafeBytes { buffer -> Bool in
      guard let start = buffer.baseAddress else { return fsync(descriptor) == 0 }
      while written < buffer.count {
        let count = write(descriptor, start + written, buffer.count - written)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        written += count
      }
      return fsync(descriptor) == 0
    }
    guard ok else {
      let failure = failed("write")
      close(descriptor)
      throw failure
    }
    guard close(descriptor) == 0 else { throw failed("write") }
    if replacing {
      guard rename(temporary, path) == 0 else { throw failed("write") }
    } else {
      guard link(temporary, path) == 0 else {
        if errno == EEXIST {
          unlink(temporary)
          throw CommandFailure(
            code: .cannotCreate, message: "\(quoted(path)) exists; pass --force to replace it")
        }
        throw failed("write")
      }
      unlink(temporary)
    }
  }
}
