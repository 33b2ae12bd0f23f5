import Foundation
import OffloadTestSupport
import OrderingCore
import Testing

@testable import Offload

/// A plan `Trip`: 1 A, 2 B (2.1 B1 (2.1.1 B2), 2.2 B3), 3 C, 4 D. Returns the ids by text.
func makeTrip(_ workspace: Workspace) throws -> [String: String] {
  try workspace.createCollection(named: "Trip", kind: .plan)
  var ids: [String: String] = [:]
  for text in ["A", "B", "C", "D"] {
    ids[text] = try workspace.addItem(to: "Trip", text: text).id.rawValue
  }
  ids["B1"] = try workspace.addItem(to: "Trip", text: "B1", at: .lastChild(of: ids["B"] ?? ""))
    .id.rawValue
  ids["B2"] = try workspace.addItem(to: "Trip", text: "B2", at: .lastChild(of: ids["B1"] ?? ""))
    .id.rawValue
  ids["B3"] = try workspace.addItem(to: "Trip", text: "B3", at: .lastChild(of: ids["B"] ?? ""))
    .id.rawValue
  return ids
}

/// The workspace error `body` throws, or `nil` when it throws none.
func workspaceError(_ body: () throws -> Any) -> WorkspaceError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error as? WorkspaceError
  }
}

/// The texts of a collection's rows in displayed order, with their numbers.
func outline(_ workspace: Workspace, _ collection: String) throws -> [String] {
  try workspace.tree(of: collection).rows().map { "\($0.number) \($0.item.text)" }
}

@Suite("ItemSelection: parsing command-line words")
struct ItemSelectionParsingTests {
  @Test(arguments: [
    ("1", ItemSelection.Term.number([1])),
    ("1.2.10", .number([1, 2, 10])),
    ("3-7", .range([3], [7])),
    ("1.2-2", .range([1, 2], [2])),
    ("p2s0", .id("p2s0")),
    ("P2S0", .id("P2S0")),
    ("id:123", .id("123")),
  ])
  func wordsBecomeTerms(word: String, term: ItemSelection.Term) throws {
    #expect(try ItemSelection.term(word) == term)
    #expect(term.description == (word.hasPrefix("id:") ? String(word.dropFirst(3)) : word))
  }

  @Test(arguments: [
    ("0", "is not an outline number; numbers count from 1"),
    ("1..2", "is not an outline number"),
    ("1.", "is not an outline number"),
    ("3-", "is not a range of outline numbers"),
    ("a-7", "is not a range of outline numbers"),
    ("3-7-9", "is not a range of outline numbers"),
    ("hello!", "is neither an item id, an outline number (1.2) nor a range (3-7)"),
    ("id:", "is not an item id after \"id:\""),
    ("id:xyz!", "is not an item id after \"id:\""),
  ])
  func badWordsAreRefusedByName(word: String, message: String) {
    #expect {
      try ItemSelection.term(word)
    } throws: { error in
      let error = error as? WorkspaceError
      return error?.code == .badInput && error?.description.contains("\"\(word)\"") == true
        && error?.description.contains(message) == true
    }
  }

  @Test func emptySelectionsAreRefused() throws {
    let none = try #require(workspaceError { try ItemSelection.parse([]) })
    #expect(none.code == .invalidRequest)
    #expect(none.description.contains("name the items"))
    let error = try #require(workspaceError { try ItemSelection.parse([], except: ["3"]) })
    #expect(error.code == .invalidRequest)
    #expect(error.description.contains("name the rows or pass --all"))
    #expect(try ItemSelection.parse([], all: true).includesAll)
    #expect(try ItemSelection.parse(["1"]).needsCollection)
    #expect(!(try ItemSelection.parse(["abc"], except: ["def"]).needsCollection))
    #expect(try ItemSelection.parse(["abc"], except: ["2"]).needsCollection)
  }
}

