import Foundation
import OffloadTestSupport
import Testing

/// One device's `offloadctl`: its own store folder, its own `XDG_STATE_HOME` (where its
/// identity lives) and its own `OFFLOAD_DEVICE_NAME`.
private struct Device {
  let home: String
  let name: String
  var store: String { home + "/store" }

  func run(_ arguments: [String]) throws -> ProcessResult {
    try BuiltProduct.run(
      "offloadctl", arguments,
      environment: [
        "OFFLOAD_HOME": store, "XDG_STATE_HOME": home + "/state", "OFFLOAD_DEVICE_NAME": name,
        "HOME": home, "TZ": "UTC", "SWIFT_BACKTRACE": "enable=no",
      ])
  }

  @discardableResult
  func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
    -> ProcessResult
  {
    let result = try run(arguments)
    #expect(result.status == 0, "\(name): \(arguments): \(result)", sourceLocation: sourceLocation)
    return result
  }

  /// The texts of Trip's items, as `collection show --json` prints them, and the run.
  func trip() throws -> ([String], ProcessResult) {
    let result = try ok("collection", "show", "Trip", "--json")
    let document =
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let items = document?["items"] as? [[String: Any]] ?? []
    return (items.compactMap { $0["text"] as? String }, result)
  }

  /// This device's replica folders (`replicas/<id>`), by id.
  func replicaIDs() -> Set<String> {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: store + "/replicas")) ?? []
    return Set(names.filter { !$0.hasPrefix(".") && !$0.contains(".") })
  }
}

/// What another device's log looks like when it reaches this device through a sync engine:
/// torn or half-copied, from a newer build, surrounded by the sync engine's own files
/// (decision 0010). Each case runs the built `offloadctl` as two or three devices on one
/// machine: a store copied to another path with another `XDG_STATE_HOME` is another device.
@Suite("offloadctl on several devices: bad input from another device", .serialized)
struct ReplicaBadInputTests {
  let work: TemporaryDirectory
  private let laptop: Device
  private let phone: Device
  /// The phone's replica id and its folder's files (relative path → bytes), as it wrote them.
  let phoneID: String
  let phoneFiles: [String: Data]

  init() throws {
    work = try TemporaryDirectory(prefix: "offload-replica-input")
    laptop = Device(home: work.appending("laptop"), name: "laptop")
    phone = Device(home: work.appending("phone"), name: "phone")
    try laptop.ok("collection", "create", "Trip", "--kind", "list")
    try laptop.ok("item", "add", "Trip", "Hotel")
    try laptop.ok("item", "add", "Trip", "Tickets")
    try laptop.ok("store", "share")
    // The phone starts from a copy of the laptop's store, then works on its own.
    try Self.copy(laptop.store, to: phone.store)
    try phone.ok("item", "add", "Trip", "Sunscreen")
    try phone.ok("item", "add", "Trip", "Charger")
    let laptopIDs = laptop.replicaIDs()
    phoneID = try #require(phone.replicaIDs().subtracting(laptopIDs).first, "no phone folder")
    phoneFiles = Self.files(in: phone.store + "/replicas/" + phoneID)
  }

