/// The line-by-line state of ``MarkdownOutline/init(parsing:headings:)``, over UTF-8 bytes so
/// a long line costs one pass.
struct OutlineReader {
  typealias Entry = MarkdownOutline.Entry

  /// An entry still open for children.
  struct Open {
    /// The marker's column, or -1 for a heading (every item nests under an open heading).
    var indent: Int
    /// The heading's level, or `nil` for an item.
    var level: Int?
    var line: Int
    var entry: Entry
    /// The lines of the entry's children, in preorder, as the children are.
    var lines: [Int]
    /// The first and last line of the entry's note.
    var noteLines: (first: Int, last: Int)?
  }

  let headings: MarkdownOutline.HeadingPolicy
  var roots: [Entry] = []
  var rootLines: [Int] = []
  var stack: [Open] = []
  var warnings: [MarkdownOutline.Warning] = []
  var title: String?
  /// The first content line's heading, while it may still be the document's title.
  var titleCandidate: (line: Int, text: String)?
  var levelOneHeadings = 0
  var sawContent = false
  /// The run of paragraph and quote lines outside any item being read.
  var prose: (first: Int, last: Int)?
  /// The lines of the title heading's note, which no item takes.
  var titleNote: (first: Int, last: Int)?

  init(headings: MarkdownOutline.HeadingPolicy) {
    self.headings = headings
  }

  mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(MarkdownOutline.ParseError) {
    var position = 0
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
      position = 3
    }
    var lineNumber = 0
    var fence: (byte: UInt8, length: Int, line: Int)?
    while position < bytes.count || (position == bytes.count && lineNumber == 0) {
      lineNumber += 1
      var end = position
      while end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
      let line = UnsafeBufferPointer(rebasing: bytes[position..<end])
      position = end + 1
      if end < bytes.count && bytes[end] == 0x0D && position < bytes.count
        && bytes[position] == 0x0A
      {
        position += 1
      }
      if let open = fence {
        if Self.fenceLength(line, of: open.byte).map({ $0 >= open.length }) == true {
          warn(open.line, lineNumber, "code block skipped")
          fence = nil
        }
        continue
      }
      try readLine(line, number: lineNumber, fence: &fence)
    }
    if let open = fence {
      warn(open.line, lineNumber, "code block without a closing fence skipped")
    }
    endProse()
    close { _ in true }
    if let candidate = titleCandidate, levelOneHeadings == 1 {
      title = candidate.text
      if headings == .items, let first = roots.first, rootLines.first == candidate.line {
        // The title holds the whole document: its children are the outline.
        roots = first.children + roots.dropFirst()
        rootLines = Array(rootLines.dropFirst())
        if let note = titleNote {
          warn(note.first, note.last, "text under the title skipped: only items hold notes")
        }
      }
    } else if let candidate = titleCandidate, headings == .reported {
      warn(candidate.line, candidate.line, Self.reportedHeading(candidate.text))
    }
  }

  /// The entries' lines in preorder.
  func preorderLines() -> [Int] { rootLines }

  mutating func readLine(
    _ line: UnsafeBufferPointer<UInt8>, number: Int,
    fence: inout (byte: UInt8, length: Int, line: Int)?
  ) throws(MarkdownOutline.ParseError) {
    var start = 0
    var indent = 0
    while start < line.count, line[start] == 0x20 || line[start] == 0x09 {
      indent += line[start] == 0x09 ? 4 : 1
      start += 1
    }
    let rest = UnsafeBufferPointer(rebasing: line[start...])
    if rest.isEmpty {
      endProse()
      return
    }
    let firstContent = !sawContent
    sawContent = true
    if let byte = rest.first, byte == 0x60 || byte == 0x7E,
      let length = Self.fenceLength(rest, of: byte, opening: true)
    {
      endProse()
      fence = (byte, length, number)
      return
    }
    if Self.isRule(rest) {
      endProse()
      warn(number, number, "rule skipped")
      return
    }
    if let (level, text) = Self.heading(rest) {
      endProse()
      try heading(level: level, text: text, line: number, first: firstContent)
      return
    }
    if let (done, text) = Self.item(rest) {
      endProse()
      try item(indent: indent, done: done, text: text, line: number)
      return
    }
    guard !stack.isEmpty else {
      if let run = prose, run.last == number - 1 {
        prose = (run.first, number)
      } else {
        endProse()
        prose = (number, number)
      }
      return
    }
    let content: UnsafeBufferPointer<UInt8>
    if rest[0] == 0x3E {  // `>`: the rest after one optional space, as it is.
      let skip = rest.count > 1 && rest[1] == 0x20 ? 2 : 1
      content = UnsafeBufferPointer(rebasing: rest[skip...])
    } else {
      content = Self.trimmed(rest)
    }
    let text = try Self.string(content, line: number)
    let last = stack.count - 1
    if let lines = stack[last].noteLines, let note = stack[last].entry.note {
      // A gap of blank (or skipped) lines is a paragraph break: one empty line.
      stack[last].entry.note = note + (lines.last < number - 1 ? "\n\n" : "\n") + text
      stack[last].noteLines = (lines.first, number)
    } else {
      stack[last].entry.note = text
      stack[last].noteLines = (number, number)
    }
  }

  /// Whether a note line reads back as itself when written alone on a line under its item.
  static func isPlainParagraph(_ line: Substring) -> Bool {
    var line = line
    guard let first = line.utf8.first, let last = line.utf8.last,
      !isBlank(first), !isBlank(last), first != 0x3E
    else { return false }
    return line.withUTF8 { bytes in
      !isRule(bytes) && heading(bytes) == nil && item(bytes) == nil
        && !((bytes[0] == 0x60 || bytes[0] == 0x7E)
          && fenceLength(bytes, of: bytes[0], opening: true) != nil)
    }
  }

  mutating func heading(level: Int, text: UnsafeBufferPointer<UInt8>, line: Int, first: Bool)
    throws(MarkdownOutline.ParseError)
  {
    let text = try Self.string(text, line: line)
    if level == 1 { levelOneHeadings += 1 }
    if first && level == 1 { titleCandidate = (line, text) }
    switch headings {
    case .items:
      guard !text.isEmpty else {
        warn(line, line, "empty heading skipped")
        return
      }
      close { $0.level.map { $0 >= level } ?? true }
      stack.append(Open(indent: -1, level: level, line: line, entry: Entry(text: text), lines: []))
    case .reported:
      // What follows belongs to the next item, not to one before the heading.
      close { _ in true }
      if !(first && level == 1) { warn(line, line, Self.reportedHeading(text)) }
    }
  }

  mutating func item(indent: Int, done: Bool, text: UnsafeBufferPointer<UInt8>, line: Int)
    throws(MarkdownOutline.ParseError)
  {
    let text = try Self.string(text, line: line)
    close { $0.level == nil && $0.indent >= indent }
    if let parent = stack.last, parent.level == nil, parent.entry.text.isEmpty {
      throw MarkdownOutline.ParseError(
        line: parent.line,
        reason: "the item has no text, yet the item on line \(line) is nested under it")
    }
    stack.append(
      Open(indent: indent, level: nil, line: line, entry: Entry(text: text, done: done), lines: []))
  }

  /// Closes open entries from the innermost while `shouldClose` says so.
  mutating func close(while shouldClose: (Open) -> Bool) {
    while let last = stack.last, shouldClose(last) {
      stack.removeLast()
      if last.line == titleCandidate?.line { titleNote = last.noteLines }
      if last.entry.text.isEmpty {
        // Only an item with no children can be empty (see `item`): skip it.
        warn(last.line, last.line, "empty item skipped")
        continue
      }
      if stack.isEmpty {
        roots.append(last.entry)
        rootLines.append(last.line)
        rootLines += last.lines
      } else {
        stack[stack.count - 1].entry.children.append(last.entry)
        stack[stack.count - 1].lines.append(last.line)
        stack[stack.count - 1].lines += last.lines
      }
    }
  }

  mutating func endProse() {
    guard let run = prose else { return }
    prose = nil
    warn(run.first, run.last, "text outside any item skipped")
  }

  mutating func warn(_ first: Int, _ last: Int, _ reason: String) {
    warnings.append(.init(line: first, lastLine: last, reason: reason))
  }

  static func reportedHeading(_ text: String) -> String {
    "heading \"\(shortened(text))\" left out: a list is flat (import as a plan to keep it)"
  }

  static func shortened(_ text: String) -> String {
    text.count > 30 ? String(text.prefix(30)) + "…" : text
  }
}
