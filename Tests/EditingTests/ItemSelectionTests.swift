import Editing
import OrderingCore
import Testing

/// `ItemSelection` over a plain forest of string ids, as an app without the workspace uses it.
@Suite("ItemSelection: words resolved over a forest, pure")
struct PureItemSelectionTests {
  /// `a` (1), `p` (2) with `b1` (2.1) and `b2` (2.2), `c` (3).
  static let forest: OrderedForest<String> = {
    let rows: [(String, String?)] = [("a", nil), ("p", nil), ("b1", "p"), ("b2", "p"), ("c", nil)]
    let records = rows.enumerated().map { index, row in
      OrderedForest<String>.Record(id: row.0, parent: row.1, order: .position(index))
    }
    return OrderedForest.build(from: records).forest
  }()

  static func resolve(_ words: [String], all: Bool = false, except: [String] = []) throws
    -> ItemSelection.Resolved<String>
  {
    try ItemSelection.parse(words, all: all, except: except) { word in
      !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber }
    }
    .resolve(in: forest, named: "Trip")
  }

  @Test func numbersRangesIdsAndExceptions() throws {
    let range = try Self.resolve(["2-3"])
    #expect(range.ids == ["p", "b1", "b2", "c"] && range.topmost == ["p", "c"])
    let all = try Self.resolve([], all: true, except: ["2.1"])
    #expect(all.covered == ["a", "p", "b2", "c"])
    #expect(all.carriedExceptions.map(\.ancestor) == ["p"])
    #expect(try Self.resolve(["B2"]).covered == ["b2"])
  }

  @Test(
    "refusals name what and where",
    arguments: [
      (["9"], "not-found", "\"Trip\" has no row 9 (its top-level rows are numbered 1 to 3)"),
      (["3-1"], "invalid", "the range 3-1 runs backwards: row 3 comes after row 1; write 1-3"),
      (
        ["b"], "ambiguous",
        "\"b\" matches several items of \"Trip\" (b1, b2); type more of the id"
      ),
      (["zz"], "not-found", "no item of \"Trip\" has an id starting with \"zz\""),
      (
        ["1.x"], "bad-input",
        "\"1.x\" is neither an item id, an outline number (1.2) nor a range (3-7)"
      ),
    ])
  func refusals(words: [String], code: String, reason: String) {
    do {
      _ = try Self.resolve(words)
      Issue.record("\(words) resolved")
    } catch let refusal as EditRefusal {
      #expect(refusal.code == code && refusal.reason == reason, "\(words)")
    } catch {
      Issue.record("\(error)")
    }
  }
}
