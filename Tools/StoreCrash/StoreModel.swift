// What the store holds, read through offloadctl's `--json` output, and what each command the
// trials run should make of it.

import Foundation
import OffloadTestSupport

/// One row of `collection show --json`.
struct Row: Decodable, Equatable {
  var id: String
  var text: String
  var done: Bool
  var parent: String?
  var depth: Int?
}

/// A collection as the store shows it.
struct ShownCollection: Equatable {
  var name: String
  var kind: String
  /// Its rows in displayed preorder.
  var rows: [Row]

  /// The row of `id` and every row nested under it, in displayed order.
  func subtree(of id: String) -> [Row] {
    guard let start = rows.firstIndex(where: { $0.id == id }) else { return [] }
    let depth = rows[start].depth ?? 0
    var end = start + 1
    while end < rows.count, (rows[end].depth ?? 0) > depth { end += 1 }
    return Array(rows[start..<end])
  }

  /// The top-level rows.
  var roots: [Row] { rows.filter { ($0.depth ?? 0) == 0 } }
}

/// The store's logical content: each collection's kind and its items as `text|done`, sorted.
/// Texts are unique in the trials, so this names every item; order and nesting are left out
/// (a move within a collection leaves it as it was; the history tells whether it committed).
struct Logical: Equatable, CustomStringConvertible {
  struct Content: Equatable {
    var kind: String
    var items: [String]
  }
  var collections: [String: Content]

  static func key(_ text: String, _ done: Bool) -> String { text + (done ? "|done" : "|open") }

  /// Adds items to a collection.
  mutating func add(_ keys: [String], to name: String) {
    let items = ((collections[name]?.items ?? []) + keys).sorted()
    collections[name]?.items = items
  }

  /// Removes items from a collection.
  mutating func remove(_ keys: [String], from name: String) {
    var left = collections[name]?.items ?? []
    for key in keys {
      if let position = left.firstIndex(of: key) { left.remove(at: position) }
    }
    collections[name]?.items = left
  }

  /// The items of every collection, for counting.
  var itemCount: Int { collections.values.reduce(0) { $0 + $1.items.count } }

  /// How `other` differs from this state, in a few words.
  func difference(to other: Logical) -> String {
    var parts: [String] = []
    for name in Set(collections.keys).union(other.collections.keys).sorted() {
      let mine = collections[name]
      let theirs = other.collections[name]
      if mine == nil { parts.append("+collection \(name)") }
      if theirs == nil { parts.append("-collection \(name)") }
      guard let mine, let theirs else { continue }
      if mine.kind != theirs.kind { parts.append("\(name) \(mine.kind)->\(theirs.kind)") }
      let gone = mine.items.filter { !theirs.items.contains($0) }
      let new = theirs.items.filter { !mine.items.contains($0) }
      if !gone.isEmpty { parts.append("\(name) lost \(gone)") }
      if !new.isEmpty { parts.append("\(name) gained \(new)") }
      if gone.isEmpty && new.isEmpty && mine.items != theirs.items {
        parts.append("\(name) holds an item a different number of times")
      }
    }
    return parts.joined(separator: "; ")
  }

  var description: String {
    collections.keys.sorted().map { "\($0)(\(collections[$0]?.items.count ?? 0))" }.joined(
      separator: " ")
  }
}

/// Everything the driver reads of a store: its collections and its undo history.
struct Snapshot {
  /// Collections by name.
  var collections: [String: ShownCollection]
  /// The history's entry numbers, newest first.
  var history: [UInt64]

  var logical: Logical {
    Logical(
      collections: collections.mapValues { collection in
        Logical.Content(
          kind: collection.kind,
          items: collection.rows.map { Logical.key($0.text, $0.done) }.sorted())
      })
  }

  /// Every row of every collection.
  var allRows: [(collection: String, row: Row)] {
    collections.keys.sorted().flatMap { name in
      (collections[name]?.rows ?? []).map { (name, $0) }
    }
  }

