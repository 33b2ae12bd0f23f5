import Foundation
import OffloadTestSupport
import OrderingCore
import Testing

@testable import Offload
@testable import Persistence

let collectionFormat = DocumentFormat<ItemCollection>(name: "offload.collection")

extension SplitMix64 {
  /// A string that exercises escaping: quotes, backslashes, every control character, slashes,
  /// accents, CJK and emoji; sometimes long.
  mutating func itemText() -> String {
    let pieces = [
      "\"", "\\", "/", "a", "Z", " ", "é", "日", "🙂", "👩‍👩‍👧", "\u{7F}", "\u{2028}", "\\u0041", "{",
      "]", ",", ":", "0", "- [x] ",
    ]
    let length = chance(0.02) ? 500 + index(below: 5_000) : index(below: 40)
    var text = ""
    for _ in 0..<length {
      if chance(0.1) {
        text.unicodeScalars.append(Unicode.Scalar(UInt8(index(below: 0x20))))
      } else {
        text += pieces[index(below: pieces.count)]
      }
    }
    return text
  }

  /// A date with whole milliseconds in the years 0000–9999, often at the edges.
  mutating func itemDate() -> Date {
    switch index(below: 8) {
    case 0: return Date(timeIntervalSince1970: -62_167_219_200)  // 0000-01-01T00:00:00.000Z
    case 1: return Date(timeIntervalSince1970: 253_402_300_799.999)  // 9999-12-31T23:59:59.999Z
    case 2: return Date(timeIntervalSince1970: 1_800_000_000.5)
    default:
      let milliseconds = Int64.random(in: -62_167_219_200_000...253_402_300_799_999, using: &self)
      return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
  }

  /// A valid order key: a head, its integer digits, and a fraction without a trailing `0`.
  mutating func orderKey() -> OrderKey {
    let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    let head = index(below: 4)
    var text = String(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(head))))
    for _ in 0...head { text.append(digits[index(below: 62)]) }
    for _ in 0..<index(below: 4) { text.append(digits[index(below: 62)]) }
    while text.count > head + 2 && text.last == "0" { text.removeLast() }
    return OrderKey(rawValue: text) ?? .first
  }

  /// A random collection of up to `maxItems` items, some nested, some done.
  mutating func collection(maxItems: Int) -> ItemCollection {
    let count = index(below: maxItems + 1)
    let ids = (0..<count).map { _ in ShortID(sequence: next() >> UInt64(index(below: 60))) }
    let items = ids.enumerated().map { offset, id in
      Item(
        id: id, text: itemText(), created: itemDate(), done: chance(0.3),
        parent: offset > 0 && chance(0.4) ? ids[index(below: offset)] : nil, order: orderKey(),
        note: chance(0.2) ? itemText() + (chance(0.5) ? "\n\n" + itemText() : "") : nil)
    }
    return ItemCollection(
      id: ShortID(sequence: next()), name: itemText(), kind: chance(0.5) ? .list : .plan,
      created: itemDate(), items: items)
  }
}

