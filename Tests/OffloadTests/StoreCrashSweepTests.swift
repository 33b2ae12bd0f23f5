import Foundation
import OffloadTestSupport
import OrderingCore
import Persistence
import Testing

@testable import Offload

/// The store's logical state: every collection with its items, the undo history and the id
/// counter. Two stores in the same logical state answer every command the same way.
struct LogicalState: Equatable, CustomStringConvertible {
  var collections: [String: [Item]]
  var history: [String]
  var nextSequence: UInt64

  init(_ workspace: Workspace) throws {
    collections = try snapshot(workspace)
    history = try workspace.history(limit: 1_000).map { "\($0.sequence) \($0.summary)" }
    nextSequence = try workspace.loadIndex().nextSequence
  }

  var description: String {
    "\(collections.keys.sorted()) \(collections.values.map(\.count)) history \(history) next \(nextSequence)"
  }
}

/// One workspace command of the sweep.
struct SweepCommand: Sendable, CustomStringConvertible {
  var description: String
  var run: @Sendable (Workspace) throws -> Void
}

@Suite("Store: one commit point, crash and fault at every file operation", .serialized)
struct StoreCrashSweepTests {
  /// A small store with a list, a plan with nesting, the inbox and some history.
  static func seed(_ workspace: Workspace) throws {
    _ = try workspace.capture("Call the plumber")
    _ = try workspace.capture("Renew passport")
    try workspace.createCollection(named: "Trip", kind: .plan)
    let pack = try workspace.addItem(to: "Trip", text: "Pack")
    _ = try workspace.addItem(to: "Trip", text: "Socks", at: .lastChild(of: pack.id.rawValue))
    _ = try workspace.addItem(to: "Trip", text: "Tickets")
    try workspace.createCollection(named: "Shop", kind: .list)
    _ = try workspace.addItem(to: "Shop", text: "Milk")
    _ = try workspace.addItem(to: "Shop", text: "Bread")
  }

  /// The id of the item with `text`.
  static func id(_ workspace: Workspace, _ text: String) throws -> String {
    for entry in try workspace.collections() {
      if let item = try workspace.tree(of: entry.id.rawValue).collection.items.first(where: {
        $0.text == text
      }) {
        return item.id.rawValue
      }
    }
    throw WorkspaceError(.notFound, "no item says \(text)")
  }

  static let commands: [SweepCommand] = [
    .init(description: "add") { _ = try $0.addItem(to: "Trip", text: "Boots") },
    .init(description: "capture") { _ = try $0.capture("Buy stamps") },
    .init(description: "edit") { try $0.editText(try id($0, "Milk"), to: "Oat milk") },
    .init(description: "done") { try $0.setDone(try id($0, "Pack"), true) },
    .init(description: "move within") {
      try $0.moveItem(try id($0, "Tickets"), to: .firstRoot)
    },
    .init(description: "move across") {
      try $0.moveItem(try id($0, "Tickets"), toCollection: "Inbox", to: .lastRoot)
    },
    .init(description: "bulk move") {
      _ = try $0.moveItems(
        ItemSelection(terms: [.number([1]), .number([2])]), in: "Inbox", toCollection: "Shop",
        to: .firstRoot)
    },
    .init(description: "bulk remove") {
      _ = try $0.removeItems(ItemSelection(terms: [], includesAll: true), in: "Shop")
    },
    .init(description: "bulk done") {
      _ = try $0.setDone(ItemSelection(terms: [], includesAll: true), in: "Trip", true)
    },
    .init(description: "import") {
      _ = try $0.importCollection(
        named: "Packing", from: "- Shirts\n  - Blue\n- Shoes\n", source: "packing.md")
    },
    .init(description: "convert") { _ = try $0.convertCollection("Shop", to: .plan) },
    .init(description: "delete") { _ = try $0.deleteCollection("Shop", force: true) },
    .init(description: "multi delete") {
      _ = try $0.deleteCollections(["Shop", "Trip"], force: true)
    },
    .init(description: "collection move") { _ = try $0.moveCollection("Shop", to: .first) },
    .init(description: "undo") { _ = try $0.undo() },
    .init(description: "rename") { try $0.renameCollection("Trip", to: "Lisbon") },
  ]

