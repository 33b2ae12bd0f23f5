import OrderingCore
import Selection

/// Which items a bulk command acts on, as typed on the command line: ids or id prefixes,
/// outline numbers (`1.2`), ranges of outline numbers (`3-7`), everything (`--all`), and
/// exceptions (`--except`).
///
/// A word made of digits and dots is an outline number; two of them joined by `-` are a
/// range; `id:` in front forces a word to be read as an id prefix (for an id made of digits
/// only); any other word is an id prefix. A range `a-b` selects every row from row `a` to row
/// `b` in displayed preorder (the order of `collection show`), both included, whatever their
/// depths: `2-3` in `1, 2, 2.1, 2.2, 3` selects `2, 2.1, 2.2, 3`.
///
/// ```swift
/// let selection = try ItemSelection.parse(["1.2", "3-5", "id:7"], except: ["4"])
/// let items = try selection.resolve(in: tree)  // rows 1.2, 3, 5 and the item 7…, not 4
/// ```
///
/// Resolution builds a `SelectionState` over the collection's rows: `--all` is its "all
/// except" select-all, each number, range or id selects rows, each exception deselects a row
/// with everything nested under it.
///
/// One rule holds for every bulk command: a selected row takes its subtree along, and an
/// excepted row leaves its subtree out. `--all --except 2` is every row but row 2 and what is
/// nested under it; a move or removal of a row whose descendant is excepted is refused (the
/// row would carry it along), while done and undone mark the selected rows' subtrees except
/// the excepted rows' subtrees (``Resolved/covered``).
public struct ItemSelection: Hashable, Sendable {
  /// One word of a selection.
  public enum Term: Hashable, Sendable, CustomStringConvertible {
    /// An id or a unique prefix of one.
    case id(String)
    /// An outline number, as its components (`1.2` is `[1, 2]`).
    case number([Int])
    /// The rows from one outline number to another in displayed preorder, both included.
    case range([Int], [Int])

    /// The term as typed.
    public var description: String {
      func text(_ number: [Int]) -> String { number.map(String.init).joined(separator: ".") }
      switch self {
      case .id(let prefix): return prefix
      case .number(let number): return text(number)
      case .range(let from, let to): return text(from) + "-" + text(to)
      }
    }

    /// Whether reading the term needs a collection's outline (a number or a range).
    public var isPositional: Bool {
      if case .id = self { return false }
      return true
    }
  }

  /// The rows selected one by one or by range.
  public var terms: [Term]
  /// Whether every row of the collection is selected.
  public var includesAll: Bool
  /// Rows left out of the selection.
  public var exceptions: [Term]

  /// Creates a selection from parsed terms.
  public init(terms: [Term], includesAll: Bool = false, exceptions: [Term] = []) {
    self.terms = terms
    self.includesAll = includesAll
    self.exceptions = exceptions
  }

  /// Parses command-line words.
  ///
  /// - Parameters:
  ///   - words: Ids, id prefixes, outline numbers and ranges.
  ///   - all: Whether `--all` was given.
  ///   - except: The words after `--except`.
  /// - Returns: The selection.
  /// - Throws: ``WorkspaceError/Code/badInput`` for a word that is none of these, and
  ///   ``WorkspaceError/Code/invalidRequest`` when nothing is selected at all.
  /// - Complexity: O(*w*), where *w* is the total length of the words.
  public static func parse(_ words: [String], all: Bool = false, except: [String] = [])
    throws(WorkspaceError) -> ItemSelection
  {
    if words.isEmpty && !all {
      throw WorkspaceError(
        .invalidRequest,
        except.isEmpty
          ? "name the items: ids, outline numbers (1.2), ranges (3-7) or --all"
          : "--except leaves rows out of a selection; name the rows or pass --all")
    }
    var terms: [Term] = []
    for word in words { terms.append(try term(word)) }
    var exceptions: [Term] = []
    for word in except { exceptions.append(try term(word)) }
    return ItemSelection(terms: terms, includesAll: all, exceptions: exceptions)
  }

