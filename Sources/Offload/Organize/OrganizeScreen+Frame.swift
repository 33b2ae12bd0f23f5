import Foundation
public import TerminalUI

extension OrganizeScreen {
  /// The key hints of normal mode.
  static let normalHints =
    "↑↓ move x done a add ⌫ delete K/J reorder ←→ fold / filter h hide done e edit u undo q quit"
  /// The key hints of edit mode.
  static let editHints =
    "space check a all shift+↑↓ range K/J reorder tab/shift+tab nest o add e done u undo q quit"

  /// The frame for the current state: a header, the visible rows only, a status line, and
  /// the key hints (normal mode) or the bulk-action toolbar (edit mode).
  ///
  /// ```
  /// Trip · plan · 7 items · Edit · 2 selected
  /// ○ 1  [ ] Book flights
  /// ● 2  [ ] ▾ Pack
  /// ```
  ///
  /// - Parameter size: The terminal size; the viewport's height follows it.
  /// - Returns: The frame to draw.
  /// - Complexity: O(*h*) for *h* visible rows, plus the toolbar's rules in edit mode.
  public mutating func frame(size: TerminalSize) -> Frame {
    if let detail, let item = tree.items[detail] {
      return detailFrame(item, size: size)
    }
    let bar = toolbar
    let statusLine: String
    switch prompt {
    case nil: statusLine = status
    case .add: statusLine = "New item: Enter saves, Esc cancels"
    case .filter: statusLine = "Filter: \(input)▏  (Enter keeps, Esc clears)"
    case .confirmDelete:
      statusLine = (prompt?.label ?? "") + ", any other key keeps them"
    case .some(let prompt):
      statusLine = "\(prompt.label): \(input)▏  (Enter saves, Esc cancels)"
    }
    // A message wider than the terminal (a merge report, a refusal's reason) wraps onto up to
    // three lines rather than losing its end, while the list keeps at least 8 rows (a short
    // terminal cuts it as before); a prompt keeps one line.
    let statusLines = max(1, min(3, size.rows - 10))
    var footer: [FrameLine] =
      prompt == nil
      ? Self.wrapped(statusLine, width: size.columns, lines: statusLines).map { FrameLine($0) }
      : [FrameLine(statusLine, style: .bold)]
    if bar.isShown {
      let buttons = bar.items.map { item in
        item.availability.isEnabled ? "[\(item.title)]" : "(\(item.title))"
      }
      footer.append(FrameLine(([bar.summary] + buttons).joined(separator: "  "), style: .reverse))
      footer.append(FrameLine(Self.editHints, style: .dim))
    } else {
      footer.append(FrameLine(Self.normalHints, style: .reverse))
    }
    let collection = tree.collection
    var title = "\(collection.name) · \(collection.kind.rawValue) · \(Self.count(tree.items.count))"
    title += isEditing ? " · Edit · \(bar.summary.lowercased())" : ""
    if !rows.isEmpty { title += " · row \(viewport.cursor + 1)/\(rows.count)" }
    if !filter.isEmpty { title += " · /\(filter)" }
    if hidesDone { title += " · done hidden" }
    let header = [FrameLine(title, style: .bold)]
    viewport.setHeight(Frame.listHeight(for: size, header: header.count, footer: footer.count))
    if let (position, depth) = addingRow {
      // The new item is typed on a row of its own, where it will appear.
      var view = viewport
      view.setRowCount(rows.count + 1)
      view.moveCursor(to: position)
      let entry = String(repeating: "  ", count: depth) + "[ ] " + input + "▏"
      return Frame.list(size: size, header: header, footer: footer, viewport: view) { index in
        if index == position { return FrameLine("+ " + entry, style: .reverse) }
        return line(for: index < position ? index : index - 1, highlighted: false)
      }
    }
    if rows.isEmpty {
      return Frame(
        size: size,
        lines: header + [FrameLine("  (no items: add some with offloadctl item add)")]
          + Array(repeating: "", count: max(viewport.height - 1, 0)) + footer)
    }
    return Frame.list(size: size, header: header, footer: footer, viewport: viewport) { index in
      line(for: index, highlighted: index == viewport.cursor)
    }
  }

  /// `text` cut at spaces into lines of at most `width` columns, at most `lines` of them (the
  /// last one ends in "…" when text is left over); a word wider than a line is cut.
  ///
  /// - Complexity: O(*n*) for *n* characters.
  static func wrapped(_ text: String, width: Int, lines: Int) -> [String] {
    guard TerminalText.width(of: text) > width, width > 0, lines > 1 else { return [text] }
    var result: [String] = []
    var line = ""
    var words = text.split(separator: " ", omittingEmptySubsequences: false)[...]
    while let word = words.first {
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if TerminalText.width(of: candidate) <= width || line.isEmpty {
        line = candidate
        words = words.dropFirst()
        if TerminalText.width(of: line) > width {
          result.append(TerminalText.fit(line, width: width))
          line = ""
        }
      } else {
        result.append(line)
        line = ""
      }
      if result.count == lines - 1 {
        let rest = ([line].filter { !$0.isEmpty } + words.map(String.init)).joined(separator: " ")
        if !rest.isEmpty { result.append(TerminalText.fit(rest, width: width)) }
        return result
      }
    }
    if !line.isEmpty { result.append(line) }
    return result
  }

  /// One row's line: checkmark (edit mode), outline number, indentation, done box,
  /// disclosure, text, and how many items a collapsed row hides.
  func line(for index: Int, highlighted: Bool) -> FrameLine {
    let row = rows[index]
    let id = row.item.id
    var text = ""
    if isEditing { text += selection.isSelected(id) ? "● " : "○ " }
    text += row.number + " "
    text += String(repeating: "  ", count: row.depth)
    text += row.item.done ? "[x] " : "[ ] "
    if row.childCount > 0 { text += collapsed.contains(id) ? "▸ " : "▾ " }
    text += row.item.text
    if row.hiddenCount > 0 { text += "  (+\(row.hiddenCount))" }
    return FrameLine(text, style: highlighted ? .reverse : .plain)
  }

  /// The details of one item, full screen.
  func detailFrame(_ item: Item, size: TerminalSize) -> Frame {
    let row = rows.first { $0.item.id == item.id }
    let forest = tree.forest
    var lines: [FrameLine] = [
      FrameLine("\(tree.collection.name) · item \(row?.number ?? "")", style: .bold), "",
      FrameLine("  \(item.text)"), "",
      FrameLine("  id        \(item.id)"),
      FrameLine("  number    \(row?.number ?? "-")"),
      FrameLine("  done      \(item.done ? "yes" : "no")"),
      FrameLine("  created   \(item.created.formatted(.iso8601))"),
      FrameLine("  parent    \(forest.parent(of: item.id).map { "\($0)" } ?? "none (top level)")"),
      FrameLine("  nested    \(Self.count(forest.subtree(of: item.id).count - 1))"),
    ]
    if let note = item.note {
      lines +=
        [""]
        + note.split(separator: "\n", omittingEmptySubsequences: false).map {
          FrameLine("  " + $0)
        }
    }
    while lines.count < size.rows - 1 { lines.append("") }
    lines = Array(lines.prefix(size.rows - 1))
    lines.append(FrameLine("⏎/Esc back  u undo  q quit", style: .reverse))
    return Frame(size: size, lines: lines)
  }
}
