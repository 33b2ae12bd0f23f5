import Foundation
import OffloadTestSupport
import Persistence
import Replication
import Testing

@testable import Offload

/// Compaction of a device's log through the workspace: devices compact at random moments
/// while their folders travel, a device joins after compactions, a device loses its
/// checkpoint; every one ends with the merge of every operation ever made.
@Suite("Replica log compaction through the workspace")
struct ReplicaCompactionTests {
  /// Mirrors `from`'s own folder into `to`'s store, as a sync engine does (a file removed
  /// there is removed here).
  static func carry(from: Workspace, to: Workspace) throws {
    let id = try #require(from.device?.replica.rawValue)
    let source = from.root + "/replicas/" + id
    let target = to.root + "/replicas/" + id
    let files = FileManager.default
    guard files.fileExists(atPath: source) else { return }
    try files.createDirectory(atPath: target, withIntermediateDirectories: true)
    let present = Set(try files.contentsOfDirectory(atPath: source))
    for name in try files.contentsOfDirectory(atPath: target) where !present.contains(name) {
      try files.removeItem(atPath: target + "/" + name)
    }
    for name in present
    where name.hasPrefix("ops.") && name.hasSuffix(".jsonl") || name == "merged.checkpoint"
      || name == "device.json" || name == "retired.json"
    {
      try? files.removeItem(atPath: target + "/" + name)
      try files.copyItem(atPath: source + "/" + name, toPath: target + "/" + name)
    }
  }

  /// Every operation of `workspace`'s own log as it is now, into `archive`.
  static func archive(_ workspace: Workspace, into archive: inout [String: ReplicaOperation]) {
    guard let device = workspace.device else { return }
    for record in workspace.ownLogRecords(device) {
      for operation in record.entry.operations {
        archive["\(operation.replica.rawValue):\(operation.sequence)"] = operation
      }
    }
  }

  /// The state merged from every device's log alone, with no checkpoint.
  static func fromLogs(_ workspace: Workspace) throws -> String {
    let device = try #require(workspace.device)
    return workspace.mergeLogsFromStart(device, own: nil).state.canonicalText()
  }

  /// The items of every collection as the workspace shows them.
  static func shown(_ workspace: Workspace) throws -> [String] {
    let state = try workspace.readState()
    return try state.index.collections.flatMap { entry in
      try workspace.loadCollection(entry, tail: state.tail).items.map { "\(entry.name)/\($0.text)" }
    }.sorted()
  }

  /// One seeded run of three devices; returns what went wrong.
  func run(seed: UInt64) throws -> [String] {
    let folder = try TemporaryDirectory(prefix: "offload-compaction")
    let state = folder.appending("state")
    let first = try Workspace(root: folder.appending("d0"), stateDirectory: state).share()
    try first.createCollection(named: "Trip", kind: .plan)
    var devices = [first]
    for index in 1..<3 {
      try FileManager.default.copyItem(atPath: first.root, toPath: folder.appending("d\(index)"))
      devices.append(Workspace(root: folder.appending("d\(index)"), stateDirectory: state))
    }
    var rng = SplitMix64(seed: seed)
    var archive: [String: ReplicaOperation] = [:]
    var added: [[ShortID]] = [[], [], []]
    var compacted = 0
    var freed = 0
    for step in 0..<60 {
      let index = rng.index(below: devices.count)
      let device = devices[index]
      switch rng.index(below: 10) {
      case 0..<4:
        added[index].append(try device.addItem(to: "Trip", text: "item \(step)").id)
      case 4:
        if let id = added[index].randomElement(using: &rng) {
          try? device.editText(id.rawValue, to: "edited \(step)")
        }
      case 5..<8:
        let to = rng.index(below: devices.count)
        if to != index { try Self.carry(from: device, to: devices[to]) }
      default:
        Self.archive(device, into: &archive)
        let report = try device.compact()
        if report.compacted { compacted += 1 }
        if report.keepsFrom > 0 { freed += 1 }
      }
    }
    // Everything travels everywhere, each device compacts once more and it travels again.
    for _ in 0..<2 {
      for from in devices {
        for to in devices where to.root != from.root { try Self.carry(from: from, to: to) }
      }
      for device in devices {
        _ = try device.readState()
        Self.archive(device, into: &archive)
        let report = try device.compact()
        if report.compacted { compacted += 1 }
        if report.keepsFrom > 0 { freed += 1 }
      }
    }
    for from in devices {
      for to in devices where to.root != from.root { try Self.carry(from: from, to: to) }
    }
    for device in devices { Self.archive(device, into: &archive) }
    // A new device joins: a copy of a store at a new path is a new device.
    try FileManager.default.copyItem(atPath: devices[0].root, toPath: folder.appending("new"))
    let joined = Workspace(root: folder.appending("new"), stateDirectory: state)
    // A device loses its checkpoint.
    let lost = try #require(devices[1].device?.replica.rawValue)
    try? FileManager.default.removeItem(
      atPath: devices[1].root + "/replicas/" + lost + "/merged.checkpoint")
    var reference = ReplicaState()
    reference.merge(archive.values.sorted { $0.timestamp < $1.timestamp })
    let expected = reference.canonicalText()
    var failures: [String] = []
    let shownFirst = try Self.shown(devices[0])
    for (index, device) in (devices + [joined]).enumerated() {
      if try Self.fromLogs(device) != expected {
        failures.append("seed \(seed): device \(index)'s logs do not merge to every operation")
      }
      if try Self.shown(device) != shownFirst {
        failures.append("seed \(seed): device \(index) shows other items")
      }
    }
    if compacted == 0 { failures.append("seed \(seed): no compaction ran") }
    if freed == 0 { failures.append("seed \(seed): no compaction dropped an operation") }
    return failures
  }

