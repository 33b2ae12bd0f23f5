import ArgumentParser
import Foundation
import Gestures
import MallocInterposerSwift

/// `offload-bench gestures`: touch samples through the full arena, with heap allocations
/// counted by the malloc interposer.
struct GesturesBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gestures",
    abstract: "Gesture arena: samples per second, median ns per sample, allocations per sample.",
    discussion:
      "Allocations are counted by ordo-one/malloc-interposer; the command re-runs itself with "
      + "LD_PRELOAD set to the interposer library built beside it when counting is not active.")

  @Option(help: "Synthetic strokes per workload.")
  var strokes = 20_000

  @Option(help: "Seed of the synthetic strokes.")
  var seed: UInt64 = 0x6E57

  @Option(help: "Timed repetitions per workload (the median is reported).")
  var repetitions = 7

  @Option(help: "A CSV stroke file to replay as an extra workload (device pixels).")
  var csv: String?

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  /// Whether the interposer counts allocations in this process.
  static func countingWorks() -> Bool {
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.hook()
    let probe = [Int](repeating: 7, count: 1000)
    blackHole(probe)
    MallocInterposerSwift.unhook()
    return MallocInterposerSwift.getStatistics().mallocCount > 0
  }

  /// Re-runs this command with the interposer preloaded; returns false when it cannot.
  static func rerunInterposed() throws -> Bool {
    let environment = ProcessInfo.processInfo.environment
    guard environment["OFFLOAD_BENCH_INTERPOSED"] == nil else { return false }
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let library = executable.deletingLastPathComponent()
      .appendingPathComponent("libMallocInterposerSwift.so")
    guard FileManager.default.fileExists(atPath: library.path) else { return false }
    let process = Process()
    process.executableURL = executable
    process.arguments = Array(CommandLine.arguments.dropFirst())
    var child = environment
    child["LD_PRELOAD"] = library.path
    child["OFFLOAD_BENCH_INTERPOSED"] = "1"
    process.environment = child
    try process.run()
    process.waitUntilExit()
    throw ExitCode(process.terminationStatus)
  }

  /// A seeded mix of human-like strokes: taps, scrolls, swipes, flings, long presses.
  static func syntheticSamples(strokes: Int, seed: UInt64) -> [TouchSample] {
    var rng = SplitMix64(seed: seed)
    var samples: [TouchSample] = []
    var t = 0.0
    for _ in 0..<strokes {
      let start = TouchPoint(
        x: Double.random(in: 40...350, using: &rng), y: Double.random(in: 80...700, using: &rng))
      samples.append(TouchSample(time: t, location: start, phase: .began))
      let kind = Int.random(in: 0..<5, using: &rng)
      let (delta, duration, rest): (TouchPoint, Double, Double) =
        switch kind {
        case 0: (TouchPoint(x: 2, y: 1), 0.08, 0)  // tap
        case 1:
          (
            TouchPoint(
              x: Double.random(in: -20...20, using: &rng),
              y: Double.random(in: -400...400, using: &rng)), 0.3, 0
          )
        case 2:
          (
            TouchPoint(
              x: Double.random(in: -220 ... -40, using: &rng),
              y: Double.random(in: -15...15, using: &rng)), 0.2, 0
          )
        case 3:
          (
            TouchPoint(
              x: Double.random(in: -300...300, using: &rng),
              y: Double.random(in: -300...0, using: &rng)), 0.12, 0
          )
        default:
          (
            TouchPoint(
              x: Double.random(in: -100...100, using: &rng),
              y: Double.random(in: -200...200, using: &rng)), 0.4, 0.6
          )
        }
      var now = t
      if rest > 0 {
        for _ in 0..<Int(rest * 60) {
          now += 1.0 / 60
          samples.append(TouchSample(time: now, location: start, phase: .moved))
        }
      }
      let steps = max(1, Int(duration * 120))
      for step in 1...steps {
        // Ease-in-out velocity profile with a little noise.
        let f = Double(step) / Double(steps)
        let eased = f * f * (3 - 2 * f)
        now += duration / Double(steps)
        samples.append(
          TouchSample(
            time: now,
            location: TouchPoint(
              x: start.x + delta.x * eased + Double.random(in: -0.5...0.5, using: &rng),
              y: start.y + delta.y * eased + Double.random(in: -0.5...0.5, using: &rng)),
            phase: .moved))
      }
      samples.append(
        TouchSample(time: now + 0.008, location: samples[samples.count - 1].location, phase: .ended)
      )
      t = now + 0.5
    }
    return samples
  }

  /// Samples of a CSV stroke file, converted from pixels, strokes laid end to end in time.
  static func csvSamples(path: String) throws -> [TouchSample] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var samples: [TouchSample] = []
    var offset = 0.0
    for stroke in try RecordedStroke.parseCSV(text) {
      for (index, sample) in stroke.samples.enumerated() {
        let phase: TouchPhase =
          index == 0 ? .began : index == stroke.samples.count - 1 ? .ended : .moved
        samples.append(
          TouchSample(
            time: offset + sample.milliseconds / 1000, pixelX: sample.x, pixelY: sample.y,
            phase: phase, density: 2.625))
      }
      offset += (stroke.samples.last?.milliseconds ?? 0) / 1000 + 1
    }
    return samples
  }

  struct Measurement {
    var secondsPerRun: [Double]
    var allocations: Int
    var events: Int
  }

  /// Feeds every sample through a fresh arena `repetitions` times; counts allocations on a
  /// separate steady-state run (the arena already warmed up).
  static func measure(
    surface: GestureSurface, samples: [TouchSample], repetitions: Int, counting: Bool
  ) -> Measurement {
    let configuration = GesturePreset.ios.configuration
    var times: [Double] = []
    var events = 0
    for _ in 0..<repetitions {
      var arena = GestureArena(surface: surface, configuration: configuration)
      let (count, seconds) = Stopwatch.measure { () -> Int in
        var count = 0
        for sample in samples {
          arena.advance(to: sample.time)
          arena.feed(sample)
          count &+= arena.events.count
        }
        return count
      }
      events = count
      times.append(seconds)
    }
    var allocations = -1
    if counting {
      var arena = GestureArena(surface: surface, configuration: configuration)
      // Warm up: one pass so every buffer has reached its steady capacity.
      for sample in samples.prefix(2000) { arena.feed(sample) }
      MallocInterposerSwift.initialize()
      MallocInterposerSwift.hook()
      var count = 0
      for sample in samples {
        arena.advance(to: sample.time)
        arena.feed(sample)
        count &+= arena.events.count
      }
      MallocInterposerSwift.unhook()
      blackHole(count)
      allocations = MallocInterposerSwift.getStatistics().mallocCount
    }
    return Measurement(secondsPerRun: times, allocations: allocations, events: events)
  }

  /// The baseline: the velocity tracker alone (add + estimate per sample).
  static func measureTracker(samples: [TouchSample], repetitions: Int, counting: Bool)
    -> Measurement
  {
    var times: [Double] = []
    for _ in 0..<repetitions {
      var tracker = VelocityTracker()
      let (sum, seconds) = Stopwatch.measure { () -> Double in
        var sum = 0.0
        for sample in samples {
          if sample.phase == .began { tracker.reset() }
          tracker.add(time: sample.time, location: sample.location)
          sum += tracker.velocity().dx
        }
        return sum
      }
      blackHole(sum)
      times.append(seconds)
    }
    var allocations = -1
    if counting {
      var tracker = VelocityTracker()
      MallocInterposerSwift.initialize()
      MallocInterposerSwift.hook()
      var sum = 0.0
      for sample in samples {
        if sample.phase == .began { tracker.reset() }
        tracker.add(time: sample.time, location: sample.location)
        sum += tracker.velocity().dx
      }
      MallocInterposerSwift.unhook()
      blackHole(sum)
      allocations = MallocInterposerSwift.getStatistics().mallocCount
    }
    return Measurement(secondsPerRun: times, allocations: allocations, events: 0)
  }

  func run() throws {
    var counting = Self.countingWorks()
    if !counting {
      if try Self.rerunInterposed() { return }
      counting = false
    }
    let synthetic = Self.syntheticSamples(strokes: strokes, seed: seed)
    var workloads: [(String, GestureSurface?, [TouchSample])] = [
      ("GestureArena feed (listRow, synthetic mix)", .listRow, synthetic),
      ("GestureArena feed (photoDeck, synthetic mix)", .photoDeck, synthetic),
      ("VelocityTracker add+velocity (baseline)", nil, synthetic),
    ]
    if let csv {
      workloads.insert(
        ("GestureArena feed (listRow, real strokes)", .listRow, try Self.csvSamples(path: csv)),
        at: 1)
    }
    var rows: [BenchmarkRow] = []
    for (name, surface, samples) in workloads {
      let measurement =
        if let surface {
          Self.measure(
            surface: surface, samples: samples, repetitions: repetitions, counting: counting)
        } else {
          Self.measureTracker(samples: samples, repetitions: repetitions, counting: counting)
        }
      let sorted = measurement.secondsPerRun.sorted()
      let median = sorted[sorted.count / 2]
      let perSample = median / Double(samples.count) * 1e9
      rows.append(
        BenchmarkRow(fields: [
          ("workload", .text(name)),
          ("samples", .integer(samples.count)),
          ("samplesPerSecond", .number(Double(samples.count) / median)),
          ("nanosecondsPerSample", .number(perSample)),
          (
            "allocationsPerSample",
            measurement.allocations < 0
              ? .text("not measured")
              : .number(Double(measurement.allocations) / Double(samples.count))
          ),
          ("allocations", .integer(max(measurement.allocations, 0))),
        ]))
    }
    try Report.print(
      title:
        "Gestures (\(strokes) synthetic strokes, seed \(seed), median of \(repetitions); allocation counting \(counting ? "on" : "OFF: interposer not loaded"))",
      rows: rows, json: json)
  }
}
