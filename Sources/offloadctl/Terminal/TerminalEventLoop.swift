import TerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Something that happened at the terminal.
enum TerminalEvent: Hashable {
  /// A key was pressed.
  case key(KeyPress)
  /// The terminal changed size.
  case resize(TerminalSize)
  /// The terminal closed (end of input, a hang-up).
  case endOfInput
}

/// What a screen wants after handling an event.
enum ScreenAction: Hashable {
  /// Keep running; redraw.
  case `continue`
  /// Leave the screen.
  case quit
}

/// A full-screen view driven by ``TerminalEventLoop``: it draws frames and handles events.
///
/// Screens keep their state and build a ``Frame`` from it; they never write to the terminal.
/// That keeps them testable without one: feed events, compare ``Frame/text``.
protocol TerminalScreen {
  /// The frame for the current state at this size. Called after every batch of events.
  mutating func frame(size: TerminalSize) -> Frame
  /// Handles one event.
  mutating func handle(_ event: TerminalEvent) -> ScreenAction
}

/// Reads keys and resizes with `poll(2)`, hands them to a screen, and redraws what changed.
///
/// One loop runs per session. Keys are read in batches, decoded by ``KeyDecoder``; a lone
/// Escape is delivered after 25 ms without a following byte. `SIGWINCH` arrives through a
/// self-pipe and becomes a ``TerminalEvent/resize(_:)`` followed by a full redraw.
struct TerminalEventLoop {
  /// The session the loop reads and draws on.
  let session: TerminalSession
  /// How long a lone Escape waits for the rest of a sequence, in milliseconds.
  var escapeDelay = Int32(KeyDecoder.escapeTimeoutMilliseconds)
  private var decoder = KeyDecoder()
  private var renderer = ScreenRenderer()

  /// Creates a loop on a session.
  init(session: TerminalSession) {
    self.session = session
  }

  /// Runs `screen` until it quits or the input ends.
  ///
  /// - Parameter screen: The screen; its final state is left in place for the caller.
  mutating func run(_ screen: inout some TerminalScreen) {
    var size = session.size
    session.write(renderer.render(screen.frame(size: size)))
    while true {
      let events = nextEvents()
      var quit = false
      for event in events {
        if case .resize(let newSize) = event {
          size = newSize
          renderer.invalidate()
        }
        if screen.handle(event) == .quit || event == .endOfInput {
          quit = true
          break
        }
      }
      if quit { return }
      session.write(renderer.render(screen.frame(size: size)))
    }
  }

  /// Waits for input or a resize and returns the events it makes (at least one).
  mutating func nextEvents() -> [TerminalEvent] {
    while true {
      var fds = [
        pollfd(fd: session.input, events: Int16(POLLIN), revents: 0),
        pollfd(fd: session.resizePipe, events: Int16(POLLIN), revents: 0),
      ]
      let timeout: Int32 = decoder.hasPending ? escapeDelay : -1
      let ready = poll(&fds, 2, timeout)
      if ready < 0 {
        if errno == EINTR { continue }
        return [.endOfInput]
      }
      if ready == 0 {
        return decoder.flush().map { TerminalEvent.key($0) }
      }
      var events: [TerminalEvent] = []
      if fds[1].revents & Int16(POLLIN) != 0 {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(session.resizePipe, &drain, drain.count) > 0 {}
        events.append(.resize(session.size))
      }
      if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(session.input, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return events + [.endOfInput] }
        events += decoder.feed(buffer[0..<count]).map { TerminalEvent.key($0) }
      }
      if !events.isEmpty { return events }
    }
  }
}
