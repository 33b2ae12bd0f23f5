import Foundation
import OffloadTestSupport
import Testing

/// `offloadctl photos` on a shared store, as two devices on one machine (a store copied to
/// another path with its own `XDG_STATE_HOME` is another device): each device's sessions are
/// its own, the other's are listed read-only and a write to them is refused in one line
/// naming the device.
@Suite("offloadctl photos: sessions stay with the device that started them")
struct PhotoSessionDevicesCommandTests {
  /// One device: the fixture's photos and Trash, its own store path, state folder and name.
  struct Device {
    let fixture: PhotoFixture
    let name: String
    var store: String { fixture.folder.appending(name + "-store") }

    func run(_ arguments: [String]) throws -> ProcessResult {
      var environment = fixture.environment
      environment["OFFLOAD_HOME"] = store
      environment["XDG_STATE_HOME"] = fixture.folder.appending(name + "-state")
      environment["OFFLOAD_DEVICE_NAME"] = name
      environment["SWIFT_BACKTRACE"] = "enable=no"
      return try BuiltProduct.run("offloadctl", arguments, environment: environment)
    }

    @discardableResult
    func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
      -> String
    {
      let result = try run(arguments)
      #expect(
        result.status == 0, "\(name): \(arguments): \(result)", sourceLocation: sourceLocation)
      return result.stdout
    }

    /// This device's replica id: the one folder under `replicas/` when it alone wrote.
    func replicas() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: store + "/replicas")) ?? [])
        .filter { !$0.hasPrefix(".") }.sorted()
    }
  }

  /// Every file under `path` with its bytes.
  static func files(_ path: String) -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: path)
    while let name = enumerator?.nextObject() as? String {
      if let data = FileManager.default.contents(atPath: path + "/" + name) { files[name] = data }
    }
    return files
  }

  @Test func anotherDevicesSessionIsListedAndNeverWritten() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    let laptop = Device(fixture: fixture, name: "laptop")
    let phone = Device(fixture: fixture, name: "phone")
    try laptop.ok("photos", "start", fixture.photos, "--order", "mtime")
    try laptop.ok("photos", "swipe", "left")
    let id = "20270115-080000"
    // Sharing takes the store's session into the laptop's own folder.
    try laptop.ok("store", "share")
    let laptopID = try #require(laptop.replicas().first)
    #expect(!FileManager.default.fileExists(atPath: laptop.store + "/photo-sessions"))
    #expect(
      FileManager.default.fileExists(
        atPath: laptop.store + "/replicas/\(laptopID)/photo-sessions/\(id)/manifest.json"))
    #expect(try laptop.ok("photos", "swipe", "up") == "b.png → keep (Session: 2 / 4)\n")
    #expect(
      try laptop.ok("photos", "sessions")
        == "\(id)  Session: 2 / 4  pending 2  \(fixture.photos)\n")

    // The phone gets the store as a sync engine would: a copy at its own path.
    try FileManager.default.copyItem(atPath: laptop.store, toPath: phone.store)
    let laptopFolder = phone.store + "/replicas/\(laptopID)"
    let before = Self.files(laptopFolder)
    #expect(
      try phone.ok("photos", "sessions")
        == "No photo sessions; start one with `offloadctl photos start DIR`.\n"
        + "\(id)  on laptop (\(laptopID)), read-only  \(fixture.photos)\n")
    for arguments in [
      ["photos", "swipe", "left", "--session", id], ["photos", "status", "--session", id],
      ["photos", "undo", "--session", id],
    ] {
      let refused = try phone.run(arguments)
      #expect(refused.status == 1, "\(arguments): \(refused)")
      #expect(refused.stdout.isEmpty)
      #expect(
        refused.stderr
          == "offloadctl: error: photo session \(id) was started on device \"laptop\" (\(laptopID)); only that device changes it\n",
        "\(arguments)")
    }
    // With no session of its own, the phone does not open the laptop's as its latest.
    let latest = try phone.run(["photos", "status"])
    #expect(latest.status == 66, "\(latest)")
    #expect(Self.files(laptopFolder) == before)

    // The phone's own session lives in its folder; carried back, the laptop lists it.
    try phone.ok("photos", "start", fixture.photos, "--order", "mtime")
    let phoneID = try #require(phone.replicas().first { $0 != laptopID })
    #expect(try phone.ok("photos", "swipe", "right") == "a.jpg → favorite (Session: 1 / 4)\n")
    #expect(Self.files(laptopFolder) == before)
    try FileManager.default.copyItem(
      atPath: phone.store + "/replicas/\(phoneID)",
      toPath: laptop.store + "/replicas/\(phoneID)")
    let json = try laptop.run(["photos", "sessions", "--json"])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let others = try #require(document["otherDevices"] as? [[String: Any]])
    #expect(others.count == 1)
    #expect(others.first?["device"] as? String == "phone")
    #expect(others.first?["replica"] as? String == phoneID)
    #expect((document["sessions"] as? [[String: Any]])?.count == 1)
    #expect(try laptop.ok("photos", "swipe", "left") == "c.jpg → trash (Session: 3 / 4)\n")
  }
}
