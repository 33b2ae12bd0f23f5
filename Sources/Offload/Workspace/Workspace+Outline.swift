import Foundation
import OrderingCore

/// A collection as a nested JSON document: what `collection export --format json` writes and
/// `collection import` reads.
public struct OutlineDocument: Codable, Hashable, Sendable {
  /// One item with its children.
  public struct Node: Codable, Hashable, Sendable {
    /// The item's text.
    public var text: String
    /// Whether it is done.
    public var done: Bool
    /// The item's note (omitted when it has none).
    public var note: String?
    /// The nested items, in order (omitted when empty).
    public var children: [Node]?

    enum CodingKeys: String, CodingKey { case text, done, note, children }

    /// Creates a node.
    public init(text: String, done: Bool, note: String? = nil, children: [Node]? = nil) {
      self.text = text
      self.done = done
      self.note = note
      self.children = children
    }

    /// Decodes a node; `done`, `note` and `children` may be left out.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      text = try container.decode(String.self, forKey: .text)
      done = try container.decodeIfPresent(Bool.self, forKey: .done) ?? false
      note = try container.decodeIfPresent(String.self, forKey: .note)
      children = try container.decodeIfPresent([Node].self, forKey: .children)
    }
  }

  /// The format's version.
  public var schemaVersion: Int
  /// The collection's name.
  public var name: String
  /// List or plan.
  public var kind: CollectionKind
  /// The top-level items.
  public var items: [Node]
}

/// What ``Workspace/importOutline(named:from:source:kind:)`` made, and what it skipped.
public struct OutlineImport: Hashable, Sendable {
  /// The new collection.
  public var collection: ItemCollection
  /// One line per skipped part of the Markdown, `file: line N: reason`, in line order.
  public var warnings: [String]
}

/// The formats a collection is exported in.
public enum OutlineFormat: String, Sendable, CaseIterable {
  /// A Markdown outline: `- [ ] text`, two spaces per level.
  case markdown
  /// An ``OutlineDocument``.
  case json
}

extension Workspace {
  /// Writes a collection as a Markdown outline or a JSON document.
  ///
  /// - Complexity: O(*n* log *n*), where *n* is the number of items.
  public func export(_ reference: String, format: OutlineFormat) throws(WorkspaceError) -> String {
    let tree = try tree(of: reference)
    let outline = Self.outline(of: tree)
    switch format {
    case .markdown:
      return outline.markdown(title: tree.collection.name)
    case .json:
      func node(_ entry: MarkdownOutline.Entry) -> OutlineDocument.Node {
        .init(
          text: entry.text, done: entry.done, note: entry.note,
          children: entry.children.isEmpty ? nil : entry.children.map(node))
      }
      let document = OutlineDocument(
        schemaVersion: 1, name: tree.collection.name, kind: tree.collection.kind,
        items: outline.entries.map(node))
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
      do {
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
      } catch {
        throw WorkspaceError(.ioFailure, "cannot encode \"\(tree.collection.name)\": \(error)")
      }
    }
  }

  /// Creates a collection from a Markdown outline or an exported JSON document.
  ///
  /// The same as ``importOutline(named:from:source:kind:)``, for callers that do not show
  /// what the reader skipped.
  ///
  /// - Complexity: O(*b* + *n* log *n*), where *b* is the size of `text` and *n* the number
  ///   of items.
  @discardableResult
  public func importCollection(
    named name: String, from text: String, source: String, kind: CollectionKind? = nil
  ) throws(WorkspaceError) -> ItemCollection {
    try importOutline(named: name, from: text, source: source, kind: kind).collection
  }

