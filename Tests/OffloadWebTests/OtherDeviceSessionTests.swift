import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Offload
import OffloadTestSupport
import PhotoSession
import Testing

@testable import OffloadWeb

/// A web request naming a photo session another device of a shared store started gets the
/// refusal the command line gives (`otherDevice`, naming the device), not "no such session".
@Suite("Web API: another device's photo session is refused as the command line refuses it")
struct OtherDeviceSessionTests {
  @Test func anotherDevicesSessionIsRefusedByName() async throws {
    let folder = try TemporaryDirectory(prefix: "web-other-device")
    defer { folder.remove() }
    let photos = folder.appending("photos")
    let laptop = folder.appending("laptop")
    let phone = folder.appending("phone")
    try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
    for name in ["a.png", "b.png"] {
      let bytes = PNGFile.make(width: 32, height: 24, color: (200, 90, 40))
      #expect(FileManager.default.createFile(atPath: photos + "/" + name, contents: Data(bytes)))
    }
    func environment(_ device: String) -> [String: String] {
      [
        "XDG_STATE_HOME": folder.appending(device + "-state"), "HOME": folder.path,
        "XDG_DATA_HOME": folder.appending("data"), "TZ": "UTC",
      ]
    }
    // The laptop starts a session, shares the store; the phone gets a copy of it.
    let id = try PhotoSessions.store(root: laptop, environment: environment("laptop"))
      .start(folder: photos).id
    let shared = try Workspace(root: laptop, stateDirectory: folder.appending("laptop-state"))
      .share()
    let device = try #require(shared.deviceDescription)
    try FileManager.default.copyItem(atPath: laptop, toPath: phone)
    let refusal =
      "photo session \(id) was started on device \"\(device.name)\" (\(device.replica)); only that device changes it"

    var options = WebServer.Options(storeRoot: phone, environment: environment("phone"))
    options.roots = [photos]
    let server = WebServer(options: options)
    server.access.port = 80
    let headers: HTTPFields = [
      .cookie: "\(server.access.cookieName)=\(server.access.token)",
      .origin: "http://localhost", .contentType: "application/json",
    ]
    try await server.buildApplication { _ in }.test(.router) { client in
      func expectRefused(_ response: TestResponse, _ what: String) throws {
        #expect(response.status == .forbidden, "\(what): \(response.status)")
        let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
        #expect((object as? [String: Any])?["error"] as? String == refusal, "\(what)")
      }
      try expectRefused(
        try await client.execute(uri: "/api/state?session=\(id)", method: .get, headers: headers),
        "state")
      try expectRefused(
        try await client.execute(uri: "/api/review?session=\(id)", method: .get, headers: headers),
        "review")
      try expectRefused(
        try await client.execute(
          uri: "/api/decide", method: .post, headers: headers,
          body: ByteBuffer(string: #"{"session":"\#(id)","index":0,"decision":"trash"}"#)),
        "decide")
      try expectRefused(
        try await client.execute(uri: "/photo/\(id)/0", method: .get, headers: headers), "photo")
      // An id no device holds is still missing, as before.
      let missing = try await client.execute(
        uri: "/api/state?session=20990101-000000", method: .get, headers: headers)
      #expect(missing.status == .notFound)
      let text = String(buffer: missing.body)
      #expect(text.contains("no such photo session"), "\(text)")
    }
    // Nothing of the laptop's session changed on the phone's copy.
    let laptopFolder = "/replicas/\(device.replica)/photo-sessions/\(id)"
    let before = try FileManager.default.contentsOfDirectory(atPath: laptop + laptopFolder)
    let after = try FileManager.default.contentsOfDirectory(atPath: phone + laptopFolder)
    #expect(before.sorted() == after.sorted())
    for name in before {
      #expect(
        FileManager.default.contents(atPath: laptop + laptopFolder + "/" + name)
          == FileManager.default.contents(atPath: phone + laptopFolder + "/" + name), "\(name)")
    }
  }
}