@Suite("ItemSelection: resolving against a collection")
struct ItemSelectionResolveTests {
  func resolve(_ words: [String], all: Bool = false, except: [String] = []) throws -> (
    [String], [String]
  ) {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    _ = try makeTrip(workspace)
    let tree = try workspace.tree(of: "Trip")
    let text = { (id: ShortID) in tree.items[id]?.text ?? "?" }
    let resolved = try ItemSelection.parse(words, all: all, except: except).resolve(in: tree)
    return (resolved.ids.map(text), resolved.topmost.map(text))
  }

  @Test func numbersRangesAndAncestorsWin() throws {
    // 1 A, 2 B, 2.1 B1, 2.1.1 B2, 2.2 B3, 3 C, 4 D
    #expect(try resolve(["2.1"]) == (["B1"], ["B1"]))
    #expect(try resolve(["2-3"]) == (["B", "B1", "B2", "B3", "C"], ["B", "C"]))
    #expect(try resolve(["2.1.1-3"]) == (["B2", "B3", "C"], ["B2", "B3", "C"]))
    #expect(try resolve(["4", "1"]) == (["A", "D"], ["A", "D"]))
    #expect(try resolve(["2", "2.1"]) == (["B", "B1"], ["B"]))
    #expect(try resolve([], all: true, except: ["2-2.2"]) == (["A", "C", "D"], ["A", "C", "D"]))
  }

  @Test func errorsNameWhatAndWhere() throws {
    let cases: [([String], Bool, [String], WorkspaceError.Code, String)] = [
      (
        ["9"], false, [], .notFound,
        "\"Trip\" has no row 9 (its top-level rows are numbered 1 to 4)"
      ),
      (["2.9"], false, [], .notFound, "has no row 2.9"),
      (
        ["4-2"], false, [], .invalidRequest,
        "the range 4-2 runs backwards: row 4 comes after row 2; write 2-4"
      ),
      (["1-9"], false, [], .notFound, "has no row 9"),
      (["zzzz"], false, [], .notFound, "no item of \"Trip\" has an id starting with \"zzzz\""),
      (["1"], false, ["1"], .invalidRequest, "the selection is empty"),
    ]
    for (words, all, except, code, message) in cases {
      let error = workspaceError { try resolve(words, all: all, except: except) }
      #expect(error?.code == code, "\(words)")
      #expect(
        error?.description.contains(message) == true, "\(words): \(String(describing: error))")
    }
  }

  /// Random trees and random selections against a plain-set model.
  @Test func resolutionMatchesASetModel() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x5E1EC7))
    for round in 0..<300 {
      let size = 1 + rng.index(below: 30)
      var items: [Item] = []
      var forest = OrderedForest<ShortID>()
      for n in 0..<size {
        let id = ShortID(sequence: UInt64(n + 1))
        let destination: OrderedForest<ShortID>.Destination =
          n == 0 || rng.chance(0.4)
          ? .root(at: forest.roots.count)
          : .lastChild(of: items[rng.index(below: items.count)].id)
        _ = try forest.insert(id, at: destination)
        items.append(
          Item(id: id, text: "t\(n)", created: Date(timeIntervalSince1970: 0), order: .first))
      }
      for index in items.indices {
        items[index].parent = forest.parent(of: items[index].id)
        items[index].order = forest.key(of: items[index].id)
      }
      let collection = ItemCollection(
        id: ShortID(unchecked: "c"), name: "R", kind: .plan,
        created: Date(timeIntervalSince1970: 0),
        items: items)
      let tree = CollectionTree(collection, maximumPlanDepth: 100)
      let rows = tree.rows()
      func word(_ position: Int) -> String {
        // An id made of digits alone reads as an outline number unless written id:….
        let id = rows[position].item.id.rawValue
        let typed = id.allSatisfy(\.isNumber) ? "id:" + id : id
        return rng.chance(0.5) ? rows[position].number : typed
      }
      var model: Set<ShortID> = []
      var words: [String] = []
      let all = rng.chance(0.2)
      if all { model = Set(rows.map(\.item.id)) }
      for _ in 0..<rng.index(below: 4) {
        let a = rng.index(below: rows.count)
        let b = rng.index(below: rows.count)
        if rng.chance(0.5) {
          words.append("\(rows[min(a, b)].number)-\(rows[max(a, b)].number)")
          for position in min(a, b)...max(a, b) { model.insert(rows[position].item.id) }
        } else {
          words.append(word(a))
          model.insert(rows[a].item.id)
        }
      }
      var except: [String] = []
      var leftOut: Set<ShortID> = []
      for _ in 0..<rng.index(below: 3) {
        let a = rng.index(below: rows.count)
        except.append(word(a))
        // An excepted row leaves its subtree out.
        leftOut.formUnion(forest.subtree(of: rows[a].item.id))
      }
      model.subtract(leftOut)
      guard all || !words.isEmpty else { continue }
      let selection = try ItemSelection.parse(words, all: all, except: except)
      let expected = rows.map(\.item.id).filter { model.contains($0) }
      if expected.isEmpty {
        #expect(throws: WorkspaceError.self) { try selection.resolve(in: tree) }
        continue
      }
      let resolved = try selection.resolve(in: tree)
      #expect(resolved.ids == expected, "round \(round), \(rng)")
      let topmost = expected.filter { id in
        !forest.ancestors(of: id).contains(where: model.contains)
      }
      #expect(resolved.topmost == topmost, "round \(round), \(rng)")
      let within = Set(topmost.flatMap { forest.subtree(of: $0) }).subtracting(leftOut)
      #expect(resolved.covered == rows.map(\.item.id).filter(within.contains), "round \(round)")
      #expect(Set(resolved.carriedExceptions.map(\.excepted)).isDisjoint(with: model))
    }
  }
}

