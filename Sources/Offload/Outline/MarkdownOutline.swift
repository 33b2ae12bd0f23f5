/// A tree of outline entries read from or written to Markdown.
///
/// The reader takes the Markdown that editors write:
///
/// - Line ends `\n`, `\r\n` or `\r`, and an optional UTF-8 byte order mark.
/// - Items marked `- `, `* `, `+ `, `1. ` or `1) `, at any indent (spaces, or tabs counting
///   four columns); an item indented deeper than the item before it is that item's child.
/// - An optional checkbox after the marker: `[ ]` open, `[x]` or `[X]` done, and `[~]`
///   (started but not finished, as some editors write it), which is read as not done.
/// - `#` headings: with ``HeadingPolicy/items`` each becomes a parent item holding what follows
///   it up to the next heading of the same or a higher level; with
///   ``HeadingPolicy/reported`` they are left out and reported. A level-1 heading that opens
///   the document and is its only level-1 heading is its title (``title``), not an item.
/// - Paragraphs and `>` quotes under an item (or a heading that became an item) are its
///   ``Entry/note``: paragraph lines trimmed, quote lines after `>` and one space kept as
///   they are, lines apart joined by `\n`, and a blank line between them kept as an empty
///   line. Text outside any item, code fences (three backticks or `~~~`) and rules (`---`,
///   `***`, `___`) are skipped, and each is reported in ``warnings`` with its lines. An empty
///   item (`- [ ]` alone) is skipped with a warning too.
///
/// ```markdown
/// # Trip
/// - [ ] Book flights
///   - [x] Compare prices
/// - Pack
/// ```
///
/// Writing then reading gives the same tree: text, done flags, notes and nesting.
public struct MarkdownOutline: Hashable, Sendable {
  /// One entry with its children.
  public struct Entry: Hashable, Sendable {
    /// The entry's text, trimmed.
    public var text: String
    /// Whether the checkbox was ticked (`[x]` or `[X]`).
    public var done: Bool
    /// The paragraphs and quotes under the entry, lines separated by `\n`, or `nil`.
    public var note: String?
    /// The nested entries, in order.
    public var children: [Entry]

    /// Creates an entry.
    public init(text: String, done: Bool = false, note: String? = nil, children: [Entry] = []) {
      self.text = text
      self.done = done
      self.note = note
      self.children = children
    }
  }

  /// What the reader does with `#` headings.
  public enum HeadingPolicy: Hashable, Sendable {
    /// A heading becomes a parent item of the items under it (for a plan).
    case items
    /// Headings are left out, each reported in ``MarkdownOutline/warnings`` (for a list).
    case reported
  }

