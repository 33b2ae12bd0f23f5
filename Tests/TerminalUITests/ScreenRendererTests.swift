import OffloadTestSupport
import Testing

@testable import TerminalUI

@Suite("TerminalText")
struct TerminalTextTests {
  @Test(
    arguments: [
      ("hello", 10, "hello"), ("hello", 5, "hello"), ("hello!", 5, "hell…"), ("hello", 1, "…"),
      ("hello", 0, ""), ("", 3, ""), ("日本語テキスト", 7, "日本語…"), ("日本", 4, "日本"),
      ("a\u{1B}[31mb", 10, "a\u{FFFD}[31mb"), ("tab\there", 20, "tab\u{FFFD}here"),
      ("e\u{301}te\u{301}", 3, "e\u{301}te\u{301}"),
    ])
  func fits(text: String, width: Int, expected: String) {
    let fitted = TerminalText.fit(text, width: width)
    #expect(fitted == expected)
    #expect(TerminalText.width(of: fitted) <= width)
  }

  @Test func padsToTheWidth() {
    #expect(TerminalText.fit("ab", width: 4, pad: true) == "ab  ")
    #expect(TerminalText.fit("日本語", width: 5, pad: true) == "日本…")
    #expect(TerminalText.fit("日本語", width: 4, pad: true) == "日… ")
    #expect(TerminalText.width(of: "😀x") == 3)
    #expect(TerminalText.width(of: "❤️") == 2)
  }

  @Test func randomTextAlwaysFits() {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x7E47))
    let alphabet: [Character] = ["a", "Z", " ", "日", "é", "e\u{301}", "😀", "\u{1B}", "…", "·"]
    for _ in 0..<2_000 {
      let text = String(
        (0..<rng.index(below: 30)).map { _ in alphabet[rng.index(below: alphabet.count)] })
      let width = rng.index(below: 25)
      let fitted = TerminalText.fit(text, width: width, pad: true)
      #expect(TerminalText.width(of: fitted) == width, "\(rng) \(text.debugDescription) \(width)")
      #expect(!fitted.unicodeScalars.contains { $0.value < 0x20 }, "\(rng)")
    }
  }
}

@Suite("ListViewport")
struct ListViewportTests {
  @Test func scrollsOnlyAsNeeded() {
    var viewport = ListViewport(rowCount: 100, height: 10)
    #expect(viewport.visibleRange == 0..<10)
    viewport.moveCursor(by: 9)
    #expect(viewport.visibleRange == 0..<10)
    viewport.moveCursor(by: 1)
    #expect(viewport.visibleRange == 1..<11)
    viewport.moveCursor(to: 5)
    #expect(viewport.visibleRange == 1..<11)
    viewport.moveCursor(to: 0)
    #expect(viewport.visibleRange == 0..<10)
    viewport.pageDown()
    #expect(viewport.cursor == 9)
    viewport.moveCursor(to: 1_000)
    #expect(viewport.cursor == 99)
    #expect(viewport.visibleRange == 90..<100)
    viewport.pageUp()
    #expect(viewport.cursor == 90)
    viewport.setHeight(30)
    #expect(viewport.visibleRange == 70..<100)
    viewport.setRowCount(20)
    #expect(viewport.cursor == 19)
    #expect(viewport.visibleRange == 0..<20)
  }

  @Test func emptyAndTiny() {
    var empty = ListViewport(rowCount: 0, height: 5)
    empty.moveCursor(by: 3)
    #expect(empty.cursor == 0)
    #expect(empty.visibleRange.isEmpty)
    var none = ListViewport(rowCount: 10, height: 0)
    none.moveCursor(to: 4)
    #expect(none.visibleRange.isEmpty)
    #expect(none.cursor == 4)
  }

  @Test func randomMovesKeepTheCursorVisible() {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x5C801))
    var viewport = ListViewport(rowCount: 500, height: 12)
    for _ in 0..<5_000 {
      switch rng.index(below: 6) {
      case 0: viewport.moveCursor(by: rng.index(below: 41) - 20)
      case 1: viewport.pageDown()
      case 2: viewport.pageUp()
      case 3: viewport.setHeight(rng.index(below: 40) + 1)
      case 4: viewport.setRowCount(rng.index(below: 600) + 1)
      default: viewport.moveCursor(to: rng.index(below: 700))
      }
      #expect(viewport.visibleRange.contains(viewport.cursor), "\(rng)")
      #expect(
        viewport.visibleRange.count == min(viewport.height, viewport.rowCount), "\(rng)")
    }
  }
}

