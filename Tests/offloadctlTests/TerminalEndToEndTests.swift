import Foundation
import OffloadTestSupport
import TerminalUI
import Testing

@testable import offloadctl

/// Keys as xterm sends them.
private enum Keys {
  static let up = "\u{1B}[A"
  static let down = "\u{1B}[B"
  static let shiftDown = "\u{1B}[1;2B"
  static let end = "\u{1B}[F"
  static let ctrlC = "\u{03}"
}

@Suite(
  "Terminal layer: end to end under a pseudo-terminal", .serialized,
  .enabled(
    if: PseudoTerminal.isAvailable,
    "needs /dev/ptmx (a devpts mount) to open a pseudo-terminal; no other tool is needed"))
struct TerminalEndToEndTests {
  /// An environment that keeps crashes quick and the store out of reach.
  let environment = [
    "OFFLOAD_HOME": "/nonexistent-offload-test", "SWIFT_BACKTRACE": "enable=no",
  ]

  func start(_ arguments: [String] = [], columns: Int = 60, rows: Int = 12) throws
    -> PseudoTerminal
  {
    try PseudoTerminal(
      product: "offloadctl", ["_terminal-selftest"] + arguments, columns: columns, rows: rows,
      environment: environment)
  }

  @Test func keysRedrawResizeAndRestore() throws {
    let terminal = try start(["--rows", "10000"])
    let before = terminal.settings
    #expect(terminal.isCooked)
    try terminal.waitForScreen { $0.contains("row 1/10000") }
    #expect(!terminal.isCooked, "the screen runs in raw mode")
    #expect(terminal.screen.isAlternateScreen)
    #expect(!terminal.screen.isCursorVisible)
    #expect(terminal.screen.line(0) == "offloadctl terminal self-test · q quits · space marks")
    #expect(terminal.screen.line(1) == "> [ ] row 1")

    terminal.send(Keys.down + Keys.down + " ")
    try terminal.waitForScreen { $0.contains("marked 1") }
    #expect(terminal.screen.line(3) == "> [x] row 3")
    #expect(terminal.screen.line(2) == "  [ ] row 2")

    terminal.send(Keys.shiftDown)
    try terminal.waitForScreen { $0.contains("last key: shift+down") }
    #expect(terminal.screen.line(8) == "> [ ] row 8")

    terminal.send(Keys.end)
    try terminal.waitForScreen { $0.contains("row 10000/10000") }
    // Only visible rows are drawn: the last 10 of 10,000.
    #expect(terminal.screen.line(1) == "  [ ] row 9991")
    #expect(terminal.screen.line(10) == "> [ ] row 10000")

    terminal.resize(columns: 40, rows: 8)
    try terminal.waitForScreen { $0.contains("size 40x8") }
    #expect(terminal.screen.line(0) == "offloadctl terminal self-test · q quits…")
    #expect(terminal.screen.line(6) == "> [ ] row 10000")
    #expect(terminal.screen.text.split(separator: "\n").count == 8)

    terminal.send("q")
    #expect(try terminal.waitForExit() == .exited(0))
    #expect(terminal.settings == before, "the terminal settings are restored")
    #expect(terminal.isCooked)
    #expect(!terminal.screen.isAlternateScreen)
    #expect(terminal.screen.isCursorVisible)
    #expect(terminal.screen.isAutowrapOn)
    // The summary is printed on the main screen, wrapped at 40 columns.
    #expect(
      terminal.screen.text.replacingOccurrences(of: "\n", with: "").contains(
        "self-test: 6 keys, last q, cursor 10000, marked [3], resizes 1"),
      "\(terminal.screen.text)")
  }

  @Test func controlCQuitsAndRestores() throws {
    let terminal = try start(["--rows", "5"])
    let before = terminal.settings
    try terminal.waitForScreen { $0.contains("row 1/5") }
    terminal.send(Keys.up + Keys.ctrlC)
    #expect(try terminal.waitForExit() == .exited(0))
    #expect(terminal.settings == before)
    #expect(terminal.screen.text.contains("self-test: 2 keys, last ctrl+c, cursor 1"))
  }

  @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
  func signalsRestore(signal: Int32) throws {
    let terminal = try start(["--rows", "5"])
    let before = terminal.settings
    try terminal.waitForScreen { $0.contains("row 1/5") }
    #expect(!terminal.isCooked)
    terminal.signal(signal)
    #expect(try terminal.waitForExit() == .signalled(signal))
    #expect(terminal.settings == before)
    #expect(!terminal.screen.isAlternateScreen)
    #expect(terminal.screen.isCursorVisible)
  }

  @Test func crashRestores() throws {
    let terminal = try start(["--rows", "5", "--crash-on-bang"])
    let before = terminal.settings
    try terminal.waitForScreen { $0.contains("row 1/5") }
    terminal.send("!")
    let ended = try terminal.waitForExit()
    // A failed precondition traps: SIGILL on x86-64, SIGTRAP on arm64.
    #expect([.signalled(SIGILL), .signalled(SIGTRAP)].contains(ended), "\(ended)")
    #expect(terminal.settings == before)
    #expect(!terminal.screen.isAlternateScreen)
    // The runtime prints the message, the trap's handler then leaves the screen.
    let text = terminal.outputText
    let message = try #require(text.range(of: "self-test crash requested with !"))
    #expect(text[message.upperBound...].contains(TerminalSession.leaveSequence))
  }

  @Test func refusesWithoutATerminal() throws {
    let result = try BuiltProduct.run(
      "offloadctl", ["_terminal-selftest"], environment: environment)
    #expect(result.status == 64)
    #expect(
      result.stderr
        == "offloadctl: error: this screen needs a terminal on standard input and output (not a pipe or a file)\n"
    )
    #expect(result.stdout.isEmpty)
  }

  @Test func hiddenFromHelp() {
    #expect(!Offloadctl.helpMessage().contains("_terminal-selftest"))
  }
}

