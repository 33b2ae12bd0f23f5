import Foundation
import Offload
import OffloadTestSupport
import PhotoSession
import Testing

/// Photo sessions of a shared store: each device keeps its own in its own folder, the
/// sessions of the device that shares the store move with it, another device's sessions are
/// listed and never written (decision 0010).
@Suite("PhotoSessions: each device of a shared store keeps its own sessions")
struct PhotoSessionDevicesTests {
  let folder: TemporaryDirectory
  var photos: String { folder.appending("photos") }
  var laptop: String { folder.appending("laptop") }
  var phone: String { folder.appending("phone") }

  init() throws {
    folder = try TemporaryDirectory(prefix: "photo-session-devices")
    try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
    for (name, width) in [("a.jpg", 64), ("b.jpg", 48)] {
      try Data(Self.jpeg(width: width, height: 32)).write(
        to: URL(fileURLWithPath: photos + "/" + name))
    }
  }

  /// A baseline JPEG header of the given size: enough for a scan.
  static func jpeg(width: Int, height: Int) -> [UInt8] {
    var out: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08]
    out += [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)]
    out += [0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    out += [0xFF, 0xDA, 0x00, 0x0C, 0x03, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0, 0x12, 0x34]
    return out + [0xFF, 0xD9]
  }

  /// A device's environment: its own state folder, one Trash, a fixed clock.
  func environment(_ device: String) -> [String: String] {
    [
      "XDG_STATE_HOME": folder.appending(device + "-state"), "HOME": folder.path,
      "XDG_DATA_HOME": folder.appending("data"), "SOURCE_DATE_EPOCH": "1800000000",
    ]
  }

  /// Every file under `path` with its bytes.
  func files(_ path: String) -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: path)
    while let name = enumerator?.nextObject() as? String {
      if let data = FileManager.default.contents(atPath: path + "/" + name) {
        files[name] = data
      }
    }
    return files
  }

  @Test func sessionsMoveWithASharedStoreAndAnotherDeviceOnlyListsThem() throws {
    defer { folder.remove() }
    let laptopEnvironment = environment("laptop")
    #expect(
      PhotoSessions.folder(root: laptop, environment: laptopEnvironment)
        == laptop + "/photo-sessions")
    let id = try PhotoSessions.store(root: laptop, environment: laptopEnvironment)
      .start(folder: photos).id
    let shared = try Workspace(root: laptop, stateDirectory: folder.appending("laptop-state"))
      .share()
    let device = try #require(shared.deviceDescription)
    let own = laptop + "/replicas/\(device.replica)/photo-sessions"
    #expect(PhotoSessions.folder(root: laptop, environment: laptopEnvironment) == own)
    #expect(!FileManager.default.fileExists(atPath: laptop + "/photo-sessions"))
    #expect(
      try PhotoSessions.store(root: laptop, environment: laptopEnvironment).sessionIDs() == [id])
    #expect(PhotoSessions.otherDevices(root: laptop, environment: laptopEnvironment).isEmpty)
    try PhotoSessions.refuseOtherDevice(id, root: laptop, environment: laptopEnvironment)

    // A second device: the store copied to another path, with its own state folder.
    try FileManager.default.copyItem(atPath: laptop, toPath: phone)
    let phoneEnvironment = environment("phone")
    let laptopFiles = files(phone + "/replicas/\(device.replica)")
    let phoneStore = PhotoSessions.store(root: phone, environment: phoneEnvironment)
    #expect(try phoneStore.sessionIDs().isEmpty)
    #expect(phoneStore.folder != own.replacingOccurrences(of: laptop, with: phone))
    let others = PhotoSessions.otherDevices(root: phone, environment: phoneEnvironment)
    #expect(others.map(\.name) == [device.name])
    #expect(others.map(\.replica) == [device.replica])
    #expect(others.map { $0.sessions.map(\.id) } == [[id]])
    #expect(others.first?.sessions.first?.statistics?.total == 2)
    do {
      try PhotoSessions.refuseOtherDevice(id, root: phone, environment: phoneEnvironment)
      Issue.record("another device's session was not refused")
    } catch {
      #expect(error.code == .otherDevice)
      #expect(
        error.description
          == "photo session \(id) was started on device \"\(device.name)\" (\(device.replica)); only that device changes it"
      )
    }
    // An id no device holds is left to opening, which names what is missing.
    try PhotoSessions.refuseOtherDevice(
      "20990101-000000", root: phone, environment: phoneEnvironment)

    // The phone's own session of the same second is its own, in its own folder.
    let phoneID = try phoneStore.start(folder: photos).id
    #expect(phoneID == id)
    try PhotoSessions.refuseOtherDevice(phoneID, root: phone, environment: phoneEnvironment)
    #expect(files(phone + "/replicas/\(device.replica)") == laptopFiles)
  }

  @Test func aStoreThatIsNotSharedKeepsOneFolderAndRefusesNothing() throws {
    defer { folder.remove() }
    let environment = environment("laptop")
    let id = try PhotoSessions.store(root: laptop, environment: environment).start(folder: photos)
      .id
    #expect(
      PhotoSessions.folder(root: laptop + "/", environment: environment) == laptop
        + "/photo-sessions")
    #expect(PhotoSessions.otherDevices(root: laptop, environment: environment).isEmpty)
    try PhotoSessions.refuseOtherDevice(id, root: laptop, environment: environment)
    #expect(!FileManager.default.fileExists(atPath: folder.appending("laptop-state")))
  }
}
