import Foundation
import Gestures
import OffloadTestSupport
import Testing

@testable import Offload

/// The gesture JSON the Offload layer writes through `Codable`, compared byte for byte with
/// golden files written by the module's earlier hand-written writer: traces of every surface,
/// preset, entry kind and event, and evaluations of seeded stroke files (labels that sort
/// differently by bytes and by number, a slash, a non-ASCII letter).
@Suite("Gesture JSON")
struct GestureJSONTests {
  static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/Gestures")

  /// A seeded trace over any surface and preset, with second fingers, advances, actions and a
  /// container width.
  static func randomTrace(_ rng: inout SplitMix64) -> GestureTrace {
    var entries: [GestureTrace.Entry] = []
    var t = 0.0
    for _ in 0..<Int.random(in: 1...6, using: &rng) {
      var p = TouchPoint(
        x: Double.random(in: 0...400, using: &rng), y: Double.random(in: 0...800, using: &rng))
      entries.append(.sample(TouchSample(time: t, location: p, phase: .began)))
      let v = TouchPoint(
        x: Double.random(in: -900...900, using: &rng),
        y: Double.random(in: -900...900, using: &rng))
      for _ in 0..<Int.random(in: 0...30, using: &rng) {
        let dt = rng.chance(0.15) ? 0 : Double.random(in: 0.004...0.2, using: &rng)
        t += dt
        p = p + TouchPoint(x: v.x * dt, y: v.y * dt)
        if rng.chance(0.1) { entries.append(.advance(t + (rng.chance(0.5) ? 0.6 : 0))) }
        if rng.chance(0.05) {
          entries.append(.sample(TouchSample(time: t, location: p, phase: .began, pointer: 1)))
        }
        entries.append(.sample(TouchSample(time: t, location: p, phase: .moved)))
      }
      t += 0.01
      entries.append(
        .sample(TouchSample(time: t, location: p, phase: rng.chance(0.1) ? .cancelled : .ended)))
      if rng.chance(0.3) {
        let actions = AccessibilityAction.allCases
        entries.append(.action(actions[rng.index(below: actions.count)], time: t))
      }
      t += 0.5
    }
    let surfaces = ["listRow", "photoDeck", "plainList", "reorderHandle"]
    return GestureTrace(
      entries: entries, surfaceName: rng.chance(0.8) ? surfaces[rng.index(below: 4)] : nil,
      preset: rng.chance(0.5) ? GesturePreset.allCases[rng.index(below: 3)] : nil,
      containerWidth: rng.chance(0.3) ? Double.random(in: 200...500, using: &rng) : nil)
  }

