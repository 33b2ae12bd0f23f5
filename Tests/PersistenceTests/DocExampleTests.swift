import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

/// The examples of Persistence's doc comments, DocC catalog and guide, compiled and run here;
/// `everyExampleIsHere` fails when an example is written that this file does not hold.
@Suite("Persistence: documentation examples compile and do what they say")
struct DocExampleTests {
  @Test func everyExampleIsHere() {
    let root = DocExamples.packageRoot(from: #filePath)
    let blocks = DocExamples.blocks(
      module: "Persistence", guides: ["Docs/Guides/Persistence.md"], root: root)
    #expect(blocks.count >= 12)
    let missing = DocExamples.missing(
      blocks, in: ["Tests/PersistenceTests/DocExampleTests.swift"], root: root)
    #expect(missing.isEmpty, "examples not compiled by a test: \(missing)")
  }

  struct Settings: Codable, Equatable {
    var theme = "light"
    func withTheme(_ theme: Theme) -> Settings { Settings(theme: theme.rawValue) }
  }
  enum Theme: String { case light, dark }

  @Test func deviceAnchorCheck() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let storePath = temporary.appending("store")
    let identities = DeviceIdentityStore(
      stateDirectory: temporary.appending("state"), storePath: storePath)
    var identity = try identities.loadOrCreate(
      name: "laptop", newReplicaID: { "k7q" }, newClaim: { "c0ffee" })
    var printed: [String] = []
    func print(_ line: String) { printed.append(line) }
    let folders = ReplicaFolders(store: storePath)
    switch try folders.anchorCheck(of: identity, machine: MachineIdentity.digest()) {
    case .same: break
    case .record(let anchor): identity = try identities.record(anchor, in: identity)
    case .copied(let reason): print("moving to a new replica id: \(reason)")
    }
    #expect(printed.isEmpty)
    #expect(identity.anchor == DeviceAnchor(machine: MachineIdentity.digest()))
  }

