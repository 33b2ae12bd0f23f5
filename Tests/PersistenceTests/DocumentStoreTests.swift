import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

@Suite("DocumentStore: save and load")
struct DocumentStoreTests {
  @Test func missingFileLoadsAsNil() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let store = DocumentStore(path: folder.appending("plan.json"), format: planFormat)
    #expect(try store.load() == nil)
    #expect(try store.loadBackup() == nil)
  }

  @Test func randomDocumentsRoundTripAndKeepTheLastAsBackup() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    var rng = SplitMix64(seed: SplitMix64.testSeed(1))
    let store = DocumentStore(path: folder.appending("plan.json"), format: planFormat)
    var previous: Plan?
    for _ in 0..<60 {
      let plan = rng.plan(maxItems: 12)
      try store.save(plan)
      #expect(try store.load() == plan, "\(rng)")
      #expect(try store.loadBackup() == previous, "\(rng)")
      previous = plan
    }
    // No temporary file is left behind.
    #expect(try listing(folder) == ["plan.json", "plan.json.backup"])
  }

  @Test func outputIsDeterministicWithSortedKeysAndAFinalNewline() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let item = Item(
      id: 7, text: "a/b", key: "a0", parentId: nil,
      createdAt: Date(timeIntervalSince1970: 1_700_000_000.5))
    let plan = Plan(title: "Trip", items: [item], score: 0.1)
    let compact = DocumentStore(
      path: folder.appending("a.json"),
      format: DocumentFormat<Plan>(name: "test.plan", prettyPrinted: false))
    try compact.save(plan)
    let text = String(decoding: try contents(compact.path), as: UTF8.self)
    #expect(
      text
        == #"{"data":{"items":[{"createdAt":"2023-11-14T22:13:20.500Z","id":7,"key":"a0","text":"a/b"}],"score":0.1,"title":"Trip"},"format":"test.plan","version":1}"#
        + "\n")
    let pretty = DocumentStore(path: folder.appending("b.json"), format: planFormat)
    try pretty.save(plan)
    try pretty.save(plan)
    let first = try contents(pretty.path)
    #expect(first.last == 0x0A)
    #expect(String(decoding: first, as: UTF8.self).contains("\n  \"format\": \"test.plan\",\n"))
    try pretty.save(plan)
    #expect(try contents(pretty.path) == first)
  }

  @Test(arguments: [
    ("1970-01-01T00:00:00.000Z", 0.0), ("2026-11-21T22:21:15.123Z", 1_795_299_675.123),
    ("1969-12-31T23:59:59.999Z", -0.001), ("2000-02-29T12:00:00.000Z", 951_825_600.0),
    ("0000-01-01T00:00:00.000Z", -62_167_219_200.0),
    ("9999-12-31T23:59:59.999Z", 253_402_300_799.999),
  ])
  func datesUseISO8601WithMilliseconds(text: String, seconds: Double) throws {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(try ISO8601Milliseconds.format(date) == text)
    #expect(ISO8601Milliseconds.parse(text) == date)
  }

  @Test func randomDatesRoundTripToTheMillisecond() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(2))
    for _ in 0..<5000 {
      let milliseconds = Int64.random(in: -62_167_219_200_000...253_402_300_799_999, using: &rng)
      let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      let text = try ISO8601Milliseconds.format(date)
      #expect(ISO8601Milliseconds.parse(text) == date, "\(text) \(rng)")
    }
    #expect(ISO8601Milliseconds.parse("2026-11-21T22:21:15Z") != nil)
    #expect(ISO8601Milliseconds.parse("2026-11-21T22:21:15.5Z") != nil)
    for bad in [
      "", "2026-11-21", "2026-13-01T00:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T22:21:15+01:00",
      "2026-11-21T22:21:15.Z", "2026-11-21 22:21:15Z", "20x6-11-21T22:21:15Z",
    ] {
      #expect(ISO8601Milliseconds.parse(bad) == nil, "\(bad)")
    }
    #expect(throws: EncodingError.self) {
      try ISO8601Milliseconds.format(Date(timeIntervalSince1970: 1e15))
    }
  }

  @Test func aValueThatCannotBeEncodedIsReportedAndNothingIsWritten() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let store = DocumentStore(path: folder.appending("plan.json"), format: planFormat)
    let error = try #require(throws: PersistenceError.self) {
      try store.save(Plan(title: "x", items: [], score: .nan))
    }
    #expect(error.code == .encodingFailed)
    #expect(error.description.hasPrefix("cannot encode the document for \(store.path)"))
    #expect(try listing(folder) == [])
  }

  @Test func aMissingFolderIsAnIOFailureNamingTheFile() throws {
    let store = DocumentStore(path: "/nonexistent-offload/plan.json", format: planFormat)
    let error = try #require(throws: PersistenceError.self) {
      try store.save(Plan(title: "x", items: []))
    }
    #expect(error.code == .notFound)
    #expect(error.operation == "open")
    #expect(error.description.contains("/nonexistent-offload/plan.json.tmp-"))
  }
}

