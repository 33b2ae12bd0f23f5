import Foundation
import OffloadTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// HEIC photos through `offloadctl serve` with libheif's decoder installed: converted to JPEG
/// once, cached in the store, served to any browser; the photo itself untouched.
@Suite("offloadctl serve: HEIC as JPEG", .serialized)
struct ServeHEICTests {
  /// libheif's encoder and decoder, when installed (`.ci/run` installs `libheif-examples`).
  static let tools: (encoder: String, decoder: String)? = {
    guard let decoder = Tool.find("heif-dec") ?? Tool.find("heif-convert"),
      let encoder = Tool.find("heif-enc")
    else { return nil }
    return (encoder, decoder)
  }()

  /// A HEIC file made by `heif-enc` from a PNG of `width` × `height`.
  static func makeHEIC(
    encoder: String, in folder: TemporaryDirectory, width: Int, height: Int
  ) throws -> [UInt8] {
    let png = folder.appending("source.png")
    let heic = folder.appending("source.heic")
    let pixels = PNGFile.make(width: width, height: height, color: (200, 80, 40))
    #expect(FileManager.default.createFile(atPath: png, contents: Data(pixels)))
    let made = try Tool.run(encoder, ["-q", "60", "-o", heic, png])
    #expect(made.status == 0, "\(made)")
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: heic)))
  }

  @Test(
    "GET /photo of a HEIC answers a JPEG that decodes; the second GET and /thumb use the cache",
    .enabled(if: tools != nil, "libheif-examples (heif-enc and heif-dec or heif-convert) missing"))
  func convertsOnce() throws {
    let tools = try #require(Self.tools)
    let scratch = try TemporaryDirectory(prefix: "offload-heic")
    defer { scratch.remove() }
    let heic = try Self.makeHEIC(encoder: tools.encoder, in: scratch, width: 64, height: 48)
    let fixture = try WebFixture(count: 0, files: [("IMG_0001.HEIC", heic)])
    defer { fixture.remove() }
    // A decoder of the same name first on PATH that logs each run, then runs the real one.
    let bin = scratch.appending("bin")
    let log = scratch.appending("runs.log")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let name = (tools.decoder as NSString).lastPathComponent
    let wrapper = bin + "/" + name
    let script = "#!/bin/sh\necho run >> '\(log)'\nexec '\(tools.decoder)' \"$@\"\n"
    #expect(FileManager.default.createFile(atPath: wrapper, contents: Data(script.utf8)))
    chmod(wrapper, 0o755)
    let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let server = try TLSServer(fixture, tls: false, environment: ["PATH": path])
    defer { server.stop() }
    let http = RawHTTP(port: server.port)
    let status = try fixture.status()
    let id = try #require((status["session"] as? [String: Any])?["id"] as? String)

    let first = try http.request("/photo/\(id)/0", headers: ["Cookie": server.cookie])
    #expect(first.status == 200, "\(first)")
    #expect(first.header("Content-Type") == "image/jpeg")
    #expect(first.body.starts(with: [0xFF, 0xD8]))
    #expect(Self.runs(log) == 1)
    // The JPEG decodes: libheif's encoder reads it back (through libjpeg) without complaint,
    // and its header says the photo's size.
    let jpeg = scratch.appending("served.jpg")
    #expect(FileManager.default.createFile(atPath: jpeg, contents: Data(first.body)))
    let again = try Tool.run(tools.encoder, ["-o", scratch.appending("back.heic"), jpeg])
    #expect(again.status == 0, "\(again)")
    #expect(Tool.jpegSize(first.body) == [64, 48])

    let second = try http.request("/photo/\(id)/0", headers: ["Cookie": server.cookie])
    #expect(second.status == 200 && second.body == first.body)
    let thumb = try http.request("/thumb/\(id)/0", headers: ["Cookie": server.cookie])
    #expect(thumb.header("Content-Type") == "image/jpeg" && thumb.body == first.body)
    #expect(Self.runs(log) == 1, "the decoder ran again")
    // The cache holds one whole JPEG; the photo is as it was.
    let cache = fixture.store + "/web/heic"
    let entries = try FileManager.default.contentsOfDirectory(atPath: cache)
    #expect(entries.count == 1 && entries[0].hasSuffix(".jpg"), "\(entries)")
    let photo = try Data(contentsOf: URL(fileURLWithPath: fixture.photos + "/IMG_0001.HEIC"))
    #expect([UInt8](photo) == heic)
  }

  @Test(
    "a HEIC the decoder refuses answers 415 with the decoder's reason, and nothing is cached",
    .enabled(if: tools != nil, "libheif-examples (heif-enc and heif-dec or heif-convert) missing"))
  func refusedConversion() throws {
    let tools = try #require(Self.tools)
    let scratch = try TemporaryDirectory(prefix: "offload-heic")
    defer { scratch.remove() }
    var heic = try Self.makeHEIC(encoder: tools.encoder, in: scratch, width: 32, height: 32)
    // Keep the file type box (so it is still HEIC to the scan), cut the image data.
    heic = Array(heic.prefix(40))
    let fixture = try WebFixture(count: 0, files: [("broken.heic", heic)])
    defer { fixture.remove() }
    let server = try TLSServer(fixture, tls: false)
    defer { server.stop() }
    let status = try fixture.status()
    let id = try #require((status["session"] as? [String: Any])?["id"] as? String)
    let answer = try RawHTTP(port: server.port).request(
      "/photo/\(id)/0", headers: ["Cookie": server.cookie])
    #expect(answer.status == 415, "\(answer)")
    let name = (tools.decoder as NSString).lastPathComponent
    #expect(
      answer.text.contains("cannot convert this HEIC photo to JPEG: \(name) failed"), "\(answer)")
    let cache = fixture.store + "/web/heic"
    let left = (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []
    #expect(left.isEmpty, "\(left)")
  }

  static func runs(_ log: String) -> Int {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count
  }
}

/// Programs of the system the tests use.
enum Tool {
  /// The first executable `name` in a folder of `PATH`.
  static func find(_ name: String) -> String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
      .map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Width and height from a JPEG's first start-of-frame segment; nil when there is none.
  static func jpegSize(_ bytes: [UInt8]) -> [Int]? {
    var at = 2
    while at + 9 < bytes.count, bytes[at] == 0xFF {
      let marker = bytes[at + 1]
      let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
      if (0xC0...0xC3).contains(marker) {
        let height = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
        return [Int(bytes[at + 7]) << 8 | Int(bytes[at + 8]), height]
      }
      at += 2 + length
    }
    return nil
  }

  /// Runs `executable`; its exit status and what it wrote.
  static func run(_ executable: String, _ arguments: [String]) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus,
      String(decoding: out, as: UTF8.self) + String(decoding: err, as: UTF8.self)
    )
  }
}
