/// A small terminal emulator for tests: it applies the output of a full-screen program to a
/// grid of cells, so a test reads the screen as text.
///
/// It understands what Offload's screens write: printable UTF-8 (one cell per character),
/// `\r`, `\n`, backspace, cursor position (`CSI row;col H`), erase in display (`CSI 2J`) and in
/// line (`CSI K`, `CSI 2K`), SGR (ignored), the alternate screen (`CSI ?1049h/l`), cursor
/// visibility (`CSI ?25h/l`) and autowrap (`CSI ?7h/l`). Anything else is skipped.
public struct ScreenEmulator: Sendable {
  /// Columns.
  public private(set) var columns: Int
  /// Rows.
  public private(set) var rows: Int
  private var main: [[Character]]
  private var alternate: [[Character]]
  private var savedMainCursor = (row: 0, column: 0)
  /// Whether the alternate screen is shown.
  public private(set) var isAlternateScreen = false
  /// Whether the cursor is visible.
  public private(set) var isCursorVisible = true
  /// Whether text wraps at the right margin.
  public private(set) var isAutowrapOn = true
  private var row = 0
  private var column = 0
  private var pending: [UInt8] = []

  /// Creates an empty screen.
  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    main = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    alternate = main
  }

  /// The visible screen's text: every row, trailing spaces trimmed, joined by newlines.
  public var text: String {
    (0..<rows).map(line).joined(separator: "\n")
  }

  /// The visible screen's line `index`, trailing spaces trimmed.
  public func line(_ index: Int) -> String {
    var text = String((isAlternateScreen ? alternate : main)[index])
    while text.last == " " { text.removeLast() }
    return text
  }

  /// Changes the size, keeping what fits.
  public mutating func resize(columns: Int, rows: Int) {
    func fit(_ grid: [[Character]]) -> [[Character]] {
      (0..<rows).map { r in
        (0..<columns).map { c in r < grid.count && c < grid[r].count ? grid[r][c] : " " }
      }
    }
    main = fit(main)
    alternate = fit(alternate)
    self.columns = columns
    self.rows = rows
    row = min(row, rows - 1)
    column = min(column, columns - 1)
  }

  /// Applies output bytes.
  public mutating func feed(_ bytes: some Sequence<UInt8>) {
    pending.append(contentsOf: bytes)
    var index = 0
    while index < pending.count {
      guard let consumed = step(at: index) else { break }
      index += consumed
    }
    pending.removeFirst(index)
  }

  /// Applies one character or sequence at `index`; nil when it is incomplete.
  private mutating func step(at index: Int) -> Int? {
    let byte = pending[index]
    switch byte {
    case 0x1B:
      guard index + 1 < pending.count else { return nil }
      guard pending[index + 1] == 0x5B else { return 2 }
      var end = index + 2
      while end < pending.count && !(0x40...0x7E).contains(pending[end]) { end += 1 }
      guard end < pending.count else { return nil }
      let parameters = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
      csi(parameters, final: pending[end])
      return end - index + 1
    case 0x0D:
      column = 0
      return 1
    case 0x0A:
      lineFeed()
      return 1
    case 0x08:
      column = max(column - 1, 0)
      return 1
    case 0x00..<0x20, 0x7F:
      return 1
    default:
      let length: Int
      switch byte {
      case 0xC0...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF7: length = 4
      default: length = 1
      }
      guard index + length <= pending.count else { return nil }
      let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
      for character in text { put(character) }
      return length
    }
  }

  private mutating func put(_ character: Character) {
    if column >= columns {
      if isAutowrapOn {
        column = 0
        lineFeed()
      } else {
        column = columns - 1
      }
    }
    if isAlternateScreen {
      alternate[row][column] = character
    } else {
      main[row][column] = character
    }
    column += 1
  }

  private mutating func lineFeed() {
    if row == rows - 1 {
      let blank = Array(repeating: Character(" "), count: columns)
      if isAlternateScreen {
        alternate.removeFirst()
        alternate.append(blank)
      } else {
        main.removeFirst()
        main.append(blank)
      }
    } else {
      row += 1
    }
  }

  private mutating func csi(_ parameters: String, final: UInt8) {
    let isPrivate = parameters.hasPrefix("?")
    let numbers = parameters.drop(while: { $0 == "?" }).split(
      separator: ";", omittingEmptySubsequences: false
    ).map { Int($0) }
    func number(_ index: Int, _ fallback: Int) -> Int {
      index < numbers.count ? numbers[index] ?? fallback : fallback
    }
    let blank = Array(repeating: Character(" "), count: columns)
    switch (isPrivate, final) {
    case (false, 0x48), (false, 0x66):  // H, f
      row = min(max(number(0, 1) - 1, 0), rows - 1)
      column = min(max(number(1, 1) - 1, 0), columns - 1)
    case (false, 0x4A):  // J
      if number(0, 0) == 2 {
        if isAlternateScreen {
          alternate = Array(repeating: blank, count: rows)
        } else {
          main = Array(repeating: blank, count: rows)
        }
      }
    case (false, 0x4B):  // K
      let from = number(0, 0) == 0 ? column : 0
      for c in from..<columns {
        if isAlternateScreen { alternate[row][c] = " " } else { main[row][c] = " " }
      }
    case (true, 0x68), (true, 0x6C):  // ?…h, ?…l
      let on = final == 0x68
      for mode in numbers.compactMap({ $0 }) {
        switch mode {
        case 1049:
          if on && !isAlternateScreen {
            savedMainCursor = (row, column)
            alternate = Array(repeating: blank, count: rows)
          } else if !on && isAlternateScreen {
            (row, column) = savedMainCursor
          }
          isAlternateScreen = on
        case 25: isCursorVisible = on
        case 7: isAutowrapOn = on
        default: break
        }
      }
    default:
      break
    }
  }
}
