import Foundation
import OffloadTestSupport
import Testing

@testable import offloadctl

@Suite("offloadctl gesture: parsing", .timeLimit(.minutes(5)))
struct GestureCommandParsingTests {
  @Test func parsesReplayAndEval() throws {
    let replay = try #require(
      try Offloadctl.parseAsRoot(["gesture", "replay", "t.jsonl", "--preset", "android", "--json"])
        as? GestureCommand.Replay)
    #expect(replay.file == "t.jsonl" && replay.preset == .android && replay.global.json)
    let eval = try #require(
      try Offloadctl.parseAsRoot(["gesture", "eval", "s.csv", "--density", "3"])
        as? GestureCommand.Eval)
    #expect(eval.density == 3 && eval.preset == .ios)
  }

  @Test func rejectsBadOptions() {
    #expect(throws: (any Error).self) {
      try Offloadctl.parseAsRoot(["gesture", "replay", "t.jsonl", "--preset", "web"])
    }
    #expect(throws: (any Error).self) {
      try Offloadctl.parseAsRoot(["gesture", "eval", "s.csv", "--density", "0"])
    }
    #expect(throws: (any Error).self) { try Offloadctl.parseAsRoot(["gesture", "replay"]) }
  }
}

@Suite("offloadctl gesture: end to end", .timeLimit(.minutes(5)))
struct GestureCommandEndToEndTests {
  func run(_ arguments: [String]) throws -> ProcessResult {
    try BuiltProduct.run(
      "offloadctl", arguments, environment: ["OFFLOAD_HOME": "/nonexistent-offload-test"])
  }

  let trace = """
    {"type":"config","surface":"listRow"}
    {"type":"sample","t":0,"x":300,"y":300,"phase":"began"}
    {"type":"sample","t":0.05,"x":250,"y":301,"phase":"moved"}
    {"type":"sample","t":0.1,"x":150,"y":302,"phase":"moved"}
    {"type":"sample","t":0.15,"x":140,"y":302,"phase":"ended"}
    """

  @Test func replayPrintsTheTimelineAndIsRepeatable() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.appending("swipe.jsonl")
    try trace.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try run(["gesture", "replay", path])
    #expect(result.status == 0, "\(result)")
    #expect(
      result.stdout.hasPrefix(
        "stroke 1 at 0 s: rowSwipe after 50 ms and 50.01 pt, outcome delete\n"))
    #expect(result.stdout.contains("  0.15 rowSwipeFinished outcome=delete\n"))
    let json = try run(["gesture", "replay", path, "--json"])
    #expect(json.status == 0)
    let again = try run(["gesture", "replay", path, "--json"])
    #expect(json.stdout == again.stdout)
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(document?["schemaVersion"] as? Int == 1)
    let strokes = document?["strokes"] as? [[String: Any]]
    #expect(strokes?.first?["outcome"] as? String == "delete")
    #expect(strokes?.first?["decision"] as? String == "rowSwipe")
    let android = try run(["gesture", "replay", path, "--preset", "android", "--json"])
    #expect(android.stdout.contains("\"preset\" : \"android\""))
  }

  @Test func replayReportsMissingAndBadFiles() throws {
    let missing = try run(["gesture", "replay", "/nonexistent/trace.jsonl"])
    #expect(missing.status == 66)
    #expect(missing.stderr == "offloadctl: error: no such file: /nonexistent/trace.jsonl\n")
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.appending("bad.jsonl")
    try "{\"type\":\"sample\"}\n".write(toFile: path, atomically: true, encoding: .utf8)
    let folderAsFile = try run(["gesture", "replay", folder.path])
    #expect(folderAsFile.status == 74)
    #expect(folderAsFile.stderr.hasPrefix("offloadctl: error: cannot read \(folder.path)"))
    let bad = try run(["gesture", "replay", path])
    #expect(bad.status == 65)
    #expect(bad.stderr == "offloadctl: error: \(path): trace line 1: missing field \"phase\"\n")
  }

  @Test func replayOfAnEmptyTraceFailsWithBadData() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    for (name, text) in [
      ("empty.jsonl", ""), ("advance.jsonl", "{\"type\":\"advance\",\"t\":1}\n"),
    ] {
      let path = folder.appending(name)
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      for json in [false, true] {
        let result = try run(["gesture", "replay", path] + (json ? ["--json"] : []))
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(
          result.stderr
            == "offloadctl: error: \(path): nothing to replay: the trace has no touch (a began sample) and no action\n"
        )
      }
    }
  }

  @Test func evalPrintsTheFigures() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.appending("strokes.csv")
    try """
    stroke_id,t_ms,x,y,phase,derived_label
    0,0,100,100,began,tap
    0,60,101,100,ended,tap
    1,0,300,900,began,up
    1,20,300,860,moved,up
    1,60,303,700,ended,up
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try run(["gesture", "eval", path, "--json", "--density", "2"])
    #expect(result.status == 0, "\(result)")
    let document =
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(document?["strokes"] as? Int == 2)
    #expect(document?["axisAgreement"] as? Double == 1)
    #expect(document?["tapAccuracy"] as? Double == 1)
    #expect((document?["confusion"] as? [String: [String: Int]])?["up"]?["up"] == 1)
    #expect(document?["medianDecisionDistance"] as? Double != nil)
    #expect(document?["medianDecisionMs"] as? Double == 40)
    #expect(document?["rowDeletes"] as? [String: Int] == ["tap": 0, "up": 0])
    #expect(document?["tapAccuracyWithinSlop"] as? Double == 1)
    let text = try run(["gesture", "eval", path])
    #expect(text.stdout.contains("tap accuracy: 100.0 %"))
    let bad = try run(["gesture", "eval", "/nonexistent.csv"])
    #expect(bad.status == 66)
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: calibrationCSV), "the calibration set is absent"))
  func evalOnTheCalibrationSetMeetsTheAxisTarget() throws {
    let result = try run(["gesture", "eval", calibrationCSV, "--json"])
    #expect(result.status == 0)
    let document =
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(document?["strokes"] as? Int == 5902)
    #expect((document?["axisAgreement"] as? Double ?? 0) >= 0.98)
    #expect((document?["tapAccuracyWithinSlop"] as? Double ?? 0) >= 0.99)
    let deletes = document?["rowDeletes"] as? [String: Int]
    #expect(deletes?["up"] == 0 && deletes?["down"] == 0)
  }
}

let calibrationCSV: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("shared/touch-data/strokes-calibration.csv").path
