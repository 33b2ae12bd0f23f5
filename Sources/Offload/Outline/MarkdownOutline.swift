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
