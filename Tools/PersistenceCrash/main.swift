// persistence-crash: kills a process that writes through Persistence at random moments and
// checks that nothing it acknowledged was lost and that every file still loads.
//
//   swift run -c release persistence-crash [--trials N] [--seed S] [--max-delay-ms M] [--keep]
//
// The child (this executable with the hidden `--child DIR SEED`) saves a counter document,
// appends to a journal with fsync per entry and compacts it, printing one line per
// acknowledged write. The parent SIGKILLs it after a random delay, reads those lines, and
// verifies the files. Hidden `--increment PATH COUNT` adds COUNT to a counter document with
// read-modify-write under the store lock (the tests run two at once).

import Foundation
import Persistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The counter document the child saves.
struct Counter: Codable, Equatable {
  var value: Int
  var history: [Int]
}

/// A journal entry: the n-th entry carries n.
struct Tick: Codable, Equatable {
  var n: Int
}

/// The journal's snapshot: how many entries and their sum.
struct Tally: Codable, Equatable {
  var count = 0
  var sum = 0

  mutating func apply(_ tick: Tick) {
    count += 1
    sum += tick.n
  }
}

let counterFormat = DocumentFormat<Counter>(name: "crash.counter", version: 1)
let tallyFormat = DocumentFormat<Tally>(name: "crash.tally", version: 1)

/// Writes a line to standard output with one unbuffered write, so a kill never loses a line
/// that was reported.
func report(_ line: String) {
  var text = line + "\n"
  text.withUTF8 { bytes in
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let count = write(1, base + offset, bytes.count - offset)
      if count <= 0 { exit(3) }
      offset += count
    }
  }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("persistence-crash: \(message)\n".utf8))
  exit(2)
}

// MARK: - Child

/// Saves, appends and compacts forever, reporting each acknowledged write.
func runChild(directory: String, seed: UInt64) -> Never {
  var rng = SplitMix64(seed: seed)
  let store = DocumentStore(
    path: directory + "/counter.json", format: counterFormat)
  do {
    var counter = try store.load() ?? Counter(value: 0, history: [])
    let journal = try JSONLinesJournal<Tick, Tally>.open(
      directory: directory, name: "ticks", format: tallyFormat)
    var tally = journal.recovered.snapshot ?? Tally()
    for record in journal.recovered.entries { tally.apply(record.entry) }
    if let torn = journal.recovered.tornTail { report("torn \(torn.line)") }
    report("ready \(counter.value) \(journal.lastSequence)")
    while true {
      switch rng.next() % 10 {
      case 0..<6:
        let n = journal.lastSequence + 1
        try journal.append(Tick(n: n))
        tally.apply(Tick(n: n))
        report("entry \(n)")
      case 6..<9:
        counter.value += 1
        counter.history = Array((counter.history + [counter.value]).suffix(50))
        try store.save(counter)
        report("doc \(counter.value)")
      default:
        try journal.compact(tally)
        report("compact \(journal.generation)")
      }
    }
  } catch {
    fail("child: \(error)")
  }
}

/// Adds `count` to a counter under the store lock, one read-modify-write at a time.
func runIncrement(path: String, count: Int) -> Never {
  let store = DocumentStore(
    path: path, format: counterFormat,
    lock: FileLock(path: path + ".lock", timeout: .seconds(60)))
  do {
    for _ in 0..<count {
      try store.update { counter in
        var next = counter ?? Counter(value: 0, history: [])
        next.value += 1
        counter = next
      }
    }
  } catch {
    fail("increment: \(error)")
  }
  exit(0)
}

// MARK: - Parent

/// What the child reported before it was killed.
struct Acknowledged {
  var document = 0
  var entry = 0
  var saves = 0
  var appends = 0
  var compactions = 0
  var tornTails = 0
  var started = false
}

func parse(_ output: String, into acknowledged: inout Acknowledged) {
  for line in output.split(separator: "\n") {
    let parts = line.split(separator: " ")
    guard parts.count >= 2, let value = Int(parts[1]) else { continue }
    switch parts[0] {
    case "doc":
      acknowledged.document = max(acknowledged.document, value)
      acknowledged.saves += 1
    case "entry":
      acknowledged.entry = max(acknowledged.entry, value)
      acknowledged.appends += 1
    case "compact": acknowledged.compactions += 1
    case "torn": acknowledged.tornTails += 1
    case "ready":
      // What the child found on disk: acknowledged by earlier trials.
      acknowledged.started = true
      acknowledged.document = max(acknowledged.document, value)
      if parts.count >= 3, let entry = Int(parts[2]) {
        acknowledged.entry = max(acknowledged.entry, entry)
      }
    default: break
    }
  }
}

