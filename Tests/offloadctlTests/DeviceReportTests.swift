import Foundation
import OffloadTestSupport
import Testing

/// One device's `offloadctl`: its own store folder, its own `XDG_STATE_HOME` (where its
/// identity lives), its own `OFFLOAD_DEVICE_NAME`, and a replica id it may choose.
private struct Device {
  let home: String
  let name: String
  var replicaID: String?
  var store: String { home + "/store" }

  init(home: String, name: String, replicaID: String? = nil) {
    self.home = home
    self.name = name
    self.replicaID = replicaID
  }

  func run(_ arguments: [String]) throws -> ProcessResult {
    var environment = [
      "OFFLOAD_HOME": store, "XDG_STATE_HOME": home + "/state", "OFFLOAD_DEVICE_NAME": name,
      "HOME": home, "TZ": "UTC", "SWIFT_BACKTRACE": "enable=no",
    ]
    if let replicaID { environment["OFFLOAD_REPLICA_ID"] = replicaID }
    return try BuiltProduct.run("offloadctl", arguments, environment: environment)
  }

  @discardableResult
  func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
    -> ProcessResult
  {
    let result = try run(arguments)
    #expect(result.status == 0, "\(name): \(arguments): \(result)", sourceLocation: sourceLocation)
    return result
  }

  /// Adds an item and returns its id.
  func add(_ collection: String, _ text: String) throws -> String {
    let result = try ok("item", "add", collection, text, "--json")
    let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require((document as? [String: Any])?["id"] as? String, "\(result)")
  }

  /// The texts of a collection's items, as `collection show --json` prints them, by parent.
  func items(_ collection: String) throws -> [String: String] {
    let result = try ok("collection", "show", collection, "--json")
    let document =
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    var parents: [String: String] = [:]
    let items = document?["items"] as? [[String: Any]] ?? []
    let texts = Dictionary(
      items.compactMap { item in (item["id"] as? String).map { ($0, item["text"] as? String) } },
      uniquingKeysWith: { first, _ in first })
    for item in items {
      guard let text = item["text"] as? String else { continue }
      parents[text] = (item["parent"] as? String).flatMap { texts[$0] ?? nil } ?? ""
    }
    return parents
  }

  /// This device's replica folders (`replicas/<id>`).
  func replicaIDs() -> Set<String> {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: store + "/replicas")) ?? []
    return Set(names.filter { !$0.hasPrefix(".") && !$0.contains(".") })
  }

  /// Copies another device's folder into this device's store, as a sync engine would.
  func receive(_ replica: String, from other: Device) throws {
    let source = other.store + "/replicas/" + replica
    let target = store + "/replicas/" + replica
    try? FileManager.default.removeItem(atPath: target)
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    let enumerator = FileManager.default.enumerator(atPath: source)
    while let path = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: source + "/" + path, isDirectory: &isDirectory),
        !path.hasSuffix(".lock")
      else { continue }
      if isDirectory.boolValue {
        try FileManager.default.createDirectory(
          atPath: target + "/" + path, withIntermediateDirectories: true)
      } else {
        try FileManager.default.copyItem(atPath: source + "/" + path, toPath: target + "/" + path)
      }
    }
  }
}

/// Lines of standard error that are not empty.
private func lines(_ text: String) -> [String] {
  text.split(separator: "\n").map(String.init)
}

/// What a shared store tells its user about devices: `store devices`, the merge report the
/// next command prints once, and two devices that come to claim one replica id. Each case
/// runs the built `offloadctl` as two devices on one machine (a store copied to another path
/// with another `XDG_STATE_HOME` is another device).
@Suite("offloadctl on several devices: devices and the merge report", .serialized)
struct DeviceReportTests {
  let work: TemporaryDirectory

  init() throws {
    work = try TemporaryDirectory(prefix: "offload-devices")
  }

