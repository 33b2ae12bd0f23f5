public import OrderingCore
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
/// let selection = try ItemSelection.parse(
///   ["1.2", "3-5", "id:7"], except: ["4"], isID: { !$0.isEmpty })
/// let rows = try selection.resolve(in: forest, named: "Trip")  // 1.2, 3, 5 and 7…, not 4
/// ```
///
/// It lives in `Editing` (pure: an app resolves its own rows with it); `Offload` adds the
/// forms that take a workspace's `CollectionTree` and throw its `WorkspaceError`.
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
  ///   - isID: Whether a word (lowercased) could be an id prefix.
  /// - Returns: The selection.
  /// - Throws: ``EditRefusal`` with code `bad-input` for a word that is none of these, and
  ///   `invalid` when nothing is selected at all.
  /// - Complexity: O(*w*), where *w* is the total length of the words.
  public static func parse(
    _ words: [String], all: Bool = false, except: [String] = [], isID: (String) -> Bool
  ) throws(EditRefusal) -> ItemSelection {
    if words.isEmpty && !all {
      throw EditRefusal(
        code: "invalid",
        reason:
          except.isEmpty
          ? "name the items: ids, outline numbers (1.2), ranges (3-7) or --all"
          : "--except leaves rows out of a selection; name the rows or pass --all")
    }
    var terms: [Term] = []
    for word in words { terms.append(try term(word, isID: isID)) }
    var exceptions: [Term] = []
    for word in except { exceptions.append(try term(word, isID: isID)) }
    return ItemSelection(terms: terms, includesAll: all, exceptions: exceptions)
  }

  /// Parses one word.
  ///
  /// - Parameters:
  ///   - word: The word.
  ///   - isID: Whether a word (lowercased) could be an id prefix.
  /// - Returns: The term.
  /// - Throws: ``EditRefusal`` with code `bad-input` naming the word.
  /// - Complexity: O(*w*), where *w* is the length of the word.
  public static func term(_ word: String, isID: (String) -> Bool) throws(EditRefusal) -> Term {
    if word.hasPrefix("id:") {
      let prefix = String(word.dropFirst(3))
      guard isID(prefix.lowercased()) else {
        throw EditRefusal(code: "bad-input", reason: "\"\(word)\" is not an item id after \"id:\"")
      }
      return .id(prefix)
    }
    if let dash = word.firstIndex(of: "-") {
      let from = word[..<dash]
      let to = word[word.index(after: dash)...]
      guard let start = number(from), let end = number(to) else {
        throw EditRefusal(
          code: "bad-input",
          reason:
            "\"\(word)\" is not a range of outline numbers; write two numbers like 3-7 or 1.2-1.5")
      }
      return .range(start, end)
    }
    if word.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
      guard let parsed = number(Substring(word)) else {
        throw EditRefusal(
          code: "bad-input",
          reason:
            "\"\(word)\" is not an outline number; numbers count from 1 and look like 3 or 1.2")
      }
      return .number(parsed)
    }
    guard isID(word.lowercased()) else {
      throw EditRefusal(
        code: "bad-input",
        reason:
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
  public struct Resolved<ID: Hashable & Sendable>: Hashable, Sendable {
    /// Every selected row, in displayed preorder.
    public var ids: [ID]
    /// The selected rows with no selected ancestor, in displayed preorder: what a move or a
    /// removal acts on ("selected ancestor wins").
    public var topmost: [ID]
    /// Excepted rows that a selected ancestor would carry along in a move or removal.
    public var carriedExceptions: [CarriedException<ID>]
    /// Every row the selection covers, in displayed preorder: the selected rows with their
    /// subtrees, less the excepted rows with theirs. What done and undone mark.
    public var covered: [ID]
  }

  /// An excepted row under a selected ancestor: moving or removing the ancestor takes it too.
  public struct CarriedException<ID: Hashable & Sendable>: Hashable, Sendable {
    /// The excepted row.
    public var excepted: ID
    /// Its nearest selected ancestor.
    public var ancestor: ID
  }

  /// Resolves the selection against a collection's arrangement.
  ///
  /// - Parameters:
  ///   - forest: The collection's arrangement; its preorder is the displayed order, and its
  ///     outline numbers (`1`, `1.2`) are the rows' numbers.
  ///   - name: The collection's name, for the refusals.
  ///   - candidates: The ids a lone id prefix is matched against, when the caller holds them
  ///     (in any order); the forest's rows otherwise.
  ///   - locate: Where an id prefix that is not in this collection lives, for the refusal
  ///     (the collection's name), or `nil`.
  /// - Returns: The selected rows in displayed preorder, and the topmost of them.
  /// - Throws: ``EditRefusal`` with code `not-found` for an outline number or an id not in
  ///   the collection, `ambiguous` for an id prefix matching several items, `invalid` for a
  ///   range whose ends are reversed, a selection that comes out empty or an id of another
  ///   collection, `damaged` for a forest that lists a row twice.
  /// - Complexity: O(*n* + *t* · *n*) in the worst case, where *n* is the number of rows and
  ///   *t* the number of terms (each id prefix and range scans the rows).
  public func resolve<ID: Hashable & Comparable & Sendable & CustomStringConvertible>(
    in forest: OrderedForest<ID>, named name: String, candidates: [ID]? = nil,
    locate: (String) -> String? = { _ in nil }
  ) throws(EditRefusal) -> Resolved<ID> {
    // One id and nothing else (every single-item command): no outline numbers are needed.
    if !includesAll, exceptions.isEmpty, terms.count == 1, case .id(let prefix) = terms[0] {
      let found = try Self.id(
        prefix, among: candidates ?? forest.flattened().map(\.id), name: name, locate: locate)
      return Resolved(
        ids: [found], topmost: [found], carriedExceptions: [],
        covered: forest.subtree(of: found))
    }
    let rows = forest.flattened()
    let order = rows.map(\.id)
    var positions: [String: Int] = [:]
    var counters: [Int] = []
    for (position, row) in rows.enumerated() {
      if counters.count > row.depth + 1 { counters.removeLast(counters.count - row.depth - 1) }
      if counters.count == row.depth { counters.append(0) }
      counters[row.depth] += 1
      positions[counters.map(String.init).joined(separator: ".")] = position
    }
    let snapshot: RowSnapshot<ID>
    do {
      snapshot = try RowSnapshot(visible: order)
    } catch {
      throw EditRefusal(code: "damaged", reason: "\"\(name)\" lists an item twice: \(error)")
    }

    func position(_ number: [Int]) throws(EditRefusal) -> Int {
      let text = Term.number(number).description
      guard let position = positions[text] else {
        let tops = rows.filter { $0.depth == 0 }.count
        throw EditRefusal(
          code: "not-found",
          reason: rows.isEmpty
            ? "\"\(name)\" has no rows, so it has no row \(text)"
            : "\"\(name)\" has no row \(text) (its top-level rows are numbered 1 to \(tops))")
      }
      return position
    }
    func span(_ term: Term) throws(EditRefusal) -> ClosedRange<Int> {
      switch term {
      case .id(let prefix):
        let found = try Self.id(prefix, among: order, name: name, locate: locate)
        let index = order.firstIndex(of: found) ?? 0
        return index...index
      case .number(let number):
        let index = try position(number)
        return index...index
      case .range(let from, let to):
        let start = try position(from)
        let end = try position(to)
        guard start <= end else {
          throw EditRefusal(
            code: "invalid",
            reason:
              "the range \(term) runs backwards: row \(Term.number(from)) comes after row \(Term.number(to)); write \(Term.number(to))-\(Term.number(from))"
          )
        }
        return start...end
      }
    }

    var state = SelectionState<ID>(mode: .multiple)
    state.beginEditing()
    if includesAll { state.selectAll(in: snapshot) }
    for term in terms {
      let range = try span(term)
      state.select(order[range.lowerBound])
      if range.count > 1 {
        do {
          try state.extend(to: order[range.upperBound], in: snapshot)
        } catch {
          throw EditRefusal(code: "damaged", reason: "\(error)")
        }
      }
    }
    var excepted: [ID] = []
    var leftOut: Set<ID> = []
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
      throw EditRefusal(
        code: "invalid", reason: "the selection is empty: every row named is also excepted")
    }
    let topmost: [ID]
    do {
      topmost = try SelectionState<ID>.topmost(of: selected) { forest.parent(of: $0) }
    } catch {
      throw EditRefusal(code: "damaged", reason: "\(error)")
    }
    var carried: [CarriedException<ID>] = []
    for id in excepted where !state.isSelected(id) {
      if let ancestor = forest.ancestors(of: id).first(where: { state.isSelected($0) }) {
        carried.append(CarriedException(excepted: id, ancestor: ancestor))
      }
    }
    var within: Set<ID> = []
    for top in topmost { within.formUnion(forest.subtree(of: top)) }
    let covered = order.filter { within.contains($0) && !leftOut.contains($0) }
    return Resolved(
      ids: selected, topmost: topmost, carriedExceptions: carried, covered: covered)
  }

  /// The item an id prefix names among a collection's items: an exact id wins, else the one
  /// id the prefix (lowercased) starts.
  ///
  /// - Complexity: O(*n* · *m*), where *n* is the number of items and *m* the prefix length.
  static func id<ID: Comparable & CustomStringConvertible>(
    _ prefix: String, among items: [ID], name: String, locate: (String) -> String?
  ) throws(EditRefusal) -> ID {
    let lowered = prefix.lowercased()
    var found: [ID] = []
    for item in items where item.description.hasPrefix(lowered) {
      if item.description == lowered { return item }
      found.append(item)
    }
    if found.count == 1 { return found[0] }
    if found.count > 1 {
      let some = found.sorted().prefix(5).map(\.description).joined(separator: ", ")
      throw EditRefusal(
        code: "ambiguous",
        reason: "\"\(prefix)\" matches several items of \"\(name)\" (\(some)); type more of the id")
    }
    if let elsewhere = locate(prefix) {
      throw EditRefusal(
        code: "invalid",
        reason:
          "item \(prefix) is in \"\(elsewhere)\", not in \"\(name)\"; a selection stays in one collection"
      )
    }
    throw EditRefusal(
      code: "not-found", reason: "no item of \"\(name)\" has an id starting with \"\(prefix)\"")
  }
}
