import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A built product running under a pseudo-terminal, for end-to-end tests of full-screen
/// commands: keys in, screen text and terminal settings out.
///
/// The child is a session leader with the terminal as its controlling terminal, so a resize
/// (``resize(columns:rows:)``) reaches it as `SIGWINCH`, as in a real terminal. The test keeps
/// its own descriptor of the terminal to read its settings (``settings``) before and after.
///
/// ```swift
/// let terminal = try PseudoTerminal(product: "offloadctl", ["_terminal-selftest"])
/// try terminal.waitForScreen { $0.contains("row 1/") }
/// terminal.send("q")
/// #expect(try terminal.waitForExit() == .exited(0))
/// ```
public final class PseudoTerminal: @unchecked Sendable {
  /// How a child ended.
  public enum Termination: Hashable, Sendable, CustomStringConvertible {
    /// It exited with a status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)

    public var description: String {
      switch self {
      case .exited(let status): "exit \(status)"
      case .signalled(let signal): "signal \(signal)"
      }
    }
  }

  /// An error starting or driving the child.
  public struct Failure: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
  }

  /// Whether this system can open pseudo-terminals (`/dev/ptmx`); tests that need one are
  /// disabled with this as their condition, and say why.
  public static var isAvailable: Bool {
    let fd = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    close(fd)
    return true
  }

  /// The child's process id.
  public let pid: Int32
  private let master: Int32
  private let slave: Int32
  /// Every byte the child wrote.
  public private(set) var output: [UInt8] = []
  /// The screen the output draws.
  public private(set) var screen: ScreenEmulator
  private var termination: Termination?

  /// Starts a built product (see ``BuiltProduct``) under a new pseudo-terminal.
  ///
  /// - Parameters:
  ///   - product: The executable's name in the products folder.
  ///   - arguments: Its arguments.
  ///   - columns: The terminal's width.
  ///   - rows: The terminal's height.
  ///   - environment: The child's environment (`TERM=xterm-256color` and `PATH` are added).
  public init(
    product: String, _ arguments: [String], columns: Int = 80, rows: Int = 24,
    environment: [String: String] = [:]
  ) throws {
    // posix_openpt, unlockpt and ptsname, as Linux implements them (the Glibc module does not
    // export them). The ioctl numbers are _IOW('T', 0x31, int) and _IOR('T', 0x30, unsigned),
    // the same on x86-64 and arm64.
    let TIOCSPTLCK: UInt = 0x4004_5431
    let TIOCGPTN: UInt = 0x8004_5430
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0, ioctl(master, TIOCSPTLCK, &unlock) == 0,
      ioctl(master, TIOCGPTN, &number) == 0
    else {
      throw Failure(
        description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    let slavePath = "/dev/pts/\(number)"
    slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else { throw Failure(description: "cannot open \(slavePath)") }
    screen = ScreenEmulator(columns: columns, rows: rows)
    var window = winsize(
      ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &window)

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // After setsid, opening the terminal without O_NOCTTY makes it the controlling terminal.
    posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A new session, every signal at its default action and none blocked, as a shell would
    // start it: the test runner's threads may block or ignore signals, and children inherit
    // both. (POSIX_SPAWN_SETSID 0x80 | SETSIGMASK 0x08 | SETSIGDEF 0x04.)
    posix_spawnattr_setflags(&attributes, Int16(0x80 | 0x08 | 0x04))
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)

    var env = environment
    env["TERM"] = env["TERM"] ?? "xterm-256color"
    env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let path = BuiltProduct.path(product)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = env.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var child: Int32 = 0
    let status = posix_spawn(&child, path, &actions, &attributes, argv, envp)
    guard status == 0 else {
      throw Failure(description: "cannot start \(path): \(String(cString: strerror(status)))")
    }
    pid = child
  }

  deinit {
    if termination == nil {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    close(master)
    close(slave)
  }

  /// Types text (or escape sequences) at the terminal.
  public func send(_ text: String) {
    send(Array(text.utf8))
  }

  /// Writes bytes to the terminal's input.
  public func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
      if written <= 0 { return }
      offset += written
    }
  }

  /// Resizes the terminal; the kernel sends `SIGWINCH` to the child.
  public func resize(columns: Int, rows: Int) {
    var window = winsize(
      ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &window)
    screen.resize(columns: columns, rows: rows)
  }

  /// The terminal's settings now, in the spirit of `stty -g`: the flags and control
  /// characters as hex, so two snapshots compare as strings.
  public var settings: String {
    var current = termios()
    guard tcgetattr(slave, &current) == 0 else { return "unreadable" }
    let cc = withUnsafeBytes(of: current.c_cc) { Array($0) }
    return [current.c_iflag, current.c_oflag, current.c_cflag, current.c_lflag]
      .map { String($0, radix: 16) }.joined(separator: ":") + ":"
      + cc.map { String($0, radix: 16) }.joined(separator: ":")
  }

  /// Whether the terminal is in canonical (line-editing) mode with echo: cooked, not raw.
  public var isCooked: Bool {
    var current = termios()
    guard tcgetattr(slave, &current) == 0 else { return false }
    return current.c_lflag & tcflag_t(ICANON) != 0 && current.c_lflag & tcflag_t(ECHO) != 0
  }

  /// Reads output for up to `seconds`, until `condition` holds for the screen text.
  ///
  /// - Throws: ``Failure`` naming the screen when the time runs out first.
  public func waitForScreen(
    timeout seconds: Double = 10, _ condition: (String) -> Bool
  ) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition(screen.text) {
      guard Date() < deadline else {
        throw Failure(description: "timed out; the screen shows:\n\(screen.text)")
      }
      pump(milliseconds: 50)
    }
  }

  /// Reads what output is ready, waiting up to `milliseconds` for some.
  public func pump(milliseconds: Int32) {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, milliseconds) > 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = read(master, &buffer, buffer.count)
    guard count > 0 else { return }
    output += buffer[0..<count]
    screen.feed(buffer[0..<count])
  }

  /// Waits up to `seconds` for the child to end, reading its output meanwhile.
  ///
  /// - Throws: ``Failure`` when it is still running at the deadline.
  @discardableResult
  public func waitForExit(timeout seconds: Double = 20) throws -> Termination {
    if let termination { return termination }
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      pump(milliseconds: 20)
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid {
        pump(milliseconds: 50)
        let signal = status & 0x7F
        let ended: Termination =
          signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
        termination = ended
        return ended
      }
      guard Date() < deadline else {
        throw Failure(description: "the child is still running; the screen shows:\n\(screen.text)")
      }
    }
  }

  /// Sends a signal to the child.
  public func signal(_ number: Int32) {
    kill(pid, number)
  }

  /// The output as text (escape sequences included).
  public var outputText: String { String(decoding: output, as: UTF8.self) }
}