  /// Reads the store through offloadctl; nil with the failing command when a read fails.
  static func read(_ runner: Runner, tag: String = "read") -> (Snapshot?, String?) {
    struct Entry: Decodable {
      var name: String
      var kind: String
    }
    struct Listing: Decodable { var collections: [Entry] }
    struct Shown: Decodable { var items: [Row] }
    struct History: Decodable {
      struct Change: Decodable { var sequence: UInt64 }
      var changes: [Change]
    }
    var failure: String?
    func load<T: Decodable>(_ type: T.Type, _ arguments: [String]) -> T? {
      let command = "`offloadctl \(arguments.joined(separator: " "))`"
      let result = runner.run(arguments + ["--json"], tag: tag)
      guard result.acknowledged else {
        failure = "\(command): \(result.summary)"
        return nil
      }
      do {
        return try JSONDecoder().decode(T.self, from: Data(result.stdout.utf8))
      } catch {
        failure = "\(command): bad JSON: \(error)"
        return nil
      }
    }
    var snapshot = Snapshot(collections: [:], history: [])
    guard let listing = load(Listing.self, ["collection", "list"]) else { return (nil, failure) }
    for entry in listing.collections {
      guard let shown = load(Shown.self, ["collection", "show", entry.name]) else {
        return (nil, failure)
      }
      snapshot.collections[entry.name] = ShownCollection(
        name: entry.name, kind: entry.kind, rows: shown.items)
    }
    guard let history = load(History.self, ["history", "--limit", "100000"]) else {
      return (nil, failure)
    }
    snapshot.history = history.changes.map { $0.sequence }
    return (snapshot, nil)
  }
}

/// One command a trial runs, with what the store should hold once it has committed.
struct Step {
  enum Kind {
    /// A change recorded in the history (it commits when a new history entry appears).
    case recorded
    /// `undo` (it commits when the newest history entry goes).
    case undo
    /// `store repair` on a healthy store: it changes nothing.
    case repair
  }
  var arguments: [String]
  var kind: Kind
  /// The logical state once the command has committed.
  var after: Logical

  var description: String { "offloadctl " + arguments.joined(separator: " ") }
}

/// Picks random commands over a store's state, each with the state it should leave.
struct Workload {
  /// A folder for the Markdown files `collection import` reads.
  let scratch: String
  /// The state before each recorded history entry, by entry number (what undo puts back).
  var beforeEntry: [UInt64: Logical] = [:]
  /// A counter that keeps item texts and collection names unique.
  var serial = 0
  /// A collection the commands leave alone (the other devices' collection of a shared store).
  var reserved: String?

  /// A fresh unique word: `w<serial>`.
  mutating func fresh(_ prefix: String) -> String {
    serial += 1
    return "\(prefix)\(serial)"
  }