  @Test func documentStore() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let folder = temporary.path
    let store = DocumentStore(
      path: folder + "/settings.json", format: DocumentFormat<Settings>(name: "offload.settings"))
    let settings = try store.load() ?? Settings()
    try store.update { settings in  // read-modify-write under the lock
      settings = (settings ?? Settings()).withTheme(.dark)
    }
    #expect(settings.theme == "light")
    #expect(try store.load()?.theme == "dark")
  }

  @Test func damagedDocument() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let store = DocumentStore(
      path: temporary.appending("settings.json"),
      format: DocumentFormat<Settings>(name: "offload.settings"))
    try store.save(Settings(theme: "light"))
    try store.save(Settings(theme: "dark"))
    try Data("{\"data\": {\"theme\": x}".utf8).write(to: URL(fileURLWithPath: store.path))
    final class Console { var printed = "" }
    let console = Console()
    func print(_ value: Any) { console.printed = "\(value)" }
    func load() throws(PersistenceError) -> Settings? {
      var settings: Settings?
      do {
        settings = try store.load()
      } catch  where error.code == .damaged {
        print(error)  // settings.json is damaged at line 3, column 9 (byte 41): expected ',' ...
        if error.backupPath != nil { settings = try store.restoreBackup() }
      }
      return settings
    }
    let settings = try load()
    #expect(console.printed.contains("settings.json is damaged at line 1"))
    #expect(settings?.theme == "light")
  }

  @Test func fileLock() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let storeFolder = temporary.path
    struct Index: Codable { var count = 0 }
    let indexStore = DocumentStore(
      path: storeFolder + "/index.json", format: DocumentFormat<Index>(name: "offload.index"))
    let lock = FileLock(path: storeFolder + "/.lock", timeout: .seconds(5))
    try lock.withLock {
      var index = try indexStore.load() ?? Index()
      index.count += 1
      try indexStore.save(index)
    }
    #expect(try indexStore.load()?.count == 1)
  }

  @Test func migrations() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    struct Collection: Codable { var title: String; var tags: [String] }
    let format = DocumentFormat<Collection>(
      name: "offload.collection", version: 2,
      migrations: [
        Migration(from: 1) { data in
          var data = data
          data["tags"] = .array([])  // version 2 added tags
          return data
        }
      ])
    let path = temporary.appending("c.json")
    let old = #"{"data":{"title":"Groceries"},"format":"offload.collection","version":1}"#
    try Data(old.utf8).write(to: URL(fileURLWithPath: path))
    let loaded = try DocumentStore(path: path, format: format).load()
    #expect(loaded?.title == "Groceries" && loaded?.tags == [])
  }

  @Test func renamingMigration() throws {
    let migration =
      Migration(from: 1) { data in
        var data = data
        data["title"] = data["name"] ?? .string("")  // version 2 renamed `name` to `title`
        data["name"] = nil
        return data
      }
    let upgraded = try migration.transform(.object(["name": .string("Trip")]))
    #expect(upgraded == .object(["title": .string("Trip")]))
  }

  @Test func checksum() {
    CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
  }

  // The guide's and the catalog's model: a collection of items, an index, a swipe deck.
  struct Item: Codable { var text: String }
  struct Collection: Codable {
    var title: String
    var items: [Item] = []
  }
  struct Index: Codable {
    var touched: [String] = []
    mutating func touch(_ name: String) { touched.append(name) }
  }
  enum Decision: Codable, Equatable { case trash(Int), keep(Int) }
  struct Deck: Codable {
    var decisions: [Decision] = []
    mutating func apply(_ decision: Decision) { decisions.append(decision) }
  }

  @Test func journalOverview() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let folder = temporary.path
    let photo = 7
    let journal = try JSONLinesJournal<Decision, Deck>.open(
      directory: folder, name: "session", format: DocumentFormat(name: "offload.deck"))
    var deck = journal.recovered.snapshot ?? Deck()
    for record in journal.recovered.entries { deck.apply(record.entry) }
    try journal.append(.trash(photo))  // returns once the entry is fsynced
    try journal.compact(deck)  // snapshot + new empty journal, atomically
    try journal.close()
    let reopened = try JSONLinesJournal<Decision, Deck>.open(
      directory: folder, name: "session", format: DocumentFormat(name: "offload.deck"))
    #expect(reopened.recovered.snapshot?.decisions == [] && reopened.recovered.entries.isEmpty)
  }

  @Test func catalogDocument() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let storeFolder = temporary.path
    try DocumentStore(
      path: storeFolder + "/groceries.json",
      format: DocumentFormat<DocExampleTests.Collection>(name: "offload.collection")
    ).save(.init(title: "Groceries"))
    struct Collection: Codable { var title: String; var items: [Item] }

    let lock = FileLock(path: storeFolder + "/.lock", timeout: .seconds(5))
    let format = DocumentFormat<Collection>(name: "offload.collection", version: 1)
    let groceries = DocumentStore(path: storeFolder + "/groceries.json", format: format, lock: lock)

    try groceries.update { collection in  // load, change, save: under the lock
      collection?.items.append(Item(text: "Milk"))
    }
    #expect(try groceries.load()?.items.map(\.text) == ["Milk"])
  }

  @Test func catalogJournal() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let sessionFolder = temporary.path
    let photo = 3
    let journal = try JSONLinesJournal<Decision, Deck>.open(
      directory: sessionFolder, name: "session",
      format: DocumentFormat(name: "offload.deck"), durability: .everyEntry)
    var deck = journal.recovered.snapshot ?? Deck()
    for record in journal.recovered.entries { deck.apply(record.entry) }

    try journal.append(.trash(photo))  // returns once the entry is on stable storage
    deck.apply(.trash(photo))
    if journal.lastSequence % 500 == 0 { try journal.compact(deck) }
    #expect(deck.decisions == [.trash(3)] && journal.lastSequence == 1)
  }

  @Test func guideStoreAndSession() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let store = temporary.path
    let sessionFolder = temporary.appending("session")
    try FileManager.default.createDirectory(
      atPath: store + "/collections", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: sessionFolder, withIntermediateDirectories: true)
    let photo = 12
    var logged: [String] = []
    func log(_ text: String) { logged.append(text) }

    // The workspace: one document per collection plus an index, all under one store lock.
    let lock = FileLock(path: store + "/.lock", timeout: .seconds(5))
    let index = DocumentStore(
      path: store + "/index.json", format: DocumentFormat<Index>(name: "offload.index"), lock: lock)
    let groceries = DocumentStore(
      path: store + "/collections/groceries.json",
      format: DocumentFormat<Collection>(
        name: "offload.collection", version: 2,
        migrations: [
          Migration(from: 1) { data in
            var data = data
            data["kind"] = .string("list")
            return data
          }
        ]),
      lock: lock)

    try lock.withLock {  // two documents, one critical section
      var list = try groceries.load() ?? Collection(title: "Groceries")
      list.items.append(Item(text: "Milk"))
      try groceries.save(list)
      var all = try index.load() ?? Index()
      all.touch("groceries")
      try index.save(all)
    }

    // A photo session: journal every swipe before acknowledging it, replay on reopen.
    let journal = try JSONLinesJournal<Decision, Deck>.open(
      directory: sessionFolder, name: "session",
      format: DocumentFormat(name: "offload.deck"), durability: .everyEntry)
    var deck = journal.recovered.snapshot ?? Deck()
    for record in journal.recovered.entries { deck.apply(record.entry) }
    if let torn = journal.recovered.tornTail { log("recovered from a crash: \(torn)") }

    try journal.append(.trash(photo))  // fsynced when this returns
    deck.apply(.trash(photo))
    if journal.lastSequence % 500 == 0 { try journal.compact(deck) }
    #expect(try index.load()?.touched == ["groceries"] && logged.isEmpty)
    #expect(try groceries.load()?.items.map(\.text) == ["Milk"])
  }

  @Test func folderWatch() {
    let watch = FolderWatch(
      folder: "/tmp", subfolders: { $0 == "replicas" }, ignoring: { $0.hasSuffix(".lock") }
    ) {
      print("something changed")
    }
    watch.stop()
  }

  struct ChangeRecord: Codable, Equatable { var text: String }
  struct Checkpoint: Codable { var count = 0 }

  @Test func replicaFolders() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let storePath = temporary.path
    let checkpointFormat = DocumentFormat<Checkpoint>(name: "offload.ops")
    let other: JSONLinesJournal<ChangeRecord, Checkpoint> = try ReplicaFolders(store: storePath)
      .openOwnLog(replica: "x2m", format: checkpointFormat)
    try other.append(ChangeRecord(text: "Tent"))
    try other.close()
    let change = ChangeRecord(text: "Pack")
    var warned: [String] = []
    var merged: [ChangeRecord] = []
    func warn(_ problem: String) { warned.append(problem) }
    func merge(_ records: [JournalRecord<ChangeRecord>]) { merged += records.map(\.entry) }
    let folders = ReplicaFolders(store: storePath)
    let log: JSONLinesJournal<ChangeRecord, Checkpoint> = try folders.openOwnLog(
      replica: "k7q", format: checkpointFormat)
    try log.append(change)  // the commit point
    let reads: [ReplicaLogRead<ChangeRecord, Checkpoint>] = folders.readLogs(
      except: "k7q", format: checkpointFormat)
    for read in reads {
      if let problem = read.problem { warn(problem) }
      merge(read.contents?.entries ?? [])
    }
    try log.close()
    #expect(warned.isEmpty)
    #expect(merged == [ChangeRecord(text: "Tent")])
  }

  @Test func guideDamage() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let groceries = DocumentStore(
      path: temporary.appending("groceries.json"),
      format: DocumentFormat<Collection>(name: "offload.collection"))
    try groceries.save(Collection(title: "Groceries"))
    try groceries.save(Collection(title: "Groceries", items: [Item(text: "Milk")]))
    try Data("{ x".utf8).write(to: URL(fileURLWithPath: groceries.path))
    func reload() throws(PersistenceError) -> Collection? {
      var collection: Collection?
      do {
        collection = try groceries.load()
      } catch  where error.code == .damaged {
        // "…/groceries.json is damaged at line 12, column 7 (byte 301): expected ',' or '}' after an
        //  object member, found 'x'; it was moved to …/groceries.json.corrupt-20261121T222115Z and the
        //  previous save can be restored from …/groceries.json.backup."
        if error.backupPath != nil { collection = try groceries.restoreBackup() }
      }
      return collection
    }
    #expect(try reload()?.items.isEmpty == true)
  }
}