  /// A fixed clock, so the state after a command is the same in every run.
  static func workspace(_ root: String, _ fileSystem: any FileSystem = POSIXFileSystem())
    -> Workspace
  {
    Workspace(
      root: root, historyLimit: 50, lockTimeout: .milliseconds(200), fileSystem: fileSystem,
      now: { Date(timeIntervalSince1970: 1_800_000_000) })
  }

  /// Copies a store folder.
  static func copy(_ source: String, to destination: String) throws {
    try? FileManager.default.removeItem(atPath: destination)
    try FileManager.default.copyItem(atPath: source, toPath: destination)
    // The copy is this device at another path, not a new device.
    try workspace(source).shareIdentity(with: destination)
  }

  /// Runs one command at every failure point, in one of two modes, and checks the store.
  ///
  /// - `crashes == false`: operation *n* fails and the rest run (a full disk, an I/O error).
  ///   A command that reports failure must have changed nothing; one that reports success
  ///   must have changed everything.
  /// - `crashes == true`: operation *n* and everything after it fail, as if the process died
  ///   there. The store must be in the state before or after the command.
  ///
  /// Either way the reopened store verifies clean with no repair, and takes the next change.
  /// Returns the number of failure points covered.
  static func sweep(_ command: SweepCommand, crashes: Bool, checkpointFirst: Bool) throws -> Int {
    let folder = try TemporaryDirectory(prefix: "offload-sweep")
    defer { folder.remove() }
    let template = folder.appending("template")
    let seeded = workspace(template)
    try seed(seeded)
    if checkpointFirst {
      // A checkpoint just before: the command's change then starts a new journal tail.
      let journal = try seeded.openJournal()
      try seeded.checkpoint(try seeded.state(from: journal.recovered), journal: journal)
      try journal.close()
    }
    let before = try LogicalState(workspace(template))
    let expectedStore = folder.appending("expected")
    try copy(template, to: expectedStore)
    try command.run(workspace(expectedStore))
    let after = try LogicalState(workspace(expectedStore))
    #expect(before != after, "\(command) changed nothing")

    let counting = FaultInjectingFileSystem()
    let dry = folder.appending("dry")
    try copy(template, to: dry)
    try command.run(workspace(dry, counting))
    let operations = counting.operationCount
    for point in 1...operations {
      let store = folder.appending("run")
      try copy(template, to: store)
      let faulty = FaultInjectingFileSystem(failingOperation: point, crashes: crashes)
      let succeeded: Bool
      do {
        try command.run(workspace(store, faulty))
        succeeded = true
      } catch {
        succeeded = false
      }
      let context =
        "\(command) \(crashes ? "crash" : "fault") at operation \(point) of \(operations)"
      let reopened = workspace(store)
      let report = try reopened.verify()
      #expect(report.isClean, "\(context): \(report.problems)")
      let state = try LogicalState(reopened)
      if crashes {
        #expect(state == before || state == after, "\(context): \(state)")
        if succeeded { #expect(state == after, "\(context): reported success") }
      } else if succeeded {
        #expect(state == after, "\(context): reported success but \(state)")
      } else {
        #expect(state == before, "\(context): reported failure but \(state)")
      }
      // The next change works, and the store still verifies clean.
      _ = try reopened.capture("next")
      #expect(try reopened.verify().isClean, "\(context): after the next change")
    }
    return operations
  }

  @Test(arguments: commands)
  func faultAtEveryOperationLeavesBeforeOrAfter(command: SweepCommand) throws {
    var points = 0
    for checkpointFirst in [false, true] {
      points += try Self.sweep(command, crashes: false, checkpointFirst: checkpointFirst)
      points += try Self.sweep(command, crashes: true, checkpointFirst: checkpointFirst)
    }
    print("crash sweep: \(command): \(points) failure points, all before or after")
    #expect(points > 0)
  }

  @Test func repairAtEveryOperationKeepsEveryItem() throws {
    // A store whose index lost an item and whose collection file misses an order key.
    let folder = try TemporaryDirectory(prefix: "offload-sweep-repair")
    defer { folder.remove() }
    let template = folder.appending("template")
    let seeded = Self.workspace(template)
    try Self.seed(seeded)
    let journal = try seeded.openJournal()
    try seeded.checkpoint(try seeded.state(from: journal.recovered), journal: journal)
    try journal.close()
    let shop = try seeded.collections().first { $0.name == "Shop" }!
    let path = seeded.collectionPath(shop.id)
    var text = try String(contentsOfFile: path, encoding: .utf8)
    let order = try #require(text.range(of: #""order": ?"[^"]*",\s*"#, options: .regularExpression))
    text.removeSubrange(order)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let damaged = try seeded.verify()
    #expect(!damaged.isClean)
    let counting = FaultInjectingFileSystem()
    let dry = folder.appending("dry")
    try Self.copy(template, to: dry)
    _ = try Self.workspace(dry, counting).repair()
    let repaired = try LogicalState(Self.workspace(dry))
    #expect(try Self.workspace(dry).verify().isClean)
    #expect(try Self.workspace(dry).repair().backup == nil, "a second repair finds nothing")
    var points = 0
    for crashes in [false, true] {
      for point in 1...counting.operationCount {
        let store = folder.appending("run")
        try Self.copy(template, to: store)
        _ = try? Self.workspace(
          store, FaultInjectingFileSystem(failingOperation: point, crashes: crashes)
        ).repair()
        let reopened = Self.workspace(store)
        // An interrupted repair leaves a store that a second repair brings to the same state.
        _ = try reopened.repair()
        #expect(try reopened.verify().isClean, "repair fault at \(point)")
        let state = try LogicalState(reopened)
        #expect(
          state.collections == repaired.collections,
          "repair \(crashes ? "crash" : "fault") at \(point): \(state.collections.mapValues { $0.map(\.text) }) vs \(repaired.collections.mapValues { $0.map(\.text) })"
        )
        points += 1
      }
    }
    print("crash sweep: repair: \(points) failure points, every item kept")
  }
}

