// Concurrency: several offloadctl processes adding to one store while one moves items between
// collections and one runs `store repair` and `store verify`; then exact counts.

import Foundation
import OffloadTestSupport

/// What the processes of one concurrent run did, shared between their threads.
final class Lanes: @unchecked Sendable {
  private let lock = NSLock()
  private var stopped = false
  /// Every add: its text, whether it acknowledged, and whether it was killed.
  private(set) var adds: [(text: String, acknowledged: Bool, killed: Bool)] = []
  private(set) var moves = 0
  private(set) var acknowledgedMoves = 0
  private(set) var repairs = 0
  /// How long an add takes, in seconds: a moving average over the adds that are not killed.
  private(set) var addSeconds = 0.05
  private(set) var verifies = 0
  private(set) var problems: [String] = []

  func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  var isStopped: Bool { locked { stopped } }
  func stop() { locked { stopped = true } }
  func add(_ text: String, _ result: Finished, seconds: Double? = nil) {
    locked {
      adds.append((text, result.acknowledged, result.killed))
      if let seconds { addSeconds = addSeconds * 0.8 + seconds * 0.2 }
    }
  }
  func moved(_ acknowledged: Bool) {
    locked {
      moves += 1
      if acknowledged { acknowledgedMoves += 1 }
    }
  }
  func repaired() { locked { repairs += 1 } }
  func verified() { locked { verifies += 1 } }
  func problem(_ text: String) {
    locked { problems.append(text) }
    print(text)
  }
}

/// Runs `body` on a thread of its own (the children block in waitpid, so each lane needs one).
func onThread(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
  group.enter()
  let thread = Thread {
    body()
    group.leave()
  }
  thread.start()
}

