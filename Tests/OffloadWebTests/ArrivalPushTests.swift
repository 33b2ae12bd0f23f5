import Foundation
import OffloadTestSupport
import Testing

/// An open organize page hears what arrived from another device: the change push that
/// tells it its list changed carries the merge report's line.
@Suite("offloadctl serve: the change push says what arrived from other devices")
struct ArrivalPushTests {
  @Test("another device's changes reach the open page with one line naming the device")
  func anotherDevicesChanges() throws {
    let fixture = try WebFixture(count: 1)
    defer { fixture.remove() }
    #expect(try fixture.ctl(["collection", "create", "Groceries", "--kind", "list"]).status == 0)
    #expect(try fixture.ctl(["item", "add", "Groceries", "Milk"]).status == 0)
    #expect(try fixture.ctl(["store", "share"]).status == 0)
    let before = Set(
      try FileManager.default.contentsOfDirectory(atPath: fixture.store + "/replicas"))

    // The phone: a copy of the store with its own identity, two changes of its own.
    let phone = fixture.folder.appending("phone")
    try FileManager.default.createDirectory(atPath: phone, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: fixture.store, toPath: phone + "/store")
    func onPhone(_ arguments: String...) throws {
      let result = try BuiltProduct.run(
        "offloadctl", arguments,
        environment: [
          "OFFLOAD_HOME": phone + "/store", "XDG_STATE_HOME": phone + "/state", "HOME": phone,
          "OFFLOAD_DEVICE_NAME": "phone", "TZ": "UTC",
        ])
      #expect(result.status == 0, "\(result)")
    }
    try onPhone("item", "add", "Groceries", "Butter")
    try onPhone("item", "add", "Groceries", "Eggs")
    let phoneFolder = try #require(
      Set(try FileManager.default.contentsOfDirectory(atPath: phone + "/store/replicas"))
        .subtracting(before).first)

    let server = try ServerProcess(fixture)
    defer { server.stop() }
    let push = OrganizePushTests()
    let (id, version) = try push.groceries(server)
    let page = try RawWebSocket(
      port: server.port, origin: server.origin, cookie: server.cookie, path: "/ws/organize")
    page.send(#"{"type":"watch","collection":"\#(id)","version":"\#(version)"}"#)
    Thread.sleep(forTimeInterval: 0.5)

    // The phone's folder arrives as a sync engine delivers it: the log last, by a rename.
    let source = phone + "/store/replicas/" + phoneFolder
    let target = fixture.store + "/replicas/" + phoneFolder
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    let names = try FileManager.default.contentsOfDirectory(atPath: source).filter {
      !$0.hasSuffix(".lock")
    }
    for name in names.sorted(by: { !$0.hasPrefix("ops.") && $1.hasPrefix("ops.") }) {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: source + "/" + name, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      let temporary = target + "/.syncthing." + name + ".tmp"
      try FileManager.default.copyItem(atPath: source + "/" + name, toPath: temporary)
      try FileManager.default.moveItem(atPath: temporary, toPath: target + "/" + name)
    }

    let changed = try #require(page.receiveJSON(), "no push")
    #expect(changed["type"] as? String == "changed", "\(changed)")
    #expect(changed["done"] as? String == "2 changes from phone", "\(changed)")
  }
}