  static func copy(_ source: String, to destination: String) throws {
    try FileManager.default.createDirectory(
      atPath: (destination as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: source, toPath: destination)
  }

  /// Every file under `folder` with its bytes, by path relative to it.
  static func files(in folder: String) -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while let path = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory),
        !isDirectory.boolValue, let data = FileManager.default.contents(atPath: folder + "/" + path)
      {
        result[path] = data
      }
    }
    return result
  }

  /// The phone's log file: its name and bytes.
  func phoneLog() throws -> (String, Data) {
    try #require(
      phoneFiles.first { $0.key.hasPrefix("ops.") && $0.key.hasSuffix(".jsonl") },
      "the phone wrote no ops.<g>.jsonl: \(phoneFiles.keys.sorted())")
  }

  /// Puts the phone's folder into the laptop's store as a sync engine would, its log
  /// replaced by `log` (the other files as the phone wrote them).
  func deliver(log: Data) throws {
    let folder = laptop.store + "/replicas/" + phoneID
    let (name, _) = try phoneLog()
    for (path, data) in phoneFiles where !path.hasSuffix(".lock") {
      let target = folder + "/" + path
      try FileManager.default.createDirectory(
        atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try (path == name ? log : data).write(to: URL(fileURLWithPath: target))
    }
  }

  /// The phone's log lines (each without its newline).
  func lines(_ log: Data) -> [Data] {
    log.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Data($0) }
      .filter { !$0.isEmpty }
  }

  @Test("a torn last line (no newline, or a bad CRC) is skipped until whole; work goes on")
  func tornLastLine() throws {
    defer { work.remove() }
    let (name, log) = try phoneLog()
    let whole = lines(log)
    #expect(String(decoding: whole.last ?? Data(), as: UTF8.self).contains("Charger"))
    let head = whole.dropLast().reduce(Data()) { $0 + $1 + Data("\n".utf8) }
    let last = try #require(whole.last)

    // Half of the last line has arrived, without its newline.
    try deliver(log: head + last.prefix(last.count / 2))
    var (texts, shown) = try laptop.trip()
    #expect(texts == ["Hotel", "Tickets", "Sunscreen"], "\(shown)")
    let added = try laptop.ok("item", "add", "Trip", "Passport")
    #expect(!added.stderr.contains("error"), "\(added)")
    let arrived = laptop.store + "/replicas/\(phoneID)/" + name
    #expect(
      FileManager.default.contents(atPath: arrived) == head + last.prefix(last.count / 2),
      "the laptop wrote into the phone's log")

    // The whole line with one byte changed (its CRC no longer holds): still waiting.
    var damaged = last
    let at = try #require(damaged.lastIndex(of: UInt8(ascii: "C")), "no C in \(last)")
    damaged[at] = UInt8(ascii: "D")
    try deliver(log: head + damaged + Data("\n".utf8))
    (texts, shown) = try laptop.trip()
    #expect(texts.sorted() == ["Hotel", "Passport", "Sunscreen", "Tickets"], "\(shown)")

    // The rest arrives: the line is read.
    try deliver(log: log)
    (texts, shown) = try laptop.trip()
    #expect(
      texts.sorted() == ["Charger", "Hotel", "Passport", "Sunscreen", "Tickets"], "\(shown)")
    #expect(Self.files(in: laptop.store + "/replicas/" + phoneID)[name] == log)
    let verify = try laptop.run(["store", "verify"])
    #expect(verify.status == 0, "\(verify)")
  }

  @Test("a log in a newer format is named in one line, left out, and never written over")
  func newerFormat() throws {
    defer { work.remove() }
    let (name, log) = try phoneLog()
    var whole = lines(log)
    let header = String(decoding: whole[0], as: UTF8.self)
    #expect(header.contains(#""version":1"#), "header: \(header)")
    whole[0] = Data(header.replacingOccurrences(of: #""version":1"#, with: #""version":99"#).utf8)
    let newer = whole.reduce(Data()) { $0 + $1 + Data("\n".utf8) }
    try deliver(log: newer)
    let folder = laptop.store + "/replicas/" + phoneID
    let delivered = Self.files(in: folder)

    let (texts, shown) = try laptop.trip()
    #expect(texts == ["Hotel", "Tickets"], "\(shown)")
    let named = shown.stderr.split(separator: "\n").filter { $0.contains(phoneID) }
    #expect(named.count == 1, "not one line naming the phone's log: \(shown)")
    #expect(
      named.first.map { $0.contains(name) && ($0.contains("newer") || $0.contains("99")) }
        == true, "the line does not name the file and its newer format: \(shown)")
    try laptop.ok("item", "add", "Trip", "Passport")
    _ = try laptop.run(["store", "verify"])
    _ = try laptop.run(["store", "repair"])
    _ = try laptop.run(["undo"])
    #expect(Self.files(in: folder) == delivered, "the laptop wrote into the phone's folder")
  }

  @Test("files a sync engine leaves are ignored: the same output, no warning, left alone")
  func syncEngineFiles() throws {
    defer { work.remove() }
    let (name, log) = try phoneLog()
    try deliver(log: log)
    _ = try laptop.trip()  // says once what arrived from the phone (the merge report)
    let before = try laptop.trip().1
    let verifyBefore = try laptop.run(["store", "verify"])
    #expect(before.stderr.isEmpty, "\(before)")

    // A third device's log, with an item "Ghost", stands in as a conflict copy's content.
    let tablet = Device(home: work.appending("tablet"), name: "tablet")
    try Self.copy(laptop.store, to: tablet.store)
    try tablet.ok("item", "add", "Trip", "Ghost")
    let tabletID = try #require(tablet.replicaIDs().subtracting(laptop.replicaIDs()).first)
    let ghost = Self.files(in: tablet.store + "/replicas/" + tabletID)
    let ghostLog = try #require(ghost.first { $0.key.hasPrefix("ops.") }?.value)
    let stem = (name as NSString).deletingPathExtension
    let leftovers: [String: Data] = [
      ".stignore": Data("// nothing\n".utf8),
      ".stfolder/.keep": Data(),
      "replicas/.stversions/\(phoneID)/\(name)": log,
      "replicas/\(phoneID)/.syncthing.\(name).tmp": log.prefix(log.count / 3),
      "replicas/\(phoneID)/~syncthing~\(name).tmp": Data("garbage".utf8),
      "replicas/\(phoneID)/\(stem).sync-conflict-20261127-092001-3WV4FL6.jsonl": ghostLog,
      "replicas/\(tabletID).sync-conflict-20261127-092001-3WV4FL6/\(name)": ghostLog,
      "replicas/\(phoneID)/\(name).icloud": Data("bplist00".utf8),
      ".dropbox.cache/x": Data("x".utf8),
    ]
    for (path, data) in leftovers {
      let target = laptop.store + "/" + path
      try FileManager.default.createDirectory(
        atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try data.write(to: URL(fileURLWithPath: target))
    }

    let after = try laptop.trip().1
    #expect(after.stdout == before.stdout, "the output changed:\n\(before)\n\(after)")
    #expect(after.stderr.isEmpty, "\(after)")
    #expect(!after.stdout.contains("Ghost"))
    let verify = try laptop.run(["store", "verify"])
    #expect(
      verify.status == verifyBefore.status && verify.stdout == verifyBefore.stdout, "\(verify)")
    try laptop.ok("item", "add", "Trip", "Passport")
    let all = Self.files(in: laptop.store)
    for (path, data) in leftovers {
      #expect(all[path] == data, "\(path) was changed or removed")
    }
  }
}
