// Kill trials: one random command per trial, SIGKILLed at a random moment, then the store is
// checked through offloadctl itself.

import Foundation
import OffloadTestSupport

/// What the trials counted.
struct Tally {
  /// Commands run (trials, or commands of a disk-full round).
  var commands = 0
  /// Commands other than `store repair` that exited 0 (before their kill): they acknowledged
  /// their change.
  var acknowledged = 0
  /// Commands the kill ended before they exited.
  var killed = 0
  /// Killed commands whose change had committed all the same.
  var killedAfterCommit = 0
  /// Commands that exited non-zero on their own (a refusal or, on a full disk, an I/O error).
  var failed = 0
  /// Failed commands by exit status.
  var failures: [Int32: Int] = [:]
  /// Acknowledged changes the store does not show.
  var lost = 0
  /// Stores in neither the state before the command nor the state after it (a failed or
  /// killed command that changed something, or changed part of what it says).
  var split = 0
  /// Times `store verify` did not exit 0.
  var failingVerify = 0
  /// Times the next `capture` did not exit 0.
  var refusedNext = 0
  /// Times `undo` failed on its own while the history had an entry to undo.
  var refusedUndo = 0
  /// Every problem, in words.
  var problems: [String] = []

  /// Whether nothing went wrong.
  var isClean: Bool {
    lost == 0 && split == 0 && failingVerify == 0 && refusedNext == 0 && refusedUndo == 0
  }

  mutating func problem(_ text: String) {
    problems.append(text)
    print(text)
  }

  /// With `--keep`, where a copy of the store is made at each problem (it may be on a tmpfs
  /// that is gone by the end).
  var keepAt: (store: String, folder: String)?

  /// Copies the store for a later look, when asked to keep files.
  func keepCopy() {
    guard let keepAt else { return }
    let copy = keepAt.folder + "/problem-\(problems.count)"
    try? FileManager.default.copyItem(atPath: keepAt.store, toPath: copy)
    print("kept the store as it was at this problem: \(copy)")
  }
}

/// Runs commands against one store and checks it after each.
struct Trials {
  let runner: Runner
  var workload: Workload
  var rng: SplitMix64
  var tally = Tally()
  /// The store as last read.
  var current: Snapshot
  /// How long a command that is not killed takes, in seconds: a moving average over the next
  /// `capture` of every trial (and every command of the set-up).
  var commandSeconds: Double?
  /// Whether the store is shared (`store share` runs in the set-up).
  var shared = false
  /// The store's other devices, once their collection exists.
  var devices: Devices?

  /// Reads the store, or ends the run: nothing can be judged without it.
  static func read(_ runner: Runner, context: String) -> Snapshot {
    let (snapshot, error) = Snapshot.read(runner)
    guard let snapshot else { fail("\(context): cannot read the store: \(error ?? "?")") }
    return snapshot
  }

  init(runner: Runner, scratch: String, seed: UInt64) {
    self.runner = runner
    workload = Workload(scratch: scratch)
    rng = SplitMix64(seed: seed)
    current = Snapshot(collections: [:], history: [])
  }

  /// Runs one command (killed after `delay` microseconds, or left to finish when nil) and
  /// checks: verify exits 0, the next capture works, and the store is in the state before the
  /// command or after it; after it whenever the command acknowledged.
  ///
  /// - Parameter full: Whether the disk is full, so the next capture is not tried yet.
  /// - Returns: How the command ended.
  @discardableResult
  mutating func trial(_ label: String, delay: UInt32?, full: Bool = false) -> Finished {
    let step = workload.step(current, rng: &rng)
    return run(step, label: label, delay: delay, full: full)
  }

