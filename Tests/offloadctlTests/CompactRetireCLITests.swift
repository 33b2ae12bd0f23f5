import Foundation
import OffloadTestSupport
import Testing

/// `offloadctl store compact` and `store retire` on two devices of one machine (a store copied
/// to another path with another `XDG_STATE_HOME` is another device).
@Suite("offloadctl store compact and store retire", .serialized)
struct CompactRetireCLITests {
  /// Runs `offloadctl` as the device whose home is `home`.
  static func run(_ home: String, _ name: String, _ arguments: String...) throws -> ProcessResult {
    try BuiltProduct.run(
      "offloadctl", arguments,
      environment: [
        "OFFLOAD_HOME": home + "/store", "XDG_STATE_HOME": home + "/state",
        "OFFLOAD_DEVICE_NAME": name, "HOME": home, "TZ": "UTC", "SWIFT_BACKTRACE": "enable=no",
      ])
  }

  /// The files of a device's folder in a store.
  static func files(_ home: String, _ replica: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: home + "/store/replicas/" + replica))
      ?? []).sorted()
  }

  @Test("compact waits for a device, retire lets it go on, and nothing is lost")
  func compactAndRetire() throws {
    let work = try TemporaryDirectory(prefix: "offload-compact-cli")
    defer { work.remove() }
    let laptop = work.appending("laptop")
    let phone = work.appending("phone")
    try FileManager.default.createDirectory(atPath: laptop, withIntermediateDirectories: true)
    #expect(try Self.run(laptop, "laptop", "collection", "create", "Gear").status == 0)
    // Not shared yet: one line, exit 64.
    let unshared = try Self.run(laptop, "laptop", "store", "compact")
    #expect(unshared.status == 64)
    #expect(unshared.stderr.contains("not shared between devices"), "\(unshared)")
    #expect(try Self.run(laptop, "laptop", "store", "share", "--quiet").status == 0)
    try FileManager.default.createDirectory(atPath: phone, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: laptop + "/store", toPath: phone + "/store")
    #expect(try Self.run(phone, "phone", "item", "add", "Gear", "Rope").status == 0)
    // Its next command writes its name into its folder's device.json.
    #expect(try Self.run(phone, "phone", "store", "devices").status == 0)
    for text in ["Pack", "Tent", "Stove"] {
      #expect(try Self.run(laptop, "laptop", "item", "add", "Gear", text).status == 0)
    }
    let ids = try FileManager.default.contentsOfDirectory(atPath: phone + "/store/replicas")
    let laptopID = try #require(ids.first { Self.files(laptop, $0).contains("ops.0.jsonl") })
    let phoneID = try #require(ids.first { $0 != laptopID })
    try FileManager.default.copyItem(
      atPath: phone + "/store/replicas/" + phoneID,
      toPath: laptop + "/store/replicas/" + phoneID)

    let held = try Self.run(laptop, "laptop", "store", "compact")
    #expect(held.status == 0, "\(held)")
    #expect(held.stdout.hasPrefix("compacted: generation 1, "), "\(held)")
    #expect(Self.files(laptop, laptopID).contains("ops.1.jsonl"))
    #expect(!Self.files(laptop, laptopID).contains("ops.0.jsonl"))

    let selfRetire = try Self.run(laptop, "laptop", "store", "retire", "laptop")
    #expect(selfRetire.status == 64, "\(selfRetire)")
    #expect(
      lines(selfRetire.stderr) == [
        "offloadctl: error: laptop (\(laptopID)) is this device; retire it from another device"
      ])
    let unknown = try Self.run(laptop, "laptop", "store", "retire", "fridge")
    #expect(unknown.status == 66, "\(unknown)")
    #expect(lines(unknown.stderr).count == 1)

    let retired = try Self.run(laptop, "laptop", "store", "retire", "phone")
    #expect(retired.status == 0, "\(retired)")
    #expect(
      lines(retired.stdout) == [
        "retired phone (\(phoneID)): compaction no longer waits for it; its operations stay in "
          + "the merge"
      ])
    #expect(Self.files(laptop, laptopID).contains("retired.json"))
    let devices = try Self.run(laptop, "laptop", "store", "devices")
    #expect(
      lines(devices.stdout).contains { $0.hasPrefix(phoneID) && $0.contains("; retired") },
      "\(devices)")
    let freed = try Self.run(laptop, "laptop", "store", "compact", "--json")
    #expect(freed.status == 0, "\(freed)")
    let report = try JSONSerialization.jsonObject(with: Data(freed.stdout.utf8)) as? [String: Any]
    #expect(report?["compacted"] as? Bool == true)
    #expect(report?["changesKept"] as? Int == 0, "\(freed)")
    #expect(Self.files(laptop, laptopID).contains("ops.2.jsonl"))
    let shown = try Self.run(laptop, "laptop", "collection", "show", "Gear")
    for text in ["Pack", "Tent", "Stove", "Rope"] {
      #expect(shown.stdout.contains(text), "\(shown)")
    }
    // A new device joining after the compactions reads everything from the logs alone.
    let tablet = work.appending("tablet")
    try FileManager.default.createDirectory(atPath: tablet, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: laptop + "/store", toPath: tablet + "/store")
    let joined = try Self.run(tablet, "tablet", "collection", "show", "Gear")
    for text in ["Pack", "Tent", "Stove", "Rope"] {
      #expect(joined.stdout.contains(text), "\(joined)")
    }
  }
}

/// Lines of a text that are not empty.
private func lines(_ text: String) -> [String] {
  text.split(separator: "\n").map(String.init)
}
