import Foundation
import Gestures
import OffloadTestSupport
import PhotoSession
import Testing

@testable import OffloadWeb

/// The deck socket's messages: one tagged enum each way, decoded and encoded to the bytes the
/// page scripts read.
@Suite("DeckMessages: the deck socket's tagged messages")
struct DeckMessageTests {
  func parse(_ text: String) -> Result<DeckClientMessage, DeckMessageError> {
    DeckClientMessage.parse(text)
  }

  func text(_ message: DeckServerMessage) -> String {
    String(decoding: WebShapes.encode(message), as: UTF8.self)
  }

  @Test("samples: a began sample names its card; later samples carry only the pointer")
  func samples() throws {
    let began = parse(
      #"{"type":"sample","phase":"began","t":5000,"x":200,"y":300.5,"pointer":7,"session":"s1","index":3,"width":412,"reduceMotion":true}"#
    )
    #expect(
      try began.get()
        == .sample(
          TouchSample(time: 5.0, x: 200, y: 300.5, phase: .began, pointer: 7),
          start: DeckStrokeStart(session: "s1", index: 3, width: 412, reduceMotion: true)))
    let moved = parse(#"{"type":"sample","phase":"moved","t":5016,"x":187,"y":301}"#)
    #expect(
      try moved.get()
        == .sample(
          TouchSample(time: 5.016, x: 187, y: 301, phase: .moved, pointer: 0),
          start: nil))
  }

  @Test("a began sample's width and pointer are clamped; a missing width is a phone's")
  func clamps() throws {
    for (width, expected) in [("1", 100.0), ("99999", 10_000), ("500", 500)] {
      let message = try parse(
        #"{"type":"sample","phase":"began","t":1,"x":0,"y":0,"session":"s","index":0,"pointer":-5000000,"width":\#(width)}"#
      ).get()
      guard case .sample(let sample, let start?) = message else {
        Issue.record("\(message)")
        continue
      }
      #expect(start.width == expected)
      #expect(sample.pointer == -1_000_000)
      #expect(start.reduceMotion == false)
    }
    let phone = try parse(
      #"{"type":"sample","phase":"began","t":1,"x":0,"y":0,"session":"s","index":0}"#
    ).get()
    guard case .sample(_, let start?) = phone else { throw DeckMessageError("no start") }
    #expect(start.width == 390)
  }

  @Test("skip and commit")
  func skipAndCommit() throws {
    #expect(
      try parse(#"{"type":"skip","session":"s","index":4}"#).get() == .skip(session: "s", index: 4))
    #expect(try parse(#"{"type":"commit","session":"s"}"#).get() == .commit(session: "s"))
    #expect(try parse(#"{"type":"commit"}"#).get() == .commit(session: nil))
  }

  @Test(
    "bad messages: one line saying what is wrong",
    arguments: [
      ("", "not a deck message"),
      ("[1]", "not a deck message"),
      (#"{"session":"s"}"#, "not a deck message"),
      (#"{"type":"swipe"}"#, "unknown message type"),
      (#"{"type":7}"#, #""type" is not a string"#),
      (#"{"type":"sample","phase":"began","t":1,"x":2}"#, "a sample needs phase, t, x, y"),
      (#"{"type":"sample","phase":"lifted","t":1,"x":2,"y":3}"#, "a sample needs phase, t, x, y"),
      (#"{"type":"sample","phase":"moved","t":"1","x":2,"y":3}"#, #""t" is not a number"#),
      (
        #"{"type":"sample","phase":"began","t":1,"x":2,"y":3}"#,
        "a stroke begins on a session's card"
      ),
      (
        #"{"type":"sample","phase":"began","t":1,"x":2,"y":3,"session":"s"}"#,
        "a stroke begins on a session's card"
      ),
      (#"{"type":"skip","index":2}"#, "a skip names a session's card"),
      (#"{"type":"skip","session":"s","index":1.5}"#, #""index" is not a whole number"#),
    ])
  func badMessages(text: String, reason: String) {
    #expect(parse(text) == .failure(DeckMessageError(reason)), "\(text)")
  }

  @Test("random samples decode to what was sent")
  func randomSamples() throws {
    var random = SplitMix64(seed: 27)
    for _ in 0..<200 {
      let phase = TouchPhase.allCases.randomElement(using: &random)!
      let t = Double(Int.random(in: 0...10_000_000, using: &random)) / 8
      let x = Double(Int.random(in: -5000...5000, using: &random)) / 4
      let y = Double(Int.random(in: -5000...5000, using: &random)) / 4
      let pointer = Int.random(in: -2_000_000...2_000_000, using: &random)
      let index = Int.random(in: 0...100_000, using: &random)
      let text =
        #"{"type":"sample","phase":"\#(phase.rawValue)","t":\#(t),"x":\#(x),"y":\#(y),"pointer":\#(pointer),"session":"s\#(index)","index":\#(index)}"#
      let sample = TouchSample(
        time: t / 1000, x: x, y: y, phase: phase, pointer: min(max(pointer, -1_000_000), 1_000_000))
      let start =
        phase == .began
        ? DeckStrokeStart(session: "s\(index)", index: index, width: 390, reduceMotion: false)
        : nil
      #expect(try parse(text).get() == .sample(sample, start: start), "\(random)")
    }
  }

  @Test("server messages: the type tag and the members of each case, keys sorted")
  func serverMessages() {
    let deck = WebShapes.Deck(session: nil)
    let deckJSON = #"{"next":[]}"#
    #expect(text(.tick) == #"{"type":"tick"}"#)
    #expect(text(.snapBack) == #"{"type":"snapBack"}"#)
    #expect(
      text(.mark(direction: "left", mark: 0.25, rising: true))
        == #"{"direction":"left","mark":0.25,"rising":true,"type":"mark"}"#)
    #expect(
      text(.decided(direction: "up", byFling: false, decision: .keep, deck: deck))
        == #"{"byFling":false,"decision":"keep","deck":\#(deckJSON),"direction":"up","type":"decided"}"#
    )
    #expect(
      text(.refused(error: "photo 2 is no longer on screen", deck: deck))
        == #"{"deck":\#(deckJSON),"error":"photo 2 is no longer on screen","type":"refused"}"#)
    #expect(text(.refused(error: "gone", deck: nil)) == #"{"error":"gone","type":"refused"}"#)
    #expect(text(.skipped(deck: deck)) == #"{"deck":\#(deckJSON),"type":"skipped"}"#)
    #expect(text(.progress(done: 3, total: 10)) == #"{"done":3,"total":10,"type":"progress"}"#)
    #expect(
      text(.error("unknown message type")) == #"{"error":"unknown message type","type":"error"}"#)
  }
}