  @Test("Devices compacting at random moments end with every operation ever made")
  func seededCompactions() throws {
    var failures: [String] = []
    for seed in 0..<6 { failures += try run(seed: SplitMix64.testSeed(UInt64(seed))) }
    #expect(failures.isEmpty, "\(failures.prefix(4).joined(separator: "\n"))")
  }

  @Test("One device alone compacts its log to a snapshot and reads the same")
  func aloneCompactsEverything() throws {
    let folder = try TemporaryDirectory(prefix: "offload-compaction")
    let laptop = try Workspace(
      root: folder.appending("laptop"), stateDirectory: folder.appending("s")
    )
    .share()
    try laptop.createCollection(named: "Trip", kind: .plan)
    for text in ["Pack", "Tent", "Passport"] { _ = try laptop.addItem(to: "Trip", text: text) }
    let before = try Self.shown(laptop)
    let merged = try Self.fromLogs(laptop)
    let report = try laptop.compact()
    #expect(report.compacted)
    #expect(report.generation == 1)
    #expect(report.changesKept == 0)
    #expect(try Self.shown(laptop) == before)
    #expect(try Self.fromLogs(laptop) == merged)
    let id = try #require(laptop.device?.replica.rawValue)
    let names = try FileManager.default.contentsOfDirectory(atPath: laptop.root + "/replicas/" + id)
    #expect(names.contains("ops.1.jsonl") && !names.contains("ops.0.jsonl"))
    // A change after it appends to the new generation.
    _ = try laptop.addItem(to: "Trip", text: "Hotel")
    #expect(try Self.shown(laptop).contains("Trip/Hotel"))
    #expect(try laptop.compact().changesKept == 0)
    #expect(try Self.shown(laptop).contains("Trip/Hotel"))
  }

  /// A sync engine may deliver a compacted log's new generation before it removes the old
  /// one: a reader whose checkpoint marks the old generation reads the new one all the same.
  @Test("A new generation beside the old one is read, not the old one from its mark")
  func newGenerationBesideOldOne() throws {
    let folder = try TemporaryDirectory(prefix: "offload-compaction")
    let state = folder.appending("s")
    let laptop = try Workspace(root: folder.appending("laptop"), stateDirectory: state).share()
    try laptop.createCollection(named: "Trip", kind: .plan)
    _ = try laptop.addItem(to: "Trip", text: "Pack")
    try FileManager.default.copyItem(atPath: laptop.root, toPath: folder.appending("phone"))
    let phone = Workspace(root: folder.appending("phone"), stateDirectory: state)
    _ = try phone.capture("Passport")  // its checkpoint marks the laptop's generation 0
    #expect(try laptop.compact().compacted)
    _ = try laptop.addItem(to: "Trip", text: "Hotel")
    let id = try #require(laptop.device?.replica.rawValue)
    let name = "/replicas/\(id)/ops.1.jsonl"
    try FileManager.default.copyItem(atPath: laptop.root + name, toPath: phone.root + name)
    #expect(FileManager.default.fileExists(atPath: phone.root + "/replicas/\(id)/ops.0.jsonl"))
    #expect(try Self.shown(phone).contains("Trip/Hotel"))
    _ = try phone.capture("Sunscreen")
    #expect(try Self.shown(phone).contains("Trip/Hotel"))
  }

