import OffloadTestSupport
import Testing

@testable import Offload

@Suite("ShortID: typable identifiers")
struct ShortIDTests {
  @Test func sequenceIdsAreUniqueSixCharactersAndStable() {
    var seen = Set<String>()
    for sequence in 0..<50_000 as Range<UInt64> {
      let id = ShortID(sequence: sequence)
      #expect(id.rawValue.count == 6)
      #expect(seen.insert(id.rawValue).inserted, "duplicate id at \(sequence)")
    }
    #expect(ShortID(sequence: 1) == ShortID(sequence: 1))
    #expect(ShortID(sequence: 1 << 30).rawValue.count == 7)
  }

  @Test func consecutiveIdsDoNotShareLongPrefixes() {
    let ids = (1...1_000 as ClosedRange<UInt64>).map { ShortID(sequence: $0).rawValue }
    let sharedThree = zip(ids, ids.dropFirst()).filter { $0.prefix(3) == $1.prefix(3) }.count
    #expect(sharedThree < 10)
  }

  @Test func parsingRejectsOtherCharacters() {
    #expect(ShortID("abc123") != nil)
    #expect(ShortID("") == nil)
    #expect(ShortID("ABC") == nil)
    #expect(ShortID("oil") == nil)
    #expect(ShortID("a b") == nil)
  }

  @Test func prefixMatching() {
    let ids = ["abc123", "abd456", "xyz789", "ab"].compactMap(ShortID.init)
    #expect(ShortID.match("abc", in: ids) == .unique(ShortID("abc123")!))
    #expect(ShortID.match("ABC", in: ids) == .unique(ShortID("abc123")!))
    #expect(ShortID.match("ab", in: ids) == .unique(ShortID("ab")!))
    #expect(
      ShortID.match("a", in: ids)
        == .ambiguous(["ab", "abc123", "abd456"].compactMap(ShortID.init)))
    #expect(ShortID.match("q", in: ids) == .none)
  }

  @Test func codableRefusesBadIds() throws {
    #expect(try JSONRoundTrip.encode([ShortID("ab12")!]) == "[\"ab12\"]")
    #expect(throws: DecodingError.self) {
      try JSONRoundTrip.decode([ShortID].self, from: "[\"AB\"]")
    }
  }
}

@Suite("MarkdownOutline: import and export")
struct MarkdownOutlineTests {
  typealias Entry = MarkdownOutline.Entry

  @Test func parsesNestingCheckboxesHeadingsAndBlankLines() throws {
    let text = """
      # Trip

      - [ ] Book flights
        - [x] Compare prices
        - [X] Pick seats
      * Pack
      \t+ Socks
      > a quote
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
  }

  @Test func shallowerItemClosesDeeperOnes() throws {
    let outline = try MarkdownOutline(parsing: "- a\n      - b\n  - c\n- d\n")
    #expect(
      outline.entries == [
        Entry(text: "a", children: [Entry(text: "b"), Entry(text: "c")]), Entry(text: "d"),
      ])
  }

  @Test(arguments: [
    ("- a\nplain text\n", 2, "expected an item starting with '- ', found \"plain text\""),
    ("- a\n-b\n", 2, "expected an item starting with '- '"),
    ("- [ ]\n", 1, "the item has no text"),
    ("\n\n  - ok\n-\n", 4, "the item has no text"),
  ])
  func reportsTheBadLine(text: String, line: Int, reason: String) {
    do {
      _ = try MarkdownOutline(parsing: text)
      Issue.record("parsed \(text.debugDescription)")
    } catch {
      #expect(error.line == line)
      #expect(error.description.hasPrefix("line \(line): \(reason)"), "\(error)")
    }
  }

  @Test func exportThenImportIsIdentityOnRandomTrees() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x0071_1E))
    func randomEntries(depth: Int) -> [Entry] {
      (0..<rng.index(below: depth == 0 ? 6 : 4)).map { index in
        Entry(
          text: "item \(index) [x] - * \(rng.index(below: 1000))", done: rng.chance(0.3),
          children: depth < 4 && rng.chance(0.4) ? randomEntries(depth: depth + 1) : [])
      }
    }
    for _ in 0..<500 {
      let outline = MarkdownOutline(entries: randomEntries(depth: 0))
      let again = try MarkdownOutline(parsing: outline.markdown(title: "T"))
      #expect(again == outline, "\(rng)")
    }
  }
}
