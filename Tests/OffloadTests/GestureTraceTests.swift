import Gestures
import Offload
import OffloadTestSupport
import Testing

@Suite("GestureTrace and replay")
struct TraceTests {
  let sampleTrace = """
    {"type":"config","surface":"listRow","preset":"ios"}
    {"type":"sample","t":0,"x":200,"y":300,"phase":"began","pointer":0}
    {"type":"sample","t":0.05,"x":201,"y":301,"phase":"ended"}

    {"type":"sample","t":1,"x":300,"y":300,"phase":"began"}
    {"type":"sample","t":1.05,"x":250,"y":301,"phase":"moved"}
    {"type":"sample","t":1.1,"x":150,"y":302,"phase":"moved"}
    {"type":"sample","t":1.15,"x":140,"y":302,"phase":"ended"}
    {"type":"sample","t":2,"x":100,"y":100,"phase":"began"}
    {"type":"advance","t":2.6}
    {"type":"sample","t":2.7,"x":100,"y":180,"phase":"moved"}
    {"type":"sample","t":2.8,"x":100,"y":200,"phase":"ended"}
    {"type":"action","t":3,"action":"delete"}
    {"type":"action","t":3.5,"action":"favorite"}
    """

  @Test func parsesEveryKindOfLine() throws {
    let trace = try GestureTrace(parsing: sampleTrace)
    #expect(trace.surfaceName == "listRow" && trace.preset == .ios)
    #expect(trace.entries.count == 12)
    #expect(trace.entries[0] == .sample(TouchSample(time: 0, x: 200, y: 300, phase: .began)))
    #expect(trace.entries[7] == .advance(2.6))
    #expect(trace.entries[11] == .action(.favorite, time: 3.5))
  }

