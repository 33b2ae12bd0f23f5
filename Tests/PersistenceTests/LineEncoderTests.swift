import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

@Suite("LineEncoder: the journal's entry encoder")
struct LineEncoderTests {
  enum Action: Codable, Equatable {
    case trash(photo: Int)
    case rate(photo: Int, stars: Int8)
    case note(String)
    case undo
  }

  struct Rich: Codable, Equatable {
    var text: String
    var count: Int
    var small: Int8
    var big: UInt64
    var ratio: Double
    var single: Float
    var flag: Bool
    var optional: Int?
    var date: Date
    var blob: Data
    var link: URL
    var tags: [String]
    var scores: [String: Int]
    var byNumber: [Int: String]
    var actions: [Action]
    var nested: [[Int?]]
  }

  func random(_ rng: inout SplitMix64) -> Rich {
    let actions: [Action] = (0..<rng.index(below: 4)).map { _ in
      switch rng.index(below: 4) {
      case 0: .trash(photo: rng.index(below: 1000))
      case 1: .rate(photo: rng.index(below: 1000), stars: Int8(rng.index(below: 6)))
      case 2: .note(rng.text(maxLength: 10))
      default: .undo
      }
    }
    return Rich(
      text: rng.text(maxLength: 20) + "\u{1}\u{1F}\r\u{8}\u{C}",
      count: Int.random(in: Int.min...Int.max, using: &rng),
      small: Int8.random(in: Int8.min...Int8.max, using: &rng), big: rng.next(),
      ratio: [
        0, -0.0, 1.5, 1e-7, 123_456.789, 1e300, -2.5e-300,
        Double.random(in: -1e6...1e6, using: &rng),
      ][rng.index(below: 8)],
      single: Float(rng.index(below: 1000)) / 8, flag: rng.chance(0.5),
      optional: rng.chance(0.5) ? rng.index(below: 10) : nil,
      date: Date(timeIntervalSince1970: Double(rng.index(below: 4_000_000_000_000)) / 1000),
      blob: Data((0..<rng.index(below: 8)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }),
      link: URL(string: "https://example.com/\(rng.index(below: 100))?q=a/b")!,
      tags: (0..<rng.index(below: 4)).map { _ in rng.text(maxLength: 5) },
      scores: Dictionary(uniqueKeysWithValues: (0..<rng.index(below: 4)).map { ("k\($0)é", $0) }),
      byNumber: Dictionary(
        uniqueKeysWithValues: (0..<rng.index(below: 4)).map { ($0 * 7, "v\($0)") }),
      actions: actions,
      nested: [[1, nil], [], [rng.index(below: 5)]])
  }

  @Test func randomValuesRoundTripThroughJSONDecoder() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(14))
    let decoder = CanonicalJSON.decoder()
    let encoder = LineEncoder()
    for _ in 0..<2000 {
      let value = random(&rng)
      var bytes: [UInt8] = []
      try encoder.encode(value, into: &bytes)
      #expect(!bytes.contains(0x0A), "one line")
      #expect(bytes.withUnsafeBytes { JSONScanner.validate($0) } == nil)
      let decoded = try decoder.decode(Rich.self, from: Data(bytes))
      #expect(decoded == value, "\(rng)")
      // Deterministic: the same value gives the same bytes.
      var again: [UInt8] = []
      try encoder.encode(value, into: &again)
      #expect(again == bytes)
    }
  }

  @Test func outputMatchesTheDocumentEncoderForPlainValues() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(15))
    let foundation = CanonicalJSON.encoder(pretty: false)
    for _ in 0..<500 {
      let value = rng.item(id: rng.index(below: 1000))
      var bytes: [UInt8] = []
      try LineEncoder().encode(value, into: &bytes)
      #expect(bytes == Array(try foundation.encode(value)), "\(rng)")
    }
    var bytes: [UInt8] = []
    try LineEncoder().encode(["b": 1, "a": 2, "B": 3, "é": 4], into: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == #"{"B":3,"a":2,"b":1,"é":4}"#)
  }

  @Test func prettyOutputIndentsOneMemberPerLine() throws {
    struct Shape: Encodable {
      var b = [1, 2]
      var a: [String: Int] = [:]
      var c: [Int] = []
    }
    var bytes: [UInt8] = []
    try LineEncoder(pretty: true).encode(Shape(), into: &bytes)
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "{\n  \"a\": {},\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": []\n}")
  }

  @Test func aKeyEncodedTwiceKeepsItsLastValue() throws {
    struct Twice: Encodable {
      enum Key: String, CodingKey { case x, a }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: .x)
        try container.encode(0, forKey: .a)
        try container.encode(2, forKey: .x)
      }
    }
    var bytes: [UInt8] = []
    try LineEncoder().encode(Twice(), into: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":0,"x":2}"#)
    #expect(
      String(decoding: try CanonicalJSON.encoder(pretty: false).encode(Twice()), as: UTF8.self)
        == #"{"a":0,"x":2}"#)
  }

  @Test func nonFiniteNumbersAreRefused() {
    for value in [Double.nan, .infinity, -.infinity] {
      #expect(throws: EncodingError.self) {
        var bytes: [UInt8] = []
        try LineEncoder().encode(["x": value], into: &bytes)
      }
    }
  }

  /// Uses a container's super encoder in each way it can be used.
  struct Supers: Encodable {
    enum Key: String, CodingKey { case x, named }
    var use: Int

    func encode(to encoder: any Encoder) throws {
      if use >= 5 {
        var list = encoder.unkeyedContainer()
        try list.encode(0)
        let slot = list.superEncoder()
        if use == 5 {
          var single = slot.singleValueContainer()
          try single.encode("s")
        } else if use == 6 {
          var keyed = slot.container(keyedBy: Key.self)
          try keyed.encode(1, forKey: .x)
        }
        try list.encode(3)
        return
      }
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(1, forKey: .x)
      switch use {
      case 0:
        var inner = container.superEncoder().container(keyedBy: Key.self)
        try inner.encode(2, forKey: .x)
      case 1:
        var single = container.superEncoder(forKey: .named).singleValueContainer()
        try single.encode("s")
      case 2:
        var list = container.superEncoder(forKey: .named).unkeyedContainer()
        try list.encode(1)
        try list.encode(2)
      case 3:
        _ = container.superEncoder(forKey: .named)
      default:
        var single = container.superEncoder().singleValueContainer()
        try single.encodeNil()
      }
    }
  }

  @Test(
    "a super encoder's value lands where JSONEncoder puts it",
    arguments: zip(
      0..<8,
      [
        #"{"super":{"x":2},"x":1}"#, #"{"named":"s","x":1}"#, #"{"named":[1,2],"x":1}"#,
        #"{"named":{},"x":1}"#, #"{"super":null,"x":1}"#, #"[0,"s",3]"#, #"[0,{"x":1},3]"#,
        #"[0,{},3]"#,
      ]))
  func superEncoders(use: Int, expected: String) throws {
    var bytes: [UInt8] = []
    try LineEncoder().encode(Supers(use: use), into: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == expected)
    let foundation = try CanonicalJSON.encoder(pretty: false).encode(Supers(use: use))
    #expect(String(decoding: foundation, as: UTF8.self) == expected)
  }
}
