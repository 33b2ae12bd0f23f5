import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

/// A document that writes and reads its own canonical JSON, using every writer and reader call.
struct Card: CanonicalJSONCodable, Equatable {
  var count: Int
  var flag: Bool
  var parent: String?
  var sequence: UInt64
  var tags: [String]
  var text: String
  var when: Date

  static let keys: CanonicalJSONKeys = [
    "count", "flag", "parent", "sequence", "tags", "text", "when",
  ]

  init(
    count: Int, flag: Bool, parent: String?, sequence: UInt64, tags: [String], text: String,
    when: Date
  ) {
    self.count = count
    self.flag = flag
    self.parent = parent
    self.sequence = sequence
    self.tags = tags
    self.text = text
    self.when = when
  }

  func writeCanonicalJSON(to writer: inout CanonicalJSONWriter) throws(CanonicalJSONError) {
    writer.beginObject()
    writer.key("count")
    writer.integer(count)
    writer.key("flag")
    writer.bool(flag)
    if let parent {
      writer.key("parent")
      writer.string(parent)
    }
    writer.key("sequence")
    writer.unsigned(sequence)
    writer.key("tags")
    writer.beginArray()
    for tag in tags {
      writer.element()
      writer.string(tag)
    }
    writer.endArray()
    writer.key("text")
    writer.string(text)
    writer.key("when")
    try writer.date(when)
    writer.endObject()
  }

  init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError) {
    var count: Int?
    var flag: Bool?
    var parent: String?
    var sequence: UInt64?
    var tags: [String]?
    var text: String?
    var when: Date?
    try reader.readObject(keys: Self.keys) { (reader, key) throws(CanonicalJSONError) in
      switch key {
      case 0: count = try reader.readInt()
      case 1: flag = try reader.readBool()
      case 2: parent = try reader.readNull() ? nil : try reader.readString()
      case 3: sequence = try reader.readUInt64()
      case 4:
        var read: [String] = []
        try reader.readArray { (reader) throws(CanonicalJSONError) in
          read.append(try reader.readString())
        }
        tags = read
      case 5: text = try reader.readString()
      default: when = try reader.readDate()
      }
    }
    guard let count, let flag, let sequence, let tags, let text, let when else {
      throw CanonicalJSONError(offset: reader.offset)
    }
    self.init(
      count: count, flag: flag, parent: parent, sequence: sequence, tags: tags, text: text,
      when: when)
  }
}

let cardFormat = DocumentFormat<Card>(name: "test.card", version: 2)

/// The first and last instants Persistence writes: 0000-01-01T00:00:00.000Z and
/// 9999-12-31T23:59:59.999Z.
let earliestDate = Date(timeIntervalSince1970: -62_167_219_200)
let latestDate = Date(timeIntervalSince1970: 253_402_300_799.999)

extension SplitMix64 {
  /// A string that exercises escaping: quotes, backslashes, every control character, slashes,
  /// accents, CJK and emoji; sometimes long.
  mutating func awkwardText() -> String {
    let pieces = [
      "\"", "\\", "/", "a", "Z", " ", "é", "日", "🙂", "👩‍👩‍👧", "\u{7F}", "\u{2028}", "\\u0041",
      "{", "}", "[", "]", ",", ":", "0",
    ]
    let length = chance(0.05) ? 200 + index(below: 3_000) : index(below: 24)
    var text = ""
    for _ in 0..<length {
      if chance(0.2) {
        text.unicodeScalars.append(Unicode.Scalar(UInt8(index(below: 0x20))))
      } else {
        text += pieces[index(below: pieces.count)]
      }
    }
    return text
  }

