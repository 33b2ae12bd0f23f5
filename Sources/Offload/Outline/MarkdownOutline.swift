/// A tree of outline entries read from or written to Markdown.
///
/// The format is the one people type: one item per line, `- ` (or `* `, `+ `) then an
/// optional checkbox `[ ]` or `[x]`, nesting by indentation (spaces or tabs; a tab counts as
/// four columns). Blank lines, `#` headings and `>` quotes are skipped, so a document with a
/// title imports cleanly.
///
/// ```markdown
/// # Trip
/// - [ ] Book flights
///   - [x] Compare prices
/// - Pack
/// ```
///
/// Writing then reading gives the same tree: text, done flags and nesting.
public struct MarkdownOutline: Hashable, Sendable {
  /// One entry with its children.
  public struct Entry: Hashable, Sendable {
    /// The entry's text, trimmed.
    public var text: String
    /// Whether the checkbox was ticked (`[x]` or `[X]`).
    public var done: Bool
    /// The nested entries, in order.
    public var children: [Entry]

    /// Creates an entry.
    public init(text: String, done: Bool = false, children: [Entry] = []) {
      self.text = text
      self.done = done
      self.children = children
    }
  }

  /// The top-level entries, in order.
  public var entries: [Entry]

  /// Creates an outline from its top-level entries.
  public init(entries: [Entry]) {
    self.entries = entries
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
  /// - Parameter text: The Markdown document.
  /// An item indented deeper than the item before it is that item's child; an item indented
  /// less closes every deeper item, so the outline never depends on an exact indent width.
  ///
  /// - Throws: ``ParseError`` naming the first line that is not an item, a heading, a quote
  ///   or blank, or an item without text.
  /// - Complexity: O(*c*), where *c* is the number of characters.
  public init(parsing text: String) throws(ParseError) {
    struct Open {
      var indent: Int
      var entry: Entry
    }
    var roots: [Entry] = []
    var stack: [Open] = []

    func closeDeeper(than indent: Int) {
      while let last = stack.last, last.indent >= indent {
        stack.removeLast()
        if stack.isEmpty {
          roots.append(last.entry)
        } else {
          stack[stack.count - 1].entry.children.append(last.entry)
        }
      }
    }

    var lineNumber = 0
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
      var indent = 0
      var rest = Substring(line)
      while let first = rest.first, first == " " || first == "\t" {
        indent += first == "\t" ? 4 : 1
        rest = rest.dropFirst()
      }
      if rest.isEmpty || rest.hasPrefix("#") || rest.hasPrefix(">") { continue }
      guard let marker = rest.first, "-*+".contains(marker),
        rest.dropFirst().first == " " || rest.count == 1
      else {
        let shown = rest.count > 30 ? String(rest.prefix(30)) + "…" : String(rest)
        throw ParseError(
          line: lineNumber,
          reason: "expected an item starting with '- ', found \"\(shown)\"")
      }
      var body = rest.dropFirst().drop { $0 == " " }
      var done = false
      if body.hasPrefix("[ ]") || body.hasPrefix("[x]") || body.hasPrefix("[X]") {
        done = !body.hasPrefix("[ ]")
        body = body.dropFirst(3).drop { $0 == " " }
      }
      let itemText = String(body.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
      guard !itemText.isEmpty else {
        throw ParseError(line: lineNumber, reason: "the item has no text")
      }
      closeDeeper(than: indent)
      stack.append(Open(indent: indent, entry: Entry(text: itemText, done: done)))
    }
    closeDeeper(than: Int.min)
    self.entries = roots
  }

  /// Writes the outline as Markdown: `- [ ] text` items, two spaces per level.
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
        write(entry.children, depth: depth + 1)
      }
    }
    write(entries, depth: 0)
    return out
  }
}
