import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Persistence
import PhotoSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server's size limits: every request, message and file it reads is bounded.
enum WebLimits {
  /// The largest request body (a JSON command), in bytes.
  static let requestBody = 16 * 1024
  /// The largest WebSocket message (one pointer sample or command), in bytes.
  static let message = 4 * 1024
  /// The largest photo served, in bytes.
  static let photoBytes = 200 * 1024 * 1024
  /// The most pointer samples one stroke may hold (about a minute at 120 Hz).
  static let strokeSamples = 8_000
}

/// Media types of the formats a browser can show.
enum WebMedia {
  /// The `Content-Type` of a photo format, or nil when no browser shows it directly.
  static func type(of format: ImageFormat) -> String? {
    switch format {
    case .jpeg: "image/jpeg"
    case .png: "image/png"
    case .gif: "image/gif"
    case .webp: "image/webp"
    case .heif: "image/heic"
    default: nil
    }
  }

  /// Whether the format is a raw file whose embedded JPEG preview is served in its place.
  static func servesPreview(of format: ImageFormat) -> Bool {
    [.cr2, .cr3, .nef, .arw, .dng, .orf, .rw2, .raf].contains(format)
  }

  /// Whether a page can show a photo of the format: directly, or through its preview.
  static func isShown(_ format: ImageFormat) -> Bool {
    type(of: format) != nil || servesPreview(of: format)
  }
}

/// Text from files and clients made safe to print or send: no control characters.
enum Printable {
  /// `text` with every control character replaced by U+FFFD.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  static func clean(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { $0.properties.generalCategory == .control ? "\u{FFFD}" : $0 }))
  }
}

/// File reads confined to a folder, through Persistence's file seam (real paths come from
/// `realpath`, which the seam does not offer).
enum WebFiles {
  /// The real path of `path` (symbolic links resolved), or nil when it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether `path` lies inside the folder `root` (both real paths).
  static func isInside(_ path: String, _ root: String) -> Bool {
    root == "/" ? path.hasPrefix("/") : path.hasPrefix(root + "/")
  }

  /// The bytes of the regular file `path` when it is no symbolic link, its real path lies
  /// inside `root`, and it holds at most `limit` bytes; else nil.
  ///
  /// - Complexity: O(*b*) for a file of *b* bytes.
  static func readContained(
    _ path: String, root: String, limit: Int, files: some FileSystem = POSIXFileSystem()
  ) -> [UInt8]? {
    guard let realRoot = realPath(root), let real = realPath(path), isInside(real, realRoot),
      let status = try? files.status(path, followingLinks: false), status.kind == .regular,
      status.size <= limit,
      let (bytes, size) = try? files.readPrefix(path, limit: limit, followingLinks: false),
      bytes.count == size
    else { return nil }
    return bytes
  }

  /// The absolute path of `relative` under `root` when it names a folder inside it (`..`,
  /// absolute paths and links out of the root refused); else nil.
  static func containedFolder(
    _ relative: String, in root: String, files: some FileSystem = POSIXFileSystem()
  ) -> String? {
    guard !relative.hasPrefix("/"), !relative.split(separator: "/").contains(".."),
      !relative.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
      let realRoot = realPath(root)
    else { return nil }
    let joined = relative.isEmpty ? realRoot : realRoot + "/" + relative
    guard let real = realPath(joined), real == realRoot || isInside(real, realRoot),
      (try? files.status(real, followingLinks: true))?.kind == .directory
    else { return nil }
    return real
  }

  /// The names of the subfolders of `path` (no symbolic links, no hidden names), sorted, at
  /// most `limit` of them, made printable.
  ///
  /// - Complexity: O(*n* log *n*) for *n* names in the folder, plus a status call for each
  ///   name whose kind the listing does not tell.
  static func subfolders(
    of path: String, limit: Int, files: some FileSystem = POSIXFileSystem()
  ) -> [String] {
    let entries = (try? files.readDirectory(path)) ?? []
    return entries.compactMap { entry -> String? in
      guard let name = entry.name, !name.hasPrefix(".") else { return nil }
      let kind = entry.kind ?? (try? files.status(path + "/" + name, followingLinks: false))?.kind
      return kind == .directory ? name : nil
    }.sorted().prefix(limit).map { Printable.clean($0) }
  }
}

/// HEIC photos for every browser: the server's HEIC answers turned into JPEG by the installed
/// decoder (``HEICTranscoder``), each photo converted once and cached in the store under the
/// SHA-256 of its bytes. Without a decoder the HEIC bytes go out as they are (Safari shows
/// them; the other browsers' pages say they cannot).
actor WebHEIC {
  let transcoder: HEICTranscoder
  private var running: [String: Task<Result<[UInt8], PhotoSessionError>, Never>] = [:]

  init(transcoder: HEICTranscoder) { self.transcoder = transcoder }

  /// A converter caching into the store's `web/heic` folder, when a decoder is on `PATH`.
  static func find(storeRoot: String, environment: [String: String]) -> WebHEIC? {
    HEICTranscoder.findDecoder(searchPath: environment["PATH"]).map { decoder in
      WebHEIC(
        transcoder: HEICTranscoder(
          decoder: decoder,
          cacheFolder: PathName.join(WebIdentity.folder(storeRoot: storeRoot), "heic")))
    }
  }

  /// The JPEG of `heic`; one conversion at a time per photo, the decoder run off the
  /// server's threads.
  ///
  /// - Complexity: O(*b*) for *b* bytes (the digest), and one decoder run on a cache miss.
  func jpeg(_ heic: [UInt8]) async -> Result<[UInt8], PhotoSessionError> {
    let key = SHA256.hash(data: heic).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    if let hit = transcoder.cached(key: key) { return .success(hit) }
    if let task = running[key] { return await task.value }
    let transcoder = transcoder
    let task = Task {
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          continuation.resume(
            returning: Result { () throws(PhotoSessionError) in
              try transcoder.jpeg(heic, key: key, name: "this HEIC photo")
            })
        }
      }
    }
    running[key] = task
    defer { running[key] = nil }
    return await task.value
  }
}

extension String {
  /// The string with zeros before it up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}

/// Answers a photo's `image/heic` response with the JPEG ``WebHEIC`` makes of it, or with the
/// conversion's failure (415, or 500 when the cache cannot be written).
struct HEICMiddleware<Context: RequestContext>: RouterMiddleware {
  let converter: WebHEIC

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let response = try await next(request, context)
    guard response.headers[.contentType] == "image/heic" else { return response }
    let collector = BodyCollector()
    try await response.body.write(collector.writer)
    switch await converter.jpeg(collector.bytes) {
    case .success(let jpeg):
      var converted = WebResponse.bytes(response.status.code, jpeg, type: "image/jpeg")
      converted.headers[.cacheControl] = response.headers[.cacheControl]
      return converted
    case .failure(let error):
      return WebResponse.failure(
        DeckFailure(status: error.code == .writeFailed ? 500 : 415, error.description))
    }
  }
}

/// Collects a response body that is already in memory.
final class BodyCollector: @unchecked Sendable {
  private(set) var bytes: [UInt8] = []

  /// A writer appending to ``bytes``.
  var writer: some ResponseBodyWriter { Writer(collector: self) }

  private struct Writer: ResponseBodyWriter {
    let collector: BodyCollector
    mutating func write(_ buffer: ByteBuffer) async throws {
      collector.bytes += buffer.readableBytesView
    }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
  }
}
