import Foundation
import Persistence
import Testing

@testable import OffloadWeb

/// The organize socket's answers: one tagged enum whose every case writes the members the
/// page scripts read (`organize-answers.js`, `organize-socket.js`, `organize-reveal.js`).
@Suite("OrganizeOutput: each answer's JSON, tagged by type")
struct OrganizeOutputTests {
  static let motion = OrganizeOutput.Motion(duration: 0.25, scale: 1.03, rotation: 2.5)
  static let motionJSON = #"{"duration":0.25,"rotation":2.5,"scale":1.03}"#
  static let next = OrganizeOutput.Next(
    answers: [
      .init(line: .init(x: 32, y: 88.5, depth: 1)),
      .init(blocked: true, reason: "a day stays in its place"),
    ],
    cells: [[0, 10, 80, 96, 0], [0, 10, 96, 120, 1]])
  static let nextJSON =
    #"{"answers":[{"line":{"depth":1,"x":32,"y":88.5}},{"blocked":true,"reason":"a day stays in its place"}],"cells":[[0,10,80,96,0],[0,10,96,120,1]]}"#
  static let view = OrganizeShapes.Collection(
    id: "c1", name: "Trip", kind: "plan", itinerary: false,
    rows: [
      .init(
        id: "k3", text: "Tent", done: false, depth: 0, number: "1", parent: nil, childCount: 0,
        fixed: false, role: nil)
    ],
    version: "v8", canUndo: true)
  static let viewJSON =
    #"{"canUndo":true,"id":"c1","itinerary":false,"kind":"plan","name":"Trip","rows":[{"childCount":0,"depth":0,"done":false,"fixed":false,"id":"k3","number":"1","text":"Tent"}],"version":"v8"}"#

