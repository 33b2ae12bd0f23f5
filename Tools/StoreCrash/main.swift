// store-crash: kill -9, disk-full and concurrency trials of the list store, through the built
// offloadctl binary.
//
//   swift build -c release --product offloadctl && swift run -c release store-crash \
//     [--offloadctl PATH] [--store DIR] [--trials N] [--seed S] [--max-delay-ms M] \
//     [--disk-full ROUNDS] [--concurrent PROCESSES] [--adds N] [--shared [--devices N]] [--keep]
//
// Kill trials: each trial runs one random workspace command (capture, item add/edit/done, item
// move within and across collections, bulk move, remove --all, import, convert, delete,
// undo, store repair) and SIGKILLs it a random 0 to M ms after it started (M defaults to 1.5
// times a command's time at the moment). Then `store verify` must exit 0 with no repair, the next `capture`
// must work, and the store must be in the state before the command or after it: after it
// whenever the command exited 0 (it acknowledged its change), and as the history says (a new
// history entry means the change committed). The state is read with `--json` and compared with
// a model of what each command does (undo puts back the state before the newest entry).
//
// Disk-full rounds (`--disk-full R`, needs root): the store on a 2 MiB tmpfs filled to within
// 0 to 12 KiB (then to nothing); commands run until they fail with exit 74; a failed command
// must have changed nothing; once the space is freed the store verifies clean and takes the
// next change.
//
// Concurrency (`--concurrent P`): P processes adding N items each, one more adding N items
// and SIGKILLed at random moments, one moving items between two collections, one running
// `store repair` and `store verify`, at once on one store; then every acknowledged add must
// be there exactly once, a killed one at most once, and no failed one at all.
//
// Shared stores (`--shared`): each kind of trial runs `store share` in its set-up (after two
// collections exist, so their content moves into the first device's log) and this device
// keeps its identity in a state folder of its own. With `--devices N` (N > 1) the store has
// N - 1 other devices: copies of it at other paths with their own state folders, which add
// items to a collection this device's commands leave alone; their `replicas/<id>/` folders
// are carried back into the store the way a sync engine does (each file through a temporary
// name), some while a command of this device runs, some with the log's last line cut. The
// checks are the same; the other devices' collection must hold every add delivered whole,
// whatever this device's command did.
//
// STORE_CRASH_TRACE=1 prints every command of the kill trials and disk-full rounds and how it
// ended; with `--keep`, a disk-full problem also keeps a copy of the store as it was then.
//
// One summary line per kind of trial; exit 1 when anything was lost or failed a check, 2 when
// the driver itself cannot run.

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The command-line options.
struct Options {
  var offloadctl: String
  var store: String?
  var trials = 200
  var seed: UInt64 = 0x0FF1_0AD
  var maxDelayMilliseconds: Int?
  var diskFullRounds = 0
  var concurrent = 0
  var adds = 30
  var keep = false
  var shared = false
  var devices = 1

  static let usage = """
    usage: store-crash [--offloadctl PATH] [--store DIR] [--trials N (200, 0: none)] [--seed S]
                       [--max-delay-ms M (1.5 x a command's time)] [--disk-full ROUNDS (0)]
                       [--concurrent PROCESSES (0)] [--adds N (30)]
                       [--shared [--devices N (1)]] [--keep]
    """

  init(_ arguments: [String]) {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("offloadctl").path
    offloadctl = beside
    var index = 0
    func value(_ name: String) -> String {
      index += 1
      guard index < arguments.count else { fail("\(name) needs a value; see --help") }
      return arguments[index]
    }
    func number(_ name: String) -> Int {
      let text = value(name)
      guard let number = Int(text), number >= 0 else {
        fail("\(name) needs a number, got \"\(text)\"; see --help")
      }
      return number
    }
    while index < arguments.count {
      switch arguments[index] {
      case "--offloadctl": offloadctl = value("--offloadctl")
      case "--store": store = value("--store")
      case "--trials": trials = number("--trials")
      case "--seed": seed = UInt64(number("--seed"))
      case "--max-delay-ms": maxDelayMilliseconds = number("--max-delay-ms")
      case "--disk-full": diskFullRounds = number("--disk-full")
      case "--concurrent": concurrent = number("--concurrent")
      case "--adds": adds = number("--adds")
      case "--keep": keep = true
      case "--shared": shared = true
      case "--devices": devices = number("--devices")
      case "--help", "-h":
        print(Self.usage)
        exit(0)
      default: fail("unknown argument \(arguments[index]); see --help")
      }
      index += 1
    }
    guard devices >= 1 else { fail("--devices needs 1 or more, got 0; see --help") }
    guard shared || devices == 1 else { fail("--devices needs --shared; see --help") }
    guard access(offloadctl, X_OK) == 0 else {
      fail("no offloadctl executable at \(offloadctl); build it or pass --offloadctl PATH")
    }
  }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let base =
  options.store
  ?? FileManager.default.temporaryDirectory.path + "/store-crash-\(getpid())-\(options.seed)"
if FileManager.default.fileExists(atPath: base) {
  fail("\(base) already exists; name a store folder that does not")
}
let scratch = base + "-scratch"
do {
  try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
} catch {
  fail("cannot create \(scratch): \(error)")
}
var passed = true
let layout = Layout(
  shared: options.shared, deviceCount: options.devices, scratch: scratch, keep: options.keep)
if options.trials > 0 {
  let runner = Runner(
    executable: options.offloadctl, store: base, scratch: scratch,
    environment: layout.environment)
  passed =
    runKillTrials(
      runner: runner, scratch: scratch, trials: options.trials, seed: options.seed,
      maxDelayMilliseconds: options.maxDelayMilliseconds, layout: layout) && passed
}
if options.diskFullRounds > 0 {
  let result = runDiskFullTrials(
    offloadctl: options.offloadctl, mountPoint: base + "-tmpfs", scratch: scratch,
    rounds: options.diskFullRounds, seed: options.seed, layout: layout)
  passed = (result ?? true) && passed
}
if options.concurrent > 0 {
  passed =
    runConcurrentTrial(
      offloadctl: options.offloadctl, store: base + "-concurrent", scratch: scratch,
      adders: options.concurrent, adds: options.adds, seed: options.seed, layout: layout)
    && passed
}
if options.keep {
  print("files: \(base), \(base)-concurrent, \(scratch)")
} else {
  for folder in [base, base + "-concurrent", base + "-tmpfs", scratch] {
    try? FileManager.default.removeItem(atPath: folder)
  }
}
exit(passed ? 0 : 1)
