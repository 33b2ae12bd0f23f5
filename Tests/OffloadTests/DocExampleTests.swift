import Foundation
import Gestures
import OffloadTestSupport
import OrderingCore
import PhotoSession
import TerminalUI
import Testing

@testable import Offload
@testable import Persistence

/// The examples of Offload's doc comments and DocC catalog, compiled and run here;
/// `everyExampleIsHere` fails when an example is written that this file does not hold.
@Suite("Offload: documentation examples compile and do what they say")
struct DocExampleTests {
  @Test func everyExampleIsHere() {
    let root = DocExamples.packageRoot(from: #filePath)
    let blocks = DocExamples.blocks(
      module: "Offload", guides: ["Docs/Guides/Workspace.md"], root: root)
    #expect(blocks.count >= 9)
    let missing = DocExamples.missing(
      blocks, in: ["Tests/OffloadTests/DocExampleTests.swift"], root: root)
    #expect(missing.isEmpty, "examples not compiled by a test: \(missing)")
  }

  @Test func catalogFirstSteps() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let environment = ["OFFLOAD_HOME": folder.path]
    // The example reads the process's environment; here it reads one that names the folder.
    struct Process {
      struct Info { var environment: [String: String] }
      var processInfo: Info
    }
    let ProcessInfo = Process(processInfo: .init(environment: environment))
    var printed: [String] = []
    func print(_ text: String) { printed.append(text) }
    let location = try StoreLocation.resolve(
      explicit: nil, environment: ProcessInfo.processInfo.environment)
    let workspace = Workspace(root: location.path)
    let idea = try workspace.capture("Call the plumber")
    try workspace.createCollection(named: "House", kind: .plan)
    try workspace.moveItem(idea.id.rawValue, toCollection: "House", to: .lastRoot)
    print(CollectionTree.lines(try workspace.tree(of: "House").rows()).joined(separator: "\n"))
    try workspace.undo()
    #expect(printed.count == 1 && printed[0].contains("Call the plumber"))
    #expect(try workspace.tree(of: "House").collection.items.isEmpty)
  }

  @Test func trashExample() throws {
    let base = try TemporaryDirectory()
    defer { base.remove() }
    let folder = base.appending("store")
    var printed: [String] = []
    func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
    let workspace = Workspace(root: folder)
    let item = try workspace.capture("Passport")
    try workspace.removeItems([item.id.rawValue])
    for deleted in try workspace.deletedItems() {
      print(deleted.item.text, deleted.collectionName)  // Passport Inbox
    }
    let result = try workspace.restoreItems([item.id.rawValue])
    print(result.restored[0].place)  // formerPlace
    #expect(printed == ["Passport Inbox", "formerPlace"])
  }

  @Test func shareExample() throws {
    let base = try TemporaryDirectory()
    defer { base.remove() }
    let folder = base.appending("store")
    func Workspace(root: String) -> Offload.Workspace {
      Offload.Workspace(root: root, stateDirectory: base.appending("state"))
    }
    var printed: [String] = []
    func print(_ text: String) { printed.append(text) }
    _ = try Workspace(root: folder).capture("Call the plumber")
    #expect(!Workspace(root: folder).isShared)
    let shared = try Workspace(root: folder).share()
    print(shared.deviceDescription?.name ?? "")
    #expect(shared.isShared && printed == [DeviceContext.deviceName()])
    #expect(Workspace(root: folder).isShared)
    // The single-writer store became this device's log, item and all.
    #expect(try shared.tree(of: Offload.Workspace.inboxName).collection.items.count == 1)
    #expect(try Workspace(root: folder).verify().items == 1)
  }

  @Test func devicesExamples() throws {
    let base = try TemporaryDirectory()
    defer { base.remove() }
    let folder = base.appending("store")
    func Workspace(root: String) -> Offload.Workspace {
      Offload.Workspace(root: root, stateDirectory: base.appending("state"))
    }
    var printed: [String] = []
    func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
    _ = try Workspace(root: folder).share()
    _ = try Workspace(root: folder).capture("Call the plumber")
    let (workspace, notice) = try Workspace(root: folder).claimingOwnFolder()
    if let notice { print(notice) }
    #expect(workspace.isShared && printed.isEmpty)
    for device in try workspace.devices() {
      print(device.replica, device.name ?? "?", device.operations)
    }
    #expect(printed.count == 1 && printed[0].contains(" \(DeviceContext.deviceName()) "))
    var mark: ArrivalMark?
    if let arrivals = workspace.arrivals(since: mark) {
      if let line = arrivals.summary { print(line) }
      mark = arrivals.mark
    }
    #expect(mark?.seen == [:] && printed.count == 1, "nothing arrived: \(printed)")
  }