@Suite("Collections write and read their own JSON: the bytes and values of Codable")
struct CollectionCodecTests {
  @Test("1,000 random collections: the same bytes as LineEncoder, the same value as JSONDecoder")
  func randomCollections() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(81))
    for round in 0..<1_000 {
      let collection = rng.collection(maxItems: round % 100 == 0 ? 400 : 12)
      let fast = try #require(
        DocumentCodec.fastEncode(collection, format: collectionFormat, journal: nil))
      let slow = try DocumentCodec.encode(
        collection, format: collectionFormat, path: "c.json", fastPath: false)
      #expect(fast == slow, "round \(round), \(rng)")
      let read = try #require(
        DocumentCodec.fastDecode(slow, as: ItemCollection.self, format: collectionFormat),
        "round \(round), \(rng)")
      let envelope = try CanonicalJSON.decoder().decode(
        Envelope<ItemCollection>.self, from: slow)
      #expect(read.document == envelope.data, "round \(round), \(rng)")
      #expect(read.document == collection, "round \(round), \(rng)")
    }
  }

  @Test("ShortID's digit test accepts exactly the alphabet's bytes")
  func shortIDDigits() {
    for byte in UInt8.min...UInt8.max {
      #expect(ShortID.isDigit(byte) == ShortID.alphabet.contains(byte), "byte \(byte)")
    }
  }

  @Test("500 random index item maps: read byte by byte as splitting the strings reads them")
  func indexLocations() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(84))
    let noise = [" ", "  ", "I", "é", " \u{301}", "-", "\u{0}"]
    for round in 0..<500 {
      var grouped: [String: String] = [:]
      for _ in 0..<rng.index(below: 4) {
        var ids = (0..<rng.index(below: 30)).map { _ in
          ShortID(sequence: rng.next() >> UInt64(rng.index(below: 64))).rawValue
        }
        if rng.chance(0.2) { ids.insert(noise[rng.index(below: noise.count)], at: 0) }
        let collection = rng.chance(0.05) ? "Bad!" : ShortID(sequence: rng.next()).rawValue
        grouped[collection] = ids.joined(separator: rng.chance(0.1) ? "  " : " ")
      }
      // The reference: split the strings, as the index always did.
      var expected: [ShortID: ShortID]? = [:]
      for (collection, ids) in grouped {
        guard let collectionID = ShortID(collection) else {
          expected = nil
          break
        }
        for text in ids.split(separator: " ") {
          guard let id = ShortID(String(text)) else {
            expected = nil
            break
          }
          expected?[id] = collectionID
        }
        if expected == nil { break }
      }
      #expect(StoreIndex.locations(grouped) == expected, "round \(round), \(rng)")
    }
  }

  @Test("500 random id lists: sorted and joined as sorting the strings does")
  func joinedSorted() {
    var rng = SplitMix64(seed: SplitMix64.testSeed(85))
    for round in 0..<500 {
      let ids = (0..<rng.index(below: 60)).map { _ in
        // Mostly six characters; sometimes 7 to 13 (sequence numbers past 2^30).
        ShortID(sequence: rng.chance(0.1) ? rng.next() : rng.next() >> 34)
      }
      let expected = ids.sorted().map(\.rawValue).joined(separator: " ")
      #expect(StoreIndex.joinedSorted(ids) == expected, "round \(round), \(rng)")
      #expect(
        StoreIndex.joinedSorted(ids.filter { $0.rawValue.utf8.count <= 8 })
          == ids.filter { $0.rawValue.utf8.count <= 8 }.sorted().map(\.rawValue).joined(
            separator: " "))
    }
  }

  @Test("a saved collection's file is byte for byte what the Codable path writes")
  func savedFile() throws {
    let folder = try TemporaryDirectory(prefix: "offload-codec")
    var rng = SplitMix64(seed: SplitMix64.testSeed(82))
    let collection = rng.collection(maxItems: 50)
    let store = DocumentStore(path: folder.appending("c.json"), format: collectionFormat)
    try store.save(collection)
    let written = try Data(contentsOf: URL(fileURLWithPath: store.path))
    let slow = try DocumentCodec.encode(
      collection, format: collectionFormat, path: store.path, fastPath: false)
    #expect(written == slow)
    #expect(try store.load() == collection)
  }

  /// The outcome of a decode, comparable across both paths.
  func outcome(_ data: Data, fastPath: Bool) -> String {
    do {
      let decoded = try DocumentCodec.decode(
        data, format: collectionFormat, path: "c.json", fastPath: fastPath)
      return "value \(decoded.document) \(decoded.version) \(String(describing: decoded.journal))"
    } catch {
      return "error \(error.code) \(error.description) \(String(describing: error.offset))"
        + " \(String(describing: error.line))"
    }
  }

  @Test("a collection truncated at every byte: never a crash, the Codable path's error")
  func truncated() throws {
    let collection = ItemCollection(
      id: ShortID(sequence: 1), name: "Plan \"A\"", kind: .plan,
      created: Date(timeIntervalSince1970: 1_800_000_000.123),
      items: [
        Item(
          id: ShortID(sequence: 2), text: "first\\ 🙂", created: Date(timeIntervalSince1970: 0),
          done: true, order: .first, note: "a \"note\"\nover lines"),
        Item(
          id: ShortID(sequence: 3), text: "\u{1}", created: Date(timeIntervalSince1970: 1),
          parent: ShortID(sequence: 2), order: .first),
      ])
    let data = try DocumentCodec.encode(collection, format: collectionFormat, path: "c.json")
    for length in 0...data.count {
      let prefix = data.prefix(length)
      #expect(
        outcome(prefix, fastPath: true) == outcome(prefix, fastPath: false), "length \(length)")
    }
  }

  @Test("2,000 mutated collections: the same value or the same error as the Codable path")
  func mutated() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(83))
    let interesting =
      Array(#"{}[],:"\ 0123456789-.eEtrufalsn/uzZTiIoO"#.utf8) + [0x00, 0x0A, 0xFF, 0xC3]
    var fastReads = 0
    for round in 0..<2_000 {
      let collection = rng.collection(maxItems: 3)
      var bytes = [UInt8](
        try DocumentCodec.encode(collection, format: collectionFormat, path: "c.json"))
      for _ in 0..<(1 + rng.index(below: 2)) {
        let position = rng.index(below: bytes.count)
        switch rng.index(below: 3) {
        case 0: bytes[position] = interesting[rng.index(below: interesting.count)]
        case 1: bytes.insert(interesting[rng.index(below: interesting.count)], at: position)
        default: bytes.remove(at: position)
        }
      }
      let data = Data(bytes)
      if DocumentCodec.fastDecode(data, as: ItemCollection.self, format: collectionFormat) != nil {
        fastReads += 1
      }
      #expect(
        outcome(data, fastPath: true) == outcome(data, fastPath: false), "round \(round), \(rng)")
    }
    // Some mutations (in text, in whitespace) leave a valid file that the fast path reads.
    #expect(fastReads > 100)
  }

  @Test("each member left out in turn: the fast path refuses exactly when JSONDecoder does")
  func missingMembers() throws {
    let item = [
      #""created":"2026-01-01T00:00:00.000Z""#, #""done":true"#, #""id":"xsqwjq""#,
      #""note":"n""#, #""order":"a0""#, #""parent":"abc123""#, #""role":"fixed""#, #""text":"t""#,
    ]
    let collection = [
      #""created":"2026-01-01T00:00:00.000Z""#, #""id":"abc123""#, #""items":[ITEM]"#,
      #""kind":"plan""#, #""name":"P""#,
    ]
    func file(_ item: [String], _ collection: [String]) -> Data {
      let data = collection.joined(separator: ",").replacingOccurrences(
        of: "ITEM", with: "{" + item.joined(separator: ",") + "}")
      return Data(#"{"data":{\#(data)},"format":"offload.collection","version":1}"#.utf8)
    }
    var files = [("no member", file(item, collection))]
    for member in item {
      files.append(("the item's \(member)", file(item.filter { $0 != member }, collection)))
    }
    for member in collection {
      files.append(("the collection's \(member)", file(item, collection.filter { $0 != member })))
    }
    var refused: [String] = []
    for (left, data) in files {
      let fast = DocumentCodec.fastDecode(data, as: ItemCollection.self, format: collectionFormat)
      let slow = try? CanonicalJSON.decoder().decode(Envelope<ItemCollection>.self, from: data)
      #expect(fast?.document == slow?.data, "without \(left)")
      #expect(outcome(data, fastPath: true) == outcome(data, fastPath: false), "without \(left)")
      if slow == nil { refused.append(left) }
    }
    // Every member but an item's note, parent and role is required.
    #expect(refused.count == 10, "\(refused)")
    #expect(
      !refused.contains { $0.contains("note") || $0.contains("parent") || $0.contains("role") })
  }

  @Test(
    "invalid ids, order keys and kinds are left to JSONDecoder and its messages",
    arguments: [
      (#""id":"xsqwjq""#, #""id":"XSQW!Q""#), (#""order":"a0""#, #""order":"a00""#),
      (#""kind":"plan""#, #""kind":"tree""#), (#""parent":"xsqwjq""#, #""parent":7"#),
      (#""done":false"#, #""done":0"#), (#""done":false"#, #""done":null"#),
    ])
  func invalidFields(original: String, replacement: String) throws {
    let json = #"""
      {"data":{"created":"2026-01-01T00:00:00.000Z","id":"abc123","items":[{"created":"2026-01-01T00:00:00.000Z","done":false,"id":"xsqwjq","order":"a0","parent":"xsqwjq","text":"t"}],"kind":"plan","name":"P"},"format":"offload.collection","version":1}
      """#
    #expect(
      DocumentCodec.fastDecode(Data(json.utf8), as: ItemCollection.self, format: collectionFormat)
        != nil)
    let broken = Data(json.replacingOccurrences(of: original, with: replacement).utf8)
    #expect(
      DocumentCodec.fastDecode(broken, as: ItemCollection.self, format: collectionFormat) == nil)
    let message = outcome(broken, fastPath: true)
    #expect(message == outcome(broken, fastPath: false))
    #expect(message.hasPrefix("error damaged c.json is damaged at line 1"), "\(message)")
  }
}
