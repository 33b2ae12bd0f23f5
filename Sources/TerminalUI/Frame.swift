/// How a line of a frame is drawn.
public enum LineStyle: Hashable, Sendable {
  /// The terminal's default colors.
  case plain
  /// Bold.
  case bold
  /// Dimmed (faint): disabled rows, hints.
  case dim
  /// Reverse video: the cursor row, the toolbar.
  case reverse
  /// Bold and reverse: an enabled toolbar button, a selected cursor row.
  case boldReverse

  /// The SGR sequence that starts the style.
  var escape: String {
    switch self {
    case .plain: ""
    case .bold: "\u{1B}[1m"
    case .dim: "\u{1B}[2m"
    case .reverse: "\u{1B}[7m"
    case .boldReverse: "\u{1B}[1;7m"
    }
  }
}

/// One line of a frame: text and a style.
public struct FrameLine: Hashable, Sendable, ExpressibleByStringLiteral {
  /// The text, before fitting to the width.
  public var text: String
  /// How the line is drawn.
  public var style: LineStyle

  /// Creates a line.
  public init(_ text: String, style: LineStyle = .plain) {
    self.text = text
    self.style = style
  }

  /// Creates a plain line from a literal.
  public init(stringLiteral text: String) {
    self.init(text)
  }
}

/// The size of a terminal in character cells.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
  /// Columns.
  public var columns: Int
  /// Rows.
  public var rows: Int

  /// Creates a size; values below 1 become 1.
  public init(columns: Int, rows: Int) {
    self.columns = max(columns, 1)
    self.rows = max(rows, 1)
  }

  /// `COLUMNSxROWS`, as in `80x24`.
  public var description: String { "\(columns)x\(rows)" }
}

/// A whole screen of text: exactly one line per terminal row, each fitted to the width.
///
/// Screens build a frame from their state on every redraw; ``ScreenRenderer`` compares it with
/// the frame on screen and writes only the lines that changed.
public struct Frame: Hashable, Sendable {
  /// The size the frame was laid out for.
  public let size: TerminalSize
  /// The lines, one per row, fitted and padded to the width.
  public private(set) var lines: [FrameLine]

  /// Creates a frame from lines; missing lines are blank, extra lines are dropped, and every
  /// line is fitted to the width.
  ///
  /// - Complexity: O(*r*·*c*), where *r* and *c* are the rows and columns of `size`.
  public init(size: TerminalSize, lines: [FrameLine]) {
    self.size = size
    var fitted: [FrameLine] = []
    fitted.reserveCapacity(size.rows)
    for row in 0..<size.rows {
      let line = row < lines.count ? lines[row] : FrameLine("")
      fitted.append(
        FrameLine(TerminalText.fit(line.text, width: size.columns, pad: true), style: line.style))
    }
    self.lines = fitted
  }

  /// The frame's text, lines joined by newlines, trailing spaces trimmed: what a screen
  /// capture or a test compares.
  ///
  /// - Complexity: O(*r*·*c*), where *r* and *c* are the rows and columns of the frame.
  public var text: String {
    lines.map { line in
      var text = Substring(line.text)
      while text.last == " " { text.removeLast() }
      return String(text)
    }.joined(separator: "\n")
  }

  /// Lays out a screen with a list: `header` lines at the top, `footer` lines at the bottom,
  /// and the visible rows of `viewport` between, each made by `row` only when visible.
  ///
  /// - Parameters:
  ///   - size: The terminal size.
  ///   - header: Lines above the list.
  ///   - footer: Lines below the list.
  ///   - viewport: Which rows are visible; its height should be ``listHeight(for:header:footer:)``.
  ///   - row: The line for a row index; called only for visible rows.
  /// - Returns: The frame.
  /// - Complexity: O(*r*·*c*) plus *r* calls of `row`, where *r* and *c* are the rows and
  ///   columns of `size`, whatever the number of rows in the list.
  public static func list(
    size: TerminalSize, header: [FrameLine], footer: [FrameLine], viewport: ListViewport,
    row: (Int) -> FrameLine
  ) -> Frame {
    // When the terminal is too small for everything, the footer wins, then the header.
    let footerShown = Array(footer.suffix(size.rows))
    let top = size.rows - footerShown.count
    var lines = Array(header.prefix(top))
    let height = top - lines.count
    for index in viewport.visibleRange.prefix(height) { lines.append(row(index)) }
    while lines.count < top { lines.append("") }
    lines.append(contentsOf: footerShown)
    return Frame(size: size, lines: lines)
  }

  /// The rows left for a list between a header and a footer.
  public static func listHeight(for size: TerminalSize, header: Int, footer: Int) -> Int {
    max(size.rows - header - footer, 0)
  }
}