  static func copy(_ source: String, to destination: String) throws {
    try FileManager.default.createDirectory(
      atPath: (destination as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: source, toPath: destination)
  }

  @Test("the next command says once what arrived and from whom, a skipped move named")
  func mergeReport() throws {
    defer { work.remove() }
    let laptop = Device(home: work.appending("laptop"), name: "laptop")
    let phone = Device(home: work.appending("phone"), name: "phone")
    try laptop.ok("collection", "create", "Gear", "--kind", "plan")
    let pack = try laptop.add("Gear", "Pack")
    let tent = try laptop.add("Gear", "Tent")
    try laptop.ok("store", "share")
    try Self.copy(laptop.store, to: phone.store)
    let laptopID = try #require(laptop.replicaIDs().first)

    // The phone's first command reports nothing: a new device does not report its history.
    let first = try phone.ok("item", "add", "Gear", "Stove")
    #expect(first.stderr.isEmpty, "\(first)")
    let phoneID = try #require(phone.replicaIDs().subtracting([laptopID]).first)
    // Apart, the laptop puts Tent inside Pack; later the phone puts Pack inside Tent.
    let moved = try laptop.ok("item", "move", tent, "--into", pack)
    #expect(moved.stderr.isEmpty, "\(moved)")
    try phone.ok("item", "move", pack, "--into", tent)
    try phone.ok("item", "add", "Gear", "Rope")

    try laptop.receive(phoneID, from: phone)
    let shown = try laptop.ok("collection", "show", "Gear", "--json")
    #expect(
      lines(shown.stderr) == [
        "offloadctl: 3 changes from phone; 1 move skipped: it would put Pack inside itself "
          + "(under Tent)"
      ], "\(shown)")
    #expect(
      (try? JSONSerialization.jsonObject(with: Data(shown.stdout.utf8))) != nil,
      "--json output is not one JSON document: \(shown)")
    // Once: the next command says nothing more.
    let again = try laptop.ok("collection", "show", "Gear")
    #expect(again.stderr.isEmpty, "\(again)")
    #expect(
      try laptop.items("Gear")
        == ["Pack": "", "Tent": "Pack", "Stove": "", "Rope": ""])

    // The phone hears of the laptop's move; its own later move is the one skipped.
    try phone.receive(laptopID, from: laptop)
    let heard = try phone.ok("item", "add", "Gear", "Map")
    #expect(
      lines(heard.stderr) == [
        "offloadctl: 1 change from laptop; 1 move skipped: it would put Pack inside itself "
          + "(under Tent)"
      ], "\(heard)")
    #expect(try phone.ok("history").stderr.isEmpty)
    // `--quiet` leaves the report for the next command that speaks.
    try laptop.receive(phoneID, from: phone)
    let quiet = try laptop.ok("collection", "show", "Gear", "--quiet")
    #expect(quiet.stderr.isEmpty, "\(quiet)")
    let told = try laptop.ok("collection", "list")
    #expect(lines(told.stderr) == ["offloadctl: 1 change from phone"], "\(told)")
    let verify = try laptop.ok("store", "verify")
    #expect(verify.stdout.contains("all good"), "\(verify)")
  }

  @Test("store devices lists each device, what it wrote and saw; --json is one document")
  func devicesListing() throws {
    defer { work.remove() }
    let laptop = Device(home: work.appending("laptop"), name: "laptop")
    let phone = Device(home: work.appending("phone"), name: "phone")
    try laptop.ok("collection", "create", "Trip", "--kind", "list")

    // Outside a shared store: one line, exit 64.
    let unshared = try laptop.run(["store", "devices"])
    #expect(unshared.status == 64, "\(unshared)")
    #expect(lines(unshared.stderr).count == 1, "\(unshared)")
    #expect(unshared.stderr.contains("not shared"), "\(unshared)")
    #expect(unshared.stdout.isEmpty, "\(unshared)")

    try laptop.ok("store", "share")
    try laptop.add("Trip", "Hotel")
    try Self.copy(laptop.store, to: phone.store)
    try phone.add("Trip", "Sunscreen")
    try phone.add("Trip", "Charger")
    let laptopID = try #require(laptop.replicaIDs().first)
    let phoneID = try #require(phone.replicaIDs().subtracting([laptopID]).first)
    try laptop.receive(phoneID, from: phone)

    let listing = try laptop.ok("store", "devices", "--json")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any],
      "\(listing)")
    #expect(document["schemaVersion"] as? Int == 1)
    let devices = try #require(document["devices"] as? [[String: Any]], "\(listing)")
    #expect(devices.map { $0["replica"] as? String } == [laptopID, phoneID].sorted())
    let mine = try #require(devices.first { $0["replica"] as? String == laptopID })
    let theirs = try #require(devices.first { $0["replica"] as? String == phoneID })
    #expect(mine["name"] as? String == "laptop" && mine["thisDevice"] as? Bool == true)
    #expect(theirs["name"] as? String == "phone" && theirs["thisDevice"] as? Bool == false)
    #expect(theirs["changes"] as? Int == 2, "\(theirs)")
    #expect(mine["changes"] as? Int == 2, "the sharing line and Hotel: \(mine)")
    let laptopOps = try #require(mine["operations"] as? Int)
    // The phone's last change had seen all of the laptop's operations and its own.
    let seen = try #require(theirs["seen"] as? [String: Int], "\(theirs)")
    #expect(seen[laptopID] == laptopOps, "\(theirs)")
    #expect(seen[phoneID] == theirs["operations"] as? Int, "\(theirs)")
    #expect(theirs["lastWrite"] is String, "\(theirs)")

    let text = try laptop.ok("store", "devices")
    let rows = lines(text.stdout)
    #expect(rows.count == 2, "\(text)")
    let laptopRow = try #require(rows.first { $0.hasPrefix(laptopID + "  laptop (this device)") })
    #expect(laptopRow.contains("2 changes"), "\(text)")
    let phoneRow = try #require(rows.first { $0.hasPrefix(phoneID + "  phone  2 changes") })
    #expect(phoneRow.contains("seen ") && phoneRow.contains("laptop \(laptopOps)"), "\(text)")
    #expect(phoneRow.contains("last wrote 20"), "\(text)")

    // A log this build cannot read (a newer format) is listed with its problem, not counted.
    let folder = laptop.store + "/replicas/" + phoneID
    let log = try #require(
      try FileManager.default.contentsOfDirectory(atPath: folder).first {
        $0.hasPrefix("ops.") && $0.hasSuffix(".jsonl")
      })
    let bytes = try String(contentsOfFile: folder + "/" + log, encoding: .utf8)
    try bytes.replacingOccurrences(of: #""version":1"#, with: #""version":99"#)
      .write(toFile: folder + "/" + log, atomically: true, encoding: .utf8)
    let newer = try laptop.ok("store", "devices", "--json")
    let listed = try #require(
      (try JSONSerialization.jsonObject(with: Data(newer.stdout.utf8)) as? [String: Any])?[
        "devices"] as? [[String: Any]])
    let refused = try #require(listed.first { $0["replica"] as? String == phoneID })
    #expect(refused["operations"] as? Int == 0 && refused["name"] as? String == "phone")
    let problem = try #require(refused["problem"] as? String, "\(refused)")
    #expect(problem.contains(log) && (problem.contains("newer") || problem.contains("99")))
  }

  @Test("two devices claiming one replica id: one moves to a new id, nothing lost")
  func claimedIdentity() throws {
    defer { work.remove() }
    // Both devices were told to use replica id `abc`: the phone finds it claimed.
    let laptop = Device(home: work.appending("laptop"), name: "laptop", replicaID: "abc")
    let phone = Device(home: work.appending("phone"), name: "phone", replicaID: "abc")
    try laptop.ok("collection", "create", "Trip", "--kind", "list")
    try laptop.ok("store", "share")
    try laptop.add("Trip", "Hotel")
    #expect(laptop.replicaIDs() == ["abc"])
    try Self.copy(laptop.store, to: phone.store)
    let laptopFolder = ReplicaBadInputTests.files(in: phone.store + "/replicas/abc")

    let added = try phone.ok("item", "add", "Trip", "Sunscreen")
    let said = lines(added.stderr)
    #expect(said.count == 1, "\(added)")
    #expect(
      said.first?.hasPrefix(
        "offloadctl: this device (phone) found its replica id abc claimed by laptop; it now "
          + "writes as ") == true, "\(added)")
    let phoneID = try #require(phone.replicaIDs().subtracting(["abc"]).first, "\(added)")
    #expect(said.first?.contains(phoneID) == true, "\(added)")
    // The phone never wrote into the laptop's folder.
    let after = ReplicaBadInputTests.files(in: phone.store + "/replicas/abc")
    #expect(after == laptopFolder, "the phone wrote into abc: \(after.keys.sorted())")
    #expect(try phone.items("Trip").keys.sorted() == ["Hotel", "Sunscreen"])
    let again = try phone.ok("item", "add", "Trip", "Charger")
    #expect(again.stderr.isEmpty, "the move is said once: \(again)")

    // Both devices hold everything once their folders meet.
    try laptop.receive(phoneID, from: phone)
    try laptop.add("Trip", "Passport")
    try phone.receive("abc", from: laptop)
    let expected = ["Charger", "Hotel", "Passport", "Sunscreen"]
    #expect(try laptop.items("Trip").keys.sorted() == expected)
    #expect(try phone.items("Trip").keys.sorted() == expected)
    let devices = try phone.ok("store", "devices", "--json")
    #expect(devices.stdout.contains("\"phone\"") && devices.stdout.contains("\"laptop\""))
  }
}
