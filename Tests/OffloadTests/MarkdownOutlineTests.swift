import Foundation
import OffloadTestSupport
import Testing

@testable import Offload

@Suite("MarkdownOutline: import and export")
struct MarkdownOutlineTests {
  typealias Entry = MarkdownOutline.Entry

  @Test func parsesNestingCheckboxesAndBlankLines() throws {
    let text = """
      - [ ] Book flights
        - [x] Compare prices
        - [X] Pick seats
      * Pack
      \t+ Socks
      - [ ]   spaced text  \r
      """
    let outline = try MarkdownOutline(parsing: text)
    #expect(
      outline.entries == [
        Entry(
          text: "Book flights",
          children: [
            Entry(text: "Compare prices", done: true), Entry(text: "Pick seats", done: true),
          ]),
        Entry(text: "Pack", children: [Entry(text: "Socks")]),
        Entry(text: "spaced text"),
      ])
    #expect(outline.isNested)
    #expect(outline.count == 6)
    #expect(outline.sourceLines == [1, 2, 3, 4, 5, 6])
    #expect(outline.warnings.isEmpty)
  }

  @Test func shallowerItemClosesDeeperOnes() throws {
    let outline = try MarkdownOutline(parsing: "- a\n      - b\n  - c\n- d\n")
    #expect(
      outline.entries == [
        Entry(text: "a", children: [Entry(text: "b"), Entry(text: "c")]), Entry(text: "d"),
      ])
  }

  /// The same document with every line ending and with a byte order mark reads the same, and
  /// names the same lines.
  @Test(arguments: ["\n", "\r\n", "\r"], [false, true])
  func lineEndingsAndByteOrderMark(newline: String, bom: Bool) throws {
    let lines = [
      "# Trip", "", "Intro text", "- [ ] Pack", "  - [x] Socks", "---", "1. Book", "",
    ]
    let text = (bom ? "\u{FEFF}" : "") + lines.joined(separator: newline)
    let outline = try MarkdownOutline(parsing: text)
    #expect(outline.title == "Trip")
    #expect(
      outline.entries == [
        Entry(text: "Pack", children: [Entry(text: "Socks", done: true)]), Entry(text: "Book"),
      ])
    #expect(outline.sourceLines == [4, 5, 7])
    #expect(
      outline.warnings.map(\.description) == [
        "line 3: text under the title skipped: only items hold notes",
        "line 6: rule skipped",
      ])
    let bad = (bom ? "\u{FEFF}" : "") + ["- a", "", "- b\u{1B}[2J"].joined(separator: newline)
    #expect(
      throws: MarkdownOutline.ParseError(
        line: 3, reason: "the text holds the control character U+001B at column 2")
    ) {
      try MarkdownOutline(parsing: bad)
    }
  }

  @Test func everyMarkerAtAnyIndent() throws {
    let text = """
      - dash
      \t* star under dash
      \t\t+ plus under star
      1. one
      \t2) two under one
          10. ten under one
      12) twelve
      """
    let outline = try MarkdownOutline(parsing: text)
    #expect(
      outline.entries == [
        Entry(
          text: "dash",
          children: [Entry(text: "star under dash", children: [Entry(text: "plus under star")])]),
        Entry(
          text: "one", children: [Entry(text: "two under one"), Entry(text: "ten under one")]),
        Entry(text: "twelve"),
      ])
  }

  @Test func checkboxes() throws {
    let outline = try MarkdownOutline(
      parsing: "- [ ] open\n- [x] done\n- [X] done too\n- [~] started\n- [y] kept\n-[x] text\n")
    #expect(outline.entries.map(\.text) == ["open", "done", "done too", "started", "[y] kept"])
    #expect(outline.entries.map(\.done) == [false, true, true, false, false])
    // `-[x] text` has no space after the marker: a paragraph, the note of the item above.
    #expect(outline.entries[4].note == "-[x] text")
    #expect(outline.warnings.isEmpty)
  }

  @Test func headingsBecomeParentItems() throws {
    let text = """
      # Groceries
      - milk
      ## Dairy
      - cheese
      ### Soft
      - brie
      ## Fruit
      - apples
      # Hardware ##
      - nails
      """
    let outline = try MarkdownOutline(parsing: text)
    #expect(outline.title == nil, "two level-1 headings: neither is the title")
    #expect(
      outline.entries == [
        Entry(
          text: "Groceries",
          children: [
            Entry(text: "milk"),
            Entry(
              text: "Dairy",
              children: [
                Entry(text: "cheese"), Entry(text: "Soft", children: [Entry(text: "brie")]),
              ]
            ),
            Entry(text: "Fruit", children: [Entry(text: "apples")]),
          ]),
        Entry(text: "Hardware", children: [Entry(text: "nails")]),
      ])
    #expect(outline.sourceLines == Array(1...10))
  }

  @Test func headingsAreReportedForAList() throws {
    let text = "# Shopping\n\n## Dairy\n- milk\n## Fruit\n- apples\n"
    let outline = try MarkdownOutline(parsing: text, headings: .reported)
    #expect(outline.title == "Shopping")
    #expect(outline.entries == [Entry(text: "milk"), Entry(text: "apples")])
    #expect(outline.sourceLines == [4, 6])
    #expect(
      outline.warnings.map(\.description) == [
        "line 3: heading \"Dairy\" left out: a list is flat (import as a plan to keep it)",
        "line 5: heading \"Fruit\" left out: a list is flat (import as a plan to keep it)",
      ])
    let two = try MarkdownOutline(parsing: "# A\n- a\n# B\n", headings: .reported)
    #expect(two.title == nil)
    #expect(two.warnings.map(\.line) == [1, 3])
  }

  @Test func proseCodeRulesAndEmptyItemsAreSkippedWithTheirLines() throws {
    let text = """
      An introduction
      over two lines.

      - [ ] Pack
        Remember the charger.
        > quoted advice

      ```swift
      - not an item
      ```
      * * *
      - [ ]
      - Go
      ~~~
      - unclosed
      """
    let outline = try MarkdownOutline(parsing: text)
    #expect(
      outline.entries == [
        Entry(text: "Pack", note: "Remember the charger.\nquoted advice"), Entry(text: "Go"),
      ])
    #expect(
      outline.warnings.map(\.description) == [
        "lines 1–2: text outside any item skipped",
        "lines 8–10: code block skipped",
        "line 11: rule skipped",
        "line 12: empty item skipped",
        "lines 14–15: code block without a closing fence skipped",
      ])
  }

  @Test func paragraphsAndQuotesUnderAnItemAreItsNote() throws {
    let text = """
      # Weekend
      ## Errands
      Before noon.
      - [ ] Post office
        Bring the slip
        and the ID.

        > Closes at 12.
        >
        >   indented in the quote\u{20}\u{20}
      - Bank
      Lazy line right under Bank.
      ## Home
      """
    let outline = try MarkdownOutline(parsing: text)
    #expect(
      outline.entries == [
        Entry(
          text: "Errands", note: "Before noon.",
          children: [
            Entry(
              text: "Post office",
              note: "Bring the slip\nand the ID.\n\nCloses at 12.\n\n  indented in the quote  "),
            Entry(text: "Bank", note: "Lazy line right under Bank."),
          ]),
        Entry(text: "Home"),
      ])
    #expect(outline.warnings.isEmpty)
    // A list leaves headings out: what follows a heading is not the note of an item above it.
    let flat = try MarkdownOutline(parsing: text, headings: .reported)
    #expect(flat.entries.map(\.text) == ["Post office", "Bank"])
    #expect(flat.warnings.map(\.description).contains("line 3: text outside any item skipped"))
  }

  @Test(arguments: [
    ("- a\n  note\there\n", 2, "the text holds the control character U+0009 at column 5"),
    ("- [ ]\n  - child\n", 1, "the item has no text, yet the item on line 2 is nested under it"),
    ("- a\n- b\u{7F}\n", 2, "the text holds the control character U+007F at column 2"),
    ("- a\u{85}b\n", 1, "the text holds the control character U+0085 at column 2"),
    ("- \u{202E}evil\n", 1, "the text holds the control character U+202E at column 1"),
    ("## x\u{2066}\n", 1, "the text holds the control character U+2066 at column 2"),
    ("- tab\there\n", 1, "the text holds the control character U+0009 at column 4"),
  ])
  func reportsTheBadLine(text: String, line: Int, reason: String) {
    #expect(throws: MarkdownOutline.ParseError(line: line, reason: reason)) {
      try MarkdownOutline(parsing: text)
    }
  }

  @Test func harmlessLookAlikesAreText() throws {
    // Characters near the refused ones (U+00A0, U+2028's neighbours, U+2060) are kept.
    let text = "- a\u{A0}b\n- \u{2060}c\n- d\u{2029}\n- é 日本\n"
    let outline = try MarkdownOutline(parsing: text)
    #expect(outline.entries.map(\.text) == ["a\u{A0}b", "\u{2060}c", "d\u{2029}", "é 日本"])
  }

  /// Text that looks like Markdown syntax once it follows the marker and checkbox.
  static let trickyTexts = [
    "# not a heading", "1. not a number", "[x] not a checkbox", "> not a quote", "```",
    "---", "* * *", "- dash", "日本語 ✓", "a  b", "[~]", "#",
  ]

  /// Note lines that look like Markdown syntax, or that a reader would trim.
  static let trickyNoteLines =
    trickyTexts + ["", " leading", "trailing ", "  ", "plain words", ">", "> >"]

  static func randomNote(_ rng: inout SplitMix64) -> String? {
    guard rng.chance(0.3) else { return nil }
    return (0...rng.index(below: 4)).map { _ in
      trickyNoteLines[rng.index(below: trickyNoteLines.count)]
    }.joined(separator: "\n")
  }

  @Test func exportThenImportIsIdentityOnRandomTrees() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x0071_1E))
    func randomEntries(depth: Int) -> [Entry] {
      (0..<rng.index(below: depth == 0 ? 6 : 4)).map { index in
        let text =
          rng.chance(0.3)
          ? Self.trickyTexts[rng.index(below: Self.trickyTexts.count)]
          : "item \(index) [x] - * \(rng.index(below: 1000))"
        return Entry(
          text: text, done: rng.chance(0.3), note: Self.randomNote(&rng),
          children: depth < 4 && rng.chance(0.4) ? randomEntries(depth: depth + 1) : [])
      }
    }
    for _ in 0..<500 {
      let outline = MarkdownOutline(entries: randomEntries(depth: 0))
      for title in [nil, "T"] {
        let again = try MarkdownOutline(parsing: outline.markdown(title: title))
        #expect(again.entries == outline.entries, "\(rng)")
        #expect(again.title == title)
        #expect(again.warnings.isEmpty)
        #expect(again.sourceLines.count == outline.count)
      }
    }
  }
}