struct Point: Codable, Equatable {
  var x: Int
  var y: Int
}

extension Point: CanonicalJSONCodable {
  func writeCanonicalJSON(to writer: inout CanonicalJSONWriter) throws(CanonicalJSONError) {
    writer.beginObject()
    writer.key("x")
    writer.integer(x)
    writer.key("y")
    writer.integer(y)
    writer.endObject()
  }
  init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError) {
    var x: Int?
    var y: Int?
    try reader.readObject(keys: ["x", "y"]) { (reader, key) throws(CanonicalJSONError) in
      if key == 0 { x = try reader.readInt() } else { y = try reader.readInt() }
    }
    guard let x, let y else { throw CanonicalJSONError(offset: reader.offset) }
    self.init(x: x, y: y)
  }
}

struct Note: Codable, Equatable {
  var done: Bool
  var text: String
}

extension Note: CanonicalJSONCodable {
  // Every member in UTF-8 order of its key; an optional would be left out when nil.
  static let canonicalKeys: CanonicalJSONKeys = ["done", "text"]

  func writeCanonicalJSON(to writer: inout CanonicalJSONWriter) throws(CanonicalJSONError) {
    writer.beginObject()
    writer.key("done")
    writer.bool(done)
    writer.key("text")
    writer.string(text)
    writer.endObject()
  }

