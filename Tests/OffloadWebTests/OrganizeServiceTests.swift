import Foundation
import Gestures
import Offload
import OffloadTestSupport
import Testing

@testable import OffloadWeb

/// The organize pages' server side: every change through the workspace as one change, the
/// placement rules (a trip itinerary) deciding drags and keyboard moves alike, stale views
/// refused.
@Suite("OrganizeService: lists and plans behind the pages")
struct OrganizeServiceTests {
  /// A store with a plan `Trip` (an itinerary), a plan `House` and a list `Groceries`.
  struct Store {
    let folder: TemporaryDirectory
    let workspace: Workspace
    let service: OrganizeService
    var trip = ""
    var house = ""
    var groceries = ""
    var ids: [String: String] = [:]

    init() throws {
      folder = try TemporaryDirectory(prefix: "offload-organize")
      workspace = Workspace(root: folder.appending("store"))
      service = OrganizeService(workspace: workspace)
      trip = try workspace.createCollection(named: "Trip", kind: .plan).id.rawValue
      house = try workspace.createCollection(named: "House", kind: .plan).id.rawValue
      groceries = try workspace.createCollection(named: "Groceries", kind: .list).id.rawValue
      for (day, items) in [
        (
          "Day 1 Boston", ["Game: Red Sox", "Travel (days 1-2): drive to New York", "Lobster roll"]
        ),
        ("Day 2 New York", ["Museum"]),
        ("Day 3 Philadelphia", ["Game: Phillies"]),
      ] {
        let parent = try workspace.addItem(to: "Trip", text: day).id.rawValue
        ids[day] = parent
        for text in items {
          ids[text] = try workspace.addItem(to: "Trip", text: text, at: .lastChild(of: parent))
            .id.rawValue
        }
      }
      for text in ["Paint", "Fix the tap", "Clean"] {
        ids[text] = try workspace.addItem(to: "House", text: text).id.rawValue
      }
      for text in ["Milk", "Eggs", "Bread"] {
        ids[text] = try workspace.addItem(to: "Groceries", text: text).id.rawValue
      }
    }

    func texts(_ id: String) async throws -> [String] {
      try await service.collection(id).rows.map {
        "\(String(repeating: "  ", count: $0.depth))\($0.text)"
      }
    }

    func historyCount() throws -> Int { try workspace.history(limit: 1000).count }
  }

  func command(
    _ action: OrganizeCommand.Items.Action, _ collection: String, version: String?
  ) -> OrganizeCommand.Items {
    OrganizeCommand.Items(collection: collection, version: version, action: action)
  }