  /// Something the reader skipped, with the lines it spans.
  public struct Warning: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based first line.
    public var line: Int
    /// The 1-based last line (equal to ``line`` for one line).
    public var lastLine: Int
    /// What was skipped and why.
    public var reason: String
    /// `line N: reason` or `lines N–M: reason`.
    public var description: String {
      line == lastLine ? "line \(line): \(reason)" : "lines \(line)–\(lastLine): \(reason)"
    }
  }

  /// The top-level entries, in order.
  public var entries: [Entry]
  /// The document's title: a level-1 heading that opens it and is its only one.
  public var title: String?
  /// What the reader skipped, in line order (empty for an outline built in code).
  public var warnings: [Warning]
  /// The line each entry was read from, in preorder (empty for an outline built in code).
  public var sourceLines: [Int]

  /// Creates an outline from its top-level entries.
  public init(entries: [Entry]) {
    self.entries = entries
    self.title = nil
    self.warnings = []
    self.sourceLines = []
  }

  /// Whether any entry has children.
  public var isNested: Bool { entries.contains { !$0.children.isEmpty } }

  /// The number of entries at every level.
  ///
  /// - Complexity: O(*n*), where *n* is the number of entries.
  public var count: Int {
    func count(_ entries: [Entry]) -> Int {
      entries.reduce(entries.count) { $0 + count($1.children) }
    }
    return count(entries)
  }

  /// An error naming the line of the outline that cannot be read.
  public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// What is wrong with it.
    public var reason: String
    /// `line N: reason`.
    public var description: String { "line \(line): \(reason)" }
  }

  /// Reads an outline from Markdown text.
  ///
  /// An item indented deeper than the item before it is that item's child; an item indented
  /// less closes every deeper item, so the outline never depends on an exact indent width.
  ///
  /// - Parameters:
  ///   - text: The Markdown document.
  ///   - headings: Whether headings become parent items or are reported.
  /// - Throws: ``ParseError`` naming the line of an item whose text holds a control
  ///   character or a bidirectional override, or of an empty item with items nested under it.
  /// - Complexity: O(*b*), where *b* is the number of UTF-8 bytes.
  public init(parsing text: String, headings: HeadingPolicy = .items) throws(ParseError) {
    var reader = OutlineReader(headings: headings)
    var text = text
    let result: Result<Void, ParseError> = text.withUTF8 { bytes in
      do throws(ParseError) {
        try reader.read(bytes)
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
    self.entries = reader.roots
    self.title = reader.title
    self.warnings = reader.warnings.sorted { $0.line < $1.line }
    self.sourceLines = reader.preorderLines()
  }

  /// Writes the outline as Markdown: `- [ ] text` items, two spaces per level, each note
  /// line under its item one level deeper.
  ///
  /// A note line that would read back as something else (an item, a heading, a quote, a
  /// rule, a fence, an empty line, or a line with spaces at either end) is written as a quote,
  /// `> line`, so every note reads back exactly.
  ///
  /// - Parameter title: An optional `# title` line at the top.
  /// - Complexity: O(*c*), where *c* is the number of characters written.
  public func markdown(title: String? = nil) -> String {
    var out = ""
    if let title { out += "# \(title)\n\n" }
    func write(_ entries: [Entry], depth: Int) {
      for entry in entries {
        out += String(repeating: "  ", count: depth)
        out += entry.done ? "- [x] " : "- [ ] "
        out += entry.text
        out += "\n"
        if let note = entry.note {
          let indent = String(repeating: "  ", count: depth + 1)
          for line in note.split(separator: "\n", omittingEmptySubsequences: false) {
            out += indent + (OutlineReader.isPlainParagraph(line) ? "" : "> ") + line + "\n"
          }
        }
        write(entry.children, depth: depth + 1)
      }
    }
    write(entries, depth: 0)
    return out
  }
}

/// The line-by-line state of ``MarkdownOutline/init(parsing:headings:)``, over UTF-8 bytes so
/// a long line costs one pass.
private struct OutlineReader {
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

  /// The item's text as a string, refusing what a terminal would act on.
  static func string(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws(MarkdownOutline
    .ParseError) -> String
  {
    var index = 0
    var column = 0
    while index < bytes.count {
      let byte = bytes[index]
      var refused: UInt32?
      if byte < 0x20 || byte == 0x7F {
        refused = UInt32(byte)
      } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
        refused = UInt32(bytes[index + 1])
      } else if byte == 0xE2, index + 2 < bytes.count {
        let scalar =
          0x2000 | (UInt32(bytes[index + 1] & 0x3F) << 6) | UInt32(bytes[index + 2] & 0x3F)
        if (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar) {
          refused = scalar
        }
      }
      if let refused {
        let hex = String(refused, radix: 16, uppercase: true)
        throw MarkdownOutline.ParseError(
          line: line,
          reason:
            "the text holds the control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) at column \(column + 1)"
        )
      }
      if byte & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The number of fence characters opening `line`, when it is a code fence.
  static func fenceLength(
    _ line: UnsafeBufferPointer<UInt8>, of byte: UInt8, opening: Bool = false
  ) -> Int? {
    var start = 0
    while start < line.count && line[start] == 0x20 { start += 1 }
    var length = 0
    while start + length < line.count && line[start + length] == byte { length += 1 }
    guard length >= 3 else { return nil }
    let tail = line[(start + length)...]
    if opening {
      // An info string may follow an opening fence, but not a backtick after backticks.
      return byte == 0x60 && tail.contains(0x60) ? nil : length
    }
    return tail.allSatisfy { $0 == 0x20 || $0 == 0x09 } ? length : nil
  }

  /// Whether the line is a thematic break: three or more `-`, `*` or `_`, spaces between.
  static func isRule(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = line.first, first == 0x2D || first == 0x2A || first == 0x5F else {
      return false
    }
    var count = 0
    for byte in line {
      if byte == first {
        count += 1
      } else if byte != 0x20 && byte != 0x09 {
        return false
      }
    }
    return count >= 3
  }

  /// The level and text of an ATX heading (`## Text ##`).
  static func heading(_ line: UnsafeBufferPointer<UInt8>) -> (Int, UnsafeBufferPointer<UInt8>)? {
    var level = 0
    while level < line.count && line[level] == 0x23 { level += 1 }
    guard (1...6).contains(level), level == line.count || isBlank(line[level]) else { return nil }
    var text = trimmed(UnsafeBufferPointer(rebasing: line[level...]))
    // A closing run of `#` after a space is not part of the text.
    var end = text.count
    while end > 0 && text[end - 1] == 0x23 { end -= 1 }
    if end == 0 || isBlank(text[end - 1]) {
      text = trimmed(UnsafeBufferPointer(rebasing: text[..<end]))
    }
    return (level, text)
  }

  /// The done flag and text of a list item, when the line is one.
  static func item(_ line: UnsafeBufferPointer<UInt8>) -> (Bool, UnsafeBufferPointer<UInt8>)? {
    var index = 0
    if line[0] == 0x2D || line[0] == 0x2A || line[0] == 0x2B {
      index = 1
    } else {
      while index < line.count && index < 9 && (0x30...0x39).contains(line[index]) { index += 1 }
      guard index > 0, index < line.count, line[index] == 0x2E || line[index] == 0x29 else {
        return nil
      }
      index += 1
    }
    guard index == line.count || isBlank(line[index]) else { return nil }
    var body = trimmed(UnsafeBufferPointer(rebasing: line[index...]))
    var done = false
    if body.count >= 3, body[0] == 0x5B, body[2] == 0x5D,
      [0x20, 0x78, 0x58, 0x7E].contains(body[1]), body.count == 3 || isBlank(body[3])
    {
      done = body[1] == 0x78 || body[1] == 0x58
      body = trimmed(UnsafeBufferPointer(rebasing: body[3...]))
    }
    return (done, body)
  }

  static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

  /// The bytes without leading and trailing spaces and tabs.
  static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0
    var end = bytes.count
    while start < end && isBlank(bytes[start]) { start += 1 }
    while end > start && isBlank(bytes[end - 1]) { end -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
  }
}
