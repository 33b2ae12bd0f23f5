import Foundation
import Hummingbird
import Persistence

/// The pages, scripts and styles shipped as package resources, read once at start.
struct WebAssets: Sendable {
  /// One file: its bytes and media type.
  struct Asset: Sendable {
    var bytes: [UInt8]
    var type: String
  }

  /// The files by name (`photos.html`, `deck.js`, ...); nothing else is ever served.
  var files: [String: Asset]

  /// The media type of a resource by its extension.
  static func type(of name: String) -> String? {
    if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
    if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
    if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
    if name.hasSuffix(".svg") { return "image/svg+xml" }
    if name.hasSuffix(".png") { return "image/png" }
    if name.hasSuffix(".webmanifest") { return "application/manifest+json" }
    return nil
  }

  /// Reads every resource of the target, through Persistence's file layer as every other
  /// file the server reads.
  ///
  /// - Parameter fileSystem: The file operations; the real ones by default.
  /// - Throws: `PersistenceError` when the resource folder or a file in it cannot be read (a
  ///   broken installation), ``PageTemplate/Failure`` for a page without its head's place, or
  ///   with a shared part's line twice.
  /// - Complexity: O(*b*) for *b* bytes of resources.
  static func load(fileSystem: some FileSystem = POSIXFileSystem()) throws -> WebAssets {
    guard let folder = Bundle.module.url(forResource: "Resources", withExtension: nil) else {
      throw PersistenceError(
        .notFound, path: "Resources", description: "the server's resources are missing")
    }
    var files: [String: Asset] = [:]
    for name in try fileSystem.listDirectory(folder.path) {
      guard let type = type(of: name) else { continue }
      let data = try fileSystem.readAll(PathName.join(folder.path, name))
      files[name] = Asset(bytes: Array(data), type: type)
    }
    for part in PageTemplate.parts {
      let text = try fileSystem.readAll(PathName.join(folder.path, part.file))
      try PageTemplate.expand(&files, part, text: String(decoding: text, as: UTF8.self))
    }
    return WebAssets(files: files)
  }

  /// The response serving resource `name`.
  ///
  /// - Parameters:
  ///   - name: The resource's file name.
  ///   - revalidate: Whether the browser may keep it if it asks again first (`no-cache`);
  ///     otherwise it is `no-store`, as every other answer.
  /// - Throws: `HTTPError` 404 when no resource has that name.
  func response(_ name: String, revalidate: Bool = false) throws -> Response {
    guard let asset = files[name] else { throw HTTPError(.notFound, message: "no such page") }
    var response = WebResponse.bytes(200, asset.bytes, type: asset.type)
    if revalidate { response.headers[.cacheControl] = "no-cache" }
    return response
  }
}