@Suite("Workspace: importing outlines")
struct WorkspaceOutlineImportTests {
  @Test func exportThenImportGivesTheSameTreeOnSeededRandomPlans() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x1A1F))
    func randomMarkdown(depth: Int) -> [String] {
      (0..<rng.index(below: depth == 0 ? 5 : 3)).flatMap { index in
        let text =
          rng.chance(0.3)
          ? MarkdownOutlineTests.trickyTexts[
            rng.index(below: MarkdownOutlineTests.trickyTexts.count)]
          : "step \(index) \(rng.index(below: 100))"
        let line =
          String(repeating: "  ", count: depth) + (rng.chance(0.5) ? "- [x] " : "- ") + text
        let note = MarkdownOutlineTests.randomNote(&rng).map { note in
          note.split(separator: "\n", omittingEmptySubsequences: false).map {
            String(repeating: "  ", count: depth + 1) + "> " + $0
          }
        }
        return [line] + (note ?? [])
          + (depth < 3 && rng.chance(0.4) ? randomMarkdown(depth: depth + 1) : [])
      }
    }
    for round in 0..<20 {
      let source = (["- root"] + randomMarkdown(depth: 1)).joined(separator: "\n")
      let name = "R\(round)"
      try workspace.importCollection(named: name, from: source, source: "r.md", kind: .plan)
      for format in OutlineFormat.allCases {
        let copy = try workspace.importOutline(
          named: "\(name) \(format)", from: try workspace.export(name, format: format),
          source: "x")
        #expect(copy.warnings.isEmpty)
        #expect(
          Workspace.outline(of: try workspace.tree(of: copy.collection.id.rawValue))
            == Workspace.outline(of: try workspace.tree(of: name)), "\(rng)")
      }
    }
  }

  @Test func notesAreKeptOnTheItemsAndInBothExports() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let text = "- Pack\n  Charger and adapter.\n  > Check the plug type\n- Go\n"
    let imported = try workspace.importOutline(named: "Trip", from: text, source: "t.md")
    #expect(imported.warnings.isEmpty)
    let pack = try #require(imported.collection.items.first { $0.text == "Pack" })
    #expect(pack.note == "Charger and adapter.\nCheck the plug type")
    #expect(imported.collection.items.first { $0.text == "Go" }?.note == nil)
    #expect(
      try workspace.export("Trip", format: .markdown)
        == "# Trip\n\n- [ ] Pack\n  Charger and adapter.\n  Check the plug type\n- [ ] Go\n")
    #expect(
      try workspace.export("Trip", format: .json).contains(
        #""note" : "Charger and adapter.\nCheck the plug type""#))
    // A JSON document's note may not carry what a terminal acts on.
    let json =
      #"{"schemaVersion":1,"name":"J","kind":"list","items":[{"text":"a","note":"x\u001b[2J"}]}"#
    #expect {
      try workspace.importCollection(named: "J", from: json, source: "j.json")
    } throws: { error in
      (error as? WorkspaceError)?.description
        == "j.json: the note of \"a\" holds the control character U+1B"
    }
  }

  @Test func headingsGroupAPlanAndAreReportedForAList() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let text = "\u{FEFF}# Checklist\r\n## Docs\r\n- [ ] Passport\r\n## Gear\r\n- [~] Tent\r\n"
    let plan = try workspace.importOutline(named: "Plan", from: text, source: "c.md")
    #expect(plan.collection.kind == .plan)
    #expect(
      Workspace.outline(of: try workspace.tree(of: "Plan")).entries == [
        .init(text: "Docs", children: [.init(text: "Passport")]),
        .init(text: "Gear", children: [.init(text: "Tent")]),
      ])
    #expect(plan.warnings.isEmpty)
    let list = try workspace.importOutline(named: "List", from: text, source: "c.md", kind: .list)
    #expect(list.collection.items.map(\.text).sorted() == ["Passport", "Tent"])
    #expect(
      list.warnings == [
        "c.md: line 2: heading \"Docs\" left out: a list is flat (import as a plan to keep it)",
        "c.md: line 4: heading \"Gear\" left out: a list is flat (import as a plan to keep it)",
      ])
  }

  @Test func errorsNameTheFileAndLine() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let deep = (0...workspace.maximumPlanDepth + 1).map {
      String(repeating: "  ", count: $0) + "- d\($0)"
    }
    let text = (["- first", ""] + deep).joined(separator: "\n")
    #expect {
      try workspace.importCollection(named: "Deep", from: text, source: "deep.md")
    } throws: { error in
      (error as? WorkspaceError)?.description
        == "deep.md: line \(deep.count + 2): nests deeper than the \(workspace.maximumPlanDepth + 1) levels a plan allows"
    }
    #expect {
      try workspace.importCollection(named: "Bad", from: "- a\n- b\u{1B}\n", source: "bad.md")
    } throws: { error in
      (error as? WorkspaceError)?.description
        == "bad.md: line 2: the text holds the control character U+001B at column 2"
        && (error as? WorkspaceError)?.code == .badInput
    }
    #expect(throws: WorkspaceError.self) { try workspace.tree(of: "Bad") }
    #expect(throws: WorkspaceError.self) { try workspace.tree(of: "Deep") }
  }
}

@Suite("Workspace: the import's text check")
struct ImportedTextTests {
  /// The fast path answers exactly as `validText` does, over every text of three pieces drawn
  /// from characters at the edges of what it trims and refuses.
  @Test func answersAsValidTextDoes() {
    let pieces = [
      "a", " ", "\t", "\u{A0}", "\u{2003}", "\u{3000}", "\n", "\r", "\u{0B}", "\u{85}",
      "\u{2028}", "\u{2029}", "é", "日", "\u{301}", "\u{200B}", "\u{1B}", "\u{9B}", "\u{202E}", "",
    ]
    func answer(_ body: () throws(WorkspaceError) -> String) -> String {
      do { return "text: " + (try body()) } catch { return "error: \(error)" }
    }
    for a in pieces {
      for b in pieces {
        for c in pieces {
          let text = a + b + c
          #expect(
            answer { () throws(WorkspaceError) in try Workspace.importedText(text) }
              == answer { () throws(WorkspaceError) in try Workspace.validText(text) },
            "\(text.debugDescription)")
        }
      }
    }
  }
}
