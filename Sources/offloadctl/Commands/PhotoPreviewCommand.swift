import ArgumentParser
import Foundation
import Persistence
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

  /// Writes `bytes` through Persistence's atomic write: a temporary file beside `path`,
  /// synced, renamed over `path` when `replacing`, else linked into place (which fails when
  /// `path` exists): a reader sees the old file or the whole new one, never part of it.
  static func store(_ bytes: [UInt8], at path: String, replacing: Bool) throws {
    let placed: Bool
    do {
      placed = try place(Data(bytes), at: path, replacing: replacing)
    } catch {
      let reason = error.errorNumber.map { String(cString: strerror($0)) } ?? error.description
      throw CommandFailure(
        code: .cannotCreate, message: "cannot write \(quoted(path)): \(reason)")
    }
    guard placed else {
      let folder = (try? POSIXFileSystem().status(path, followingLinks: true))?.kind == .directory
      throw CommandFailure(
        code: .cannotCreate,
        message: folder
          ? "\(quoted(path)) is a folder" : "\(quoted(path)) exists; pass --force to replace it")
    }
  }

  /// Puts `bytes` at `path`; false, with nothing written, when a folder is there, or a file
  /// is and `replacing` is false.
  private static func place(
    _ bytes: Data, at path: String, replacing: Bool
  ) throws(PersistenceError) -> Bool {
    let files = POSIXFileSystem()
    if let found = try files.statusIfPresent(path, followingLinks: true) {
      guard found.kind != .directory, replacing else { return false }
    }
    if replacing {
      try files.writeAtomically(bytes, to: path)
      return true
    }
    let folder = PathName.directory(of: path)
    let staged = PathName.join(
      folder, "." + PathName.lastComponent(of: path) + ".preview-\(getpid())")
    try files.writeAtomically(bytes, to: staged, syncFolder: false)
    defer { try? files.unlinkIfPresent(staged) }
    do {
      try files.link(staged, to: path)
    } catch  where error.errorNumber == EEXIST {
      return false
    }
    try files.syncDirectory(folder)
    return true
  }
}