  @Test("A device that has not seen the others holds compaction back until it is retired")
  func retirementLetsCompactionGoOn() throws {
    let folder = try TemporaryDirectory(prefix: "offload-compaction")
    let state = folder.appending("s")
    let laptop = try Workspace(root: folder.appending("laptop"), stateDirectory: state).share()
    try laptop.createCollection(named: "Trip", kind: .plan)
    try FileManager.default.copyItem(atPath: laptop.root, toPath: folder.appending("phone"))
    let phone = Workspace(root: folder.appending("phone"), stateDirectory: state)
    _ = try phone.addItem(to: "Trip", text: "Sunscreen")
    try Self.carry(from: phone, to: laptop)
    for text in ["Pack", "Tent"] { _ = try laptop.addItem(to: "Trip", text: text) }
    // The phone never sees the laptop's adds: the laptop's snapshot stops before them, and
    // its log keeps them all (the phone has no snapshot yet).
    let held = try laptop.compact()
    #expect(held.compacted)
    let laptopID = try #require(laptop.device?.replica.rawValue)
    let phoneID = try #require(phone.device?.replica.rawValue)
    #expect((held.snapshot[laptopID] ?? 0) < 3)
    // Retired, the phone no longer holds it back; its operation stays in the merge.
    #expect(throws: WorkspaceError.self) { try laptop.retire(laptopID) }
    let retired = try laptop.retire(String(phoneID.prefix(2)))
    #expect(retired.replica == phoneID && retired.retired)
    #expect(try laptop.devices().first { $0.replica == phoneID }?.retired == true)
    let freed = try laptop.compact()
    #expect(freed.compacted)
    #expect((freed.snapshot[laptopID] ?? 0) > (held.snapshot[laptopID] ?? 0))
    #expect(freed.keepsFrom == freed.snapshot[laptopID])
    #expect(freed.changesKept == 0)
    #expect(try Self.shown(laptop).contains("Trip/Sunscreen"))
    do {
      _ = try laptop.retire("nobody")
      Issue.record("retiring an unknown device succeeded")
    } catch {
      #expect(error.code == .notFound)
      #expect(error.description.contains("no device \"nobody\""))
    }
  }

  @Test("A crash at each step of a compaction leaves a store that reads the same")
  func crashAtEachStep() throws {
    let folder = try TemporaryDirectory(prefix: "offload-compaction")
    let state = folder.appending("s")
    let laptop = try Workspace(root: folder.appending("laptop"), stateDirectory: state).share()
    try laptop.createCollection(named: "Trip", kind: .plan)
    for text in ["Pack", "Tent", "Passport"] { _ = try laptop.addItem(to: "Trip", text: text) }
    let expected = try Self.shown(laptop)
    let merged = try Self.fromLogs(laptop)
    let dry = FaultInjectingFileSystem()
    let dryRoot = folder.appending("dry")
    try FileManager.default.copyItem(atPath: laptop.root, toPath: dryRoot)
    try laptop.shareIdentity(with: dryRoot)
    _ = try Workspace(root: dryRoot, fileSystem: dry, stateDirectory: state).compact()
    #expect(dry.operationCount > 5)
    var crashes = 0
    for n in 1...dry.operationCount {
      let root = folder.appending("crash\(n)")
      try FileManager.default.copyItem(atPath: laptop.root, toPath: root)
      try laptop.shareIdentity(with: root)
      let faulty = FaultInjectingFileSystem(failingOperation: n, crashes: true)
      if (try? Workspace(root: root, fileSystem: faulty, stateDirectory: state).compact()) == nil {
        crashes += 1
      }
      let after = Workspace(root: root, stateDirectory: state)
      #expect(try Self.shown(after) == expected, "crash at operation \(n)")
      #expect(try Self.fromLogs(after) == merged, "crash at operation \(n)")
      _ = try after.addItem(to: "Trip", text: "After")
      #expect(try Self.shown(after).contains("Trip/After"), "crash at operation \(n)")
    }
    #expect(crashes > 0)
  }
}

@Suite("A new replica id avoids the store's device folders")
struct NewReplicaIDTests {
  @Test("The id a generator would draw first is skipped when a folder has it")
  func skipsTakenIDs() throws {
    for seed in 0..<50 {
      var probe = SplitMix64(seed: SplitMix64.testSeed(UInt64(seed)))
      let first = ReplicaID.random(using: &probe).rawValue
      var generator = SplitMix64(seed: SplitMix64.testSeed(UInt64(seed)))
      let id = DeviceContext.newReplicaID(avoiding: [first], using: &generator)
      #expect(id.rawValue != first)
      var again = SplitMix64(seed: SplitMix64.testSeed(UInt64(seed)))
      #expect(DeviceContext.newReplicaID(avoiding: [], using: &again).rawValue == first)
    }
  }

  @Test("A device joining a store takes an id no folder of it has")
  func joiningDeviceAvoidsFolders() throws {
    let folder = try TemporaryDirectory(prefix: "offload-new-id")
    let store = folder.appending("store")
    let taken = ["k7q", "p2m", "a1b"]
    for id in taken {
      try FileManager.default.createDirectory(
        atPath: store + "/replicas/" + id, withIntermediateDirectories: true)
    }
    for index in 0..<20 {
      let context = try #require(
        DeviceContext.resolve(store: store, state: folder.appending("state\(index)")))
      #expect(!taken.contains(context.replica.rawValue))
    }
  }
}