  /// One random command over `state`.
  mutating func step(_ state: Snapshot, rng: inout SplitMix64) -> Step {
    var state = state
    if let reserved { state.collections[reserved] = nil }
    var after = state.logical
    let names = state.collections.keys.sorted()
    let others = names.filter { $0 != "Inbox" }
    let rows = state.allRows
    let sources = names.filter { (state.collections[$0]?.roots.count ?? 0) >= 2 }
    let choice = rng.below(100)
    switch choice {
    case 0..<14:
      let text = fresh("captured ")
      after.add([Logical.key(text, false)], to: "Inbox")
      return Step(arguments: ["capture", text], kind: .recorded, after: after)
    case 14..<28:
      let name = rng.pick(names)
      let text = fresh("added ")
      var arguments = ["item", "add", name, text]
      if let collection = state.collections[name], collection.kind == "plan",
        !collection.rows.isEmpty, rng.below(2) == 0
      {
        arguments += ["--parent", rng.pick(collection.rows).id]
      }
      after.add([Logical.key(text, false)], to: name)
      return Step(arguments: arguments, kind: .recorded, after: after)
    case 28..<34 where !rows.isEmpty:
      let (name, row) = rng.pick(rows)
      let text = fresh("edited ")
      after.remove([Logical.key(row.text, row.done)], from: name)
      after.add([Logical.key(text, row.done)], to: name)
      return Step(arguments: ["item", "edit", row.id, text], kind: .recorded, after: after)
    case 34..<40 where !rows.isEmpty:
      let (name, row) = rng.pick(rows)
      // Done marks everything nested under the item done with it.
      let marked = state.collections[name]?.subtree(of: row.id) ?? [row]
      after.remove(marked.map { Logical.key($0.text, $0.done) }, from: name)
      after.add(marked.map { Logical.key($0.text, true) }, to: name)
      return Step(arguments: ["item", "done", row.id], kind: .recorded, after: after)
    case 40..<46 where !rows.isEmpty:
      let (_, row) = rng.pick(rows)
      let place = rng.below(2) == 0 ? "--first" : "--last"
      return Step(arguments: ["item", "move", row.id, place], kind: .recorded, after: after)
    case 46..<58 where !rows.isEmpty && names.count > 1:
      let (name, row) = rng.pick(rows)
      let target = rng.pick(names.filter { $0 != name })
      let moved = state.collections[name]?.subtree(of: row.id) ?? []
      let keys = moved.map { Logical.key($0.text, $0.done) }
      after.remove(keys, from: name)
      after.add(keys, to: target)
      return Step(
        arguments: ["item", "move", row.id, "--to", target], kind: .recorded, after: after)
    case 58..<64 where !sources.isEmpty && names.count > 1:
      let name = rng.pick(sources)
      let target = rng.pick(names.filter { $0 != name })
      let collection = state.collections[name]
      let roots = collection?.roots ?? []
      let moved = roots.prefix(2).flatMap { collection?.subtree(of: $0.id) ?? [] }
      let keys = moved.map { Logical.key($0.text, $0.done) }
      after.remove(keys, from: name)
      after.add(keys, to: target)
      return Step(
        arguments: ["item", "move", "1-2", "--in", name, "--to", target], kind: .recorded,
        after: after)
    case 64..<68:
      let name = rng.pick(names)
      after.collections[name]?.items = []
      return Step(
        arguments: ["item", "remove", "--all", "--in", name], kind: .recorded, after: after)
    case 68..<76 where others.count < 5:
      let name = fresh("Import")
      let texts = (0..<3).map { _ in fresh("imported ") }
      let nested = rng.below(2) == 0
      let markdown =
        "- \(texts[0])\n" + (nested ? "  - " : "- ") + "[x] \(texts[1])\n- \(texts[2])\n"
      let file = scratch + "/\(name).md"
      _ = FileManager.default.createFile(atPath: file, contents: Data(markdown.utf8))
      after.collections[name] = Logical.Content(
        kind: nested ? "plan" : "list",
        items: [
          Logical.key(texts[0], false), Logical.key(texts[1], true), Logical.key(texts[2], false),
        ].sorted())
      return Step(arguments: ["collection", "import", name, file], kind: .recorded, after: after)
    case 76..<81 where !others.isEmpty:
      let name = rng.pick(others)
      let kind = state.collections[name]?.kind == "plan" ? "list" : "plan"
      after.collections[name]?.kind = kind
      return Step(
        arguments: ["collection", "convert", name, "--to", kind], kind: .recorded, after: after)
    case 81..<86 where others.count > 2:
      let name = rng.pick(others)
      after.collections[name] = nil
      return Step(
        arguments: ["collection", "delete", name, "--force"], kind: .recorded, after: after)
    case 86..<96:
      if let newest = state.history.first, let before = beforeEntry[newest] {
        after = before
      }
      return Step(arguments: ["undo"], kind: .undo, after: after)
    case 96..<100:
      return Step(arguments: ["store", "repair"], kind: .repair, after: after)
    default:
      let text = fresh("captured ")
      after.add([Logical.key(text, false)], to: "Inbox")
      return Step(arguments: ["capture", text], kind: .recorded, after: after)
    }
  }

  /// Whether `step` committed, judged by the history before and after it.
  static func committed(_ step: Step, before: Snapshot, after: Snapshot) -> Bool {
    switch step.kind {
    case .recorded:
      return after.history.first.map { newest in !before.history.contains(newest) } ?? false
    case .undo:
      return before.history.first.map { newest in !after.history.contains(newest) } ?? false
    case .repair:
      return false
    }
  }

  /// Notes a committed recorded change: undoing its entry should bring back `before`.
  mutating func record(_ after: Snapshot, before: Logical) {
    if let newest = after.history.first { beforeEntry[newest] = before }
    let live = Set(after.history)
    beforeEntry = beforeEntry.filter { live.contains($0.key) }
  }
}