@Suite("Workspace: one move path with the key budget")
struct WorkspaceMovePathTests {
  @Test func bulkMovesIntoOneGapKeepKeysWithinTheBudget() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "L", kind: .list)
    var ids: [String] = []
    for number in 0..<40 {
      ids.append(try workspace.addItem(to: "L", text: "\(number)").id.rawValue)
    }
    for round in 0..<120 {
      // Two rows at a time, always into the gap right after the first row.
      let a = ids[2 + (2 * round) % 36]
      let b = ids[3 + (2 * round) % 36]
      _ = try workspace.moveItems(
        ItemSelection(terms: [.id(a), .id(b)]), in: "L", to: .after(ids[0]))
    }
    let keys = try workspace.tree(of: "L").collection.items.map(\.order.length)
    #expect(keys.max() ?? 0 <= CollectionTree.keyBudget)
    #expect(try workspace.verify().isClean)
  }

  @Test func aSingleMoveIsASelectionOfOne() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "A", kind: .plan)
    try workspace.createCollection(named: "B", kind: .plan)
    let pack = try workspace.addItem(to: "A", text: "Pack")
    _ = try workspace.addItem(to: "A", text: "Socks", at: .lastChild(of: pack.id.rawValue))
    let other = try workspace.addItem(to: "B", text: "Other")
    try workspace.moveItem(pack.id.rawValue, toCollection: "B", to: .before(other.id.rawValue))
    #expect(try workspace.tree(of: "B").rows().map(\.item.text) == ["Pack", "Socks", "Other"])
    #expect(try workspace.history(limit: 1).first?.summary == "move \(pack.id) from \"A\" to \"B\"")
    try workspace.undo()
    #expect(try workspace.tree(of: "A").rows().map(\.item.text) == ["Pack", "Socks"])
  }
}
