import Foundation

/// Markup several pages share, written once. `Resources/page-head.part` holds the opening
/// every page shares: the doctype, the head (the character set, the viewport, the icons, the
/// manifest, the theme colour, the home-screen app's metadata, the stylesheet, the page's
/// title and script) and the opening of the body and its bar. Each page starts with one line
/// naming what is its own:
///
/// ```html
/// <!-- page head title="Offload · Photos" script="deck.js" class="deck-page" -->
///   <a class="link home-link" href="/">…</a>
/// ```
///
/// and the opening takes that line's place, `{{title}}`, `{{script}}` and `{{class}}` filled
/// in. `Resources/organize-toolbar.part` holds what both organize pages end their main part
/// with (the status line and the message) and the opening of their edit mode's toolbar, put
/// where a page holds `<!-- organize toolbar label="…" -->`. The resources are read once when
/// the server starts, and the pages are served whole.
enum PageTemplate {
  /// One shared piece of markup: its file among the resources (never served: its extension
  /// names no media type) and the line a page holds where it goes.
  struct Part: Sendable {
    /// How the line a page holds where the part goes begins.
    var marker: String
    /// The part's file among the resources.
    var file: String
    /// What a page's line names, each as `name="value"`, put in for `{{name}}`.
    var fields: [String]
    /// Whether every page holds the part; otherwise a page holds it once or not at all.
    var everyPage: Bool
    /// What a failure calls the part.
    var what: String
  }

  /// The opening every page shares.
  static let head = Part(
    marker: "<!-- page head", file: "page-head.part", fields: ["title", "script", "class"],
    everyPage: true, what: "head")
  /// The organize pages' status line, message and toolbar opening.
  static let organizeToolbar = Part(
    marker: "<!-- organize toolbar", file: "organize-toolbar.part", fields: ["label"],
    everyPage: false, what: "toolbar")
  /// Every shared part, as ``WebAssets/load(fileSystem:)`` puts them in.
  static let parts = [head, organizeToolbar]

  /// A page the shared part cannot go into.
  struct Failure: Error, Equatable, CustomStringConvertible {
    /// One line naming the page and what is wrong.
    var description: String
  }

  /// Puts a shared part into the HTML pages of `files` that hold its line.
  ///
  /// - Parameters:
  ///   - files: The resources by name; each `.html` one holding the part's line is rewritten.
  ///   - part: The part.
  ///   - text: The part's text, with `{{name}}` for each of its fields.
  /// - Throws: ``Failure`` when a page holds the marker line more than once (or, for a part
  ///   every page holds, not at all), or the line does not name each field.
  /// - Complexity: O(*b*) for *b* bytes of pages.
  static func expand(
    _ files: inout [String: WebAssets.Asset], _ part: Part, text: String
  ) throws {
    let template = text.hasSuffix("\n") ? String(text.dropLast()) : text
    for (name, asset) in files where name.hasSuffix(".html") {
      let page = String(decoding: asset.bytes, as: UTF8.self)
      let parts = page.components(separatedBy: part.marker)
      if parts.count == 1 && !part.everyPage { continue }
      guard parts.count == 2, let end = parts[1].range(of: "-->") else {
        throw Failure(
          description:
            "page \(name) holds \"\(part.marker)\" \(parts.count - 1) times, not once: the shared \(part.what) has no one place there"
        )
      }
      let named = try values(parts[1][..<end.lowerBound], part: part, page: name)
      let filled = part.fields.reduce(template) { text, field in
        text.replacingOccurrences(of: "{{\(field)}}", with: named[field] ?? "")
      }
      files[name]?.bytes = Array((parts[0] + filled + parts[1][end.upperBound...]).utf8)
    }
  }

  /// The `name="value"` pairs of a page's marker line, each of the part's fields present once.
  private static func values(
    _ line: Substring, part: Part, page: String
  ) throws -> [String: String] {
    var named: [String: String] = [:]
    for match in line.matches(of: /([a-z]+)="([^"<>&]*)"/) {
      named[String(match.1)] = String(match.2)
    }
    for field in part.fields where named[field] == nil {
      throw Failure(description: "page \(page)'s \(part.what) line names no \(field)=\"…\"")
    }
    return named
  }
}
