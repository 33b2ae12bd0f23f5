import ArgumentParser
import Foundation
import Gestures

/// `offload-bench gesture-traces`: writes seeded, labelled synthetic touch traces for the cases
/// the real-hands data lacks, and checks what the arena decides on them.
struct GestureTracesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gesture-traces",
    abstract: "Write labelled synthetic touch traces (JSON lines) and replay them.",
    discussion:
      "Cases: tap, scroll, long-press-drag, slow-horizontal, slow-left-long, quick-left-short, "
      + "quick-left-long, deck-flick-right, deck-swipe-right, deck-swipe-up, deck-slow-right. "
      + "Strokes follow a minimum-jerk velocity profile with "
      + "position noise, jittered sampling and some shared timestamps.")

  @Option(help: "Strokes per case.")
  var count = 200

  @Option(help: "Seed of the generator.")
  var seed: UInt64 = 0x7ACE

  @Option(help: "Folder to write <case>.jsonl files into (default: do not write).")
  var output: String?

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  /// A labelled case: how to draw it and what the arena must decide.
  struct Case: Sendable {
    var label: String
    var surface: String
    /// The outcomes that count as right, separated by `|`.
    var expected: String
    /// Delta in points, movement duration, rest before moving, whether the finger stops
    /// before lifting.
    var make:
      @Sendable (inout SplitMix64) -> (
        delta: TouchPoint, duration: Double, rest: Double, stop: Bool
      )
  }

  static let cases: [Case] = [
    Case(label: "tap", surface: "listRow", expected: "tap") { _ in
      (TouchPoint(x: 1, y: 1), 0.06, 0, true)
    },
    Case(label: "scroll", surface: "listRow", expected: "scroll") { rng in
      (
        TouchPoint(
          x: Double.random(in: -25...25, using: &rng),
          y: Double.random(in: -400 ... -120, using: &rng)),
        Double.random(in: 0.15...0.4, using: &rng), 0, false
      )
    },
    Case(label: "long-press-drag", surface: "listRow", expected: "drop") { rng in
      (
        TouchPoint(
          x: Double.random(in: -150...150, using: &rng),
          y: Double.random(in: -250...250, using: &rng)), Double.random(in: 0.3...0.8, using: &rng),
        Double.random(in: 0.55...0.9, using: &rng), true
      )
    },
    // Seed 000: a slow drag never deletes, whatever its distance.
    Case(label: "slow-horizontal", surface: "listRow", expected: "snapBack|drop") { rng in
      (
        TouchPoint(
          x: Double.random(in: -90 ... -30, using: &rng), y: Double.random(in: -8...8, using: &rng)),
        Double.random(in: 0.9...1.6, using: &rng), 0, true
      )
    },
    Case(label: "slow-left-long", surface: "listRow", expected: "snapBack|drop") { rng in
      (
        TouchPoint(
          x: Double.random(in: -200 ... -130, using: &rng),
          y: Double.random(in: -8...8, using: &rng)), Double.random(in: 2.2...3.2, using: &rng), 0,
        false
      )
    },
    // Seed 000: a quick swipe deletes past 100 pt and snaps back short of it (no fling delete).
    Case(label: "quick-left-short", surface: "listRow", expected: "snapBack") { rng in
      (
        TouchPoint(
          x: Double.random(in: -95 ... -40, using: &rng),
          y: Double.random(in: -8...8, using: &rng)), Double.random(in: 0.06...0.14, using: &rng),
        0, false
      )
    },
    Case(label: "quick-left-long", surface: "listRow", expected: "delete") { rng in
      (
        TouchPoint(
          x: Double.random(in: -260 ... -150, using: &rng),
          y: Double.random(in: -12...12, using: &rng)), Double.random(in: 0.15...0.3, using: &rng),
        0, false
      )
    },
    // Seed 004: a card commits past half the width; a flick short of it snaps back.
    Case(label: "deck-flick-right", surface: "photoDeck", expected: "snapBack") { rng in
      (
        TouchPoint(
          x: Double.random(in: 80...160, using: &rng), y: Double.random(in: -30...30, using: &rng)),
        Double.random(in: 0.06...0.12, using: &rng), 0, false
      )
    },
    Case(label: "deck-swipe-right", surface: "photoDeck", expected: "commit-right") { rng in
      (
        TouchPoint(
          x: Double.random(in: 250...340, using: &rng), y: Double.random(in: -30...30, using: &rng)),
        Double.random(in: 0.15...0.3, using: &rng), 0, false
      )
    },
    Case(label: "deck-swipe-up", surface: "photoDeck", expected: "commit-up") { rng in
      (
        TouchPoint(
          x: Double.random(in: -30...30, using: &rng),
          y: Double.random(in: -340 ... -250, using: &rng)),
        Double.random(in: 0.15...0.3, using: &rng), 0, false
      )
    },
    Case(label: "deck-slow-right", surface: "photoDeck", expected: "snapBack") { rng in
      (
        TouchPoint(
          x: Double.random(in: 60...170, using: &rng), y: Double.random(in: -20...20, using: &rng)),
        Double.random(in: 0.8...1.5, using: &rng), 0, true
      )
    },
  ]

  /// Gaussian-like noise: the sum of four uniforms, scaled to a standard deviation.
  static func noise(_ sigma: Double, _ rng: inout SplitMix64) -> Double {
    var sum = 0.0
    for _ in 0..<4 { sum += Double.random(in: -1...1, using: &rng) }
    return sum * sigma / 1.1547
  }

  /// One stroke with a minimum-jerk profile (10τ³ − 15τ⁴ + 6τ⁵) and sensor noise.
  static func stroke(
    _ shape: (delta: TouchPoint, duration: Double, rest: Double, stop: Bool), start time: Double,
    _ rng: inout SplitMix64
  ) -> [TouchSample] {
    let origin = TouchPoint(
      x: Double.random(in: 100...300, using: &rng), y: Double.random(in: 200...600, using: &rng))
    var samples = [TouchSample(time: time, location: origin, phase: .began)]
    var t = time
    func step() -> Double {
      Double.random(in: 0..<1, using: &rng) < 0.08
        ? 0 : Double.random(in: 0.006...0.02, using: &rng)
    }
    while t - time < shape.rest {
      t += step()
      samples.append(
        TouchSample(
          time: t, location: origin + TouchPoint(x: noise(0.3, &rng), y: noise(0.3, &rng)),
          phase: .moved))
    }
    let begin = t
    var position = origin
    while t - begin < shape.duration {
      t += step()
      let tau = min(1, (t - begin) / shape.duration)
      let s = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau)
      position =
        origin
        + TouchPoint(
          x: shape.delta.x * s + noise(0.4, &rng), y: shape.delta.y * s + noise(0.4, &rng))
      // A fling lifts while still moving: cut the profile before it slows down.
      if !shape.stop && tau > 0.7 { break }
      samples.append(TouchSample(time: t, location: position, phase: .moved))
    }
    if shape.stop {
      for _ in 0..<6 {
        t += 0.016
        samples.append(TouchSample(time: t, location: position, phase: .moved))
      }
    }
    samples.append(TouchSample(time: t + 0.008, location: position, phase: .ended))
    return samples
  }

  func run() throws {
    var rows: [BenchmarkRow] = []
    for (index, testCase) in Self.cases.enumerated() {
      var rng = SplitMix64(seed: seed &+ UInt64(index))
      var entries: [GestureTrace.Entry] = []
      var t = 0.0
      for _ in 0..<count {
        let samples = Self.stroke(testCase.make(&rng), start: t, &rng)
        entries += samples.map { .sample($0) }
        t = (samples.last?.time ?? t) + 1
      }
      let trace = GestureTrace(entries: entries, surfaceName: testCase.surface, preset: .ios)
      if let output {
        try FileManager.default.createDirectory(
          atPath: output, withIntermediateDirectories: true)
        try trace.jsonLines.write(
          toFile: (output as NSString).appendingPathComponent(testCase.label + ".jsonl"),
          atomically: true, encoding: .utf8)
      }
      let replay = GestureReplay(trace: trace)
      // A slow drag that stays inside the slop for the long-press duration becomes a reorder
      // (UIKit and Android agree); either way it must never delete.
      let accepted = testCase.expected.split(separator: "|").map(String.init)
      let agreeing = replay.strokes.filter { accepted.contains($0.outcome) }.count
      var outcomes: [String: Int] = [:]
      for stroke in replay.strokes { outcomes[stroke.outcome, default: 0] += 1 }
      rows.append(
        BenchmarkRow(fields: [
          ("case", .text(testCase.label)),
          ("strokes", .integer(replay.strokes.count)),
          ("expected", .text(testCase.expected)),
          ("agreement", .number(Double(agreeing) / Double(max(1, replay.strokes.count)))),
          (
            "outcomes",
            .text(
              outcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: " "))
          ),
        ]))
    }
    try Report.print(
      title: "Synthetic gesture traces (\(count) per case, seed \(seed), preset ios)", rows: rows,
      json: json)
  }
}