@Suite("Frame and ScreenRenderer")
struct ScreenRendererTests {
  let size = TerminalSize(columns: 20, rows: 5)

  func frame(cursor: Int, rows: Int = 10_000) -> Frame {
    var viewport = ListViewport(rowCount: rows, height: 3)
    viewport.moveCursor(to: cursor)
    return Frame.list(
      size: size, header: [FrameLine("Groceries", style: .bold)],
      footer: [FrameLine("1 selected", style: .reverse)], viewport: viewport
    ) { index in
      FrameLine("item \(index)", style: index == cursor ? .reverse : .plain)
    }
  }

  @Test func listLayout() {
    #expect(frame(cursor: 0).text == "Groceries\nitem 0\nitem 1\nitem 2\n1 selected")
    #expect(frame(cursor: 9_999).text == "Groceries\nitem 9997\nitem 9998\nitem 9999\n1 selected")
    #expect(frame(cursor: 0, rows: 1).text == "Groceries\nitem 0\n\n\n1 selected")
    // Too small: the footer wins, then the header.
    let tiny = Frame.list(
      size: TerminalSize(columns: 5, rows: 1), header: ["head"], footer: ["foot"],
      viewport: ListViewport(rowCount: 3, height: 0)
    ) { _ in "row" }
    #expect(tiny.text == "foot")
    #expect(Frame.listHeight(for: size, header: 1, footer: 1) == 3)
    let padded = Frame(size: size, lines: ["a"])
    #expect(padded.lines.count == 5)
    #expect(padded.lines.allSatisfy { $0.text.count == 20 })
  }

  @Test func firstRenderDrawsEverything() {
    var renderer = ScreenRenderer()
    let output = renderer.render(frame(cursor: 0))
    #expect(output.hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
    for row in 1...5 { #expect(output.contains("\u{1B}[\(row);1H")) }
    #expect(output.contains("\u{1B}[1mGroceries           \u{1B}[0m"))
    var screen = ScreenEmulator(columns: 20, rows: 5)
    screen.feed(Array(output.utf8))
    #expect(screen.text == frame(cursor: 0).text)
  }

  @Test func cursorMoveRewritesTwoLines() {
    var renderer = ScreenRenderer()
    _ = renderer.render(frame(cursor: 0))
    #expect(renderer.changedLineCount(for: frame(cursor: 1)) == 2)
    let output = renderer.render(frame(cursor: 1))
    #expect(!output.contains("\u{1B}[2J"))
    #expect(output.components(separatedBy: "\u{1B}[2K").count - 1 == 2)
    #expect(output.contains("\u{1B}[2;1H") && output.contains("\u{1B}[3;1H"))
    #expect(renderer.render(frame(cursor: 1)) == "")
  }

  @Test func sizeChangeAndInvalidateRedrawEverything() {
    var renderer = ScreenRenderer()
    _ = renderer.render(frame(cursor: 0))
    renderer.invalidate()
    #expect(renderer.render(frame(cursor: 0)).contains("\u{1B}[2J"))
    let wider = Frame(size: TerminalSize(columns: 30, rows: 5), lines: ["x"])
    #expect(renderer.changedLineCount(for: wider) == 5)
    #expect(renderer.render(wider).contains("\u{1B}[2J"))
  }

  @Test func randomFramesReplayToTheSameScreen() {
    // Whatever sequence of frames is rendered, an emulator fed the output shows the last one.
    var rng = SplitMix64(seed: SplitMix64.testSeed(0xF4A3E))
    var renderer = ScreenRenderer()
    var screen = ScreenEmulator(columns: 20, rows: 5)
    let words = ["", "a", "milk", "eggs and bread", "日本", "x y z", "long line that is cut here"]
    for _ in 0..<500 {
      let lines = (0..<5).map { _ in
        FrameLine(
          words[rng.index(below: words.count)],
          style: [LineStyle.plain, .bold, .reverse, .dim, .boldReverse][rng.index(below: 5)])
      }
      let next = Frame(size: size, lines: lines)
      if rng.chance(0.05) { renderer.invalidate() }
      screen.feed(Array(renderer.render(next).utf8))
      #expect(screen.text == next.text, "\(rng)")
    }
  }
}
