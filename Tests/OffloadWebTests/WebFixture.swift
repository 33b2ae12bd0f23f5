import Foundation
import OffloadTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Real, decodable PNG files written from scratch (stored deflate blocks, no library).
enum PNGFile {
  private static let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }

  private static func be32(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }

  /// An RGB image `width` × `height` filled with `color`, with a darker band across it.
  static func make(width: Int, height: Int, color: (UInt8, UInt8, UInt8)) -> [UInt8] {
    var raw: [UInt8] = []
    raw.reserveCapacity((width * 3 + 1) * height)
    for y in 0..<height {
      raw.append(0)
      let band = y > height / 3 && y < height / 2
      for _ in 0..<width {
        raw += band ? [color.0 / 2, color.1 / 2, color.2 / 2] : [color.0, color.1, color.2]
      }
    }
    // zlib: header, stored blocks of at most 65,535 bytes, Adler-32.
    var z: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, raw.count - offset)
      let last: UInt8 = offset + count == raw.count ? 1 : 0
      z += [
        last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF),
        UInt8((~count >> 8) & 0xFF),
      ]
      z += raw[offset..<offset + count]
      offset += count
    } while offset < raw.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    z += be32(b << 16 | a)
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let body = Array(type.utf8) + data
      return be32(UInt32(data.count)) + body + be32(crc32(body))
    }
    let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
      + chunk("IDAT", z) + chunk("IEND", [])
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

  /// `count` PNG photos named `p000.png`, ..., and a started session over them.
  init(count: Int = 6) throws {
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

  /// Sends a signal and waits for the process to end; returns its exit status.
  @discardableResult
  func stop(_ signal: Int32 = SIGTERM) -> Int32 {
    if process.isRunning { kill(process.processIdentifier, signal) }
    process.waitUntilExit()
    return process.terminationStatus
  }

  deinit { if process.isRunning { process.terminate() } }
}

struct ServerFailure: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
