import Foundation
import Gestures
import OffloadTestSupport
import Testing

/// A trace's lines: the `Codable` shape of a trace file, and the reader that checks them.
@Suite("GestureTrace lines")
struct TraceLinesTests {
  /// A seeded trace of samples, advances and actions.
  static func randomTrace(_ rng: inout SplitMix64) -> GestureTrace {
    var entries: [GestureTrace.Entry] = []
    var t = 0.0
    for _ in 0..<Int.random(in: 0...12, using: &rng) {
      t += Double.random(in: 0...0.3, using: &rng)
      let location = TouchPoint(
        x: Double.random(in: -50...500, using: &rng), y: Double.random(in: -50...900, using: &rng))
      switch rng.index(below: 3) {
      case 0:
        entries.append(
          .sample(
            TouchSample(
              time: t, location: location, phase: TouchPhase.allCases[rng.index(below: 4)],
              pointer: rng.index(below: 2))))
      case 1: entries.append(.advance(t))
      default:
        let actions = AccessibilityAction.allCases
        entries.append(.action(actions[rng.index(below: actions.count)], time: t))
      }
    }
    return GestureTrace(
      entries: entries, surfaceName: rng.chance(0.5) ? "photoDeck" : nil,
      preset: rng.chance(0.5) ? .android : nil,
      containerWidth: rng.chance(0.5) ? Double.random(in: 100...600, using: &rng) : nil)
  }

  @Test(arguments: [31, 32] as [UInt64])
  func aTraceReadsBackFromItsLines(seed: UInt64) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
    for _ in 0..<200 {
      let trace = Self.randomTrace(&rng)
      #expect(try GestureTrace(lines: trace.lines) == trace, "\(rng)")
      // Through Foundation's coders too: the trace encodes as an array of its lines.
      let data = try JSONEncoder().encode(trace)
      #expect(try JSONDecoder().decode(GestureTrace.self, from: data) == trace, "\(rng)")
      let config = trace.surfaceName != nil || trace.preset != nil || trace.containerWidth != nil
      #expect(trace.lines.count == trace.entries.count + (config ? 1 : 0), "\(rng)")
    }
  }

  @Test func aConfigLineScalesTheSamplesAfterIt() throws {
    let trace = try GestureTrace(lines: [
      .init(type: "sample", t: 0, x: 10, y: 20, phase: "began"),
      .init(type: "config", density: 2),
      .init(type: "sample", t: 1, x: 10, y: 20, phase: "ended", pointer: 2),
    ])
    #expect(
      trace.entries == [
        .sample(TouchSample(time: 0, x: 10, y: 20, phase: .began)),
        .sample(TouchSample(time: 1, x: 5, y: 10, phase: .ended, pointer: 2)),
      ])
  }

  @Test func theReaderNamesTheLineOfAMissingField() {
    var reader = GestureTrace.Reader()
    #expect(throws: Never.self) { try reader.read(.init(type: "advance", t: 1), lineNumber: 7) }
    #expect {
      try reader.read(.init(type: "sample", t: 2, x: 0, phase: "moved"), lineNumber: 9)
    } throws: { error in
      (error as? GestureError)?.code == .missingField && (error as? GestureError)?.line == 9
        && (error as? GestureError)?.description == "trace line 9: missing field \"y\""
    }
    #expect(reader.trace.entries == [.advance(1)])
  }

  @Test func aBadArrayOfLinesIsADecodingError() throws {
    let data = Data(#"[{"type":"sample","t":0,"x":0,"y":0,"phase":"hover"}]"#.utf8)
    #expect {
      try JSONDecoder().decode(GestureTrace.self, from: data)
    } throws: { error in
      guard case .dataCorrupted(let context)? = error as? DecodingError else { return false }
      return context.debugDescription
        == "trace line 1: field \"phase\" must be began, moved, ended or cancelled, got \"hover\""
    }
  }
}