@Suite("Workspace: bulk remove, move and done, one change each")
struct WorkspaceBulkTests {
  @Test func bulkRemoveIsOneChangeAndUndoesExactly() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let ids = try makeTrip(workspace)
    let before = try snapshot(workspace)
    let history = try workspace.history().count
    let change = try workspace.removeItems(
      ItemSelection.parse(["2.1", "2", ids["D"] ?? ""]), in: "Trip")
    #expect(change.actedOn.map(\.rawValue) == [ids["B"], ids["D"]])
    #expect(change.affected == 5)
    #expect(try outline(workspace, "Trip") == ["1 A", "2 C"])
    #expect(try workspace.history().count == history + 1)
    try workspace.undo()
    #expect(try snapshot(workspace) == before)
  }

  @Test func bulkRemoveAcrossCollectionsByIds() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let ids = try makeTrip(workspace)
    let stray = try workspace.capture("stray")
    let before = try snapshot(workspace)
    let change = try workspace.removeItems(
      ItemSelection.parse([ids["A"] ?? "", stray.id.rawValue]))
    #expect(change.collections == ["Trip", "Inbox"])
    #expect(try workspace.tree(of: "Inbox").rows().isEmpty)
    try workspace.undo()
    #expect(try snapshot(workspace) == before)
  }

  @Test func exceptedRowUnderASelectedOneIsRefused() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let ids = try makeTrip(workspace)
    let before = try snapshot(workspace)
    let error = try #require(
      workspaceError {
        try workspace.removeItems(
          ItemSelection.parse([], all: true, except: ["2.1"]), in: "Trip")
      })
    #expect(error.code == .invalidRequest)
    #expect(
      error.description
        == "cannot remove \(ids["B"] ?? "") without \(ids["B1"] ?? ""): \(ids["B1"] ?? "") is excepted but nested under the selected \(ids["B"] ?? ""), which takes it along; except \(ids["B"] ?? "") too"
    )
    #expect(try snapshot(workspace) == before)
    // Done marks what the selection covers: the excepted row keeps its mark, with its subtree.
    let done = try workspace.setDone(
      ItemSelection.parse([], all: true, except: ["2.1"]), in: "Trip", true)
    #expect(done.affected == 5)
    let undone = try workspace.tree(of: "Trip").rows().filter { !$0.item.done }.map(\.item.text)
    #expect(undone == ["B1", "B2"])
    // A selected B takes B1 and its child along.
    let again = try workspace.setDone(ItemSelection.parse(["1-2"]), in: "Trip", true)
    #expect(again.affected == 2)
    #expect(again.selected.count == 5)
  }

  @Test func bulkMoveKeepsRelativeOrderAndCarriesChildren() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let ids = try makeTrip(workspace)
    let before = try snapshot(workspace)
    // D and B (with its subtree) and B3 (carried by B) to the front, in displayed order.
    try workspace.moveItems(ItemSelection.parse(["4", "2.2", "2"]), in: "Trip", to: .firstRoot)
    #expect(
      try outline(workspace, "Trip") == [
        "1 B", "1.1 B1", "1.1.1 B2", "1.2 B3", "2 D", "3 A", "4 C",
      ])
    try workspace.undo()
    #expect(try snapshot(workspace) == before)
    // Into another item, last.
    try workspace.moveItems(
      ItemSelection.parse(["1", "3"]), in: "Trip", to: .lastChild(of: ids["D"] ?? ""))
    #expect(try outline(workspace, "Trip").suffix(3) == ["2 D", "2.1 A", "2.2 C"])
    // To the end: the roots count without the movers.
    try workspace.moveItems(ItemSelection.parse(["1-1.2"]), in: "Trip", to: .lastRoot)
    #expect(try outline(workspace, "Trip").first == "1 D")
  }

  @Test func bulkMoveAcrossCollections() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let ids = try makeTrip(workspace)
    try workspace.createCollection(named: "Later", kind: .plan)
    try workspace.addItem(to: "Later", text: "old")
    let before = try snapshot(workspace)
    let change = try workspace.moveItems(
      ItemSelection.parse(["3", "2"]), in: "Trip", toCollection: "Later", to: .firstRoot)
    #expect(change.affected == 5)
    #expect(
      try outline(workspace, "Later") == [
        "1 B", "1.1 B1", "1.1.1 B2", "1.2 B3", "2 C", "3 old",
      ])
    #expect(try outline(workspace, "Trip") == ["1 A", "2 D"])
    #expect(try workspace.item(ids["B2"] ?? "").collectionName == "Later")
    try workspace.undo()
    #expect(try snapshot(workspace) == before)
  }

  @Test func bulkMoveRefusals() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let ids = try makeTrip(workspace)
    try workspace.createCollection(named: "Flat", kind: .list)
    let stray = try workspace.capture("stray")
    let before = try snapshot(workspace)
    let cases: [(() throws -> Void, WorkspaceError.Code, String)] = [
      (
        {
          try workspace.moveItems(
            ItemSelection.parse([ids["A"] ?? "", stray.id.rawValue]), to: .firstRoot)
        }, .invalidRequest, "the selection spans several collections (\"Trip\", \"Inbox\")"
      ),
      (
        { try workspace.moveItems(ItemSelection.parse(["2"]), to: .firstRoot) },
        .invalidRequest, "need a collection: add --in COLLECTION"
      ),
      (
        {
          try workspace.moveItems(
            ItemSelection.parse(["2"]), in: "Trip", to: .lastChild(of: ids["B2"] ?? ""))
        }, .refused, "cannot move"
      ),
      (
        {
          try workspace.moveItems(
            ItemSelection.parse(["2", "3"]), in: "Trip", toCollection: "Flat", to: .firstRoot)
        }, .refused, "\"Flat\" is a list, and lists are flat"
      ),
      (
        {
          try workspace.moveItems(
            ItemSelection.parse([stray.id.rawValue]), in: "Trip", to: .firstRoot)
        },
        .invalidRequest, "item \(stray.id.rawValue) is in \"Inbox\", not in \"Trip\""
      ),
      (
        {
          try workspace.moveItems(
            ItemSelection.parse([], all: true, except: ["2.1.1"]), in: "Trip", to: .firstRoot)
        }, .invalidRequest, "cannot move \(ids["B1"] ?? "") without \(ids["B2"] ?? "")"
      ),
    ]
    for (index, (body, code, message)) in cases.enumerated() {
      let error = workspaceError { try body() }
      #expect(error?.code == code, "case \(index)")
      #expect(
        error?.description.contains(message) == true, "case \(index): \(String(describing: error))")
    }
    #expect(try snapshot(workspace) == before)
  }
}

