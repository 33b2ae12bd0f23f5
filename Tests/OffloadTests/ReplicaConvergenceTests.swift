import Foundation
import OffloadTestSupport
import Replication
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

    /// `count` devices; with `ids`, device *i* takes replica id `ids[i]` (else a random one),
    /// and with `clock`, every device reads the time from it (else the wall clock).
    init(count: Int, ids: [ReplicaID]? = nil, clock: SteppingClock? = nil) throws {
      folder = try TemporaryDirectory(prefix: "offload-replicas")
      let state = folder.appending("state")
      var now: @Sendable () -> Date = { Date() }
      if let clock { now = { clock.now() } }
      func open(_ index: Int) throws -> Workspace {
        let path = folder.appending("store\(index)")
        if let ids { try DeviceContext.adopt(ids[index], store: path, state: state) }
        return Workspace(root: path, now: now, stateDirectory: state)
      }
      let seed = try open(0).share()
      try seed.createCollection(named: "Trip", kind: .plan)
      try seed.addItem(to: "Trip", text: "Pack")
      try seed.addItem(to: "Trip", text: "Tent")
      try seed.capture("Call the plumber")
      stores.append(seed)
      for index in 1..<count {
        let path = folder.appending("store\(index)")
        try FileManager.default.copyItem(atPath: seed.root, toPath: path)
        stores.append(try open(index))
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

  /// `count` distinct replica ids drawn from `seed`: the devices of a run. Ids that the
  /// devices drew themselves could meet (a copy avoids only the ids in its own folder, and
  /// the copies are made at once), and two devices writing under one id never converge: the
  /// one id's log on a third device is whichever copy arrived last.
  static func replicaIDs(seed: UInt64, count: Int) -> [ReplicaID] {
    var random = SplitMix64(seed: seed ^ 0x5EED_1D5)
    var ids: [ReplicaID] = []
    while ids.count < count {
      let id = ReplicaID.random(using: &random)
      if !ids.contains(id) { ids.append(id) }
    }
    return ids
  }

  /// The clock of a run: it stands still, creeps or leaps by the seed (the same changes
  /// stamped as on a fast machine, where many fall within one millisecond, or a slow one).
  static func clock(seed: UInt64) -> SteppingClock {
    let steps: [UInt64] = [0, 2, 40, 1_500]
    return SteppingClock(seed: seed, maximumStep: steps[Int(seed % UInt64(steps.count))])
  }

  /// A seeded run: random changes on five devices whose logs travel at random, then a full
  /// exchange; what each device shows afterwards. The devices' ids and clock come from the
  /// seed unless given.
  static func exchange(
    seed: UInt64, steps: Int, ids: [ReplicaID]? = nil, clock: SteppingClock? = nil
  ) throws -> [String] {
    var random = SplitMix64(seed: seed)
    let devices = try Devices(
      count: 5, ids: ids ?? replicaIDs(seed: seed, count: 5), clock: clock ?? Self.clock(seed: seed)
    )
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
    return try (0..<5).map { try devices.shown($0) }
  }

  static func run(
    seed: UInt64, steps: Int, ids: [ReplicaID]? = nil, clock: SteppingClock? = nil
  ) throws {
    let shown = try exchange(seed: seed, steps: steps, ids: ids, clock: clock)
    for index in 1..<5 {
      let named = ids.map { " (ids \($0.map(\.rawValue)))" } ?? ""
      #expect(
        shown[index] == shown[0], "seed \(seed)\(named): device \(index) differs from device 0")
      if shown[index] != shown[0] { break }
    }
  }

  @Test("every copy shows the same store after a full exchange", arguments: 0..<100)
  func converges(seed: Int) throws {
    try Self.run(seed: SplitMix64.testSeed(UInt64(seed)), steps: 30)
  }

  @Test("the devices of a run take distinct ids, whatever the seed")
  func distinctIDs() {
    for seed in UInt64(0)..<20_000 {
      #expect(Set(Self.replicaIDs(seed: seed, count: 5)).count == 5)
    }
  }

  /// The cause of runs that failed once in a while (seeds 58 and 64 on a loaded machine):
  /// two of the five copies drew the same replica id, so device 0 held the other copy's log
  /// under that id and showed none of what device 1 made under it.
  @Test("two copies writing under one replica id diverge, so a run never gives them one")
  func sharedIDDiverges() throws {
    var ids = Self.replicaIDs(seed: 1, count: 5)
    ids[3] = ids[1]
    let shown = try Self.exchange(
      seed: 1, steps: 30, ids: ids, clock: SteppingClock(seed: 1, maximumStep: 0))
    // What device 1 made under the shared id, device 0 does not show.
    let made = shown[1].split(separator: "\n").filter {
      $0.drop { $0 == " " }.hasPrefix(ids[1].rawValue) && !shown[0].contains($0)
    }
    #expect(!made.isEmpty)
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

/// A clock for devices in one test: it starts at a fixed time and each reading moves it on
/// by a seeded step of up to `maximumStep` milliseconds (0: it stands still, as many changes
/// within one millisecond on a fast machine; large: the gaps of a slow, loaded one).
final class SteppingClock: @unchecked Sendable {
  private let lock = NSLock()
  private var milliseconds: UInt64 = 1_750_000_000_000
  private var random: SplitMix64
  private let maximumStep: UInt64

  init(seed: UInt64, maximumStep: UInt64) {
    random = SplitMix64(seed: seed)
    self.maximumStep = maximumStep
  }

  func now() -> Date {
    lock.withLock {
      if maximumStep > 0 { milliseconds += random.next() % (maximumStep + 1) }
      return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
  }
}
