import Foundation
import OffloadTestSupport
import Testing

@testable import OffloadWeb

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Real, decodable PNG files, from the demo's encoder.
enum PNGFile {
  /// An RGB image `width` × `height` filled with `color`, with a darker band across it.
  static func make(width: Int, height: Int, color: (UInt8, UInt8, UInt8)) -> [UInt8] {
    PNGImage.make(width: width, height: height) { _, y in
      y > height / 3 && y < height / 2 ? (color.0 / 2, color.1 / 2, color.2 / 2) : color
    }
  }
}

/// A photo folder, a store and a Trash in a temporary folder, with a session started over
/// the photos by the built `offloadctl`.
struct WebFixture {
  let folder: TemporaryDirectory
  var photos: String { folder.appending("photos") }
  var store: String { folder.appending("store") }
  var environment: [String: String] {
    [
      "OFFLOAD_HOME": store, "XDG_DATA_HOME": folder.appending("data"), "HOME": folder.path,
      "TZ": "UTC",
    ]
  }

  /// `count` PNG photos named `p000.png`, ..., the `files` given (name and bytes), and a
  /// started session over them.
  init(count: Int = 6, files: [(name: String, bytes: [UInt8])] = []) throws {
    folder = try TemporaryDirectory(prefix: "offload-web")
    try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
    for i in 0..<count {
      let color = (
        UInt8(40 + (i * 70) % 200), UInt8(90 + (i * 40) % 160), UInt8(200 - (i * 30) % 150)
      )
      let bytes = PNGFile.make(width: 64, height: 48, color: color)
      let path = photos + "/p" + String(format: "%03d", i) + ".png"
      #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    }
    for file in files {
      #expect(
        FileManager.default.createFile(atPath: photos + "/" + file.name, contents: Data(file.bytes))
      )
    }
    let started = try ctl(["photos", "start", photos, "--order", "mtime"])
    #expect(started.status == 0, "\(started)")
  }

  /// Runs the built `offloadctl` on this fixture's store.
  func ctl(_ arguments: [String]) throws -> ProcessResult {
    try BuiltProduct.run("offloadctl", arguments, environment: environment)
  }

  /// `offloadctl photos status --json`, decoded.
  func status() throws -> [String: Any] {
    let result = try ctl(["photos", "status", "--json"])
    #expect(result.status == 0, "\(result)")
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return object as? [String: Any] ?? [:]
  }

  /// The statistics of the status document.
  func statistics() throws -> [String: Any] {
    let status = try status()
    let session = status["session"] as? [String: Any] ?? [:]
    return session["statistics"] as? [String: Any] ?? [:]
  }

  func remove() { folder.remove() }
}

/// A running `offloadctl serve --port 0`, stopped by ``stop(_:)``.
final class ServerProcess: @unchecked Sendable {
  let process = Process()
  let url: String
  let port: Int
  let token: String
  private let output = Pipe()
  private let errors = Pipe()

  /// Starts the server and reads the address from its first line.
  init(_ fixture: WebFixture, extra: [String] = []) throws {
    process.executableURL = URL(fileURLWithPath: BuiltProduct.path("offloadctl"))
    process.arguments = ["serve", "--port", "0", "--root", fixture.photos] + extra
    var environment = fixture.environment
    environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    process.environment = environment
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    var line = ""
    let handle = output.fileHandleForReading
    let deadline = Date().addingTimeInterval(30)
    while !line.contains("\n") && Date() < deadline {
      let data = handle.availableData
      if data.isEmpty { break }
      line += String(decoding: data, as: UTF8.self)
    }
    url = line.split(separator: "\n").first.map(String.init) ?? ""
    let pattern = /^http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64})$/
    guard let match = url.wholeMatch(of: pattern), let port = Int(match.1) else {
      process.terminate()
      throw ServerFailure(message: "the first line is not the address: \"\(url)\"")
    }
    self.port = port
    token = String(match.2)
  }

  /// The cookie the token buys.
  var cookie: String { "offload_\(port)=\(token)" }
  var origin: String { "http://127.0.0.1:\(port)" }

  /// Sends a signal and waits up to 30 s for the process to end; returns its exit status, or
  /// -1 when it had to be killed.
  @discardableResult
  func stop(_ signal: Int32 = SIGTERM) -> Int32 {
    if process.isRunning { kill(process.processIdentifier, signal) }
    let deadline = Date().addingTimeInterval(30)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return -1
    }
    return process.terminationStatus
  }

  deinit { if process.isRunning { process.terminate() } }
}

struct ServerFailure: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