  /// Creates a collection from a Markdown outline or an exported JSON document, and says what
  /// of the Markdown it skipped.
  ///
  /// The format is told by the content: a document starting with `{` is JSON. The kind is
  /// `kind` when given, else the JSON document's, else a plan when the outline nests (headings
  /// with items under them nest) and a list when it does not. In a plan a heading becomes a
  /// parent item; in a list headings are left out and reported.
  ///
  /// - Parameters:
  ///   - name: The new collection's name.
  ///   - text: The file's content.
  ///   - source: The file's name, for error messages and warnings.
  ///   - kind: The kind to create, or `nil` to tell from the content.
  /// - Returns: The new collection, and one line per skipped part of the Markdown
  ///   (`file: line N: …`): text outside any item, code blocks, rules, empty items, and
  ///   headings of a list. Paragraphs and quotes under an item are its ``Item/note``.
  /// - Throws: ``WorkspaceError/Code/badInput`` naming the file and line,
  ///   ``WorkspaceError/Code/alreadyExists``, or ``WorkspaceError/Code/refused`` when a nested
  ///   outline is imported as a list or nests deeper than a plan allows (naming the line).
  /// - Complexity: O(*b* + *n* log *n*), where *b* is the size of `text` and *n* the number
  ///   of items.
  public func importOutline(
    named name: String, from text: String, source: String, kind: CollectionKind? = nil
  ) throws(WorkspaceError) -> OutlineImport {
    let name = try Self.validName(name)
    var outline: MarkdownOutline
    var documentKind: CollectionKind?
    let body = text.utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? text.utf8.dropFirst(3) : text.utf8[...]
    if body.drop(while: { $0 == 0x20 || (0x09...0x0D).contains($0) }).first == UInt8(ascii: "{") {
      do {
        let document = try JSONDecoder().decode(OutlineDocument.self, from: Data(body))
        func entry(_ node: OutlineDocument.Node) -> MarkdownOutline.Entry {
          .init(
            text: node.text, done: node.done, note: node.note,
            children: (node.children ?? []).map(entry))
        }
        outline = MarkdownOutline(entries: document.items.map(entry))
        documentKind = document.kind
      } catch {
        throw WorkspaceError(
          .badInput, "\(source): not an exported collection: \(Self.describe(error))")
      }
    } else {
      do {
        outline = try MarkdownOutline(parsing: text)
        if (kind ?? (outline.isNested ? .plan : .list)) == .list {
          outline = try MarkdownOutline(parsing: text, headings: .reported)
        }
      } catch {
        throw WorkspaceError(.badInput, "\(source): \(error)")
      }
    }
    let kind = kind ?? documentKind ?? (outline.isNested ? .plan : .list)
    if kind == .list && outline.isNested {
      throw WorkspaceError(
        .refused, "\(source) nests items, and lists are flat; import it as a plan (--kind plan)")
    }
    let lines = outline.sourceLines
    let collection = try change { (transaction) throws(WorkspaceError) in
      try Self.ensureNameIsFree(name, in: transaction.index)
      var collection = ItemCollection(
        id: try transaction.nextID(), name: name, kind: kind, created: now())
      let created = now()
      var preorder = 0
      func add(_ entries: [MarkdownOutline.Entry], parent: ShortID?, depth: Int)
        throws(WorkspaceError)
      {
        guard !entries.isEmpty else { return }
        if depth > maximumPlanDepth {
          let place = preorder < lines.count ? "line \(lines[preorder]): " : ""
          throw WorkspaceError(
            .refused,
            "\(source): \(place)nests deeper than the \(maximumPlanDepth + 1) levels a plan allows"
          )
        }
        let keys: [OrderKey]
        do {
          keys = try OrderKey.spread(entries.count, between: nil, and: nil)
        } catch {
          throw WorkspaceError(.ioFailure, "\(error)")
        }
        for (entry, key) in zip(entries, keys) {
          let text: String
          do {
            text = try Self.importedText(entry.text)
          } catch {
            let place = preorder < lines.count ? "line \(lines[preorder]): " : ""
            throw WorkspaceError(error.code, "\(source): \(place)\(error.description)")
          }
          if let note = entry.note, let bad = note.unicodeScalars.first(where: Self.isRefusedInNote)
          {
            let place = preorder < lines.count ? "line \(lines[preorder]): " : ""
            throw WorkspaceError(
              .badInput,
              "\(source): \(place)the note of \"\(text)\" holds the control character U+\(String(bad.value, radix: 16, uppercase: true))"
            )
          }
          preorder += 1
          let id = try transaction.nextID()
          collection.items.append(
            Item(
              id: id, text: text, created: created, done: entry.done, parent: parent, order: key,
              note: entry.note))
          try add(entry.children, parent: id, depth: depth + 1)
        }
      }
      try add(outline.entries, parent: nil, depth: 0)
      try transaction.update(collection)
      return (collection, "import \"\(name)\" from \(source)")
    }
    return OutlineImport(
      collection: collection, warnings: outline.warnings.map { "\(source): \($0)" })
  }

  /// What ``validText(_:)`` returns for `text`, without its cost when `text` plainly passes.
  ///
  /// `validText` trims with Foundation, which copies the text through UTF-16: most of a 10 MB
  /// item's import. Text that plainly starts and ends with no character it would trim and no
  /// line break is returned as it is, which is exactly what `validText` would return; any
  /// other text goes through `validText`. "Plainly" means a printable ASCII character at each
  /// end (Foundation's whitespace set holds more than the space separators, U+200B too) and no
  /// control character or line or paragraph separator anywhere, so a rule `validText` has or
  /// gains about those still applies. A test compares both over edge cases.
  ///
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  static func importedText(_ text: String) throws(WorkspaceError) -> String {
    func trimmed(_ scalar: Unicode.Scalar) -> Bool { !(0x21...0x7E).contains(scalar.value) }
    let scalars = text.unicodeScalars
    guard let first = scalars.first, let last = scalars.last, !trimmed(first), !trimmed(last),
      !scalars.contains(where: {
        $0.value < 0x20 || isRefusedInNote($0) || $0.value == 0x2028 || $0.value == 0x2029
      })
    else { return try validText(text) }
    return text
  }

  /// Whether a note may not hold the scalar: a control character other than the line break,
  /// or a bidirectional override.
  static func isRefusedInNote(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A: false
    case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// The outline a collection's tree reads as.
  static func outline(of tree: CollectionTree) -> MarkdownOutline {
    func entries(_ ids: [ShortID]) -> [MarkdownOutline.Entry] {
      ids.compactMap { id in
        guard let item = tree.items[id] else { return nil }
        return .init(
          text: item.text, done: item.done, note: item.note,
          children: entries(tree.forest.children(of: id)))
      }
    }
    return MarkdownOutline(entries: entries(tree.forest.roots))
  }

  /// A decoding error in one sentence: what was wrong and at which path.
  static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
        .joined()
      return keys.isEmpty ? "" : " at \(keys)"
    }
    switch error {
    case .dataCorrupted(let context):
      return "\(context.debugDescription)\(path(context))"
    case .keyNotFound(let key, let context):
      return "missing \"\(key.stringValue)\"\(path(context))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "\(context.debugDescription)\(path(context))"
    @unknown default:
      return "\(error)"
    }
  }
}