@Suite("Workspace: bulk changes over seeded random selections")
struct WorkspaceBulkPropertyTests {
  /// Random selections and bulk changes on a random plan: each change matches a model, the
  /// store verifies clean, and one undo restores the state before it exactly.
  @Test func bulkChangesMatchAModelAndUndoExactly() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    var rng = SplitMix64(seed: SplitMix64.testSeed(0xB01C))
    try workspace.createCollection(named: "Plan", kind: .plan)
    try workspace.createCollection(named: "Other", kind: .plan)
    var added: [String] = []
    for n in 0..<24 {
      let placement: ItemPlacement =
        added.isEmpty || rng.chance(0.4)
        ? .lastRoot : .lastChild(of: added[rng.index(below: added.count)])
      added.append(try workspace.addItem(to: "Plan", text: "t\(n)", at: placement).id.rawValue)
    }
    try workspace.addItem(to: "Other", text: "anchor")
    var noOps = 0
    for round in 0..<60 {
      let before = try snapshot(workspace)
      let history = try workspace.history(limit: 1000).count
      let tree = try workspace.tree(of: "Plan")
      let rows = tree.rows()
      let forest = tree.forest
      var words: [String] = []
      var chosen: Set<ShortID> = []
      for _ in 0..<(1 + rng.index(below: 3)) {
        let a = rng.index(below: rows.count)
        let b = rng.index(below: rows.count)
        words.append("\(rows[min(a, b)].number)-\(rows[max(a, b)].number)")
        for position in min(a, b)...max(a, b) { chosen.insert(rows[position].item.id) }
      }
      let selection = try ItemSelection.parse(words)
      let order = rows.map(\.item.id).filter { chosen.contains($0) }
      let tops = order.filter { !forest.ancestors(of: $0).contains(where: chosen.contains) }
      let carried = Set(tops.flatMap { forest.subtree(of: $0) })
      let context = "round \(round), \(words), \(rng)"
      switch rng.index(below: 4) {
      case 0:
        let change = try workspace.removeItems(selection, in: "Plan")
        #expect(change.actedOn == tops, "\(context)")
        #expect(change.affected == carried.count, "\(context)")
        let left = Set(try workspace.tree(of: "Plan").collection.items.map(\.id))
        #expect(left == Set(rows.map(\.item.id)).subtracting(carried), "\(context)")
      case 1:
        let done = rng.chance(0.5)
        try workspace.setDone(selection, in: "Plan", done)
        for item in try workspace.tree(of: "Plan").collection.items {
          let expected = carried.contains(item.id) ? done : tree.items[item.id]?.done
          #expect(item.done == expected, "\(context)")
        }
      case 2:
        try workspace.moveItems(selection, in: "Plan", toCollection: "Other", to: .firstRoot)
        let other = try workspace.tree(of: "Other")
        let moved = other.rows().map(\.item.id).filter { carried.contains($0) }
        #expect(moved == rows.map(\.item.id).filter { carried.contains($0) }, "\(context)")
        #expect(other.forest.roots.prefix(tops.count).elementsEqual(tops), "\(context)")
      default:
        // Within the collection, to the end: the tops are the last roots, in order.
        try workspace.moveItems(selection, in: "Plan", to: .lastRoot)
        let after = try workspace.tree(of: "Plan")
        #expect(after.forest.roots.suffix(tops.count).elementsEqual(tops), "\(context)")
        #expect(after.items.count == rows.count, "\(context)")
      }
      #expect(try workspace.verify().problems.isEmpty, "\(context)")
      // A change that changes nothing (marking done rows done, moving rows where they are)
      // records nothing; any other is exactly one history entry.
      let entries = try workspace.history(limit: 1000).count
      if try snapshot(workspace) == before {
        #expect(entries == history, "\(context)")
        noOps += 1
      } else {
        #expect(entries == history + 1, "\(context)")
        try workspace.undo()
        #expect(try snapshot(workspace) == before, "\(context)")
      }
      // Keep some changes so later rounds see other shapes.
      if rng.chance(0.5) {
        try workspace.moveItems(
          ItemSelection.parse([rows[rng.index(below: rows.count)].number]), in: "Plan",
          to: .firstRoot)
      }
    }
    #expect(noOps < 30, "most rounds change something")
  }
}
