import Foundation
import OffloadTestSupport
import OrderingCore
import Persistence
import Testing

@testable import Offload

/// Store content a hand edit, another client or a hostile user could leave: one-line errors,
/// never a trap or a hang, and a repair that fixes it without losing an item.
@Suite("Workspace: hostile and hand-edited store content", .serialized)
struct HostileStoreTests {
  /// A workspace with a fixed clock, checkpointed, with a plan and a list.
  func seeded(singleWriter: Bool = false) throws -> (Workspace, TemporaryDirectory) {
    let folder = try TemporaryDirectory(prefix: "offload-hostile")
    let workspace = Workspace(
      root: folder.appending("store"), lockTimeout: .milliseconds(300),
      now: { Date(timeIntervalSince1970: 1_800_000_000) },
      stateDirectory: singleWriter ? nil : DeviceContext.defaultStateDirectory())
    try StoreCrashSweepTests.seed(workspace)
    let journal = try workspace.openJournal()
    try workspace.checkpoint(try workspace.state(from: journal.recovered), journal: journal)
    try journal.close()
    return (workspace, folder)
  }

  /// Rewrites a store file's text.
  func edit(_ path: String, _ change: (String) -> String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try change(text).write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// Every file of the store with its bytes.
  func files(_ root: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let name = enumerator?.nextObject() as? String {
      var isFolder: ObjCBool = false
      FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isFolder)
      if !isFolder.boolValue, !name.hasSuffix(".lock") {
        result[name] = FileManager.default.contents(atPath: root + "/" + name) ?? Data()
      }
    }
    return result
  }

  @Test func aCounterAtItsLimitIsAnErrorAndRepairRestartsIt() throws {
    // The store's own id counter is the single-writer layout's; devices count their own.
    let (workspace, folder) = try seeded(singleWriter: true)
    defer { folder.remove() }
    try edit(workspace.indexPath) {
      $0.replacingOccurrences(
        of: #""nextSequence" ?: ?\d+"#, with: "\"nextSequence\": 18446744073709551615",
        options: .regularExpression)
    }
    do {
      _ = try workspace.addItem(to: "Shop", text: "Eggs")
      Issue.record("an add went through with the counter at its limit")
    } catch {
      #expect(error.code == .damagedStore)
      #expect(error.description.contains("id counter is at its limit"))
      #expect(!error.description.contains("\n"))
    }
    let report = try workspace.verify()
    #expect(report.problems.map(\.issue) == ["the id counter is at its limit"])
    _ = try workspace.repair()
    let eggs = try workspace.addItem(to: "Shop", text: "Eggs")
    #expect(try workspace.item(eggs.id.rawValue).item.text == "Eggs")
    #expect(try workspace.verify().isClean)
    #expect(try workspace.tree(of: "Trip").collection.items.count == 3)
  }

