import OffloadTestSupport
import Testing

@testable import OrderingCore

typealias Forest = OrderedForest<String>

/// Renders a forest compactly: siblings separated by spaces, children in parentheses.
func render<ID>(_ forest: OrderedForest<ID>) -> String {
  func list(_ ids: [ID]) -> String {
    ids.map { id in
      let children = forest.children(of: id)
      return children.isEmpty ? "\(id)" : "\(id)(\(list(children)))"
    }.joined(separator: " ")
  }
  return list(forest.roots)
}

/// Builds a forest from `(id, depth)` rows, failing the test on a bad outline.
func outline(_ text: String, constraints: Forest.Constraints = .init()) throws -> Forest {
  // "a b(c d) e" style is easier to read; parse it into outline rows.
  var rows: [(id: String, depth: Int)] = []
  var depth = 0
  var name = ""
  func flush() {
    if !name.isEmpty { rows.append((name, depth)) }
    name = ""
  }
  for character in text {
    switch character {
    case "(":
      flush()
      depth += 1
    case ")":
      flush()
      depth -= 1
    case " ":
      flush()
    default:
      name.append(character)
    }
  }
  flush()
  return try Forest(outline: rows, constraints: constraints)
}

/// Checks the forest's invariants through its public API only.
func publicInvariantProblem<ID>(_ forest: OrderedForest<ID>) -> String? {
  let rows = forest.flattened()
  guard rows.count == forest.count else {
    return "flatten lists \(rows.count) rows for \(forest.count) nodes"
  }
  guard Set(rows.map(\.id)).count == rows.count else { return "flatten lists a node twice" }
  var lists = [forest.roots]
  for row in rows {
    guard forest.contains(row.id) else { return "flatten lists unknown \(row.id)" }
    if let parent = row.parent, !forest.contains(parent) {
      return "\(row.id) has missing parent \(parent)"
    }
    guard forest.parent(of: row.id) == row.parent else { return "row parent disagrees" }
    let ancestors = forest.ancestors(of: row.id)
    guard ancestors.count == row.depth, !ancestors.contains(row.id) else {
      return "depth or ancestors of \(row.id) disagree (cycle?)"
    }
    lists.append(forest.children(of: row.id))
  }
  for list in lists {
    let keys = list.map { forest.key(of: $0) }
    for (a, b) in zip(keys, keys.dropFirst()) where !(a < b) {
      return "sibling keys do not increase: \(a) then \(b)"
    }
  }
  return forest.firstInvariantViolation()
}

extension Result {
  /// The failure, or `nil`.
  var failure: Failure? {
    if case .failure(let failure) = self { return failure }
    return nil
  }
}
