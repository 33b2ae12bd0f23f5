import Foundation

/// The head every page shares, written once: the character set, the viewport, the icons, the
/// manifest, the theme colour, the home-screen app's metadata and the stylesheet live in
/// `Resources/page-head.part`, and each page says `<!-- page head -->` where they go (before
/// its own title and script). The resources are read once when the server starts, and the
/// pages are served with the head in place.
enum PageTemplate {
  /// The line a page holds where the shared head goes.
  static let marker = "<!-- page head -->"
  /// The shared head's file among the resources (never served: its extension names no media
  /// type).
  static let partial = "page-head.part"

  /// A page the shared head cannot go into.
  struct Failure: Error, Equatable, CustomStringConvertible {
    /// One line naming the page and what is wrong.
    var description: String
  }

  /// Puts the shared head into every HTML page of `files`.
  ///
  /// - Parameters:
  ///   - files: The resources by name; each `.html` one is rewritten.
  ///   - head: The shared head's text.
  /// - Throws: ``Failure`` when a page does not hold the marker exactly once.
  /// - Complexity: O(*b*) for *b* bytes of pages.
  static func expand(_ files: inout [String: WebAssets.Asset], head: String) throws {
    let text = head.hasSuffix("\n") ? String(head.dropLast()) : head
    for (name, asset) in files where name.hasSuffix(".html") {
      let page = String(decoding: asset.bytes, as: UTF8.self)
      let parts = page.components(separatedBy: marker)
      guard parts.count == 2 else {
        throw Failure(
          description:
            "page \(name) holds \"\(marker)\" \(parts.count - 1) times, not once: the shared head has no one place there"
        )
      }
      files[name]?.bytes = Array((parts[0] + text + parts[1]).utf8)
    }
  }
}