/// Runs one child and kills it `delay` microseconds after it is ready.
func trial(directory: String, seed: UInt64, delay: UInt32) -> Acknowledged {
  let process = Process()
  process.executableURL = Bundle.main.executableURL
  process.arguments = ["--child", directory, String(seed)]
  let output = Pipe()
  process.standardOutput = output
  do { try process.run() } catch { fail("cannot start the child: \(error)") }
  var text = ""
  let handle = output.fileHandleForReading
  while !text.contains("ready") {
    let chunk = handle.availableData
    if chunk.isEmpty { break }
    text += String(decoding: chunk, as: UTF8.self)
  }
  usleep(delay)
  kill(process.processIdentifier, SIGKILL)
  process.waitUntilExit()
  text += String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
  var acknowledged = Acknowledged()
  parse(text, into: &acknowledged)
  if !acknowledged.started {
    fail("the child did not start (exit \(process.terminationStatus)): \(text)")
  }
  return acknowledged
}

/// Checks the files after a kill: returns (lost records, corrupt files, problems).
func verify(directory: String, acknowledged: Acknowledged) -> (Int, Int, [String]) {
  var lost = 0
  var corrupt = 0
  var problems: [String] = []
  let store = DocumentStore(path: directory + "/counter.json", format: counterFormat)
  do {
    let value = try store.load()?.value ?? 0
    if value < acknowledged.document {
      lost += acknowledged.document - value
      problems.append("counter.json holds \(value), but \(acknowledged.document) was acknowledged")
    }
    if value > acknowledged.document + 1 {
      problems.append("counter.json holds \(value), more than one past \(acknowledged.document)")
      corrupt += 1
    }
    _ = try store.loadBackup()
  } catch {
    corrupt += 1
    problems.append("counter.json: \(error)")
  }
  do {
    let contents = try JSONLinesJournal<Tick, Tally>.read(
      directory: directory, name: "ticks", format: tallyFormat)
    if let damage = contents.damage {
      corrupt += 1
      problems.append("journal: \(damage)")
    }
    var tally = contents.snapshot ?? Tally()
    for record in contents.entries {
      if record.entry.n != record.sequence {
        corrupt += 1
        problems.append("entry \(record.sequence) holds \(record.entry.n)")
      }
      tally.apply(record.entry)
    }
    let last = contents.lastSequence
    if tally.count != last || tally.sum != last * (last + 1) / 2 {
      corrupt += 1
      problems.append("snapshot and journal disagree: \(tally) after entry \(last)")
    }
    if last < acknowledged.entry {
      lost += acknowledged.entry - last
      problems.append("the journal ends at \(last), but \(acknowledged.entry) was acknowledged")
    }
  } catch {
    corrupt += 1
    problems.append("journal: \(error)")
  }
  return (lost, corrupt, problems)
}

func runParent(arguments: [String]) -> Never {
  var trials = 200
  var seed: UInt64 = 0x0FF1_0AD
  var maxDelay = 100
  var keep = false
  var index = 0
  func number(_ name: String) -> UInt64 {
    index += 1
    guard index < arguments.count, let value = UInt64(arguments[index]) else {
      fail("\(name) needs a number")
    }
    return value
  }
  while index < arguments.count {
    switch arguments[index] {
    case "--trials": trials = Int(number("--trials"))
    case "--seed": seed = number("--seed")
    case "--max-delay-ms": maxDelay = Int(number("--max-delay-ms"))
    case "--keep": keep = true
    case "--help", "-h":
      print(
        "usage: persistence-crash [--trials N (200)] [--seed S] [--max-delay-ms M (100)] [--keep]")
      exit(0)
    default: fail("unknown argument \(arguments[index]); see --help")
    }
    index += 1
  }
  let directory =
    FileManager.default.temporaryDirectory.path + "/persistence-crash-\(getpid())-\(seed)"
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  var rng = SplitMix64(seed: seed)
  var total = Acknowledged()
  var lost = 0
  var corrupt = 0
  for number in 1...max(trials, 1) {
    let delay = UInt32(rng.next() % UInt64(maxDelay * 1000 + 1))
    let acknowledged = trial(directory: directory, seed: rng.next(), delay: delay)
    total.saves += acknowledged.saves
    total.appends += acknowledged.appends
    total.compactions += acknowledged.compactions
    total.tornTails += acknowledged.tornTails
    let (trialLost, trialCorrupt, problems) = verify(
      directory: directory, acknowledged: acknowledged)
    lost += trialLost
    corrupt += trialCorrupt
    for problem in problems { print("trial \(number): \(problem)") }
  }
  print("trials: \(trials) (seed \(seed), kill within \(maxDelay) ms of start)")
  print(
    "acknowledged: \(total.saves) saves, \(total.appends) entries, \(total.compactions) compactions; torn tails cut: \(total.tornTails)"
  )
  print("lost records: \(lost)")
  print("corrupt files: \(corrupt)")
  if !keep {
    try? FileManager.default.removeItem(atPath: directory)
  } else {
    print("files: \(directory)")
  }
  exit(lost == 0 && corrupt == 0 ? 0 : 1)
}

/// SplitMix64, seeded: the same seed gives the same delays and the same child workloads.
struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "--child":
  guard arguments.count == 3, let seed = UInt64(arguments[2]) else { fail("--child DIR SEED") }
  runChild(directory: arguments[1], seed: seed)
case "--increment":
  guard arguments.count == 3, let count = Int(arguments[2]) else { fail("--increment PATH N") }
  runIncrement(path: arguments[1], count: count)
default:
  runParent(arguments: arguments)
}
