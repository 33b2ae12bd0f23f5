/// A cursor in a long list and the window of rows on screen: scrolls only as much as needed
/// to keep the cursor visible.
///
/// ```swift
/// var viewport = ListViewport(rowCount: 10_000, height: 20)
/// viewport.moveCursor(by: 25)   // cursor 25, rows 6..<26 on screen
/// viewport.visibleRange          // 6..<26
/// ```
public struct ListViewport: Hashable, Sendable {
  /// The number of rows in the list.
  public private(set) var rowCount: Int
  /// The number of rows on screen.
  public private(set) var height: Int
  /// The index of the first row on screen.
  public private(set) var top = 0
  /// The index of the cursor row (0 when the list is empty).
  public private(set) var cursor = 0

  /// Creates a viewport with the cursor on the first row.
  ///
  /// - Parameters:
  ///   - rowCount: The number of rows in the list.
  ///   - height: The number of rows on screen.
  public init(rowCount: Int, height: Int) {
    self.rowCount = max(rowCount, 0)
    self.height = max(height, 0)
  }

  /// The rows on screen.
  public var visibleRange: Range<Int> { top..<min(top + height, rowCount) }

  /// Moves the cursor to a row (clamped to the list) and scrolls it into view.
  public mutating func moveCursor(to index: Int) {
    cursor = rowCount == 0 ? 0 : min(max(index, 0), rowCount - 1)
    scrollCursorIntoView()
  }

  /// Moves the cursor by `delta` rows (negative is up), clamped to the list.
  public mutating func moveCursor(by delta: Int) {
    moveCursor(to: cursor + delta)
  }

  /// Moves the cursor one screen down.
  public mutating func pageDown() { moveCursor(by: max(height - 1, 1)) }

  /// Moves the cursor one screen up.
  public mutating func pageUp() { moveCursor(by: -max(height - 1, 1)) }

  /// Moves the cursor for a navigation key: ↑ and ↓ by a row, Page Up and Page Down by a
  /// screen, Home and End to the first and last row.
  ///
  /// ```swift
  /// if viewport.moveCursor(for: press.key) { return .redraw }
  /// ```
  ///
  /// - Parameter key: The key pressed.
  /// - Returns: Whether the key was a navigation key (else nothing changed).
  public mutating func moveCursor(for key: Key) -> Bool {
    switch key {
    case .up: moveCursor(by: -1)
    case .down: moveCursor(by: 1)
    case .pageUp: pageUp()
    case .pageDown: pageDown()
    case .home: moveCursor(to: 0)
    case .end: moveCursor(to: rowCount - 1)
    default: return false
    }
    return true
  }

  /// Changes the number of rows in the list, keeping the cursor on the same index if it
  /// still exists.
  public mutating func setRowCount(_ count: Int) {
    rowCount = max(count, 0)
    moveCursor(to: cursor)
  }

  /// Changes the number of rows on screen (after a resize).
  public mutating func setHeight(_ newHeight: Int) {
    height = max(newHeight, 0)
    moveCursor(to: cursor)
  }

  /// Scrolls the least amount that shows the cursor, and never past the end of the list.
  mutating func scrollCursorIntoView() {
    guard height > 0 else {
      top = cursor
      return
    }
    if cursor < top { top = cursor }
    if cursor >= top + height { top = cursor - height + 1 }
    top = max(min(top, rowCount - height), 0)
  }
}