  /// Runs and checks one chosen step (see ``trial(_:delay:full:)``).
  mutating func run(_ step: Step, label: String, delay: UInt32?, full: Bool = false) -> Finished {
    let before = current
    // Another device may change its copy before the command, and its folder arrive before
    // the command or while it runs (never while the disk is full).
    let arriving = DispatchGroup()
    if let devices, !full, rng.below(3) == 0 {
      let index = rng.below(devices.devices.count)
      devices.change(index, adds: 1 + rng.below(2), serial: &workload.serial)
      let cutting = rng.below(3) == 0
      let seed = UInt64(rng.below(Int.max))
      if let delay, rng.below(2) == 0 {
        let wait = UInt32(rng.below(Int(delay) + 1))
        onThread(arriving) {
          var local = SplitMix64(seed: seed)
          usleep(wait)
          devices.deliver(index, cutting: cutting, rng: &local, running: true)
        }
      } else {
        var local = SplitMix64(seed: seed)
        devices.deliver(index, cutting: cutting, rng: &local)
      }
    }
    let start = Date()
    let result =
      delay.map { runner.run(step.arguments, killingAfter: $0) } ?? runner.run(step.arguments)
    if delay == nil { time(since: start) }
    arriving.wait()
    // What the other devices' collection must hold, before and after alike.
    let beforeLogical = patched(before.logical)
    let stepAfter = patched(step.after)
    tally.commands += 1
    let context = "\(label): `\(step.description)` (\(result.summary))"
    // STORE_CRASH_TRACE=1 prints every command and how it ended.
    if ProcessInfo.processInfo.environment["STORE_CRASH_TRACE"] != nil {
      print("trace: \(context)")
    }
    if result.acknowledged {
      // `store repair` of a healthy store acknowledges no change.
      if step.kind != .repair { tally.acknowledged += 1 }
    } else if result.killed {
      tally.killed += 1
    } else {
      tally.failed += 1
      tally.failures[result.status ?? 0, default: 0] += 1
    }
    if step.kind == .undo && result.status == 1 && !before.history.isEmpty {
      tally.refusedUndo += 1
      tally.problem("\(context): undo refused with \(before.history.count) history entries left")
    }
    checkVerify(context)
    var probe: (text: String, finished: Finished)?
    if !full {
      let text = workload.fresh("probe ")
      let probeStart = Date()
      let finished = runner.run(["capture", text])
      time(since: probeStart)
      if !finished.acknowledged {
        tally.refusedNext += 1
        tally.problem("\(context): the next `capture` failed: \(finished.summary)")
      }
      probe = (text, finished)
    }
    let snapshot = Self.read(runner, context: context)
    // The state the command left: the snapshot without the probe's item and history entry.
    var left = snapshot
    if let probe, probe.finished.acknowledged {
      if let newest = left.history.first, !before.history.contains(newest) {
        left.history.removeFirst()
      }
      left.collections["Inbox"]?.rows.removeAll { $0.text == probe.text }
    }
    let committed = Workload.committed(step, before: before, after: left)
    let actual = left.logical
    if result.killed && committed { tally.killedAfterCommit += 1 }
    if result.acknowledged {
      if actual != stepAfter {
        tally.lost += 1
        tally.problem(
          "\(context): acknowledged but not in the store: \(stepAfter.difference(to: actual))")
        tally.keepCopy()
      } else if step.kind == .recorded && stepAfter != beforeLogical && !committed {
        tally.lost += 1
        tally.problem("\(context): acknowledged but its history entry is missing")
      }
    } else if !result.killed {
      // A command that reports failure has changed nothing.
      if actual != beforeLogical || committed {
        tally.split += 1
        tally.problem(
          "\(context): reported failure but changed the store\(committed ? " (its history entry is there)" : ""): \(beforeLogical.difference(to: actual))"
        )
      }
    } else {
      let expected = committed ? stepAfter : beforeLogical
      if actual != expected {
        tally.split += 1
        tally.problem(
          "\(context): the store is neither before nor after the command (history says \(committed ? "committed" : "not committed")): \(expected.difference(to: actual))"
        )
      }
    }
    if committed && step.kind == .recorded { workload.record(left, before: beforeLogical) }
    if let probe, probe.finished.acknowledged {
      workload.record(snapshot, before: left.logical)
    }
    current = snapshot
    return result
  }

  /// `logical` with the other devices' collection as it must be now (unchanged when the store
  /// has no other devices).
  func patched(_ logical: Logical) -> Logical {
    guard let devices else { return logical }
    var logical = logical
    logical.collections[Devices.collection] = Logical.Content(
      kind: "list", items: devices.expected)
    return logical
  }

  /// Folds the time since `start` of a command that ran to its end into ``commandSeconds``.
  mutating func time(since start: Date) {
    let seconds = Date().timeIntervalSince(start)
    commandSeconds = commandSeconds.map { $0 * 0.8 + seconds * 0.2 } ?? seconds
  }