  @Test func aFIFOWhereACollectionBelongsIsAnErrorNotAHang() throws {
    let (workspace, folder) = try seeded()
    defer { folder.remove() }
    // A second checkpoint of Shop, so its file has a backup (Milk, Bread) behind it.
    _ = try workspace.addItem(to: "Shop", text: "Eggs")
    let journal = try workspace.openJournal()
    try workspace.checkpoint(try workspace.state(from: journal.recovered), journal: journal)
    try journal.close()
    let shop = try #require(try workspace.collections().first { $0.name == "Shop" })
    let path = workspace.collectionPath(shop.id)
    try FileManager.default.removeItem(atPath: path)
    #expect(mkfifo(path, 0o644) == 0)
    do {
      _ = try workspace.tree(of: "Shop")
      Issue.record("a FIFO was read as a collection")
    } catch {
      #expect(error.description.contains("is not a regular file (a FIFO)"), "\(error)")
    }
    // The FIFO, and Eggs, which only the lost file held: reported, and brought back from the
    // undo history's record of its add.
    let report = try workspace.verify()
    #expect(report.problems.contains { $0.issue.contains("is not a regular file") })
    #expect(report.problems.contains { $0.fix.contains("undo history") })
    let (_, backup) = try workspace.repair()
    #expect(backup != nil)
    #expect(try workspace.verify().isClean)
    // The FIFO is kept aside; the collection came back from its backup file and its history.
    let names = try FileManager.default.contentsOfDirectory(atPath: workspace.collectionsFolder)
    #expect(names.contains { $0.hasPrefix(shop.id.rawValue + ".json.unreadable-") })
    #expect(
      try workspace.tree(of: "Shop").collection.items.map(\.text).sorted() == [
        "Bread", "Eggs", "Milk",
      ])
  }

  @Test func aNameWinsOverAnIdAndIdPrefixReachesEveryCollection() throws {
    let (workspace, folder) = try seeded()
    defer { folder.remove() }
    try workspace.createCollection(named: "0", kind: .list)
    _ = try workspace.addItem(to: "0", text: "in the collection named 0")
    #expect(try workspace.tree(of: "0").collection.name == "0")
    #expect(try workspace.tree(of: "id:0").collection.name == "Inbox")
    do {
      _ = try workspace.tree(of: "id:zzzz")
      Issue.record("an unknown id resolved")
    } catch {
      #expect(error.description == "no collection has an id starting with \"zzzz\"")
    }
  }

  @Test func verifyOnlyReadsAndSaysWhenThereIsNoStore() throws {
    let (workspace, folder) = try seeded()
    defer { folder.remove() }
    let shop = try #require(try workspace.collections().first { $0.name == "Shop" })
    try Data("{ not json".utf8).write(to: URL(fileURLWithPath: workspace.collectionPath(shop.id)))
    let before = try files(workspace.root)
    #expect(!(try workspace.verify().isClean))
    #expect(try files(workspace.root) == before, "verify changed a file")
    let missing = Workspace(root: folder.appending("nowhere"))
    do {
      _ = try missing.verify()
      Issue.record("verify of a missing store said something else")
    } catch {
      #expect(error.code == .notFound)
      #expect(error.description == "there is no store at \(folder.appending("nowhere"))")
    }
  }

  @Test func aRecordWithoutAnOrderKeyIsBackfilledNotQuarantined() throws {
    let (workspace, folder) = try seeded()
    defer { folder.remove() }
    let shop = try #require(try workspace.collections().first { $0.name == "Shop" })
    try edit(workspace.collectionPath(shop.id)) {
      $0.replacingOccurrences(
        of: #""order": ?"[^"]*",\s*"#, with: "", options: .regularExpression)
    }
    // Reading salvages: both items are there, in a stable order, with valid keys.
    let rows = try workspace.tree(of: "Shop").rows()
    #expect(rows.map(\.item.text).sorted() == ["Bread", "Milk"])
    let report = try workspace.verify()
    #expect(report.problems.count == 2, "\(report.problems)")
    #expect(report.problems.allSatisfy { $0.issue.contains("has no valid order; filled in") })
    // A change works on the salvaged collection, and repair then converges.
    _ = try workspace.addItem(to: "Shop", text: "Eggs")
    let (first, _) = try workspace.repair()
    #expect(!first.isClean)
    let (second, backup) = try workspace.repair()
    #expect(second.isClean && backup == nil, "a second repair found \(second.problems)")
    #expect(
      try workspace.tree(of: "Shop").rows().map(\.item.text).sorted() == ["Bread", "Eggs", "Milk"])
  }

  @Test func salvagingKeepsEveryFieldItCanRead() throws {
    let (workspace, folder) = try seeded()
    defer { folder.remove() }
    let milk = try StoreCrashSweepTests.id(workspace, "Milk")
    try workspace.editText(milk, to: "Oat milk")
    let journal = try workspace.openJournal()
    try workspace.checkpoint(try workspace.state(from: journal.recovered), journal: journal)
    try journal.close()
    let shop = try #require(try workspace.collections().first { $0.name == "Shop" })
    // A record with a note and done, but no order key.
    try edit(workspace.collectionPath(shop.id)) {
      $0.replacingOccurrences(
        of: #""order": ?"[^"]*",\s*("text": ?"Oat milk")"#,
        with: "\"note\": \"from the corner shop\", $1", options: .regularExpression)
    }
    let item = try workspace.item(milk).item
    #expect(item.text == "Oat milk")
    #expect(item.note == "from the corner shop")
    _ = try workspace.repair()
    #expect(try workspace.item(milk).item.note == "from the corner shop")
    #expect(try workspace.verify().isClean)
  }

  @Test(arguments: ["\u{1B}[2J", "\u{07}", "a\u{9B}b", "\u{202E}evil", "x\u{7F}"])
  func newTextWithControlCharactersIsRefused(text: String) throws {
    let (workspace, folder) = try seeded()
    defer { folder.remove() }
    let before = try LogicalState(workspace)
    for attempt in [
      { _ = try workspace.capture("note " + text) },
      { _ = try workspace.addItem(to: "Shop", text: text) },
      { try workspace.createCollection(named: "C" + text, kind: .list) },
    ] as [() throws -> Void] {
      do {
        try attempt()
        Issue.record("\(text.debugDescription) was accepted")
      } catch let error as WorkspaceError {
        #expect(error.code == .badInput)
        #expect(error.description.contains("cannot hold the control character U+"))
      }
    }
    #expect(try LogicalState(workspace) == before)
  }

  @Test func handEditedControlCharactersAreReportedAndEscapedByRepair() throws {
    let (workspace, folder) = try seeded()
    defer { folder.remove() }
    let shop = try #require(try workspace.collections().first { $0.name == "Shop" })
    try edit(workspace.collectionPath(shop.id)) {
      $0.replacingOccurrences(of: "\"Bread\"", with: #""Bread\u001b[2J\u0007""#)
    }
    let report = try workspace.verify()
    #expect(report.problems.map(\.issue).contains { $0.hasSuffix("holds control characters") })
    _ = try workspace.repair()
    #expect(try workspace.verify().isClean)
    let texts = try workspace.tree(of: "Shop").collection.items.map(\.text).sorted()
    #expect(texts == [#"Bread\u{1B}[2J\u{7}"#, "Milk"])
  }

  @Test func twoRepairsInOneSecondKeepTwoBackups() throws {
    let (workspace, folder) = try seeded()
    defer { folder.remove() }
    var backups: [String] = []
    for _ in 0..<2 {
      let shop = try #require(try workspace.collections().first { $0.name == "Shop" })
      try Data("{ not json".utf8).write(
        to: URL(fileURLWithPath: workspace.collectionPath(shop.id)))
      let (_, backup) = try workspace.repair()
      backups.append(try #require(backup))
    }
    #expect(backups[0] != backups[1])
    #expect(backups[1] == backups[0] + "-2")
  }

  @Test func anItemTheIndexPlacesButNoFileHoldsComesBackFromASpareCopy() throws {
    let (workspace, folder) = try seeded()
    defer { folder.remove() }
    let shop = try #require(try workspace.collections().first { $0.name == "Shop" })
    let path = workspace.collectionPath(shop.id)
    // An earlier layout's split move: the file lost Milk, its backup still has it.
    try FileManager.default.copyItem(atPath: path, toPath: path + ".backup")
    try edit(path) {
      $0.replacingOccurrences(
        of: #"\{[^{}]*"text": ?"Milk"[^{}]*\},?"#, with: "", options: .regularExpression)
    }
    let report = try workspace.verify()
    #expect(
      report.problems.contains { $0.issue.contains("indexed here but missing from the file") })
    _ = try workspace.repair()
    #expect(
      try workspace.tree(of: "Shop").collection.items.map(\.text).sorted() == ["Bread", "Milk"])
    #expect(try workspace.verify().isClean)
  }

  @Test func staleTemporaryFilesAreRemovedByACheckpoint() throws {
    let (workspace, folder) = try seeded()
    defer { folder.remove() }
    let stale = workspace.collectionsFolder + "/abc.json.tmp-99999-1"
    try Data("half".utf8).write(to: URL(fileURLWithPath: stale))
    let journal = try workspace.openJournal()
    try workspace.checkpoint(try workspace.state(from: journal.recovered), journal: journal)
    try journal.close()
    #expect(!FileManager.default.fileExists(atPath: stale))
  }
}