  @Test func compactAndRetireExamples() throws {
    let base = try TemporaryDirectory()
    defer { base.remove() }
    let workspace = try Workspace(
      root: base.appending("store"), stateDirectory: base.appending("s")
    )
    .share()
    _ = try workspace.capture("Call the plumber")
    try workspace.replicaFolders.writeClaim(
      .init(replica: "p2m", claim: "1", name: "old-phone", store: ""))
    var printed: [String] = []
    func print(_ values: Any...) { printed.append(values.map { "\($0)" }.joined(separator: " ")) }
    let report = try workspace.compact()
    print(report.bytesBefore, report.bytesAfter)
    let retired = try workspace.retire("old-phone")
    print(retired.replica)
    #expect(printed.last == "p2m" && printed.count == 2)
  }

  @Test func workspaceOverview() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    func Workspace(root: String) -> Offload.Workspace { Offload.Workspace(root: folder.path) }
    let workspace = Workspace(root: "/home/ada/.local/share/offload")
    let item = try workspace.capture("Call the plumber")
    try workspace.createCollection(named: "House", kind: .plan)
    try workspace.moveItem(item.id.rawValue, toCollection: "House", to: .firstRoot)
    try workspace.undo()
    #expect(try workspace.tree(of: "House").collection.items.isEmpty)
    #expect(try workspace.tree(of: Offload.Workspace.inboxName).collection.items.count == 1)
  }

  @Test func deferringCheckpoints() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    func Workspace(root: String) -> Offload.Workspace { Offload.Workspace(root: folder.path) }
    let workspace = Workspace(root: "/home/ada/.local/share/offload").deferringCheckpoints()
    try workspace.capture("Call the plumber")  // returns once the change is durable
    // … answer the person, then:
    try workspace.checkpointIfDue()
    #expect(
      try workspace.tree(of: Offload.Workspace.inboxName).rows().map(\.item.text) == [
        "Call the plumber"
      ])
  }

  @Test func changingExpecting() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    func Workspace(root: String) -> Offload.Workspace { Offload.Workspace(root: folder.path) }
    let workspace = Workspace(root: "/home/ada/.local/share/offload")
    let shown = try workspace.collections().count
    let checked = workspace.changing { base throws(WorkspaceError) in
      guard base.collections.count == shown else {
        throw WorkspaceError(.conflict, "the collections changed since they were shown")
      }
    }
    try checked.createCollection(named: "Books", kind: .list)
    #expect(try workspace.collections().map(\.name) == ["Inbox", "Books"])
    // The count it expects is gone now: the next change is refused and writes nothing.
    #expect(throws: WorkspaceError.self) {
      try checked.createCollection(named: "Films", kind: .list)
    }
    #expect(try workspace.collections().map(\.name) == ["Inbox", "Books"])
  }

  @Test func recordingAndUndoMadeHere() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    func Workspace(root: String) -> Offload.Workspace { Offload.Workspace(root: folder.path) }
    let made = ChangesMadeHere()
    let here = Workspace(root: "/home/ada/.local/share/offload").recording(in: made)
    try here.capture("Call the plumber")
    try here.undo(madeHere: made.sequences)
    #expect(try here.tree(of: "Inbox").rows().isEmpty)
    #expect(made.sequences.isEmpty)
  }

  @Test func shortIDs() {
    let id = ShortID(sequence: 1)  // "p2s0q3", say: six characters, never ambiguous to type
    #expect(id.rawValue.count == 6)
    #expect(ShortID(id.rawValue) == id)
  }

  @Test func storeLocation() throws {
    let location = try StoreLocation.resolve(explicit: nil, environment: ["HOME": "/home/ada"])
    location.path  // "/home/ada/.local/share/offload"
    location.source  // .defaultLocation
    #expect(location.path == "/home/ada/.local/share/offload")
    #expect(location.source == .defaultLocation)
  }

  @Test func itemSelection() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let workspace = Offload.Workspace(root: folder.path)
    try workspace.createCollection(named: "Trip", kind: .plan)
    var ids: [String: String] = [:]
    for text in ["A", "A1", "A2", "B", "C", "D", "E"] {
      ids[text] = try workspace.addItem(to: "Trip", text: text, at: .lastRoot).id.rawValue
    }
    for child in ["A1", "A2"] {
      try workspace.moveItem(ids[child]!, toCollection: "Trip", to: .lastChild(of: ids["A"]!))
    }
    // An item whose id starts with 7, found by its id rather than its row.
    var seven = try workspace.capture("X")
    while !seven.id.rawValue.hasPrefix("7") { seven = try workspace.capture("X") }
    try workspace.moveItem(seven.id.rawValue, toCollection: "Trip", to: .lastRoot)
    let tree = try workspace.tree(of: "Trip")
    let selection = try ItemSelection.parse(["1.2", "3-5", "id:7"], except: ["4"])
    let items = try selection.resolve(in: tree)  // rows 1.2, 3, 5 and the item 7…, not 4
    #expect(items.ids.map(\.rawValue) == [ids["A2"]!, ids["C"]!, ids["E"]!, seven.id.rawValue])
  }

  @Test func organizeScreen() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let workspace = Offload.Workspace(root: folder.path)
    try workspace.createCollection(named: "Trip", kind: .plan)
    _ = try workspace.addItem(to: "Trip", text: "Day 1", at: .lastRoot)
    _ = try workspace.addItem(to: "Trip", text: "Day 2", at: .lastRoot)
    var printed: [String] = []
    func print(_ text: String) { printed.append(text) }
    var screen = OrganizeScreen(tree: try workspace.tree(of: "Trip"))
    _ = screen.handle(KeyPress(.down))
    print(screen.frame(size: TerminalSize(columns: 80, rows: 24)).text)
    #expect(printed.first?.contains("Day 2") == true)
  }

  @Test func photoCullScreen() throws {
    var printed: [String] = []
    func print(_ text: String) { printed.append(text) }
    let session = try CullingSession(photos: ["a.jpg", "b.jpg"], journal: MemorySessionJournal())
    var screen = PhotoCullScreen(session: session, sessionID: "20240501-100000")
    _ = screen.handle(KeyPress(.left))  // a.jpg goes to the Trash at commit
    print(screen.frame(size: TerminalSize(columns: 80, rows: 24)).text)
    #expect(session.state.decision(at: 0) == .trash)
    #expect(printed.count == 1 && printed[0].contains("a.jpg → trash"))
    #expect(printed[0].hasPrefix("offloadctl photos cull · session 20240501-100000"))
  }

  @Test func photoText() throws {
    var printed: [String] = []
    func print(_ text: String) { printed.append(text) }
    let session = try CullingSession(photos: ["a.jpg", "b.jpg"], journal: MemorySessionJournal())
    _ = try session.swipe(.left)
    print(PhotoText.progressLine(session.statistics))  // Session: 1 / 2
    print(PhotoText.commitSummary(session))  // 1 photo (1 to the Trash, 0 favorites, 0 kept)
    #expect(printed == ["Session: 1 / 2", "1 photo (1 to the Trash, 0 favorites, 0 kept)"])
  }

  @Test func organizeSession() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let workspace = Offload.Workspace(root: folder.path)
    try workspace.createCollection(named: "Trip", kind: .plan)
    _ = try workspace.addItem(to: "Trip", text: "Day 1", at: .lastRoot)
    var session = try OrganizeSession(workspace: workspace, collection: "Trip")
    _ = session.handle(KeyPress(.character("e")))
    _ = session.handle(KeyPress(.space))
    _ = session.handle(KeyPress(.character("x")))  // saved: one change, one undo
    #expect(try workspace.tree(of: "Trip").collection.items.allSatisfy(\.done))
    try workspace.undo()
    #expect(try workspace.tree(of: "Trip").collection.items.allSatisfy { !$0.done })
  }

  @Test func photoSessions() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let location = try StoreLocation.resolve(explicit: folder.path, environment: [:])
    let environment = ["HOME": folder.path]
    do {
      let sessions = PhotoSessions.store(root: location.path, environment: environment)
      let opened = try sessions.openLatest()
      Issue.record("a store with no session opened \(opened.id)")
    } catch {
      #expect(error.code == .noSession)
    }
  }

  @Test func placementPolicy() throws {
    // Days d1, d2 are roots; h is a header, g a game, t a travel segment valid on d2 only.
    @Sendable func isDay(_ id: String) -> Bool { id.hasPrefix("d") }
    @Sendable func isHeader(_ id: String) -> Bool { id == "h" }
    @Sendable func isGame(_ id: String) -> Bool { id == "g" }
    @Sendable func fits(_ node: String, day: String) -> Bool {
      isDay(day) && !isDay(node) && (node != "t" || day == "d2")
    }
    let pointer = TouchPoint(x: 40, y: 60)
    let rows = [
      DropRow(id: "d1", minY: 0, height: 44, acceptsChildren: true),
      DropRow(id: "d2", minY: 44, height: 44, acceptsChildren: true),
    ]
    let id = "t"
    // A trip itinerary: days are roots; games and day headers stay put; a travel
    // segment lands only on the days of its range; a custom item goes on any day.
    let policy = PlacementPolicy<String>(
      name: "itinerary",
      fixedReason: "headers and games stay where they are",
      isFixed: { isHeader($0) || isGame($0) },
      placementReason: "a day accepts it only inside its valid range",
      accepts: { node, parent, _ in parent.map { fits(node, day: $0) } ?? isDay(node) })
    var forest = OrderedForest<String>(constraints: .init(rules: policy.forestRules))
    let drop = DropTargetResolver.resolve(
      pointer: pointer, rows: rows, dragged: [id], rules: policy, configuration: .init())
    try forest.insert("d1", at: .lastRoot)
    try forest.insert("d2", at: .lastRoot)
    #expect(throws: (any Error).self) { try forest.insert("t", at: .lastChild(of: "d1")) }
    try forest.insert("t", at: .lastChild(of: "d2"))
    #expect(!drop.showsInvalidTint)  // over the middle of d2, which takes the segment
  }

  @Test func dropMoveIntoTheForest() throws {
    var forest = OrderedForest<String>()
    try forest.insert("day-1", at: .lastRoot)
    try forest.insert("day-2", at: .lastRoot)
    try forest.insert("travel-1", at: .lastChild(of: "day-1"))
    let rows = [
      DropRow(id: "day-1", minY: 0, height: 44, acceptsChildren: true),
      DropRow(id: "travel-1", minY: 44, height: 44, depth: 1),
      DropRow(id: "day-2", minY: 88, height: 44, acceptsChildren: true),
    ]
    let resolution = DropTargetResolver.resolve(
      pointer: TouchPoint(x: 60, y: 120), rows: rows, dragged: ["travel-1"],
      rules: PlacementPolicy<String>(name: "any"), configuration: .init())
    if case .allowed(let instruction)? = resolution.target {
      try forest.move("travel-1", to: .init(instruction.move))
    }
    #expect(forest.parent(of: "travel-1") != nil || forest.roots.contains("travel-1"))
    #expect(resolution.target != nil)
  }

  @Test func syncEngineMarkerAndSharingOnFirstOpen() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder.appending("Sync/.stfolder"), withIntermediateDirectories: true)
    let storeFolder = folder.appending("Sync/offload")
    var printed: [String] = []
    func print(_ text: String) { printed.append(text) }
    if let marker = SyncEngineMarker.find(from: storeFolder) {
      print(marker.description)  // "Syncthing's .stfolder in /home/ada/Sync"
    }
    #expect(printed == ["Syncthing's .stfolder in " + folder.appending("Sync")])
    let opened = try Workspace(root: storeFolder).sharedIfSynced(forChange: true)
    if let notice = opened.notice { print(notice) }
    #expect(opened.workspace.isShared)
    #expect(printed.count == 2 && printed[1].hasSuffix("found " + printed[0]))
  }
}