/// Runs `adders` processes adding `adds` items each, one more whose adds are killed at random,
/// one mover and one repairer, at once on a fresh store, then counts: every acknowledged add
/// present exactly once, a killed one at most once, no failed one, every id once, verify
/// clean, the next change taken. Prints the summary line.
///
/// - Returns: Whether every check passed.
func runConcurrentTrial(
  offloadctl: String, store: String, scratch: String, adders: Int, adds: Int, seed: UInt64,
  layout: Layout = Layout()
) -> Bool {
  let runner = Runner(
    executable: offloadctl, store: store, scratch: scratch, environment: layout.environment)
  let devices = layout.devices(store: store, offloadctl: offloadctl, label: "concurrent")
  var setUp = ["Left", "Right"]
  if layout.shared { setUp.append("share") }
  if devices != nil { setUp.append(Devices.collection) }
  for name in setUp {
    let created = runner.run(
      name == "share" ? ["store", "share"] : ["collection", "create", name])
    if !created.acknowledged { fail("cannot set up \(name): \(created.summary)") }
  }
  let lanes = Lanes()
  let adding = DispatchGroup()
  if let devices {
    // Each other device makes its copy now, then adds to it while this device's processes
    // run; its folder is carried in after every add, a third of the time with a cut line.
    var serial = 0
    var rng = SplitMix64(seed: seed ^ 0xD1CE)
    for index in devices.devices.indices {
      devices.change(index, adds: 1, serial: &serial)
      devices.deliver(index, cutting: false, rng: &rng)
    }
    for index in devices.devices.indices {
      let laneSeed = UInt64(rng.below(Int.max))
      onThread(adding) {
        var rng = SplitMix64(seed: laneSeed)
        var serial = 1_000_000 * (index + 1)
        for _ in 1..<max(adds, 1) {
          devices.change(index, adds: 1, serial: &serial, refresh: false)
          devices.deliver(index, cutting: rng.below(3) == 0, rng: &rng, running: true)
        }
      }
    }
  }
  for lane in 0..<adders {
    onThread(adding) {
      for number in 0..<adds {
        let text = "lane \(lane) add \(number)"
        let start = Date()
        let result = runner.run(
          ["item", "add", lane % 2 == 0 ? "Left" : "Right", text], tag: "add\(lane)")
        lanes.add(text, result, seconds: Date().timeIntervalSince(start))
        if !result.acknowledged && result.status != 75 {
          lanes.problem("concurrent: `item add` \"\(text)\" failed: \(result.summary)")
        }
      }
    }
  }
  // One more adder whose adds are SIGKILLed at random moments while the others run: each is
  // then in the store once or not at all.
  onThread(adding) {
    var rng = SplitMix64(seed: seed)
    for number in 0..<adds {
      let text = "killed add \(number)"
      // Within twice the time an add takes now (it waits for the lock more than most).
      let delay = Double(rng.below(2001)) / 1000 * lanes.locked { lanes.addSeconds }
      let result = runner.run(
        ["item", "add", "Left", text], killingAfter: UInt32(delay * 1_000_000), tag: "killed")
      lanes.add(text, result)
      if !result.acknowledged && !result.killed && result.status != 75 {
        lanes.problem("concurrent: `item add` \"\(text)\" failed: \(result.summary)")
      }
    }
  }
  let others = DispatchGroup()
  onThread(others) {
    var leftward = false
    while !lanes.isStopped {
      let (from, to) = leftward ? ("Right", "Left") : ("Left", "Right")
      let result = runner.run(["item", "move", "1-2", "--in", from, "--to", to], tag: "move")
      lanes.moved(result.acknowledged)
      leftward.toggle()
    }
  }
  onThread(others) {
    while !lanes.isStopped {
      let repair = runner.run(["store", "repair", "--json"], tag: "repair")
      lanes.repaired()
      struct Report: Decodable { var clean: Bool }
      let report = try? JSONDecoder().decode(Report.self, from: Data(repair.stdout.utf8))
      if !repair.acknowledged || report?.clean != true {
        lanes.problem(
          "concurrent: `store repair` on a healthy store: \(repair.summary) \(repair.stdout.prefix(300))"
        )
      }
      let verify = runner.run(["store", "verify"], tag: "repair")
      lanes.verified()
      if !verify.acknowledged {
        lanes.problem("concurrent: `store verify` while others write: \(verify.summary)")
      }
    }
  }
  adding.wait()
  lanes.stop()
  others.wait()
  if let devices {
    // The sync engine finishes: every device's folder arrives whole.
    var rng = SplitMix64(seed: seed)
    for index in devices.devices.indices { devices.deliver(index, cutting: false, rng: &rng) }
  }

  let verify = runner.run(["store", "verify"])
  var failingVerify = 0
  if !verify.acknowledged {
    failingVerify += 1
    lanes.problem("concurrent: `store verify` afterwards: \(verify.summary) \(verify.stdout)")
  }
  let probe = runner.run(["capture", "after the race"])
  if !probe.acknowledged {
    lanes.problem("concurrent: the next `capture` failed: \(probe.summary)")
  }
  let snapshot = Trials.read(runner, context: "concurrent")
  var count: [String: Int] = [:]
  var ids: [String: Int] = [:]
  for (_, row) in snapshot.allRows {
    count[row.text, default: 0] += 1
    ids[row.id, default: 0] += 1
  }
  var acknowledged = 0
  var once = 0
  var missing = 0
  var duplicated = 0
  var failedPresent = 0
  var killed = 0
  var killedPresent = 0
  for add in lanes.adds {
    let times = count[add.text] ?? 0
    if add.acknowledged {
      acknowledged += 1
      if times == 1 { once += 1 }
      if times == 0 {
        missing += 1
        lanes.problem("concurrent: acknowledged add \"\(add.text)\" is missing")
      }
      if times > 1 {
        duplicated += 1
        lanes.problem("concurrent: \"\(add.text)\" is in the store \(times) times")
      }
    } else if add.killed {
      killed += 1
      if times == 1 { killedPresent += 1 }
      if times > 1 {
        duplicated += 1
        lanes.problem("concurrent: killed add \"\(add.text)\" is in the store \(times) times")
      }
    } else if times > 0 {
      failedPresent += 1
      lanes.problem("concurrent: failed add \"\(add.text)\" is in the store")
    }
  }
  var otherAdds = 0
  for text in devices?.allAdds ?? [] {
    otherAdds += 1
    acknowledged += 1
    let times = count[text] ?? 0
    if times == 1 { once += 1 }
    if times == 0 {
      missing += 1
      lanes.problem("concurrent: another device's add \"\(text)\" is missing")
    }
    if times > 1 {
      duplicated += 1
      lanes.problem("concurrent: another device's \"\(text)\" is in the store \(times) times")
    }
  }
  let sharedIDs = ids.values.filter { $0 > 1 }.count
  if sharedIDs > 0 { lanes.problem("concurrent: \(sharedIDs) ids name more than one item") }
  print(
    "concurrent: \(adders) adders x \(adds), 1 killed adder (\(killed) of \(adds) killed, \(killedPresent) of those committed), 1 mover, 1 repairer; moves: \(lanes.moves) (\(lanes.acknowledgedMoves) acknowledged), repairs: \(lanes.repairs), verifies: \(lanes.verifies); acknowledged adds: \(acknowledged), present once: \(once), missing: \(missing), duplicated: \(duplicated), failed adds present: \(failedPresent), shared ids: \(sharedIDs), stores failing verify: \(failingVerify), refused next changes: \(probe.acknowledged ? 0 : 1), problems: \(lanes.problems.count); \(layout.describe(devices))\(devices == nil ? "" : ", \(otherAdds) of their adds counted")"
  )
  return lanes.problems.isEmpty && acknowledged > 0
}
