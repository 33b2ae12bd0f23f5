import Foundation
import OffloadTestSupport
import Testing

/// `offloadctl` on a store in a folder a sync engine carries: shared on the first command,
/// before it writes, with one line saying so and why (decision 0010, "Sharing on first open").
@Suite("offloadctl: a store in a synced folder is shared on its first open", .serialized)
struct AutoShareCommandTests {
  let work: TemporaryDirectory
  /// `Sync/` (Syncthing's folder, once `.stfolder` is made) holding the store `Sync/offload`.
  var sync: String { work.appending("Sync") }
  var store: String { sync + "/offload" }

  init() throws {
    work = try TemporaryDirectory(prefix: "offloadctl-autoshare")
    try FileManager.default.createDirectory(atPath: sync, withIntermediateDirectories: true)
  }

  func run(_ arguments: [String]) throws -> ProcessResult {
    try BuiltProduct.run(
      "offloadctl", arguments,
      environment: [
        "OFFLOAD_HOME": store, "HOME": work.path, "XDG_STATE_HOME": work.appending("state"),
        "OFFLOAD_DEVICE_NAME": "laptop", "TZ": "UTC", "SWIFT_BACKTRACE": "enable=no",
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

  var notice: String {
    "offloadctl: this store is now shared between devices, each writing its own log, because "
      + "it lies in a folder a sync engine carries: found Syncthing's .stfolder in \(sync)"
  }

  func markSynced() throws {
    try FileManager.default.createDirectory(
      atPath: sync + "/.stfolder", withIntermediateDirectories: true)
  }

  var isShared: Bool { FileManager.default.fileExists(atPath: store + "/replicas") }

  @Test("a photo session started first in a synced folder starts in this device's folder")
  func photoSessionFirst() throws {
    defer { work.remove() }
    try markSynced()
    let photos = work.appending("photos")
    try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
    try Data(PhotoFiles.jpeg(width: 64, height: 48)).write(
      to: URL(fileURLWithPath: photos + "/a.jpg"))
    let started = try ok("photos", "start", photos, "--order", "mtime", "--quiet")
    #expect(started.stderr.split(separator: "\n").map(String.init) == [notice], "\(started)")
    #expect(isShared)
    let replicas = try FileManager.default.contentsOfDirectory(atPath: store + "/replicas")
      .filter { !$0.hasPrefix(".") }
    #expect(replicas.count == 1)
    let sessions = store + "/replicas/" + (replicas.first ?? "") + "/photo-sessions"
    #expect(try FileManager.default.contentsOfDirectory(atPath: sessions).count == 1)
    let listed = try ok("photos", "sessions")
    #expect(listed.stderr.isEmpty, "\(listed)")
  }

  @Test("a new store under .stfolder is born shared; the line comes once, then never again")
  func newStoreBornShared() throws {
    defer { work.remove() }
    try markSynced()
    let first = try ok("collection", "create", "Trip", "--kind", "list")
    #expect(
      first.stderr.split(separator: "\n").map(String.init) == [
        notice, "offloadctl: created a new store at \(store)",
      ])
    #expect(isShared)
    let second = try ok("item", "add", "Trip", "Hotel")
    #expect(second.stderr.isEmpty, "\(second)")
    let devices = try ok("store", "devices")
    #expect(devices.stdout.contains("laptop (this device)"), "\(devices)")
  }

  @Test("a single-writer store that a sync engine starts carrying is shared by the next read")
  func existingStoreSharedOnRead() throws {
    defer { work.remove() }
    try ok("collection", "create", "Trip", "--kind", "list")
    for text in ["Hotel", "Tickets", "Pack"] { try ok("item", "add", "Trip", text) }
    #expect(!isShared)
    let before = try ok("collection", "show", "Trip")
    try markSynced()
    let read = try ok("collection", "show", "Trip")
    #expect(read.stderr == notice + "\n", "\(read)")
    #expect(read.stdout == before.stdout)
    #expect(isShared)
    let verify = try ok("store", "verify")
    #expect(verify.stdout.contains("3 items"), "\(verify)")
  }

  @Test("without a marker the store stays single-writer until `store share`")
  func explicitShareWithoutMarker() throws {
    defer { work.remove() }
    try ok("collection", "create", "Trip", "--kind", "list")
    let add = try ok("item", "add", "Trip", "Hotel")
    #expect(!add.stderr.contains("shared"), "\(add)")
    #expect(!isShared)
    let share = try ok("store", "share")
    #expect(share.stdout.hasPrefix("shared: this device is laptop"), "\(share)")
    #expect(isShared)
    let show = try ok("collection", "show", "Trip")
    #expect(show.stdout.contains("Hotel"))
  }

  @Test("two commands started at once: one shares, the other waits on the lock and finds it so")
  func twoProcessesAtOnce() throws {
    defer { work.remove() }
    try ok("collection", "create", "Trip", "--kind", "list")
    for text in ["Hotel", "Tickets", "Pack"] { try ok("item", "add", "Trip", text) }
    try markSynced()
    nonisolated(unsafe) var results: [ProcessResult?] = [nil, nil]
    let lock = NSLock()
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let result = try? run(["item", "add", "Trip", index == 0 ? "Passport" : "Sunscreen"])
      lock.withLock { results[index] = result }
    }
    let done = results.compactMap { $0 }
    #expect(done.count == 2 && done.allSatisfy { $0.status == 0 }, "\(done)")
    #expect(done.filter { $0.stderr.contains(notice) }.count == 1, "\(done)")
    let shown = try ok("collection", "show", "Trip", "--json")
    let document = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
    let texts = (document?["items"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    #expect(texts.sorted() == ["Hotel", "Pack", "Passport", "Sunscreen", "Tickets"])
    let replicas = try FileManager.default.contentsOfDirectory(atPath: store + "/replicas")
    #expect(replicas.filter { !$0.hasPrefix(".") }.count == 1, "\(replicas)")
    try ok("store", "verify")
  }
}