  /// A date with whole milliseconds between the years 0000 and 9999, often at the edges.
  mutating func canonicalDate() -> Date {
    switch index(below: 6) {
    case 0: return earliestDate
    case 1: return latestDate
    case 2: return Date(timeIntervalSince1970: 0)
    default:
      let milliseconds = Int64.random(
        in: -62_167_219_200_000...253_402_300_799_999, using: &self)
      return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
  }

  /// A random card.
  mutating func card() -> Card {
    let counts = [0, 1, 9, 10, -1, -10, Int.max, Int.min, Int(truncatingIfNeeded: next())]
    let sequences: [UInt64] = [0, 9, 10, UInt64.max, next()]
    return Card(
      count: counts[index(below: counts.count)], flag: chance(0.5),
      parent: chance(0.5) ? awkwardText() : nil, sequence: sequences[index(below: sequences.count)],
      tags: (0..<index(below: 4)).map { _ in awkwardText() }, text: awkwardText(),
      when: canonicalDate())
  }
}

/// The outcome of decoding, comparable across the fast and the `Codable` path.
enum Outcome<Document: Equatable>: Equatable {
  case value(Document, version: Int, journal: JournalPosition?)
  case failure(PersistenceError.Code, String, offset: Int?, line: Int?)

  init(_ body: () throws(PersistenceError) -> DecodedDocument<Document>) {
    do {
      let decoded = try body()
      self = .value(decoded.document, version: decoded.version, journal: decoded.journal)
    } catch {
      self = .failure(error.code, error.description, offset: error.offset, line: error.line)
    }
  }
}

@Suite("CanonicalJSONCodable: the fast path writes and reads what Codable does")
struct CanonicalJSONCodableTests {
  /// The escaping files have always had, written out byte by byte, independently of the
  /// writer (which LineEncoder now shares).
  func referenceEscaped(_ text: String) -> [UInt8] {
    var output: [UInt8] = [0x22]
    for byte in text.utf8 {
      switch byte {
      case 0x22: output += Array(#"\""#.utf8)
      case 0x5C: output += Array(#"\\"#.utf8)
      case 0x0A: output += Array(#"\n"#.utf8)
      case 0x0D: output += Array(#"\r"#.utf8)
      case 0x09: output += Array(#"\t"#.utf8)
      case 0x08: output += Array(#"\b"#.utf8)
      case 0x0C: output += Array(#"\f"#.utf8)
      case 0..<0x20: output += Array(String(format: "\\u%04x", byte).utf8)
      default: output.append(byte)
      }
    }
    return output + [0x22]
  }

  /// The `Codable` path's bytes and the fast path's, for the same document.
  func bothEncodings(_ card: Card, journal: JournalPosition? = nil, pretty: Bool = true) throws
    -> (fast: Data, slow: Data)
  {
    let format = DocumentFormat<Card>(name: "test.card", version: 2, prettyPrinted: pretty)
    let fast = try #require(DocumentCodec.fastEncode(card, format: format, journal: journal))
    let slow = try DocumentCodec.encode(
      card, format: format, journal: journal, path: "card.json", fastPath: false)
    return (fast, slow)
  }

  @Test("1,000 random documents: the same bytes as LineEncoder, the same value as JSONDecoder")
  func randomDocuments() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(71))
    for round in 0..<1_000 {
      let card = rng.card()
      let journal =
        rng.chance(0.3)
        ? JournalPosition(generation: rng.index(below: 100), lastSequence: rng.index(below: 10_000))
        : nil
      let (fast, slow) = try bothEncodings(card, journal: journal, pretty: round % 4 != 0)
      #expect(fast == slow, "round \(round), \(rng)")
      let read = try #require(
        DocumentCodec.fastDecode(slow, as: Card.self, format: cardFormat), "round \(round), \(rng)")
      let envelope = try CanonicalJSON.decoder().decode(Envelope<Card>.self, from: slow)
      #expect(read.document == envelope.data, "round \(round), \(rng)")
      #expect(read.document == card, "round \(round), \(rng)")
      #expect(
        read.journal == envelope.header.journal && read.version == 2, "round \(round), \(rng)")
    }
  }

  @Test("strings: every escape LineEncoder writes, and JSONEncoder's escapes read back")
  func strings() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(72))
    var texts = (0..<0x80).map { String(Unicode.Scalar(UInt8($0))) }
    texts += (0..<1_000).map { _ in rng.awkwardText() }
    for text in texts {
      var writer = CanonicalJSONWriter(pretty: false)
      writer.string(text)
      var expected: [UInt8] = []
      try LineEncoder().encode(text, into: &expected)
      #expect(writer.bytes == expected, "\(text.debugDescription)")
      #expect(writer.bytes == referenceEscaped(text), "\(text.debugDescription)")
      #expect(try JSONDecoder().decode(String.self, from: Data(writer.bytes)) == text)
      // What JSONEncoder writes (\u escapes, escaped slashes) reads back the same.
      for data in [Data(expected), try JSONEncoder().encode([text]).dropFirst().dropLast()] {
        let read = try data.withUnsafeBytes { bytes throws(CanonicalJSONError) in
          var reader = CanonicalJSONReader(bytes)
          return try reader.readString()
        }
        #expect(read == text, "\(text.debugDescription)")
      }
    }
  }

  @Test(
    "escapes: \\u with surrogate pairs read as JSONDecoder does; lone surrogates left to it",
    arguments: [
      (#""\u0041\u00e9\u65e5\ud83d\ude42\/\b\f\n\r\t\"\\""#, "Aé日🙂/\u{8}\u{C}\n\r\t\"\\"),
      (#""\uD83D\uDE42""#, "🙂"), (#""\u0000""#, "\u{0}"),
      (#""\ud83d""#, nil), (#""\ude42""#, nil), (#""\ud83d\u0041""#, nil), (#""\x""#, nil),
      (#""\u12""#, nil), (#""\u12G4""#, nil), ("\"\u{1}\"", nil), ("\"abc", nil),
      ("\"\\", nil),
    ] as [(String, String?)])
  func escapes(json: String, expected: String?) {
    let read = Data(json.utf8).withUnsafeBytes { bytes in
      var reader = CanonicalJSONReader(bytes)
      return try? reader.readString()
    }
    #expect(read == expected)
    if let expected {
      #expect((try? JSONDecoder().decode(String.self, from: Data(json.utf8))) == expected)
    }
  }

  @Test("invalid UTF-8 in a string is left to JSONDecoder")
  func invalidUTF8() {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
    ] {
      let read = bytes.withUnsafeBytes { bytes in
        var reader = CanonicalJSONReader(bytes)
        return try? reader.readString()
      }
      #expect(read == nil, "\(bytes)")
    }
  }

  @Test(
    "integers: exact digits; fractions, exponents, leading zeros and overflow left to JSONDecoder",
    arguments: [
      ("0", 0), ("-0", 0), ("7", 7), ("-12", -12), ("9223372036854775807", Int.max),
      ("-9223372036854775808", Int.min), ("9223372036854775808", nil),
      ("-9223372036854775809", nil), ("18446744073709551616", nil), ("1.0", nil), ("1e2", nil),
      ("1E2", nil), ("01", nil), ("-", nil), ("", nil), ("+1", nil), ("x", nil),
    ] as [(String, Int?)])
  func integers(json: String, expected: Int?) {
    let read = Data(json.utf8).withUnsafeBytes { bytes in
      var reader = CanonicalJSONReader(bytes)
      return try? reader.readInt()
    }
    #expect(read == expected)
    if let expected {
      var writer = CanonicalJSONWriter(pretty: false)
      writer.integer(expected)
      #expect(writer.bytes == Array(String(expected).utf8))
    }
  }

  @Test("unsigned integers up to UInt64.max, written as LineEncoder writes them")
  func unsigned() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(73))
    for value in [0, 9, 10, 99, 100, UInt64.max, UInt64.max - 1]
      + (0..<200).map({ _ in rng.next() })
    {
      var writer = CanonicalJSONWriter(pretty: false)
      writer.unsigned(value)
      var expected: [UInt8] = []
      try LineEncoder().encode(value, into: &expected)
      #expect(writer.bytes == expected)
      let read = writer.bytes.withUnsafeBytes { bytes in
        var reader = CanonicalJSONReader(bytes)
        return try? reader.readUInt64()
      }
      #expect(read == value)
    }
  }

  @Test("dates: the same text as ISO8601Milliseconds over the years 0000-9999; others refused")
  func dates() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(74))
    for _ in 0..<2_000 {
      let date =
        rng.chance(0.5)
        ? rng.canonicalDate()
        : Date(
          timeIntervalSince1970: Double.random(in: -62_167_219_200...253_402_300_799, using: &rng))
      var writer = CanonicalJSONWriter(pretty: false)
      try writer.date(date)
      let text = try ISO8601Milliseconds.format(date)
      #expect(writer.bytes == Array("\"\(text)\"".utf8))
      let read = writer.bytes.withUnsafeBytes { bytes in
        var reader = CanonicalJSONReader(bytes)
        return try? reader.readDate()
      }
      #expect(read == ISO8601Milliseconds.parse(text))
    }
    #expect(try ISO8601Milliseconds.format(earliestDate) == "0000-01-01T00:00:00.000Z")
    #expect(try ISO8601Milliseconds.format(latestDate) == "9999-12-31T23:59:59.999Z")
    for outside in [
      Date(timeIntervalSince1970: -62_167_219_200.001),
      Date(timeIntervalSince1970: 253_402_300_800),
      Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: .nan),
    ] {
      var writer = CanonicalJSONWriter(pretty: false)
      #expect(throws: CanonicalJSONError.self) { try writer.date(outside) }
    }
  }

