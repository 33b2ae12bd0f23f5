import Foundation

/// The opening every page shares, written once: `Resources/page-head.part` holds the doctype,
/// the head (the character set, the viewport, the icons, the manifest, the theme colour, the
/// home-screen app's metadata, the stylesheet, the page's title and script) and the opening
/// of the body and its bar. Each page starts with one line naming what is its own:
///
/// ```html
/// <!-- page head title="Offload · Photos" script="deck.js" class="deck-page" -->
///   <a class="link home-link" href="/">…</a>
/// ```
///
/// and the opening takes that line's place, `{{title}}`, `{{script}}` and `{{class}}` filled
/// in. The resources are read once when the server starts, and the pages are served whole.
enum PageTemplate {
  /// How the line a page holds where the shared opening goes begins.
  static let marker = "<!-- page head"
  /// The shared opening's file among the resources (never served: its extension names no
  /// media type).
  static let partial = "page-head.part"
  /// What a page's line names, each as `name="value"`.
  static let fields = ["title", "script", "class"]

  /// A page the shared opening cannot go into.
  struct Failure: Error, Equatable, CustomStringConvertible {
    /// One line naming the page and what is wrong.
    var description: String
  }

  /// Puts the shared opening into every HTML page of `files`.
  ///
  /// - Parameters:
  ///   - files: The resources by name; each `.html` one is rewritten.
  ///   - head: The shared opening's text, with `{{title}}`, `{{script}}` and `{{class}}`.
  /// - Throws: ``Failure`` when a page does not hold the marker line exactly once, or the
  ///   line does not name a title, a script and a class.
  /// - Complexity: O(*b*) for *b* bytes of pages.
  static func expand(_ files: inout [String: WebAssets.Asset], head: String) throws {
    let template = head.hasSuffix("\n") ? String(head.dropLast()) : head
    for (name, asset) in files where name.hasSuffix(".html") {
      let page = String(decoding: asset.bytes, as: UTF8.self)
      let parts = page.components(separatedBy: marker)
      guard parts.count == 2, let end = parts[1].range(of: "-->") else {
        throw Failure(
          description:
            "page \(name) holds \"\(marker)\" \(parts.count - 1) times, not once: the shared head has no one place there"
        )
      }
      let named = try values(parts[1][..<end.lowerBound], page: name)
      let opening = fields.reduce(template) { text, field in
        text.replacingOccurrences(of: "{{\(field)}}", with: named[field] ?? "")
      }
      files[name]?.bytes = Array((parts[0] + opening + parts[1][end.upperBound...]).utf8)
    }
  }

  /// The `name="value"` pairs of a page's marker line, each of ``fields`` present once.
  private static func values(_ line: Substring, page: String) throws -> [String: String] {
    var named: [String: String] = [:]
    for match in line.matches(of: /([a-z]+)="([^"<>&]*)"/) {
      named[String(match.1)] = String(match.2)
    }
    for field in fields where named[field] == nil {
      throw Failure(description: "page \(page)'s head line names no \(field)=\"…\"")
    }
    return named
  }
}
