import Foundation
import OffloadTestSupport
import Testing

/// A home folder (the store and the state folder holding the device's identity) copied to a
/// second machine: run as the built `offloadctl`, the copy's first command says it moves to a
/// new replica id and succeeds, and after the sync engine carries the folders both devices
/// show every change (decision 0010, "Two devices claiming one identity").
///
/// The second machine is the same path at another time: the original home is moved aside
/// (a rename keeps its folders' inodes, as the first machine keeps them), the copy put in its
/// place, and back again.
@Suite("offloadctl: a home folder copied with the device's identity", .serialized)
struct DeviceTwinCommandTests {
  let work: TemporaryDirectory
  var home: String { work.appending("home") }
  var store: String { home + "/store" }

  init() throws {
    work = try TemporaryDirectory(prefix: "offload-twin-cli")
  }

  func run(_ arguments: [String]) throws -> ProcessResult {
    try BuiltProduct.run(
      "offloadctl", arguments,
      environment: [
        "OFFLOAD_HOME": store, "XDG_STATE_HOME": home + "/state", "OFFLOAD_DEVICE_NAME": "laptop",
        "HOME": home, "TZ": "UTC", "SWIFT_BACKTRACE": "enable=no",
      ])
  }

  @discardableResult
  func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
    -> ProcessResult
  {
    let result = try run(arguments)
    #expect(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
    return result
  }

  /// The replica folders of the store now at `home`.
  func replicaIDs(_ store: String) -> Set<String> {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: store + "/replicas")) ?? []
    return Set(names.filter { !$0.hasPrefix(".") && !$0.contains(".") })
  }

  /// Trip's item texts, sorted.
  func trip() throws -> [String] {
    let result = try ok("collection", "show", "Trip", "--json")
    let document =
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let items = document?["items"] as? [[String: Any]] ?? []
    return items.compactMap { $0["text"] as? String }.sorted()
  }

  /// Puts the home at `path` in place (the other machine's turn), moving the current one to
  /// `aside`.
  func swap(in path: String, aside: String) throws {
    try FileManager.default.moveItem(atPath: home, toPath: aside)
    try FileManager.default.moveItem(atPath: path, toPath: home)
  }

  /// Copies the files of one replica folder from one store to another, as a sync engine does.
  func carry(_ replica: String, from source: String, to target: String) throws {
    let from = source + "/replicas/" + replica
    let to = target + "/replicas/" + replica
    try FileManager.default.createDirectory(atPath: to, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: from)
    where name.hasPrefix("ops.") || name == "device.json" {
      try? FileManager.default.removeItem(atPath: to + "/" + name)
      try FileManager.default.copyItem(atPath: from + "/" + name, toPath: to + "/" + name)
    }
  }

  @Test("the copy says it moves to a new id, exits 0, and both devices end with every change")
  func copiedHomeMovesAndConverges() throws {
    try ok("collection", "create", "Trip", "--kind", "list")
    try ok("store", "share")
    try ok("item", "add", "Trip", "Pack")
    let old = try #require(replicaIDs(store).first)
    // The home folder copied (new folders, new inodes), as a backup restored on a new machine.
    let copy = work.appending("copy")
    try FileManager.default.copyItem(atPath: home, toPath: copy)
    // The first machine goes on.
    try ok("item", "add", "Trip", "Hotel")
    let quiet = try ok("item", "add", "Trip", "Tickets")
    #expect(!quiet.stderr.contains("now writes as"), "\(quiet)")
    // The second machine: the copy in place.
    let first = work.appending("first")
    try swap(in: copy, aside: first)
    let moved = try ok("item", "add", "Trip", "Sunscreen")
    let new = try #require(replicaIDs(store).subtracting([old]).first, "\(moved)")
    let lines = moved.stderr.split(separator: "\n").filter { $0.contains("now writes as") }
    #expect(lines.count == 1, "\(moved)")
    #expect(
      lines.first?.hasPrefix(
        "offloadctl: this device (laptop) now writes as \(new) instead of \(old): the folder "
          + "replicas/\(old)/ is not the one it made") == true, "\(moved)")
    let again = try ok("item", "add", "Trip", "Charger")
    #expect(!again.stderr.contains("now writes as"), "\(again)")
    let second = work.appending("second")
    // The sync engine meets both: each gets the other's folder.
    try carry(new, from: store, to: first + "/store")
    try carry(old, from: first + "/store", to: store)
    let everything = ["Charger", "Hotel", "Pack", "Sunscreen", "Tickets"]
    #expect(try trip() == everything)
    try swap(in: first, aside: second)
    #expect(try trip() == everything)
    let devices = try ok("store", "devices")
    #expect(devices.stdout.contains(new) && devices.stdout.contains(old), "\(devices)")
    let ours = try ok("item", "add", "Trip", "Passport")
    #expect(!ours.stderr.contains("now writes as"), "\(ours)")
    #expect(replicaIDs(store) == [old, new])
  }
}
