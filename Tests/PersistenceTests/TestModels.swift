import Foundation
import OffloadTestSupport
import Persistence

/// An item like the workspace's: id, text, order key, parent, creation date.
struct Item: Codable, Equatable, Sendable {
  var id: Int
  var text: String
  var key: String
  var parentId: Int?
  var createdAt: Date
}

/// A document of items.
struct Plan: Codable, Equatable, Sendable {
  var title: String
  var items: [Item]
  var score: Double = 0
}

let planFormat = DocumentFormat<Plan>(name: "test.plan", version: 1)

/// A journal entry.
struct Swipe: Codable, Equatable, Sendable {
  var photo: Int
  var decision: String
}

/// A journal snapshot: every swipe so far, folded.
struct Deck: Codable, Equatable, Sendable {
  var decisions: [Int: String] = [:]
  var count = 0

  mutating func apply(_ swipe: Swipe) {
    decisions[swipe.photo] = swipe.decision
    count += 1
  }
}

let deckFormat = DocumentFormat<Deck>(name: "test.deck", version: 1)

extension SplitMix64 {
  /// A random string of printable ASCII and a few multi-byte characters.
  mutating func text(maxLength: Int) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz ABC0123456789\"\\/\n\t{}[],:é日🙂")
    let length = index(below: maxLength + 1)
    return String((0..<length).map { _ in alphabet[index(below: alphabet.count)] })
  }

  /// A random item with a millisecond-precise date.
  mutating func item(id: Int) -> Item {
    Item(
      id: id, text: text(maxLength: 30), key: "a\(index(below: 1000))",
      parentId: chance(0.5) ? index(below: 100) : nil,
      createdAt: Date(
        timeIntervalSince1970: Double(Int.random(in: 0...4_000_000_000_000, using: &self)) / 1000))
  }

  /// A random plan of up to `maxItems` items.
  mutating func plan(maxItems: Int) -> Plan {
    Plan(
      title: text(maxLength: 12), items: (0..<index(below: maxItems + 1)).map { item(id: $0) },
      score: Double(Int.random(in: -1_000_000...1_000_000, using: &self)) / 64)
  }

  /// A random swipe.
  mutating func swipe() -> Swipe {
    Swipe(photo: index(below: 50), decision: ["trash", "favorite", "keep"][index(below: 3)])
  }
}

/// Reads a file's bytes.
func contents(_ path: String) throws -> [UInt8] {
  Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Writes bytes to a file, replacing it.
func overwrite(_ path: String, _ bytes: [UInt8]) throws {
  try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// The names in a folder, sorted.
func listing(_ folder: TemporaryDirectory) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
}
