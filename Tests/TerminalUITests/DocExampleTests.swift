import OffloadTestSupport
import Testing

@testable import TerminalUI

/// The examples of TerminalUI's doc comments, DocC catalog and guide, compiled and run here;
/// `everyExampleIsHere` fails when an example is written that this file does not hold.
@Suite("TerminalUI: documentation examples compile and do what they say")
struct DocExampleTests {
  @Test func everyExampleIsHere() {
    let root = DocExamples.packageRoot(from: #filePath)
    let blocks = DocExamples.blocks(
      module: "TerminalUI", guides: ["Docs/Guides/TerminalUI.md"], root: root)
    #expect(blocks.count >= 8)
    let missing = DocExamples.missing(
      blocks, in: ["Tests/TerminalUITests/DocExampleTests.swift"], root: root)
    #expect(missing.isEmpty, "examples not compiled by a test: \(missing)")
  }

  @Test func keyPresses() {
    KeyPress(.up, [.shift]).description  // "shift+up"
    KeyPress(.character("c"), [.control]) == .controlC  // true
    #expect(KeyPress(.up, [.shift]).description == "shift+up")
    #expect(KeyPress(.character("c"), [.control]) == .controlC)
  }

  @Test func decoder() {
    var seen: [[KeyPress]] = []
    var decoder = KeyDecoder()
    decoder.feed([0x1B, 0x5B, 0x31, 0x3B, 0x32])  // []: incomplete
    decoder.feed([0x41])  // [shift+up]
    decoder.feed([0x1B])  // []: Escape, or a sequence?
    decoder.flush()  // [escape]
    var again = KeyDecoder()
    seen.append(again.feed([0x1B, 0x5B, 0x31, 0x3B, 0x32]))
    seen.append(again.feed([0x41]))
    seen.append(again.feed([0x1B]))
    seen.append(again.flush())
    #expect(seen == [[], [KeyPress(.up, [.shift])], [], [KeyPress(.escape)]])
  }

  @Test func viewport() {
    var viewport = ListViewport(rowCount: 10_000, height: 20)
    viewport.moveCursor(by: 25)  // cursor 25, rows 6..<26 on screen
    viewport.visibleRange  // 6..<26
    #expect(viewport.cursor == 25 && viewport.visibleRange == 6..<26)
  }

  @Test func viewportNavigationKeys() {
    enum Action { case redraw, ignored }
    func handle(_ press: KeyPress, _ viewport: inout ListViewport) -> Action {
      if viewport.moveCursor(for: press.key) { return .redraw }
      return .ignored
    }
    var viewport = ListViewport(rowCount: 100, height: 10)
    let steps: [(Key, Action, Int)] = [
      (.down, .redraw, 1), (.pageDown, .redraw, 10), (.up, .redraw, 9), (.end, .redraw, 99),
      (.pageUp, .redraw, 90), (.home, .redraw, 0), (.up, .redraw, 0), (.left, .ignored, 0),
      (.character("j"), .ignored, 0),
    ]
    for (key, action, cursor) in steps {
      #expect(handle(KeyPress(key), &viewport) == action, "\(key)")
      #expect(viewport.cursor == cursor, "\(key)")
    }
    var empty = ListViewport(rowCount: 0, height: 10)
    #expect(handle(KeyPress(.end), &empty) == .redraw && empty.cursor == 0)
  }

  @Test func renderer() {
    struct Terminal {
      var written: [String] = []
      mutating func write(_ text: String) { written.append(text) }
    }
    var terminal = Terminal()
    let size = TerminalSize(columns: 10, rows: 3)
    let frame = Frame(size: size, lines: ["a", "b", "c"])
    let next = Frame(size: size, lines: ["a", "B", "c"])
    var renderer = ScreenRenderer()
    terminal.write(renderer.render(frame))  // the whole screen
    terminal.write(renderer.render(next))  // only what changed
    #expect(terminal.written.count == 2)
    #expect(terminal.written[1].contains("B") && !terminal.written[1].contains("c"))
  }

  @Test func fitAndEscape() {
    TerminalText.fit("Groceries for the week", width: 10)  // "Groceries…"
    TerminalText.escaped("a\u{1B}[2Jb")  // "a\\u{1B}[2Jb"
    #expect(TerminalText.fit("Groceries for the week", width: 10) == "Groceries…")
    #expect(TerminalText.escaped("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
  }

  @Test func catalogLoop() {
    let bytesRead: [UInt8] = [0x1B, 0x5B, 0x42]
    var handled: [KeyPress] = []
    func handle(_ press: KeyPress) { handled.append(press) }
    let size = TerminalSize(columns: 20, rows: 4)
    let header: [FrameLine] = ["List"]
    let footer: [FrameLine] = ["q quits"]
    let viewport = ListViewport(rowCount: 5, height: 2)
    func title(_ index: Int) -> String { "row \(index)" }
    var output = ""
    func write(_ text: String) { output += text }
    var decoder = KeyDecoder()
    var renderer = ScreenRenderer()
    for press in decoder.feed(bytesRead) { handle(press) }
    let frame = Frame.list(size: size, header: header, footer: footer, viewport: viewport) {
      index in
      FrameLine(title(index), style: index == viewport.cursor ? .reverse : .plain)
    }
    write(renderer.render(frame))
    #expect(handled == [KeyPress(.down)])
    #expect(frame.text.contains("row 1") && output.contains("row 0"))
  }

  @Test func guideScreen() {
    struct GroceryScreen {
      var items: [String]
      var viewport: ListViewport
      var quit = false

      init(items: [String]) {
        self.items = items
        viewport = ListViewport(rowCount: items.count, height: 0)
      }

      mutating func frame(size: TerminalSize) -> Frame {
        viewport.setHeight(Frame.listHeight(for: size, header: 1, footer: 1))
        let header: [FrameLine] = ["Groceries"]
        return Frame.list(size: size, header: header, footer: ["q quits"], viewport: viewport) {
          index in
          FrameLine(items[index], style: index == viewport.cursor ? .reverse : .plain)
        }
      }

      mutating func handle(_ press: KeyPress) {
        switch (press.key, press.modifiers) {
        case (.character("q"), []), (.character("c"), [.control]): quit = true
        case (.down, []): viewport.moveCursor(by: 1)
        case (.up, []): viewport.moveCursor(by: -1)
        default: break
        }
      }
    }

    var screen = GroceryScreen(items: ["milk", "eggs", "bread"])
    var renderer = ScreenRenderer()
    let size = TerminalSize(columns: 20, rows: 5)
    let first = renderer.render(screen.frame(size: size))  // the whole screen
    for press in KeyDecoder.decodeAll([0x1B, 0x5B, 0x42]) { screen.handle(press) }  // down
    let second = renderer.render(screen.frame(size: size))  // only the two rows that changed
    #expect(first.contains("Groceries") && !second.contains("Groceries"))
    #expect(screen.viewport.cursor == 1 && !screen.quit)
  }
}
