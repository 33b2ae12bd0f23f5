import Foundation
import OffloadTestSupport
import Persistence
import Testing

@testable import OffloadWeb

/// The organize views' own JSON writer (`WebJSONWritable`) writes exactly what `JSONEncoder`
/// writes, byte for byte, for every kind of text a row can hold.
@Suite("WebJSON: the organize views written as JSONEncoder writes them")
struct WebJSONTests {
  /// Text with what JSON must escape or keep: quotes, backslashes, slashes, control
  /// characters, line and paragraph separators, accents, emoji, combining marks.
  static func text(_ random: inout SplitMix64) -> String {
    let pieces = [
      "Milk", " ", "\"", "\\", "/", "</script>", "\u{0}", "\u{1}", "\u{1F}", "\n", "\t", "\r",
      "\u{7F}", "\u{2028}", "\u{2029}", "é", "e\u{301}", "日本", "🧗🏽‍♀️", "\u{FEFF}", "Ω", "&",
      "'", "{", "}", "[", "]", ":", ",",
    ]
    let count = Int(random.next() % 8)
    return (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
  }

  static func collection(_ random: inout SplitMix64) -> OrganizeShapes.Collection {
    let rows = (0..<Int(random.next() % 40)).map { index in
      OrganizeShapes.Row(
        id: "\(index)" + text(&random), text: text(&random), done: random.next() % 2 == 0,
        depth: Int(random.next() % 10), number: "\(index + 1).\(random.next() % 9)",
        parent: random.next() % 3 == 0 ? nil : text(&random),
        childCount: Int(random.next() % 1_000_000), fixed: random.next() % 5 == 0,
        role: random.next() % 3 == 0 ? nil : text(&random))
    }
    return OrganizeShapes.Collection(
      id: text(&random), name: text(&random), kind: random.next() % 2 == 0 ? "plan" : "list",
      itinerary: random.next() % 2 == 0, rows: rows, version: text(&random),
      canUndo: random.next() % 2 == 0)
  }

  /// The writer's own bytes equal JSONEncoder's, and `WebShapes.encode` takes the writer.
  static func same(_ value: some Encodable & WebJSONWritable, _ comment: Comment) {
    var writer = CanonicalJSONWriter(pretty: false)
    let written = value.writeJSON(to: &writer)
    #expect(written, comment)
    let fast = writer.bytes
    #expect(WebShapes.encode(value) == fast, comment)
    let reference = WebShapes.encodeThroughJSONEncoder(value)
    #expect(
      fast == reference,
      "\(comment): \(String(decoding: fast, as: UTF8.self)) vs \(String(decoding: reference, as: UTF8.self))"
    )
  }

  @Test("views, changes and socket messages: the same bytes as JSONEncoder", arguments: 0..<40)
  func sameBytes(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let view = Self.collection(&random)
    Self.same(view, "view, seed \(seed)")
    func maybe<T>(_ value: T) -> T? { random.next() % 2 == 0 ? value : nil }
    let changed = OrganizeShapes.Changed(
      done: Self.text(&random), view: view, id: maybe(Self.text(&random)),
      made: maybe(random.next() >> 12), undone: maybe(random.next() >> 12))
    Self.same(changed, "change, seed \(seed)")
    let id = Self.text(&random)
    let messages: [OrganizeOutput] = [
      .changed(version: Self.text(&random), arrivals: maybe(Self.text(&random))),
      .error(Self.text(&random)), .scroll, .liftRefused(reason: Self.text(&random)),
      .snapBack(.notBegun(error: Self.text(&random))),
      .deleted(id: id, done: Self.text(&random), view: view, made: maybe(random.next() >> 12)),
      .dropped(id: id, made: maybe(random.next() >> 12)),
      .view(id: id, view: view),
    ]
    for message in messages {
      let stamped = OrganizeOutput.Stamped(
        output: message, stroke: maybe(Int(random.next() % 1_000) - 500),
        sample: maybe(Int(random.next() % 99)))
      Self.same(stamped, "\(message.type), seed \(seed)")
    }
  }

  @Test("a message with a line, a motion or an offset goes through JSONEncoder")
  func numbersGoTheOtherWay() {
    let target = OrganizeOutput.Stamped(
      output: .target(
        .init(line: .init(x: 32.5, y: 0.1, depth: 1)), autoScroll: -12.25,
        next: .init(answers: [], cells: [])),
      stroke: 3, sample: 9)
    var writer = CanonicalJSONWriter(pretty: false)
    let written = target.writeJSON(to: &writer)
    #expect(!written)
    #expect(WebShapes.encode(target) == WebShapes.encodeThroughJSONEncoder(target))
    let text = String(decoding: WebShapes.encode(target), as: UTF8.self)
    #expect(text.contains(#""autoScroll":-12.25"#) && text.contains(#""y":0.1"#))
    #expect(text.contains(#""sample":9,"stroke":3,"type":"target""#))
  }
}