@Suite("DocumentStore: versions and migrations")
struct DocumentVersionTests {
  struct V3: Codable, Equatable {
    var title: String
    var tags: [String]
  }

  static let migrations = [
    Migration(from: 1) { data in
      var data = data
      data["title"] = data["name"] ?? .string("")
      data["name"] = nil
      return data
    },
    Migration(from: 2) { data in
      var data = data
      data["tags"] = .array([])
      return data
    },
  ]

  func write(_ folder: TemporaryDirectory, _ text: String) throws -> String {
    let path = folder.appending("doc.json")
    try overwrite(path, Array(text.utf8))
    return path
  }

  @Test func olderVersionsMigrateInMemoryAndTheFileIsLeftAlone() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let original = #"{"data":{"name":"Groceries"},"format":"test.v","version":1}"#
    let path = try write(folder, original)
    let store = DocumentStore(
      path: path,
      format: DocumentFormat<V3>(name: "test.v", version: 3, migrations: Self.migrations))
    #expect(try store.load() == V3(title: "Groceries", tags: []))
    #expect(try contents(path) == Array(original.utf8))
    // Saving writes the current version.
    try store.save(V3(title: "Groceries", tags: ["food"]))
    #expect(String(decoding: try contents(path), as: UTF8.self).contains("\"version\": 3"))
    #expect(try store.load() == V3(title: "Groceries", tags: ["food"]))
  }

  @Test func aNewerVersionIsRefusedAndNeverRewritten() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let original = #"{"data":{"title":"x","tags":[],"extra":1},"format":"test.v","version":4}"#
    let path = try write(folder, original)
    let store = DocumentStore(
      path: path,
      format: DocumentFormat<V3>(name: "test.v", version: 3, migrations: Self.migrations))
    let error = try #require(throws: PersistenceError.self) { try store.load() }
    #expect(error.code == .newerVersion)
    #expect(
      error.description
        == "\(path) was written by a newer version (format test.v version 4, this program reads up to 3); upgrade the program, the file was left untouched."
    )
    #expect(try listing(folder) == ["doc.json"])
    #expect(try contents(path) == Array(original.utf8))
    #expect(throws: PersistenceError.self) { try store.update { $0?.title = "changed" } }
    #expect(try contents(path) == Array(original.utf8))
  }

  @Test func wrongFormatMissingMigrationAndFailingMigrationAreReported() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    var path = try write(folder, #"{"data":{},"format":"other.thing","version":1}"#)
    let format = DocumentFormat<V3>(name: "test.v", version: 3, migrations: [Self.migrations[1]])
    var error = try #require(throws: PersistenceError.self) {
      try DocumentStore(path: path, format: format).load()
    }
    #expect(error.code == .wrongFormat)
    #expect(
      error.description
        == "\(path) holds a \"other.thing\" document, not \"test.v\"; open it with the program that wrote it."
    )
    path = try write(folder, #"{"data":{"name":"x"},"format":"test.v","version":1}"#)
    error = try #require(throws: PersistenceError.self) {
      try DocumentStore(path: path, format: format).load()
    }
    #expect(error.code == .missingMigration)
    #expect(error.description.contains("no migration from version 1 to 2 is registered"))

    struct Refused: Error {}
    let failing = DocumentFormat<V3>(
      name: "test.v", version: 2, migrations: [Migration(from: 1) { _ in throw Refused() }])
    error = try #require(throws: PersistenceError.self) {
      try DocumentStore(path: path, format: failing).load()
    }
    #expect(error.code == .migrationFailed)
    #expect(error.underlying is Refused)
    #expect(error.description.hasPrefix("migrating \(path) from version 1 to 2 failed"))

    let incomplete = DocumentFormat<V3>(
      name: "test.v", version: 2, migrations: [Migration(from: 1) { $0 }])
    error = try #require(throws: PersistenceError.self) {
      try DocumentStore(path: path, format: incomplete).load()
    }
    #expect(error.code == .migrationFailed)
    #expect(error.description.contains("but the result does not decode: missing member \"title\""))
    // None of these moved the file aside.
    #expect(try listing(folder) == ["doc.json"])
  }

  @Test func versionZeroIsDamage() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = try write(folder, #"{"data":{},"format":"test.v","version":0}"#)
    let store = DocumentStore(path: path, format: DocumentFormat<V3>(name: "test.v", version: 3))
    let error = try #require(throws: PersistenceError.self) { try store.load() }
    #expect(error.code == .damaged)
    #expect(error.description.hasPrefix("\(path) is damaged: its version 0 is not 1 or higher"))
  }
}
