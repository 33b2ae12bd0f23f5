import Foundation
import Gestures
import OffloadTestSupport
import Testing

@testable import Offload

@Suite("GestureFiles")
struct GestureFilesTests {
  @Test func replaysAndEvaluatesFiles() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let trace = folder.appending("t.jsonl")
    try """
    {"type":"config","preset":"flutter"}
    {"type":"sample","t":0,"x":0,"y":0,"phase":"began"}
    {"type":"sample","t":0.05,"x":0,"y":12,"phase":"ended"}
    """.write(toFile: trace, atomically: true, encoding: .utf8)
    // 12 pt: past iOS's slop (a scroll), within Flutter's 18 (a tap).
    #expect(try GestureFiles.replay(path: trace, preset: nil).strokes.map(\.outcome) == ["tap"])
    #expect(try GestureFiles.replay(path: trace, preset: .ios).strokes.map(\.outcome) == ["scroll"])
    let csv = folder.appending("s.csv")
    try "stroke_id,t_ms,x,y,phase,derived_label\n0,0,10,10,began,tap\n0,50,10,11,ended,tap\n"
      .write(toFile: csv, atomically: true, encoding: .utf8)
    let evaluation = try GestureFiles.evaluate(path: csv, preset: .android, density: 3)
    #expect(evaluation.tapAccuracy == 1 && evaluation.preset == .android && evaluation.density == 3)
  }

  @Test func reportsEachKindOfFailure() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    do {
      _ = try GestureFiles.replay(path: folder.appending("none.jsonl"), preset: nil)
      Issue.record("expected a missing file")
    } catch {
      #expect(error.isMissing && !error.isBadData)
      #expect(error.description == "no such file: \(folder.appending("none.jsonl"))")
    }
    let bad = folder.appending("bad.csv")
    try "x,y\n".write(toFile: bad, atomically: true, encoding: .utf8)
    do {
      _ = try GestureFiles.evaluate(path: bad, preset: .ios, density: 2.625)
      Issue.record("expected bad data")
    } catch {
      #expect(error.isBadData && !error.isMissing)
      #expect(error.description.hasPrefix("\(bad): the CSV header lacks the column \"stroke_id\""))
    }
    // A trace with nothing to replay (empty, or config only) is bad data, not silence.
    for (name, text) in [("empty.jsonl", ""), ("config.jsonl", "{\"type\":\"config\"}\n\n")] {
      let path = folder.appending(name)
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      do {
        _ = try GestureFiles.replay(path: path, preset: nil)
        Issue.record("expected bad data for \(name)")
      } catch {
        #expect(error.isBadData && !error.isMissing)
        #expect(
          error.description
            == "\(path): nothing to replay: the trace has no touch (a began sample) and no action")
      }
    }
    // A folder exists but cannot be read as a file.
    do {
      _ = try GestureFiles.replay(path: folder.path, preset: nil)
      Issue.record("expected an I/O error")
    } catch {
      #expect(!error.isBadData && !error.isMissing)
      #expect(error.description.hasPrefix("cannot read \(folder.path)"))
    }
  }
}