  @Test func densityConvertsPixels() throws {
    let trace = try GestureTrace(
      parsing: """
        {"type":"config","density":2,"containerWidth":400}\r
        {"type":"sample","t":0,"x":200,"y":300,"phase":"began","pointer":3}\r
        """)
    #expect(
      trace.entries == [.sample(TouchSample(time: 0, x: 100, y: 150, phase: .began, pointer: 3))])
    #expect(trace.containerWidth == 400)
  }

  @Test func replayDecidesEachStroke() throws {
    let replay = GestureReplay(trace: try GestureTrace(parsing: sampleTrace))
    #expect(replay.strokes.map(\.outcome) == ["tap", "delete", "drop", "delete", "unavailable"])
    #expect(replay.strokes.map(\.decision) == [.tap, .rowSwipe, .reorder, .rowSwipe, nil])
    #expect(replay.strokes[1].axis == .horizontal)
    #expect(replay.strokes[2].decisionDelay == 0.5)
    #expect(replay.text.hasPrefix("stroke 1 at 0 s: tap after 50 ms and 1.414 pt, outcome tap\n"))
    #expect(replay.text.contains("  2.5 haptic cue=grab"))
    #expect(replay.text.contains("stroke 5 at 3.5 s: no gesture, outcome unavailable"))
  }

  @Test func replayIsBitIdentical() throws {
    let trace = try GestureTrace(parsing: sampleTrace)
    let first = GestureReplay(trace: trace)
    let second = GestureReplay(trace: try GestureTrace(parsing: trace.jsonLines))
    #expect(first == second)
    #expect(first.text == second.text)
    #expect(first.jsonText == second.jsonText)
    #expect(first.jsonText.contains("\"outcome\" : \"delete\""))
  }

  @Test func presetOverrideChangesTheThresholds() throws {
    // A 9 pt movement: within iOS's 10 pt slop, past Android's 8 dp.
    let text = """
      {"type":"sample","t":0,"x":0,"y":0,"phase":"began"}
      {"type":"sample","t":0.05,"x":0,"y":9,"phase":"ended"}
      """
    let trace = try GestureTrace(parsing: text)
    #expect(GestureReplay(trace: trace).strokes[0].outcome == "tap")
    #expect(
      GestureReplay(trace: trace, preset: .android, overridePreset: true).strokes[0].outcome
        == "scroll")
  }

  @Test(arguments: [21, 22])
  func randomTracesReplayTheSameThroughTheirText(seed: UInt64) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
    for _ in 0..<60 {
      let trace = GestureJSONTests.randomTrace(&rng)
      let entries = trace.entries
      let parsed = try GestureTrace(parsing: trace.jsonLines)
      #expect(parsed == trace, "\(rng)")
      let replay = GestureReplay(trace: trace)
      #expect(replay.jsonText == GestureReplay(trace: parsed).jsonText, "\(rng)")
      #expect(
        replay.strokes.count
          == entries.filter {
            switch $0 {
            // A second finger's touch-down joins the stroke under way.
            case .sample(let s): s.phase == .began && s.pointer == 0
            case .action: true
            case .advance: false
            }
          }.count, "\(rng)")
    }
  }

  @Test(arguments: [
    (
      "{\"type\":\"sample\"",
      "trace line 1, column 17: the line ends too soon (where a value or a delimiter was due)"
    ),
    ("[1]", "trace line 1, column 1: expected an object"),
    ("{\"t\":1e999,\"type\":\"advance\"}", "trace line 1, column 1: a number is out of range"),
    ("{\"type\":\"a\\q\"}", "trace line 1, column 12: invalid escape sequence in a string: 'q'"),
    ("{\"type\":\"advance", "trace line 1, column 17: the line ends too soon (inside a string)"),
    (
      "{\"type\":\"advance\",\"t\":1} x",
      "trace line 1, column 26: expected the end of the line after the top-level value, found 'x'"
    ),
    ("{\"type\":nope}", "trace line 1, column 9: expected a value, found 'n'"),
    (
      "{\"type\":\"advance\" \"t\":1}",
      "trace line 1, column 19: expected ',' or '}' after an object member, found '\"'"
    ),
    ("{\"type\" 1}", "trace line 1, column 9: expected ':' after an object key, found '1'"),
    ("{1:2}", "trace line 1, column 2: expected a string key in an object, found '1'"),
    (
      "{\"type\":\"\\u12\"}",
      "trace line 1, column 14: expected a hexadecimal digit in a \\u escape, found '\"'"
    ),
  ])
  func malformedJSONIsReportedWithItsPlace(text: String, message: String) {
    #expect {
      try GestureTrace(parsing: text)
    } throws: { error in
      (error as? GestureError)?.code == .invalidJSON
        && (error as? GestureError)?.description == message
    }
  }

  @Test(arguments: [
    (
      "{\"type\":\"sample\",\"t\":0,\"x\":0,\"y\":0}", GestureError.Code.missingField,
      "trace line 2: missing field \"phase\""
    ),
    ("{\"t\":0}", .missingField, "trace line 2: missing field \"type\""),
    (
      "{\"type\":\"jump\"}", .invalidValue,
      "trace line 2: field \"type\" must be config, sample, advance or action, got \"jump\""
    ),
    (
      "{\"type\":\"sample\",\"t\":0,\"x\":0,\"y\":0,\"phase\":\"hover\"}", .invalidValue,
      "trace line 2: field \"phase\" must be began, moved, ended or cancelled, got \"hover\""
    ),
    (
      "{\"type\":\"sample\",\"t\":0,\"x\":0,\"y\":0,\"phase\":\"began\",\"pointer\":1.5}",
      .invalidValue, "trace line 2: field \"pointer\" must be an integer"
    ),
    (
      "{\"type\":\"sample\",\"t\":\"0\",\"x\":0,\"y\":0,\"phase\":\"began\"}", .invalidValue,
      "trace line 2: field \"t\" must be a number"
    ),
    ("{\"type\":true}", .invalidValue, "trace line 2: field \"type\" must be a string"),
    ("{\"type\":{}}", .invalidValue, "trace line 2: field \"type\" must be a string"),
    (
      "{\"type\":\"advance\",\"t\":[1]}", .invalidValue,
      "trace line 2: field \"t\" must be a number"
    ),
    (
      "{\"type\":\"config\",\"surface\":\"grid\"}", .invalidValue,
      "trace line 2: field \"surface\" must be listRow, photoDeck, plainList or reorderHandle, got \"grid\""
    ),
    (
      "{\"type\":\"config\",\"preset\":\"web\"}", .invalidValue,
      "trace line 2: field \"preset\" must be ios, android or flutter, got \"web\""
    ),
    (
      "{\"type\":\"config\",\"density\":0}", .invalidValue,
      "trace line 2: field \"density\" must be greater than zero"
    ),
    (
      "{\"type\":\"config\",\"containerWidth\":-1}", .invalidValue,
      "trace line 2: field \"containerWidth\" must be greater than zero"
    ),
    (
      "{\"type\":\"action\",\"t\":0,\"action\":\"shred\"}", .invalidValue,
      "trace line 2: field \"action\" must be delete, trash, favorite, keep, reorder or nest, got \"shred\""
    ),
  ])
  func badFieldsAreReportedWithTheirLine(text: String, code: GestureError.Code, message: String) {
    #expect {
      try GestureTrace(
        parsing: "{\"type\":\"advance\",\"t\":0,\"note\":null,\"ok\":false}\n" + text)
    } throws: { error in
      (error as? GestureError)?.code == code && (error as? GestureError)?.description == message
        && (error as? GestureError)?.line == 2
    }
  }

  @Test func theFirstBadLineIsReportedEvenBeforeLaterBadJSON() {
    #expect {
      try GestureTrace(parsing: "{\"type\":\"jump\"}\n{\"type\":")
    } throws: { error in
      (error as? GestureError)?.code == .invalidValue && (error as? GestureError)?.line == 1
    }
  }

  @Test func stringsWithEscapesRoundTrip() throws {
    let trace = try GestureTrace(
      parsing: "{\"type\":\"advance\",\"t\":1,\"note\":\"a\\\"b\\\\c\\/\\n\\t\\r\\b\\f\\u00e9\"}")
    #expect(trace.entries == [.advance(1)])
  }
}