  /// Every case with the exact bytes the page receives.
  static let cases: [(OrganizeOutput, String)] = [
    (.changed(version: "v7", arrivals: nil), #"{"type":"changed","version":"v7"}"#),
    (
      .changed(version: "v7", arrivals: "2 changes from phone"),
      #"{"done":"2 changes from phone","type":"changed","version":"v7"}"#
    ),
    (.error("not an organize message"), #"{"error":"not an organize message","type":"error"}"#),
    (
      .swipe(offset: -40.5, opacity: 0.25, past: false),
      #"{"offset":-40.5,"opacity":0.25,"past":false,"type":"swipe"}"#
    ),
    (
      .reveal(id: "k3", offset: -144, motion: motion),
      #"{"id":"k3","motion":\#(motionJSON),"offset":-144,"type":"reveal"}"#
    ),
    (
      .closed(id: "k3", reason: "tap", motion: motion),
      #"{"id":"k3","motion":\#(motionJSON),"reason":"tap","type":"closed"}"#
    ),
    (.swipeBack(motion: motion), #"{"motion":\#(motionJSON),"type":"swipeBack"}"#),
    (.scroll, #"{"type":"scroll"}"#),
    (
      .liftRefused(reason: "a day header stays"),
      #"{"haptic":"refusedDrop","reason":"a day header stays","type":"liftRefused"}"#
    ),
    (
      .lift(motion: motion, next: next),
      #"{"haptic":"grab","motion":\#(motionJSON),"next":\#(nextJSON),"type":"lift"}"#
    ),
    (
      .target(.init(line: .init(x: 32, y: 88.5, depth: 1)), autoScroll: 0, next: next),
      #"{"autoScroll":0,"blocked":false,"line":{"depth":1,"x":32,"y":88.5},"next":\#(nextJSON),"type":"target"}"#
    ),
    (
      .target(.init(blocked: true, reason: "not inside itself"), autoScroll: -12.25, next: next),
      #"{"autoScroll":-12.25,"blocked":true,"next":\#(nextJSON),"reason":"not inside itself","type":"target"}"#
    ),
    (.ended(motion: motion), #"{"motion":\#(motionJSON),"type":"ended"}"#),
    (.snapBack(.released(motion)), #"{"motion":\#(motionJSON),"type":"snapBack"}"#),
    (
      .snapBack(.blocked(id: "k3", reason: "not inside itself", motion: motion)),
      #"{"blocked":true,"haptic":"refusedDrop","id":"k3","motion":\#(motionJSON),"reason":"not inside itself","type":"snapBack"}"#
    ),
    (
      .snapBack(.failed(id: "k3", error: "this list changed since", motion: motion)),
      #"{"error":"this list changed since","haptic":"refusedDrop","id":"k3","motion":\#(motionJSON),"reason":"this list changed since","type":"snapBack"}"#
    ),
    (
      .snapBack(.notBegun(error: "a stroke begins on a row of a collection")),
      #"{"error":"a stroke begins on a row of a collection","type":"snapBack"}"#
    ),
    (
      .deleted(id: "k3", done: "Deleted Tent", view: view, made: 12),
      #"{"done":"Deleted Tent","haptic":"commit","id":"k3","made":12,"type":"deleted","version":"v8","view":\#(viewJSON)}"#
    ),
    (
      .dropped(id: "k3", made: 13),
      #"{"done":"Moved","haptic":"drop","id":"k3","made":13,"type":"dropped"}"#
    ),
    (
      .dropped(id: "k3", made: nil),
      #"{"done":"Moved","haptic":"drop","id":"k3","type":"dropped"}"#
    ),
    (
      .view(id: "k3", view: view),
      #"{"id":"k3","type":"view","version":"v8","view":\#(viewJSON)}"#
    ),
  ]

  static func text(_ value: some Encodable) -> String {
    String(decoding: WebShapes.encode(value), as: UTF8.self)
  }

  @Test("each case's JSON: its type and the members the page reads", arguments: cases.indices)
  func eachCase(index: Int) throws {
    let (output, expected) = Self.cases[index]
    #expect(Self.text(output) == expected)
    #expect(Self.text(output).contains(#""type":"\#(output.type)""#))
    // Written by hand or by JSONEncoder, the bytes are the same.
    #expect(WebShapes.encode(output) == WebShapes.encodeThroughJSONEncoder(output))
    // And they read back as the same case.
    #expect(try JSONDecoder().decode(OrganizeOutput.self, from: Data(expected.utf8)) == output)
  }

  @Test("a message of no known type, or without what its type needs, is not read")
  func badMessages() {
    for text in [
      #"{"type":"teleport"}"#, #"{"version":"v1"}"#, #"{"type":"changed"}"#,
      #"{"type":"target","blocked":false,"next":{"answers":[],"cells":[]}}"#,
      #"{"type":"dropped","id":7}"#, #"{"type":"swipe","offset":"far","opacity":1,"past":true}"#,
    ] {
      #expect(throws: DecodingError.self, "\(text)") {
        try JSONDecoder().decode(OrganizeOutput.self, from: Data(text.utf8))
      }
    }
  }

  @Test("a stroke's answer carries its stroke and sample numbers among its members")
  func stamped() {
    for (output, expected) in Self.cases {
      let stamped = OrganizeOutput.Stamped(output: output, stroke: 4, sample: 17)
      let text = Self.text(stamped)
      #expect(WebShapes.encode(stamped) == WebShapes.encodeThroughJSONEncoder(stamped), "\(text)")
      // The same members, plus the two numbers in key order.
      let members = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
      let own = try? JSONSerialization.jsonObject(with: Data(expected.utf8)) as? [String: Any]
      #expect(members?["stroke"] as? Int == 4 && members?["sample"] as? Int == 17, "\(text)")
      #expect(
        Set(members?.keys ?? [:].keys) == Set(own?.keys ?? [:].keys).union(["stroke", "sample"]))
      let keys = (members ?? [:]).keys.sorted()
      let order = keys.compactMap { text.range(of: "\"\($0)\":")?.lowerBound }
      #expect(order == order.sorted(), "\(text)")
    }
    let unnumbered = OrganizeOutput.Stamped(output: .scroll, stroke: nil, sample: nil)
    #expect(Self.text(unnumbered) == #"{"type":"scroll"}"#)
    let begun = OrganizeOutput.Stamped(
      output: .snapBack(.notBegun(error: "no")), stroke: 2, sample: nil)
    #expect(Self.text(begun) == #"{"error":"no","stroke":2,"type":"snapBack"}"#)
  }
}

/// The members the stroke tests read, by case.
extension OrganizeOutput {
  var next: Next? {
    switch self {
    case .lift(_, let next), .target(_, _, let next): next
    default: nil
    }
  }

  var answer: Answer? {
    if case .target(let answer, _, _) = self { answer } else { nil }
  }

  var offset: Double? {
    switch self {
    case .swipe(let offset, _, _), .reveal(_, let offset, _): offset
    default: nil
    }
  }

  var opacity: Double? {
    if case .swipe(_, let opacity, _) = self { opacity } else { nil }
  }

  var autoScroll: Double? {
    if case .target(_, let speed, _) = self { speed } else { nil }
  }

  var id: String? {
    switch self {
    case .closed(let id, _, _), .reveal(let id, _, _), .dropped(let id, _),
      .deleted(let id, _, _, _), .view(let id, _):
      id
    default: nil
    }
  }

  var reason: String? {
    switch self {
    case .closed(_, let reason, _), .liftRefused(let reason): reason
    case .target(let answer, _, _): answer.reason
    default: nil
    }
  }
}