  @Test(
    "the itinerary's rules come from its rows: day headers and games stay, travel keeps its range")
  func itineraryPolicy() async throws {
    let store = try Store()
    defer { store.folder.remove() }
    let (_, rules, _) = try await store.service.load(store.trip)
    #expect(rules.isItinerary)
    let (_, house, _) = try await store.service.load(store.house)
    #expect(!house.isItinerary && house.nests)
    let (_, list, _) = try await store.service.load(store.groceries)
    #expect(!list.nests && list.maximumDepth == 0)
    let view = try await store.service.collection(store.trip)
    let fixed = view.rows.filter(\.fixed).map(\.text)
    #expect(
      fixed == [
        "Day 1 Boston", "Game: Red Sox", "Day 2 New York", "Day 3 Philadelphia", "Game: Phillies",
      ])
    #expect(RoleConvention.travelRange("Travel (days 2-3): train") == 2...3)
    #expect(RoleConvention.travelRange("Travel (days 3-2): train") == nil)
    #expect(RoleConvention.dayNumber("Day 12: Rome") == 12)
    #expect(RoleConvention.dayNumber("Daytrip") == nil)
  }

  @Test("a keyboard move outside the rules is refused with the rule's reason, and nothing changes")
  func refusedKeyboardMoves() async throws {
    let store = try Store()
    defer { store.folder.remove() }
    let before = try await store.service.collection(store.trip)
    let history = try store.historyCount()
    let moves: [(String, KeyboardMove, String)] = [
      ("Game: Red Sox", .down, "day headers and games stay where they are"),
      ("Day 2 New York", .up, "day headers and games stay where they are"),
      ("Museum", .outdent, "never beside a day header"),
      ("Lobster roll", .indent, "items go on a day"),
    ]
    for (text, direction, reason) in moves {
      let move = command(
        .move(id: store.ids[text] ?? "", direction, collapsed: []), store.trip,
        version: before.version)
      await #expect(throws: DeckFailure.self) { try await store.service.changeItems(move) }
      do {
        _ = try await store.service.changeItems(move)
      } catch {
        #expect(error.status == 409 && error.description.contains(reason), "\(text): \(error)")
      }
    }
    #expect(try await store.service.collection(store.trip) == before)
    #expect(try store.historyCount() == history)
  }

  @Test("a travel segment dropped on a day outside its range is blocked; inside it, it moves")
  func itineraryDrop() async throws {
    let store = try Store()
    defer { store.folder.remove() }
    let (tree, rules, version) = try await store.service.load(store.trip)
    let rows = tree.editor.dropRows().enumerated().map {
      index, row in
      DropRow(
        id: row.id, minY: Double(index) * 48, height: 48, depth: row.depth,
        isExpanded: row.isExpanded, acceptsChildren: row.acceptsChildren)
    }
    let travel = try #require(
      store.ids["Travel (days 1-2): drive to New York"].flatMap(ShortID.init))
    func target(onto text: String) throws -> DropTarget<ShortID>? {
      let index = try #require(rows.firstIndex { $0.id.rawValue == store.ids[text] })
      return DropTargetResolver.resolve(
        pointer: TouchPoint(x: 60, y: rows[index].minY + 24), rows: rows, dragged: [travel],
        rules: rules.policy, configuration: DropConfiguration(maximumDepth: rules.maximumDepth)
      ).target
    }
    // Onto day 3: outside days 1-2.
    let blocked = try #require(try target(onto: "Game: Phillies"))
    #expect(blocked.isBlocked)
    await #expect(throws: DeckFailure.self) {
      try await store.service.drop(
        blocked, moving: travel.rawValue, in: store.trip, version: version)
    }
    #expect(try await store.service.collection(store.trip).version == version)
    // Onto day 2: inside the range, one change.
    let history = try store.historyCount()
    let allowed = try #require(try target(onto: "Museum"))
    #expect(!allowed.isBlocked)
    try await store.service.drop(
      allowed, moving: travel.rawValue, in: store.trip, version: version)
    let after = try await store.service.collection(store.trip)
    let moved = try #require(after.rows.first { $0.id == travel.rawValue })
    #expect(moved.parent == store.ids["Day 2 New York"] && moved.depth == 1)
    #expect(try store.historyCount() == history + 1)
  }

  @Test("keyboard reorder and nesting in a plan: one change each, one undo each")
  func keyboardMoves() async throws {
    let store = try Store()
    defer { store.folder.remove() }
    var made: [UInt64] = []
    func move(_ text: String, _ direction: KeyboardMove) async throws {
      let version = try await store.service.collection(store.house).version
      let move = command(
        .move(id: store.ids[text] ?? "", direction, collapsed: []), store.house, version: version)
      made += try await store.service.changeItems(move).made.map { [$0] } ?? []
    }
    try await move("Clean", .up)
    #expect(try await store.texts(store.house) == ["Paint", "Clean", "Fix the tap"])
    try await move("Clean", .indent)
    #expect(try await store.texts(store.house) == ["Paint", "  Clean", "Fix the tap"])
    try await move("Fix the tap", .indent)
    #expect(try await store.texts(store.house) == ["Paint", "  Clean", "  Fix the tap"])
    try await move("Clean", .outdent)
    #expect(try await store.texts(store.house) == ["Paint", "  Fix the tap", "Clean"])
    #expect(made.count == 4)
    let undo = command(.undo(made: made), store.house, version: nil)
    let undone = try await store.service.changeItems(undo)
    #expect(undone.undone == made.last)
    #expect(try await store.texts(store.house) == ["Paint", "  Clean", "  Fix the tap"])
    // A list does not nest.
    let version = try await store.service.collection(store.groceries).version
    let indent = command(
      .move(id: store.ids["Eggs"] ?? "", .indent, collapsed: []), store.groceries,
      version: version)
    await #expect(throws: DeckFailure.self) { try await store.service.changeItems(indent) }
    #expect(try await store.texts(store.groceries) == ["Milk", "Eggs", "Bread"])
  }

  @Test("a change based on a stale view is refused with a clear message; nothing changes")
  func staleView() async throws {
    let store = try Store()
    defer { store.folder.remove() }
    let seen = try await store.service.collection(store.groceries)
    // Another process (the CLI) changes the list meanwhile.
    try store.workspace.moveItem(store.ids["Bread"] ?? "", to: .firstRoot)
    let delete = command(
      .delete(.ids([store.ids["Milk"] ?? ""])), store.groceries, version: seen.version)
    do {
      _ = try await store.service.changeItems(delete)
      Issue.record("a stale delete went through")
    } catch {
      #expect(error.status == 409)
      #expect(error.description.contains("changed since the page showed it"), "\(error)")
    }
    #expect(try await store.texts(store.groceries) == ["Bread", "Milk", "Eggs"])
    let missing = command(.delete(.ids([store.ids["Milk"] ?? ""])), store.groceries, version: nil)
    do {
      _ = try await store.service.changeItems(missing)
      Issue.record("a versionless delete went through")
    } catch {
      #expect(error.status == 400 && error.description.contains("no view version"))
    }
  }

  @Test("select all except one, then bulk delete and bulk done: one change each, one undo")
  func bulkActions() async throws {
    let store = try Store()
    defer { store.folder.remove() }
    var version = try await store.service.collection(store.groceries).version
    let eggs = store.ids["Eggs"] ?? ""
    let done = command(.done(.all(except: [eggs]), true), store.groceries, version: version)
    let history = try store.historyCount()
    let marked = try await store.service.changeItems(done)
    #expect(marked.view.rows.map(\.done) == [true, false, true])
    #expect(try store.historyCount() == history + 1)
    version = marked.view.version
    let delete = command(.delete(.all(except: [eggs])), store.groceries, version: version)
    let deleted = try await store.service.changeItems(delete)
    #expect(deleted.view.rows.map(\.text) == ["Eggs"])
    #expect(deleted.done == "Deleted 2 items")
    #expect(try store.historyCount() == history + 2)
    let made = [try #require(marked.made), try #require(deleted.made)]
    let undo = command(.undo(made: made), store.groceries, version: nil)
    _ = try await store.service.changeItems(undo)
    #expect(try await store.texts(store.groceries) == ["Milk", "Eggs", "Bread"])
    var moveTo = command(
      .moveTo(.ids([store.ids["Milk"] ?? ""]), target: store.house), store.groceries,
      version: deleted.view.version)
    await #expect(throws: DeckFailure.self) { try await store.service.changeItems(moveTo) }
    moveTo.version = try await store.service.collection(store.groceries).version
    _ = try await store.service.changeItems(moveTo)
    #expect(try await store.texts(store.house).last == "Milk")
    let nothing = command(.delete(.ids([])), store.groceries, version: moveTo.version)
    await #expect(throws: DeckFailure.self) { try await store.service.changeItems(nothing) }
  }

  @Test("collections: create, rename, reorder, delete, capture, undo; stale lists refused")
  func collections() async throws {
    let store = try Store()
    defer { store.folder.remove() }
    func names() async throws -> [String] {
      try await store.service.collections().collections.map(\.name)
    }
    #expect(try await names() == ["Inbox", "Trip", "House", "Groceries"])
    var view = try await store.service.collections()
    typealias Change = OrganizeCommand.Collections
    let create = Change(version: view.version, action: .create(name: "Books", kind: .plan))
    view = try await store.service.changeCollections(create).view
    let books = try #require(view.collections.last)
    #expect(books.name == "Books" && books.kind == "plan")
    let up = Change(version: view.version, action: .move(id: books.id, to: .up))
    view = try await store.service.changeCollections(up).view
    #expect(try await names() == ["Inbox", "Trip", "House", "Books", "Groceries"])
    let first = Change(version: view.version, action: .move(id: books.id, to: .first))
    view = try await store.service.changeCollections(first).view
    #expect(try await names() == ["Inbox", "Books", "Trip", "House", "Groceries"])
    // Stale: the version before the move.
    await #expect(throws: DeckFailure.self) {
      try await store.service.changeCollections(
        Change(version: up.version, action: .rename(id: books.id, name: "Novels")))
    }
    view = try await store.service.changeCollections(
      Change(version: view.version, action: .rename(id: books.id, name: "Novels"))
    ).view
    #expect(try await names() == ["Inbox", "Novels", "Trip", "House", "Groceries"])
    view = try await store.service.changeCollections(
      Change(action: .capture(text: "Call the plumber"))
    ).view
    #expect(view.collections.first?.itemCount == 1)
    let deleted = try await store.service.changeCollections(
      Change(version: view.version, action: .delete(ids: [store.house])))
    view = deleted.view
    #expect(try await names() == ["Inbox", "Novels", "Trip", "Groceries"])
    let undo = Change(action: .undo(made: deleted.made.map { [$0] } ?? []))
    _ = try await store.service.changeCollections(undo)
    #expect(try await names() == ["Inbox", "Novels", "Trip", "House", "Groceries"])
    #expect(try await store.texts(store.house) == ["Paint", "Fix the tap", "Clean"])
    do {
      _ = try await store.service.changeCollections(
        Change(
          version: try await store.service.collections().version,
          action: .create(name: "trip", kind: .list)))
      Issue.record("a duplicate name was accepted")
    } catch {
      #expect(error.status == 409, "\(error)")
    }
  }
}