  /// Parses one word.
  ///
  /// - Throws: ``WorkspaceError/Code/badInput`` naming the word.
  /// - Complexity: O(*w*), where *w* is the length of the word.
  public static func term(_ word: String) throws(WorkspaceError) -> Term {
    if word.hasPrefix("id:") {
      let prefix = String(word.dropFirst(3))
      guard ShortID(prefix.lowercased()) != nil else {
        throw WorkspaceError(.badInput, "\"\(word)\" is not an item id after \"id:\"")
      }
      return .id(prefix)
    }
    if let dash = word.firstIndex(of: "-") {
      let from = word[..<dash]
      let to = word[word.index(after: dash)...]
      guard let start = number(from), let end = number(to) else {
        throw WorkspaceError(
          .badInput,
          "\"\(word)\" is not a range of outline numbers; write two numbers like 3-7 or 1.2-1.5")
      }
      return .range(start, end)
    }
    if word.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
      guard let parsed = number(Substring(word)) else {
        throw WorkspaceError(
          .badInput,
          "\"\(word)\" is not an outline number; numbers count from 1 and look like 3 or 1.2")
      }
      return .number(parsed)
    }
    guard ShortID(word.lowercased()) != nil else {
      throw WorkspaceError(
        .badInput,
        "\"\(word)\" is neither an item id, an outline number (1.2) nor a range (3-7)")
    }
    return .id(word)
  }

  /// The components of an outline number, or `nil`.
  static func number(_ text: Substring) -> [Int]? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    var result: [Int] = []
    for part in parts {
      guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }),
        let value = Int(part), value >= 1
      else { return nil }
      result.append(value)
    }
    return result.isEmpty ? nil : result
  }

  /// Whether resolving the selection needs a collection named (numbers, ranges, `--all`).
  ///
  /// - Complexity: O(*t*), where *t* is the number of terms and exceptions.
  public var needsCollection: Bool {
    includesAll || terms.contains(where: \.isPositional)
      || exceptions.contains(where: \.isPositional)
  }

  /// The rows a selection resolved to in one collection.
  public struct Resolved: Hashable, Sendable {
    /// Every selected row, in displayed preorder.
    public var ids: [ShortID]
    /// The selected rows with no selected ancestor, in displayed preorder: what a move or a
    /// removal acts on ("selected ancestor wins").
    public var topmost: [ShortID]
    /// Excepted rows that a selected ancestor would carry along in a move or removal.
    public var carriedExceptions: [CarriedException]
    /// Every row the selection covers, in displayed preorder: the selected rows with their
    /// subtrees, less the excepted rows with theirs. What done and undone mark.
    public var covered: [ShortID]
  }

  /// An excepted row under a selected ancestor: moving or removing the ancestor takes it too.
  public struct CarriedException: Hashable, Sendable {
    /// The excepted row.
    public var excepted: ShortID
    /// Its nearest selected ancestor.
    public var ancestor: ShortID
  }

  /// Resolves the selection against a collection's rows.
  ///
  /// - Parameters:
  ///   - tree: The collection, arranged.
  ///   - locate: Where an id prefix that is not in this collection lives, for the error
  ///     message (the collection's name), or `nil`.
  /// - Returns: The selected rows in displayed preorder, and the topmost of them.
  /// - Throws: ``WorkspaceError/Code/notFound`` for an outline number or an id not in the
  ///   collection, ``WorkspaceError/Code/ambiguous`` for an id prefix matching several
  ///   items, ``WorkspaceError/Code/invalidRequest`` for a range whose ends are reversed or a
  ///   selection that comes out empty.
  /// - Complexity: O(*n* + *t* · *n*) in the worst case, where *n* is the number of rows and
  ///   *t* the number of terms (each id prefix and range scans the rows).
  public func resolve(
    in tree: CollectionTree, locate: (String) -> String? = { _ in nil }
  ) throws(WorkspaceError) -> Resolved {
    // One id and nothing else (every single-item command): no outline numbers are needed.
    if !includesAll, exceptions.isEmpty, terms.count == 1, case .id(let prefix) = terms[0] {
      let found = try Self.id(
        prefix, among: tree.collection.items.map(\.id), name: tree.collection.name,
        locate: locate)
      return Resolved(
        ids: [found], topmost: [found], carriedExceptions: [],
        covered: tree.forest.subtree(of: found))
    }
    let rows = tree.rows()
    let order = rows.map(\.item.id)
    var positions: [String: Int] = [:]
    for (position, row) in rows.enumerated() { positions[row.number] = position }
    let name = tree.collection.name
    let snapshot: RowSnapshot<ShortID>
    do {
      snapshot = try RowSnapshot(visible: order)
    } catch {
      throw WorkspaceError(.damagedStore, "\"\(name)\" lists an item twice: \(error)")
    }

    func position(_ number: [Int]) throws(WorkspaceError) -> Int {
      let text = Term.number(number).description
      guard let position = positions[text] else {
        let tops = rows.filter { $0.depth == 0 }.count
        throw WorkspaceError(
          .notFound,
          rows.isEmpty
            ? "\"\(name)\" has no rows, so it has no row \(text)"
            : "\"\(name)\" has no row \(text) (its top-level rows are numbered 1 to \(tops))")
      }
      return position
    }
    func id(_ prefix: String) throws(WorkspaceError) -> ShortID {
      try Self.id(prefix, among: order, name: name, locate: locate)
    }
    func span(_ term: Term) throws(WorkspaceError) -> ClosedRange<Int> {
      switch term {
      case .id(let prefix):
        let found = try id(prefix)
        let index = order.firstIndex(of: found) ?? 0
        return index...index
      case .number(let number):
        let index = try position(number)
        return index...index
      case .range(let from, let to):
        let start = try position(from)
        let end = try position(to)
        guard start <= end else {
          throw WorkspaceError(
            .invalidRequest,
            "the range \(term) runs backwards: row \(Term.number(from)) comes after row \(Term.number(to)); write \(Term.number(to))-\(Term.number(from))"
          )
        }
        return start...end
      }
    }

    var state = SelectionState<ShortID>(mode: .multiple)
    state.beginEditing()
    if includesAll { state.selectAll(in: snapshot) }
    for term in terms {
      let range = try span(term)
      state.select(order[range.lowerBound])
      if range.count > 1 {
        do {
          try state.extend(to: order[range.upperBound], in: snapshot)
        } catch {
          throw WorkspaceError(.damagedStore, "\(error)")
        }
      }
    }
    let forest = tree.forest
    var excepted: [ShortID] = []
    var leftOut: Set<ShortID> = []
    for term in exceptions {
      for index in try span(term) where leftOut.insert(order[index]).inserted {
        excepted.append(order[index])
        for id in forest.subtree(of: order[index]) {
          state.deselect(id)
          leftOut.insert(id)
        }
      }
    }
    let selected = state.selectedIDs(in: snapshot)
    guard !selected.isEmpty else {
      throw WorkspaceError(
        .invalidRequest, "the selection is empty: every row named is also excepted")
    }
    let topmost: [ShortID]
    do {
      topmost = try SelectionState<ShortID>.topmost(of: selected) { forest.parent(of: $0) }
    } catch {
      throw WorkspaceError(.damagedStore, "\(error)")
    }
    var carried: [CarriedException] = []
    for id in excepted where !state.isSelected(id) {
      if let ancestor = forest.ancestors(of: id).first(where: { state.isSelected($0) }) {
        carried.append(CarriedException(excepted: id, ancestor: ancestor))
      }
    }
    var within: Set<ShortID> = []
    for top in topmost { within.formUnion(forest.subtree(of: top)) }
    let covered = order.filter { within.contains($0) && !leftOut.contains($0) }
    return Resolved(
      ids: selected, topmost: topmost, carriedExceptions: carried, covered: covered)
  }

  /// The item an id prefix names among a collection's items.
  ///
  /// - Complexity: O(*n* · *m*), where *n* is the number of items and *m* the prefix length.
  static func id(
    _ prefix: String, among items: [ShortID], name: String, locate: (String) -> String?
  ) throws(WorkspaceError) -> ShortID {
    switch ShortID.match(prefix, in: items) {
    case .unique(let id): return id
    case .ambiguous(let ids):
      throw WorkspaceError(
        .ambiguous,
        "\"\(prefix)\" matches several items of \"\(name)\" (\(ids.map(\.rawValue).joined(separator: ", "))); type more of the id"
      )
    case .none:
      if let elsewhere = locate(prefix) {
        throw WorkspaceError(
          .invalidRequest,
          "item \(prefix) is in \"\(elsewhere)\", not in \"\(name)\"; a selection stays in one collection"
        )
      }
      throw WorkspaceError(
        .notFound, "no item of \"\(name)\" has an id starting with \"\(prefix)\"")
    }
  }
}