@Suite("Terminal layer: the self-test screen without a terminal", .timeLimit(.minutes(5)))
struct SelfTestScreenTests {
  @Test func drawsOnlyVisibleRows() {
    var screen = SelfTestScreen(rowCount: 1_000_000, crashOnBang: false)
    let size = TerminalSize(columns: 30, rows: 5)
    var frame = screen.frame(size: size)
    #expect(
      frame.text
        == "offloadctl terminal self-test…\n> [ ] row 1\n  [ ] row 2\n  [ ] row 3\nlast key: none · size 30x5 · …"
    )
    _ = screen.handle(.key(KeyPress(.end)))
    _ = screen.handle(.key(KeyPress(.space)))
    frame = screen.frame(size: size)
    #expect(frame.lines[3].text.hasPrefix("> [x] row 1000000"))
    #expect(screen.handle(.key(.character("q"))) == .quit)
    #expect(screen.handle(.endOfInput) == .quit)
  }

  @Test func sizeFallsBackToTheEnvironment() {
    #expect(
      TerminalSession.fallbackSize(environment: ["COLUMNS": "100", "LINES": "40"])
        == TerminalSize(columns: 100, rows: 40))
    #expect(
      TerminalSession.fallbackSize(environment: ["COLUMNS": "x", "LINES": "40"])
        == TerminalSize(columns: 80, rows: 24))
    #expect(TerminalSession.fallbackSize(environment: [:]) == TerminalSize(columns: 80, rows: 24))
    // A pipe is no terminal: the fallback answers.
    var fds: [Int32] = [-1, -1]
    #expect(pipe(&fds) == 0)
    defer { fds.forEach { close($0) } }
    #expect(
      TerminalSession.size(of: fds[1], environment: ["COLUMNS": "77", "LINES": "11"])
        == TerminalSize(columns: 77, rows: 11))
  }
}
