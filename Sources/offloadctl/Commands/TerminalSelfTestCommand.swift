import ArgumentParser
import TerminalUI

/// `offloadctl _terminal-selftest`: an internal screen that exercises the terminal layer
/// (raw mode, keys, resize, diffed redraw, restore) for the end-to-end tests. Hidden from help.
struct TerminalSelfTestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "_terminal-selftest",
    abstract: "Internal: a test screen for the terminal layer (used by the test suite).",
    shouldDisplay: false)

  @Option(help: "How many rows the test list has.")
  var rows = 10_000

  @Flag(help: "Crash on the ! key, to test that a crash restores the terminal.")
  var crashOnBang = false

  func validate() throws {
    guard (0...10_000_000).contains(rows) else {
      throw ValidationError("--rows must be between 0 and 10,000,000, got \(rows)")
    }
  }

  func run() throws {
    let session = try TerminalSession.start()
    var screen = SelfTestScreen(rowCount: rows, crashOnBang: crashOnBang)
    var loop = TerminalEventLoop(session: session)
    loop.run(&screen)
    session.finish()
    let marked = screen.marked.sorted().map { String($0 + 1) }.joined(separator: ",")
    Output.line(
      "self-test: \(screen.keyCount) keys, last \(screen.lastKey), cursor \(screen.viewport.cursor + 1), "
        + "marked [\(marked)], resizes \(screen.resizeCount)")
  }
}

/// The self-test's screen: a long list with a cursor and marks, and a status line.
struct SelfTestScreen: TerminalScreen {
  var viewport: ListViewport
  var marked: Set<Int> = []
  var lastKey = "none"
  var keyCount = 0
  var resizeCount = 0
  var crashOnBang: Bool

  init(rowCount: Int, crashOnBang: Bool) {
    viewport = ListViewport(rowCount: rowCount, height: 0)
    self.crashOnBang = crashOnBang
  }

  static let header: [FrameLine] = [
    FrameLine("offloadctl terminal self-test · q quits · space marks", style: .bold)
  ]

  mutating func frame(size: TerminalSize) -> Frame {
    let footer = [
      FrameLine(
        "last key: \(lastKey) · size \(size) · row \(viewport.cursor + 1)/\(viewport.rowCount)"
          + " · marked \(marked.count)", style: .reverse)
    ]
    viewport.setHeight(Frame.listHeight(for: size, header: Self.header.count, footer: 1))
    let cursor = viewport.cursor
    let marked = marked
    return Frame.list(size: size, header: Self.header, footer: footer, viewport: viewport) {
      index in
      let mark = marked.contains(index) ? "[x]" : "[ ]"
      return FrameLine(
        "\(index == cursor ? ">" : " ") \(mark) row \(index + 1)",
        style: index == cursor ? .reverse : .plain)
    }
  }

  mutating func handle(_ event: TerminalEvent) -> ScreenAction {
    switch event {
    case .endOfInput: return .quit
    case .resize:
      resizeCount += 1
      return .continue
    case .key(let press):
      keyCount += 1
      lastKey = press.description
      switch (press.key, press.modifiers) {
      case (.character("q"), []), (.character("c"), [.control]): return .quit
      case (.up, []): viewport.moveCursor(by: -1)
      case (.down, []): viewport.moveCursor(by: 1)
      case (.up, _): viewport.moveCursor(by: -5)
      case (.down, _): viewport.moveCursor(by: 5)
      case (.pageUp, _): viewport.pageUp()
      case (.pageDown, _): viewport.pageDown()
      case (.home, _): viewport.moveCursor(to: 0)
      case (.end, _): viewport.moveCursor(to: viewport.rowCount - 1)
      case (.space, []):
        if viewport.rowCount > 0 {
          if marked.remove(viewport.cursor) == nil { marked.insert(viewport.cursor) }
        }
      case (.character("!"), []) where crashOnBang:
        fatalError("self-test crash requested with !")
      default: break
      }
      return .continue
    }
  }
}
