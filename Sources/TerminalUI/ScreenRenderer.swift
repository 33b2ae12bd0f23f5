/// Turns frames into the bytes that draw them, writing only the lines that changed.
///
/// The renderer remembers the frame on screen. Each ``render(_:)`` compares the new frame with
/// it line by line and emits, for every changed line, a cursor move, an erase and the line;
/// unchanged lines cost nothing. A frame of another size, or a call to ``invalidate()`` (after
/// a resize or when something else wrote to the terminal), clears the screen and draws every
/// line. So moving the cursor in a 10,000-row list writes two lines, not a screen.
///
/// ```swift
/// var renderer = ScreenRenderer()
/// terminal.write(renderer.render(frame))   // the whole screen
/// terminal.write(renderer.render(next))    // only what changed
/// ```
public struct ScreenRenderer: Sendable {
  private var onScreen: Frame?

  /// Creates a renderer that has drawn nothing yet.
  public init() {}

  /// Forgets what is on screen, so the next frame is drawn in full.
  public mutating func invalidate() { onScreen = nil }

  /// The bytes that change the screen from the last frame to `frame`.
  ///
  /// - Parameter frame: The frame to show.
  /// - Returns: Escape sequences and text; empty when nothing changed.
  /// - Complexity: O(*r*·*c*), where *r* and *c* are the rows and columns of the frame.
  public mutating func render(_ frame: Frame) -> String {
    var output = ""
    let previous = onScreen.flatMap { $0.size == frame.size ? $0 : nil }
    if previous == nil { output += "\u{1B}[0m\u{1B}[H\u{1B}[2J" }
    for (row, line) in frame.lines.enumerated() {
      if let previous, previous.lines[row] == line { continue }
      output += "\u{1B}[\(row + 1);1H"
      if previous != nil { output += "\u{1B}[2K" }
      output += line.style.escape
      output += line.text
      if line.style != .plain { output += "\u{1B}[0m" }
    }
    onScreen = frame
    return output
  }

  /// The number of lines the next ``render(_:)`` of `frame` would write.
  ///
  /// - Complexity: O(*r*·*c*), where *r* and *c* are the rows and columns of the frame.
  public func changedLineCount(for frame: Frame) -> Int {
    guard let onScreen, onScreen.size == frame.size else { return frame.lines.count }
    return zip(onScreen.lines, frame.lines).filter { $0 != $1 }.count
  }
}