  /// Runs `store verify`; when it fails, counts it and repairs the store so the run goes on.
  mutating func checkVerify(_ context: String) {
    let verify = runner.run(["store", "verify"])
    guard verify.status != 0 else { return }
    tally.failingVerify += 1
    tally.problem(
      "\(context): `store verify` \(verify.summary): "
        + verify.stdout.split(separator: "\n").prefix(4).joined(separator: " / "))
    _ = runner.run(["store", "repair"])
  }

  /// Runs a few commands to completion so the store has collections of both kinds.
  ///
  /// - Parameter devices: The store's other devices (a shared store); it is shared after
  ///   its first two collections exist, so `store share` moves content into the first log.
  mutating func setUp(devices: Devices? = nil) {
    current = Self.read(runner, context: "set-up")
    var names = ["list", "plan"]
    if shared { names.append("share") }
    if devices != nil { names.append("devices") }
    for kind in names {
      if kind == "share" {
        let share = runner.run(["store", "share"])
        if !share.acknowledged { fail("set-up: `store share`: \(share.summary)") }
        current = Self.read(runner, context: "set-up after `store share`")
        continue
      }
      if kind == "devices" {
        var after = current.logical
        after.collections[Devices.collection] = Logical.Content(kind: "list", items: [])
        let create = Step(
          arguments: ["collection", "create", Devices.collection], kind: .recorded,
          after: after)
        let outcome = run(create, label: "set-up", delay: nil)
        if !outcome.acknowledged {
          fail("set-up: cannot create a collection: \(outcome.summary)")
        }
        workload.reserved = Devices.collection
        self.devices = devices
        continue
      }
      let name = workload.fresh(kind == "plan" ? "Plan" : "List")
      var after = current.logical
      after.collections[name] = Logical.Content(kind: kind, items: [])
      let create = Step(
        arguments: ["collection", "create", name, "--kind", kind], kind: .recorded, after: after)
      let outcome = run(create, label: "set-up", delay: nil)
      if !outcome.acknowledged { fail("set-up: cannot create a collection: \(outcome.summary)") }
    }
    for _ in 0..<6 { trial("set-up", delay: nil) }
  }
}

/// Runs `trials` kill trials on a fresh store and prints the summary line.
///
/// - Returns: Whether every check passed.
func runKillTrials(
  runner: Runner, scratch: String, trials: Int, seed: UInt64, maxDelayMilliseconds: Int?,
  layout: Layout = Layout()
) -> Bool {
  var run = Trials(runner: runner, scratch: scratch, seed: seed)
  run.shared = layout.shared
  let devices = layout.devices(
    store: runner.store, offloadctl: runner.executable, label: "kill")
  run.setUp(devices: devices)
  let setUp = run.tally
  run.tally = Tally()
  // Kill within 0 to 1.5 times the time a command takes now (the machine's load varies), or
  // within the delay asked for.
  var delays: [UInt32] = []
  for number in 1...max(trials, 1) {
    let delay: UInt32
    if let maxDelayMilliseconds {
      delay = UInt32(run.rng.below(maxDelayMilliseconds * 1000 + 1))
    } else {
      let fraction = Double(run.rng.below(1501)) / 1000
      delay = UInt32(fraction * (run.commandSeconds ?? 0.05) * 1_000_000)
    }
    delays.append(delay)
    run.trial("trial \(number) (kill at \(delay) µs)", delay: delay)
  }
  let window =
    maxDelayMilliseconds.map { "\($0) ms" }
    ?? "1.5 x a command's time, mean \(delays.reduce(0) { $0 + Int($1) } * 4 / 3 / delays.count / 1000) ms"
  var tally = run.tally
  tally.lost += setUp.lost
  tally.split += setUp.split
  tally.failingVerify += setUp.failingVerify
  tally.refusedNext += setUp.refusedNext
  print(
    "kill trials: \(tally.commands) (seed \(seed), kill within \(window); and \(setUp.commands) set-up commands not killed), acknowledged changes: \(tally.acknowledged), killed: \(tally.killed) (\(tally.killedAfterCommit) after their commit), refused: \(tally.failed), lost: \(tally.lost), neither before nor after: \(tally.split), stores failing verify: \(tally.failingVerify), refused next changes: \(tally.refusedNext), undo refused: \(tally.refusedUndo); \(layout.describe(devices))"
  )
  return tally.isClean
}