  /// A seeded stroke file (CSV text) with awkward labels.
  static func randomCSV(_ rng: inout SplitMix64) -> String {
    let labels = ["tap", "left", "right", "up", "down", "a10", "a9", "Z", "é", "x/y"]
    var lines = ["stroke_id,t_ms,x,y,phase,derived_label"]
    for id in 0..<40 {
      let label = labels[rng.index(below: labels.count)]
      var x = Double.random(in: 0...1000, using: &rng)
      var y = Double.random(in: 0...2000, using: &rng)
      let vx = Double.random(in: -6...6, using: &rng)
      let vy = Double.random(in: -6...6, using: &rng)
      var ms = 0.0
      let count = Int.random(in: 2...25, using: &rng)
      for index in 0..<count {
        let phase = index == 0 ? "began" : index == count - 1 ? "ended" : "moved"
        lines.append("\(id),\(ms),\(x),\(y),\(phase),\(label)")
        let dt = Double.random(in: 8...120, using: &rng).rounded()
        ms += dt
        x += vx * dt
        y += vy * dt
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The first `count` traces of a seed: their lines, their replays as JSON and as text.
  static func traceReport(seed: UInt64, count: Int) throws -> String {
    var rng = SplitMix64(seed: seed)
    var out = ""
    for index in 0..<count {
      let trace = randomTrace(&rng)
      let lines = trace.jsonLines
      let replay = GestureReplay(trace: try GestureTrace(parsing: lines))
      out += "# trace \(index)\n\(lines)# replay\n\(replay.jsonText)\n# text\n\(replay.text)\n"
    }
    return out
  }

  /// A seeded file's evaluation, as JSON and as text, for each preset.
  static func evaluationReport(seed: UInt64) throws -> String {
    var rng = SplitMix64(seed: seed)
    let strokes = try RecordedStroke.parseCSV(randomCSV(&rng))
    // No stroke at all: the empty objects.
    var out = "# none\n\(StrokeEvaluation(strokes: []).jsonText)\n"
    for preset in GesturePreset.allCases {
      let evaluation = StrokeEvaluation(strokes: strokes, preset: preset, density: 2.625)
      out += "# \(preset.rawValue)\n\(evaluation.jsonText)\n# text\n\(evaluation.text)\n"
    }
    return out
  }

  /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes and their count: the golden of a report
  /// too large to keep in full.
  static func digest(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    return "fnv1a64 \(String(hash, radix: 16)) bytes \(text.utf8.count)\n"
  }

  static func compare(_ text: String, golden name: String) throws {
    let url = goldens.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["OFFLOAD_WRITE_GESTURE_GOLDENS"] == "1" {
      try FileManager.default.createDirectory(
        at: goldens, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    let expected = try Data(contentsOf: url)
    #expect(Data(text.utf8) == expected, "\(name) differs from its golden file")
  }

  /// A hand-written trace: config lines (a density, CRLF ends, a blank line), every entry kind.
  static let handWritten = """
    {"type":"config","surface":"listRow","preset":"ios","density":2}\r
    {"type":"sample","t":0,"x":400,"y":600,"phase":"began","pointer":0}\r
    {"type":"sample","t":0.05,"x":402,"y":602,"phase":"ended"}

    {"type":"config","density":1,"containerWidth":375.5}
    {"type":"sample","t":1,"x":300,"y":300,"phase":"began"}
    {"type":"sample","t":1.05,"x":250,"y":301,"phase":"moved"}
    {"type":"sample","t":1.1,"x":150,"y":302,"phase":"moved"}
    {"type":"sample","t":1.15,"x":140,"y":302,"phase":"ended"}
    {"type":"sample","t":2,"x":100,"y":100,"phase":"began"}
    {"type":"advance","t":2.6}
    {"type":"sample","t":2.7,"x":100,"y":180.125,"phase":"moved"}
    {"type":"sample","t":2.8,"x":100,"y":200,"phase":"ended"}
    {"type":"action","t":3,"action":"delete"}
    {"type":"action","t":3.5,"action":"favorite"}
    """

  @Test func aHandWrittenTraceMatchesItsGoldenBytes() throws {
    let trace = try GestureTrace(parsing: Self.handWritten)
    let replay = GestureReplay(trace: trace)
    try Self.compare(
      "\(trace.jsonLines)# replay\n\(replay.jsonText)\n# text\n\(replay.text)\n",
      golden: "hand-written.txt")
  }

  static let calibrationPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/touch-data/strokes-calibration.csv").path

  /// The real-hands calibration set beside the repository, when this machine has it.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: calibrationPath)))
  func theCalibrationEvaluationMatchesItsGoldenBytes() throws {
    var out = ""
    for preset in GesturePreset.allCases {
      let evaluation = try GestureFiles.evaluate(
        path: Self.calibrationPath, preset: preset, density: 2.625)
      out += "# \(preset.rawValue)\n\(evaluation.jsonText)\n"
    }
    try Self.compare(out, golden: "calibration.txt")
  }

  @Test func tracesAndReplaysMatchTheirGoldenBytes() throws {
    try Self.compare(try Self.traceReport(seed: 1, count: 4), golden: "traces-1.txt")
  }

  /// 120 more traces, against the hash of the bytes the earlier writer gave them.
  @Test(arguments: [2, 3, 4] as [UInt64])
  func manyTracesMatchTheirGoldenDigests(seed: UInt64) throws {
    try Self.compare(
      Self.digest(try Self.traceReport(seed: seed, count: 40)), golden: "traces-\(seed).digest")
  }

  @Test(arguments: [1, 2] as [UInt64])
  func evaluationsMatchTheirGoldenBytes(seed: UInt64) throws {
    try Self.compare(try Self.evaluationReport(seed: seed), golden: "evaluation-\(seed).txt")
  }
}
