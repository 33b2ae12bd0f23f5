#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state that puts the terminal back, reachable from signal handlers and `atexit`.
///
/// Everything here is set up before raw mode starts and read afterwards only by
/// ``restoreNow()``, which calls nothing but `tcsetattr` and `write`: both are
/// async-signal-safe, so a signal handler may call it.
enum TerminalRestore {
  /// The terminal's settings before raw mode.
  nonisolated(unsafe) static var savedSettings = termios()
  /// The terminal's file descriptor, or -1 when nothing needs restoring.
  nonisolated(unsafe) static var fileDescriptor: Int32 = -1
  /// The bytes that leave the alternate screen and show the cursor, written at restore.
  nonisolated(unsafe) static var leaveBytes: UnsafeMutableBufferPointer<UInt8> = .init(
    start: nil, count: 0)
  /// The write end of the self-pipe that wakes the event loop on `SIGWINCH`.
  nonisolated(unsafe) static var resizePipeWrite: Int32 = -1
  /// The actions that were installed before ours, by signal number.
  nonisolated(unsafe) static var previousActions = UnsafeMutablePointer<sigaction>.allocate(
    capacity: 65)
  /// Whether `atexit` and the signal handlers are installed (once per process).
  nonisolated(unsafe) static var handlersInstalled = false

  /// The signals that end the process and must put the terminal back first.
  static let terminatingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
  /// The signals of a crash (a failed precondition traps with SIGILL or SIGTRAP).
  static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

  /// Puts the terminal back (settings, cursor, main screen) if it is in raw mode. Idempotent
  /// and async-signal-safe.
  static func restoreNow() {
    let fd = fileDescriptor
    guard fd >= 0 else { return }
    fileDescriptor = -1
    if let base = leaveBytes.baseAddress {
      var offset = 0
      while offset < leaveBytes.count {
        let written = write(fd, base + offset, leaveBytes.count - offset)
        if written <= 0 { break }
        offset += written
      }
    }
    _ = tcsetattr(fd, TCSAFLUSH, &savedSettings)
  }

  /// Installs `atexit` and the signal handlers, once per process.
  static func installHandlers() {
    guard !handlersInstalled else { return }
    handlersInstalled = true
    atexit { TerminalRestore.restoreNow() }
    for signal in terminatingSignals + crashSignals {
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_sigaction = { signal, _, _ in
          TerminalRestore.handleFatalSignal(signal)
        }
      #else
        action.__sigaction_u.__sa_sigaction = { signal, _, _ in
          TerminalRestore.handleFatalSignal(signal)
        }
      #endif
      action.sa_flags = SA_SIGINFO
      sigemptyset(&action.sa_mask)
      sigaction(signal, &action, previousActions + Int(signal))
      if terminatingSignals.contains(signal) && isIgnored(previousActions[Int(signal)]) {
        // Ignored by whoever started us (nohup ignores SIGHUP): keep it ignored.
        sigaction(signal, previousActions + Int(signal), nil)
      }
    }
    var resize = sigaction()
    #if canImport(Glibc)
      resize.__sigaction_handler.sa_handler = { _ in TerminalRestore.handleResizeSignal() }
    #else
      resize.__sigaction_u.__sa_handler = { _ in TerminalRestore.handleResizeSignal() }
    #endif
    resize.sa_flags = SA_RESTART
    sigemptyset(&resize.sa_mask)
    sigaction(SIGWINCH, &resize, nil)
  }

  /// Whether an action is `SIG_IGN`.
  static func isIgnored(_ action: sigaction) -> Bool {
    #if canImport(Glibc)
      let handler = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
    #else
      let handler = unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self)
    #endif
    return action.sa_flags & SA_SIGINFO == 0 && handler == 1
  }

  /// Restores the terminal, then hands the signal to whoever handled it before (the Swift
  /// runtime's backtracer, or the default action), so the process still ends as it would have.
  static func handleFatalSignal(_ signal: Int32) {
    restoreNow()
    sigaction(signal, previousActions + Int(signal), nil)
    raise(signal)
  }

  /// Wakes the event loop: one byte down the self-pipe.
  static func handleResizeSignal() {
    let fd = resizePipeWrite
    guard fd >= 0 else { return }
    var byte: UInt8 = 1
    _ = write(fd, &byte, 1)
  }
}
