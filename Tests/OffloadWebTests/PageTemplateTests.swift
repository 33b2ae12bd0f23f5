import Foundation
import Testing

@testable import OffloadWeb

/// The pages' shared head, written once and put into every page when the resources are read.
@Suite("PageTemplate: one head for every page")
struct PageTemplateTests {
  @Test("every page is served with the shared head in place, once, before its title and script")
  func pagesHaveTheHead() throws {
    let files = try WebAssets.load().files
    let pages = files.keys.filter { $0.hasSuffix(".html") }.sorted()
    #expect(
      pages == ["collection.html", "collections.html", "home.html", "photos.html", "review.html"])
    for part in PageTemplate.parts {
      #expect(files[part.file] == nil, "the part \(part.file) is served")
    }
    for name in pages {
      let page = String(decoding: try #require(files[name]).bytes, as: UTF8.self)
      for part in PageTemplate.parts {
        #expect(!page.contains(part.marker), "\(name) kept the \(part.what)'s marker")
      }
      for line in [
        #"<meta charset="utf-8">"#, #"<link rel="manifest" href="/manifest.webmanifest""#,
        #"<link rel="apple-touch-icon""#, #"<meta name="theme-color""#,
        #"<link rel="stylesheet" href="/assets/offload.css">"#,
      ] {
        #expect(page.components(separatedBy: line).count == 2, "\(name): \(line)")
      }
      let head = try #require(page.range(of: "<head>\n<meta charset"), "\(name)")
      let title = try #require(page.range(of: "<title>"), "\(name)")
      let script = try #require(page.range(of: #"<script type="module""#), "\(name)")
      #expect(head.lowerBound < title.lowerBound && title.lowerBound < script.lowerBound)
      // The character set within the first 1,024 bytes, as HTML asks.
      #expect(page.utf8.distance(from: page.startIndex, to: head.upperBound) < 1024)
    }
  }

  @Test("each page's line names its title, script and body class; the opening is the same")
  func pagesShareTheOpening() throws {
    let files = try WebAssets.load().files
    for (name, title, script, page) in [
      ("collection.html", "Offload · Collection", "organize.js", "organize-page"),
      ("collections.html", "Offload · Collections", "organize-collections.js", "organize-page"),
      ("photos.html", "Offload · Photos", "deck.js", "deck-page"),
      ("review.html", "Offload · Review", "review.js", "review-page"),
      ("home.html", "Offload", "home.js", "home-page"),
    ] {
      let text = String(decoding: try #require(files[name]).bytes, as: UTF8.self)
      #expect(
        text.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset"), "\(name)")
      #expect(
        text.contains(
          "<title>\(title)</title>\n<script type=\"module\" src=\"/assets/\(script)\"></script>\n</head>\n<body class=\"\(page)\">\n<header class=\"bar\">\n"
        ), "\(name)")
      #expect(!text.contains("{{"), "\(name)")
    }
  }

  @Test("a page without the marker line, with two, or naming too little is refused with its name")
  func refusesBadPages() {
    let head =
      "<title>{{title}}</title><script src=\"{{script}}\"></script><body class=\"{{class}}\">\n"
    for (text, count) in [("<head></head>", 0), ("<!-- page head --><!-- page head -->", 2)] {
      var files = ["odd.html": WebAssets.Asset(bytes: Array(text.utf8), type: "text/html")]
      #expect(
        throws: PageTemplate.Failure(
          description:
            "page odd.html holds \"<!-- page head\" \(count) times, not once: the shared head has no one place there"
        )
      ) { try PageTemplate.expand(&files, PageTemplate.head, text: head) }
    }
    var short = [
      "b.html": WebAssets.Asset(
        bytes: Array(#"<!-- page head title="T" class="c" -->"#.utf8), type: "text/html")
    ]
    #expect(
      throws: PageTemplate.Failure(description: #"page b.html's head line names no script="…""#)
    ) {
      try PageTemplate.expand(&short, PageTemplate.head, text: head)
    }
    let page = Array("<!-- page head title=\"T\" script=\"s.js\" class=\"c\" -->\nrest\n".utf8)
    var files = ["a.html": WebAssets.Asset(bytes: page, type: "text/html")]
    #expect(throws: Never.self) { try PageTemplate.expand(&files, PageTemplate.head, text: head) }
    #expect(
      files["a.html"]?.bytes
        == Array("<title>T</title><script src=\"s.js\"></script><body class=\"c\">\nrest\n".utf8))
  }

  @Test("both organize pages end their main part with the shared status, message and toolbar")
  func organizePagesShareTheToolbar() throws {
    let files = try WebAssets.load().files
    for (name, label) in [
      ("collection.html", "Selected items"), ("collections.html", "Selected collections"),
    ] {
      let text = String(decoding: try #require(files[name]).bytes, as: UTF8.self)
      #expect(
        text.contains(
          "  <p id=\"status\" class=\"status\" role=\"status\" aria-live=\"polite\"></p>\n"
            + "  <p id=\"message\" class=\"message organize-message\" role=\"alert\" hidden></p>\n"
            + "</main>\n<footer id=\"toolbar\" class=\"toolbar\" role=\"toolbar\" aria-label=\"\(label)\" hidden>\n"
            + "  <p id=\"selected-count\" class=\"count\">0 selected</p>\n"
            + "  <button id=\"select-all\" type=\"button\">Select all</button>\n  <button id=\"bulk-"
        ),
        "\(name)")
    }
    // A page without the part's line is left as it is; one holding it twice is refused.
    var made = [
      "plain.html": WebAssets.Asset(bytes: Array("<p>plain</p>\n".utf8), type: "text/html"),
      "twice.html": WebAssets.Asset(
        bytes: Array(
          #"<!-- organize toolbar label="a" --><!-- organize toolbar label="b" -->"#.utf8),
        type: "text/html"),
    ]
    #expect(
      throws: PageTemplate.Failure(
        description:
          "page twice.html holds \"<!-- organize toolbar\" 2 times, not once: the shared toolbar has no one place there"
      )
    ) { try PageTemplate.expand(&made, PageTemplate.organizeToolbar, text: "{{label}}") }
    made["twice.html"] = nil
    try PageTemplate.expand(&made, PageTemplate.organizeToolbar, text: "{{label}}")
    #expect(made["plain.html"]?.bytes == Array("<p>plain</p>\n".utf8))
  }
}
