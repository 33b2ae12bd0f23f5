import Foundation
import Hummingbird

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

  /// Reads every resource of the target.
  ///
  /// - Throws: When the resource folder is missing (a broken installation).
  static func load() throws -> WebAssets {
    guard let folder = Bundle.module.url(forResource: "Resources", withExtension: nil) else {
      throw CocoaError(.fileNoSuchFile)
    }
    var files: [String: Asset] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      guard let type = type(of: name) else { continue }
      let data = try Data(contentsOf: folder.appendingPathComponent(name))
      files[name] = Asset(bytes: Array(data), type: type)
    }
    try PageTemplate.expand(&files, folder: folder.path)
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
