import Foundation
import TerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A full-screen session on the terminal: raw input, the alternate screen, a hidden cursor,
/// and the promise to put everything back on every way out.
///
/// ``start(input:output:)`` saves the terminal settings, switches to raw mode (no echo, no line
/// buffering, no signals from Ctrl-C: it arrives as a key), enters the alternate screen and
/// hides the cursor. ``finish()`` undoes it; so do `exit()` (through `atexit`), `SIGINT`,
/// `SIGTERM`, `SIGHUP`, `SIGQUIT` and a crash (`SIGSEGV`, `SIGBUS`, `SIGILL`, `SIGTRAP`,
/// `SIGFPE`, `SIGABRT`), whose handlers restore the terminal and then let the signal take its
/// course. Only `SIGKILL` leaves the terminal raw (`stty sane` repairs it).
final class TerminalSession {
  /// The input file descriptor (a terminal).
  let input: Int32
  /// The output file descriptor.
  let output: Int32
  /// The read end of the self-pipe `SIGWINCH` writes to.
  let resizePipe: Int32
  /// The write end of that pipe.
  let resizePipeWriteEnd: Int32
  private var finished = false

  /// The sequence that enters the screen: alternate screen, hidden cursor, no autowrap.
  static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[H\u{1B}[2J"
  /// The sequence that leaves it: autowrap, default colors, visible cursor, main screen.
  static let leaveSequence = "\u{1B}[?7h\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

  private init(input: Int32, output: Int32, resizePipe: Int32, resizePipeWriteEnd: Int32) {
    self.input = input
    self.output = output
    self.resizePipe = resizePipe
    self.resizePipeWriteEnd = resizePipeWriteEnd
  }

  /// Starts a session on a terminal.
  ///
  /// - Parameters:
  ///   - input: The terminal to read keys from (standard input by default).
  ///   - output: Where to draw (standard output by default).
  /// - Throws: ``CommandFailure`` with ``OffloadExitCode/usage`` when `input` or `output` is
  ///   not a terminal, ``OffloadExitCode/ioError`` when its settings cannot be changed.
  static func start(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws
    -> TerminalSession
  {
    guard isatty(input) == 1 && isatty(output) == 1 else {
      throw CommandFailure(
        code: .usage,
        message:
          "this screen needs a terminal on standard input and output (not a pipe or a file)")
    }
    guard TerminalRestore.fileDescriptor < 0 else {
      throw CommandFailure(code: .failure, message: "a terminal screen is already running")
    }
    var settings = termios()
    guard tcgetattr(input, &settings) == 0 else {
      throw CommandFailure(
        code: .ioError, message: "cannot read the terminal settings: \(errnoText())")
    }
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else {
      throw CommandFailure(code: .ioError, message: "cannot create a pipe: \(errnoText())")
    }
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    // Everything a signal handler needs is in place before raw mode starts.
    TerminalRestore.savedSettings = settings
    let leave = Array(leaveSequence.utf8)
    if TerminalRestore.leaveBytes.baseAddress == nil {
      let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: leave.count)
      _ = buffer.initialize(from: leave)
      TerminalRestore.leaveBytes = buffer
    }
    TerminalRestore.resizePipeWrite = fds[1]
    TerminalRestore.installHandlers()

    var raw = settings
    cfmakeraw(&raw)
    // Keep output processing so "\n" still returns the carriage in messages.
    raw.c_oflag = settings.c_oflag
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    TerminalRestore.fileDescriptor = input
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
      TerminalRestore.fileDescriptor = -1
      throw CommandFailure(
        code: .ioError, message: "cannot switch the terminal to raw mode: \(errnoText())")
    }
    let session = TerminalSession(
      input: input, output: output, resizePipe: fds[0], resizePipeWriteEnd: fds[1])
    session.write(enterSequence)
    return session
  }

  /// Writes text to the terminal, all of it.
  func write(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return systemWrite(output, base + offset, buffer.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return }
      offset += written
    }
  }

  /// The terminal's size now: `ioctl(TIOCGWINSZ)`, else `$COLUMNS` and `$LINES`, else 80x24.
  var size: TerminalSize { Self.size(of: output) }

  /// The size of the terminal on `fd`, with the fallbacks of ``size``.
  static func size(
    of fd: Int32, environment: [String: String] = ProcessInfo.processInfo.environment
  )
    -> TerminalSize
  {
    var window = winsize()
    if ioctl(fd, UInt(TIOCGWINSZ), &window) == 0 && window.ws_col > 0 && window.ws_row > 0 {
      return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
    }
    return fallbackSize(environment: environment)
  }

  /// `$COLUMNS` and `$LINES` when both are positive numbers, else 80x24.
  static func fallbackSize(environment: [String: String]) -> TerminalSize {
    let columns = environment["COLUMNS"].flatMap(Int.init) ?? 0
    let rows = environment["LINES"].flatMap(Int.init) ?? 0
    guard columns > 0 && rows > 0 else { return TerminalSize(columns: 80, rows: 24) }
    return TerminalSize(columns: columns, rows: rows)
  }

  /// Leaves the screen and restores the terminal. Idempotent.
  func finish() {
    guard !finished else { return }
    finished = true
    TerminalRestore.restoreNow()
    TerminalRestore.resizePipeWrite = -1
    close(resizePipe)
    close(resizePipeWriteEnd)
  }

  deinit { finish() }
}

/// `write(2)`, named apart from the methods called `write`.
func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
  #else
    Darwin.write(fd, buffer, count)
  #endif
}

/// The text of the current `errno`.
func errnoText() -> String {
  String(cString: strerror(errno))
}
