import Foundation
import OffloadTestSupport
import Testing

@testable import Offload

extension Tag {
  /// Tests that run only with `OFFLOAD_SLOW_TESTS=1`.
  @Tag static var slow: Self
}

/// Five copies of one store at different paths (five devices) make random changes while
/// apart; their logs travel the way a sync engine carries files (whole, or a prefix cut in
/// the middle of a line while the log grows) in random order; after a full exchange every
/// copy shows the same collections with the same items, byte for byte.
@Suite("Replica convergence through the workspace")
struct ReplicaConvergenceTests {
  struct Devices {
    let folder: TemporaryDirectory
    var stores: [Workspace] = []

    init(count: Int) throws {
      folder = try TemporaryDirectory(prefix: "offload-replicas")
      let state = folder.appending("state")
      let seed = try Workspace(root: folder.appending("store0"), stateDirectory: state).share()
      try seed.createCollection(named: "Trip", kind: .plan)
      try seed.addItem(to: "Trip", text: "Pack")
      try seed.addItem(to: "Trip", text: "Tent")
      try seed.capture("Call the plumber")
      stores.append(seed)
      for index in 1..<count {
        let path = folder.appending("store\(index)")
        try FileManager.default.copyItem(atPath: seed.root, toPath: path)
        stores.append(Workspace(root: path, stateDirectory: state))
      }
    }

    /// Copies the operation log files of `from`'s folders into `to`'s store; with `cut`, the
    /// last file is copied only up to a random byte (a transfer in progress).
    func carry(from: Int, to: Int, cut: UInt64?) throws {
      let source = stores[from].root + "/replicas"
      let files = FileManager.default
      for replica in try files.contentsOfDirectory(atPath: source) {
        let folder = source + "/" + replica
        let target = stores[to].root + "/replicas/" + replica
        // A device's own folder is never written by another.
        if replica == stores[to].device?.replica.rawValue { continue }
        try files.createDirectory(atPath: target, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: folder) where name.hasPrefix("ops.") {
          var data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
          if let cut, !data.isEmpty { data = data.prefix(Int(cut % UInt64(data.count + 1))) }
          try data.write(to: URL(fileURLWithPath: target + "/" + name))
        }
      }
    }

    /// What a device shows: every collection in order with its items, as text.
    func shown(_ index: Int) throws -> String {
      let workspace = stores[index]
      let state = try workspace.readState()
      var lines: [String] = []
      for entry in state.index.collections {
        lines.append("\(entry.id) \(entry.name) \(entry.kind) \(entry.created)")
        let collection = try workspace.loadCollection(entry, tail: state.tail)
        for item in collection.items.sorted(by: { $0.id < $1.id }) {
          lines.append(
            "  \(item.id) <\(item.parent?.rawValue ?? "-")> \(item.order.rawValue) "
              + "\(item.text) \(item.done) \(item.note ?? "") \(item.created)")
        }
      }
      return lines.joined(separator: "\n")
    }
  }

  /// One random intent on one device; a refusal (a rule, a change made elsewhere) is fine.
  static func act(_ workspace: Workspace, _ random: inout SplitMix64, step: Int) {
    guard let state = try? workspace.readState() else { return }
    let items = state.index.itemLocations.keys.sorted().map(\.rawValue)
    let collections = state.index.collections.map(\.id.rawValue)
    func pickItem() -> String? { items.isEmpty ? nil : items[random.index(below: items.count)] }
    func collection() -> String { collections[random.index(below: collections.count)] }
    do {
      switch random.index(below: 14) {
      case 0: _ = try workspace.capture("note \(step)")
      case 1: _ = try workspace.addItem(to: collection(), text: "item \(step)")
      case 2:
        if let item = pickItem(), let other = pickItem() {
          try workspace.moveItem(
            item, to: random.chance(0.5) ? .after(other) : .lastChild(of: other))
        }
      case 3:
        if let item = pickItem() {
          try workspace.moveItem(item, toCollection: collection(), to: .lastRoot)
        }
      case 4: if let item = pickItem() { try workspace.indent(item) }
      case 5: if let item = pickItem() { try workspace.outdent(item) }
      case 6: if let item = pickItem() { _ = try workspace.setDone(item, random.chance(0.5)) }
      case 7: if let item = pickItem() { try workspace.editText(item, to: "edited \(step)") }
      case 8: if let item = pickItem() { _ = try workspace.removeItems([item]) }
      case 9:
        _ = try workspace.createCollection(
          named: "List \(step)", kind: random.chance(0.5) ? .list : .plan)
      case 10: try workspace.renameCollection(collection(), to: "Renamed \(step)")
      case 11: _ = try workspace.moveCollection(collection(), to: .first)
      case 12:
        let reference = collection()
        if random.chance(0.5) {
          _ = try workspace.convertCollection(reference, to: .list)
        } else {
          _ = try workspace.deleteCollection(reference, force: true)
        }
      default: _ = try workspace.undo()
      }
    } catch {}
  }

  static func run(seed: UInt64, steps: Int) throws {
    var random = SplitMix64(seed: seed)
    let devices = try Devices(count: 5)
    for step in 0..<steps {
      let device = random.index(below: 5)
      act(devices.stores[device], &random, step: step)
      if random.chance(0.3) {
        let from = random.index(below: 5)
        let to = random.index(below: 5)
        if from != to {
          try devices.carry(from: from, to: to, cut: random.chance(0.3) ? random.next() : nil)
        }
      }
    }
    // A full exchange: every log reaches every device (twice, so relayed logs arrive too).
    for _ in 0..<2 {
      for from in 0..<5 {
        for to in 0..<5 where from != to { try devices.carry(from: from, to: to, cut: nil) }
      }
    }
    let first = try devices.shown(0)
    for index in 1..<5 {
      let other = try devices.shown(index)
      #expect(other == first, "seed \(seed): device \(index) differs from device 0")
      if other != first { break }
    }
  }

  @Test("every copy shows the same store after a full exchange", arguments: 0..<100)
  func converges(seed: Int) throws {
    try Self.run(seed: SplitMix64.testSeed(UInt64(seed)), steps: 30)
  }

  @Test(
    "2,000 seeded runs of 60 steps converge", .tags(.slow), .timeLimit(.minutes(60)),
    .enabled(if: Environment.slowTestsEnabled))
  func convergesSlowly() throws {
    for seed in 1_000..<3_000 { try Self.run(seed: UInt64(seed), steps: 60) }
  }

  @Test("a copied store is a new device, and ids from two devices never collide")
  func copiesAreDevices() throws {
    let devices = try Devices(count: 2)
    let a = try devices.stores[0].capture("Passport")
    let b = try devices.stores[1].capture("Sunscreen")
    #expect(devices.stores[0].device?.replica != devices.stores[1].device?.replica)
    #expect(a.id != b.id)
    try devices.carry(from: 0, to: 1, cut: nil)
    try devices.carry(from: 1, to: 0, cut: nil)
    let shown = try devices.shown(0)
    #expect(shown.contains("Passport") && shown.contains("Sunscreen"))
    #expect(try devices.shown(1) == shown)
  }
}