  @Test("a date outside 0000-9999 falls back to Codable, which reports it")
  func unwritableDate() throws {
    var card = Card(
      count: 1, flag: true, parent: nil, sequence: 2, tags: [], text: "x",
      when: Date(timeIntervalSince1970: 1e15))
    #expect(DocumentCodec.fastEncode(card, format: cardFormat, journal: nil) == nil)
    let error = try #require(throws: PersistenceError.self) {
      try DocumentCodec.encode(card, format: cardFormat, path: "card.json")
    }
    #expect(error.code == .encodingFailed)
    #expect(error.description.contains("a date outside the years 0000-9999"))
    card.when = latestDate
    #expect(DocumentCodec.fastEncode(card, format: cardFormat, journal: nil) != nil)
  }

  /// Decodes `data` both ways and expects the same outcome.
  func expectSameOutcome(_ data: Data, _ comment: String) {
    let fast = Outcome { () throws(PersistenceError) in
      try DocumentCodec.decode(data, format: cardFormat, path: "card.json")
    }
    let slow = Outcome { () throws(PersistenceError) in
      try DocumentCodec.decode(data, format: cardFormat, path: "card.json", fastPath: false)
    }
    #expect(fast == slow, "\(comment)")
  }

  @Test("a document truncated at every byte: never a crash, the Codable path's error")
  func truncated() throws {
    let card = Card(
      count: -3, flag: true, parent: "p\"\\", sequence: 12, tags: ["a", "é\n"], text: "🙂 x",
      when: latestDate)
    let (data, _) = try bothEncodings(
      card, journal: JournalPosition(generation: 1, lastSequence: 4))
    for length in 0...data.count {
      expectSameOutcome(data.prefix(length), "length \(length)")
    }
  }

  @Test("2,000 mutated documents: the same value or the same error as the Codable path")
  func mutated() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(75))
    let interesting = Array(#"{}[],:"\ 0123456789-.eEtrufalsn/u"#.utf8) + [0x00, 0x0A, 0xFF, 0xC3]
    for round in 0..<2_000 {
      var bytes = [UInt8](try bothEncodings(rng.card()).fast)
      for _ in 0..<(1 + rng.index(below: 3)) {
        let position = rng.index(below: bytes.count)
        switch rng.index(below: 3) {
        case 0: bytes[position] = interesting[rng.index(below: interesting.count)]
        case 1: bytes.insert(interesting[rng.index(below: interesting.count)], at: position)
        default: bytes.remove(at: position)
        }
      }
      expectSameOutcome(Data(bytes), "round \(round), \(rng)")
    }
  }

  @Test(
    "what the reader leaves to JSONDecoder still decodes, or fails as it always did",
    arguments: [
      // Another member order, extra whitespace.
      #"{"version":2,"format":"test.card","data":{"when":"2026-01-01T00:00:00Z","text":"t","tags":[],"sequence":1,"flag":false,"count":1}}"#,
      // An unknown member, in the data and in the envelope.
      #"{"data":{"count":1,"extra":[1,{"a":null}],"flag":false,"sequence":1,"tags":[],"text":"t","when":"2026-01-01T00:00:00.000Z"},"format":"test.card","version":2}"#,
      #"{"data":{"count":1,"flag":false,"sequence":1,"tags":[],"text":"t","when":"2026-01-01T00:00:00.000Z"},"format":"test.card","note":1,"version":2}"#,
      // A repeated member.
      #"{"data":{"count":1,"count":2,"flag":false,"sequence":1,"tags":[],"text":"t","when":"2026-01-01T00:00:00.000Z"},"format":"test.card","version":2}"#,
      // An escaped key, an escaped date, a fractional number, null parent, journal null.
      #"{"data":{"\u0063ount":1,"flag":false,"parent":null,"sequence":1,"tags":[],"text":"t","when":"\u0032026-01-01T00:00:00.000Z"},"format":"test.card","journal":null,"version":2}"#,
      #"{"data":{"count":1.0,"flag":false,"sequence":1,"tags":[],"text":"t","when":"2026-01-01T00:00:00.000Z"},"format":"test.card","version":2}"#,
      // A missing member, a wrong kind, a bad date, a wrong format, an older and a newer version.
      #"{"data":{"flag":false,"sequence":1,"tags":[],"text":"t","when":"2026-01-01T00:00:00.000Z"},"format":"test.card","version":2}"#,
      #"{"data":{"count":"1","flag":false,"sequence":1,"tags":[],"text":"t","when":"2026-01-01T00:00:00.000Z"},"format":"test.card","version":2}"#,
      #"{"data":{"count":1,"flag":false,"sequence":1,"tags":[],"text":"t","when":"2026-13-01T00:00:00.000Z"},"format":"test.card","version":2}"#,
      #"{"data":{"count":1,"flag":false,"sequence":1,"tags":[],"text":"t","when":"2026-01-01T00:00:00.000Z"},"format":"other","version":2}"#,
      #"{"data":{"count":1,"flag":false,"sequence":1,"tags":[],"text":"t","when":"2026-01-01T00:00:00.000Z"},"format":"test.card","version":1}"#,
      #"{"data":{"count":1,"flag":false,"sequence":1,"tags":[],"text":"t","when":"2026-01-01T00:00:00.000Z"},"format":"test.card","version":3}"#,
      // Trailing bytes, a byte-order mark, two documents.
      #"{"data":{"count":1,"flag":false,"sequence":1,"tags":[],"text":"t","when":"2026-01-01T00:00:00.000Z"},"format":"test.card","version":2} x"#,
      "\u{FEFF}{\"data\":{\"count\":1,\"flag\":false,\"sequence\":1,\"tags\":[],\"text\":\"t\",\"when\":\"2026-01-01T00:00:00.000Z\"},\"format\":\"test.card\",\"version\":2}",
      "{} {}", "", "null", "[]",
    ])
  func leftToJSONDecoder(json: String) {
    expectSameOutcome(Data(json.utf8), json)
  }
}