  init(canonicalJSON reader: inout CanonicalJSONReader) throws(CanonicalJSONError) {
    var done: Bool?
    var text: String?
    try reader.readObject(keys: Self.canonicalKeys) { (reader, key) throws(CanonicalJSONError) in
      switch key {
      case 0: done = try reader.readBool()
      default: text = try reader.readString()
      }
    }
    guard let done, let text else { throw CanonicalJSONError(offset: reader.offset) }
    self.init(done: done, text: text)
  }
}

@Suite("Persistence: the canonical JSON and file-system examples")
struct CanonicalDocExampleTests {
  struct Keys {
    static let keys: CanonicalJSONKeys = ["created", "done", "id"]
  }

  @Test func fastPathDocumentsReadBackTheirValues() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let points = DocumentStore(
      path: temporary.appending("p.json"), format: DocumentFormat<Point>(name: "test.point"))
    try points.save(Point(x: 3, y: -4))
    #expect(try points.load() == Point(x: 3, y: -4))
    let notes = DocumentStore(
      path: temporary.appending("n.json"), format: DocumentFormat<Note>(name: "test.note"))
    try notes.save(Note(done: true, text: "Milk"))
    #expect(try notes.load() == Note(done: true, text: "Milk"))
    #expect(Keys.keys.keys.count == 3)
  }

  @Test func aDocumentOnAnotherFileSystem() throws {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    let path = temporary.appending("p.json")
    let format = DocumentFormat<Point>(name: "test.point")
    let files: any FileSystem = POSIXFileSystem()  // or a wrapper that fails the n-th call
    let store = DocumentStore(path: path, format: format, fileSystem: files)
    try store.save(Point(x: 1, y: 2))
    #expect(try store.load() == Point(x: 1, y: 2))
  }
}
