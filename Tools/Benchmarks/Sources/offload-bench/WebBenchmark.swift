import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `offload-bench web`: the release `offloadctl serve` measured from outside, over loopback.
///
/// - Pointer-up to journaled decision: on a 1,000-photo session, 200 strokes over the
///   WebSocket; the time from sending the `ended` sample to receiving `decided`, which the
///   server sends only after `CullingSession` synced the decision to its journal.
/// - Time to the first photo: from asking for the deck of a 20,000-photo session to holding
///   the first photo's bytes (the page's two requests; the browser's decode and paint are
///   not included).
/// - Server RSS with a 100,000-photo session after the deck, a review and 20 decisions.
/// - With `--scale` only: a 100,000-photo session, 50,000 decisions over the WebSocket and
///   50,000 through `POST /api/decide`, p50, p99 and server RSS per window of 5,000
///   (``WebScaleFigures``).
struct WebBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "web",
    abstract: "offloadctl serve: pointer-up to journaled decision, time to first photo, RSS.",
    discussion: "Runs the release build of offloadctl (build it first: swift build -c release).")

  @Option(help: "The offloadctl binary (default: .build/release/offloadctl of this repository).")
  var binary: String?

  @Option(help: "Strokes on the 1,000-photo session.") var swipes = 200

  @Flag(help: "Only the organize figures (move to insertion line, drop to saved).")
  var organizeOnly = false

  @Flag(help: "Only the scale case: decisions per window on a large session.")
  var scale = false

  @Option(help: "Photos in the scale case's session.") var scalePhotos = 100_000

  @Option(help: "Decisions over each channel (WebSocket, POST) in the scale case.")
  var scaleDecisions = 50_000

  @Option(help: "Decisions per window in the scale case.") var window = 5_000

  @Flag(help: "Print one JSON array instead of a table.") var json = false

  /// A 1 × 1 PNG.
  static let pixel: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
    0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90,
    0x77, 0x53, 0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8,
    0xD0, 0xA0, 0x00, 0x00, 0x03, 0xF4, 0x01, 0x91, 0xD3, 0xD4, 0xEF, 0x64, 0x00, 0x00, 0x00,
    0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
  ]

  func run() throws {
    let repository = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let binary = self.binary ?? repository.appendingPathComponent(".build/release/offloadctl").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw ValidationError("no offloadctl at \(binary); run `swift build -c release` first")
    }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "offload-bench-web-\(ProcessInfo.processInfo.processIdentifier)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    var rows: [BenchmarkRow] = []
    if scale {
      guard scaleDecisions > 0, window > 0, scalePhotos >= scaleDecisions else {
        throw ValidationError("the scale case needs 0 < decisions <= photos and a window > 0")
      }
      rows = try WebScaleFigures.measure(
        binary: binary, scratch: scratch, photos: scalePhotos, decisions: scaleDecisions,
        window: window)
      try Report.print(
        title: "offloadctl serve at scale (release build, loopback)", rows: rows, json: json)
      return
    }
    if organizeOnly {
      rows = try OrganizeWebFigures.measure(binary: binary, scratch: scratch)
      try Report.print(title: "offloadctl serve (release build, loopback)", rows: rows, json: json)
      return
    }

    // 1. Pointer-up to journaled decision.
    let small = try WebStore(binary: binary, folder: scratch + "/1k", photos: 1_000)
    let server = try small.serve()
    var latencies: [Double] = []
    let socket = try BenchSocket(port: server.port, cookie: server.cookie)
    var card = 0
    for stroke in 0..<swipes {
      let direction = [-1.0, 1.0][stroke % 2]
      let elapsed = try socket.swipe(
        session: server.session, card: card, sign: direction, moves: 10, step: 26,
        t0: Double(stroke) * 1000, lift: 100)
      latencies.append(elapsed)
      card += 1
    }
    socket.hangUp()
    server.stop()
    latencies.sort()
    rows.append(
      BenchmarkRow(fields: [
        ("case", .text("pointer-up → journaled decision (1,000 photos, \(swipes) swipes)")),
        ("p50Milliseconds", .number(latencies[latencies.count / 2])),
        (
          "p99Milliseconds",
          .number(latencies[min(latencies.count - 1, latencies.count * 99 / 100)])
        ),
      ]))

    // 2. Time to the first photo on a 20,000-photo session.
    let large = try WebStore(binary: binary, folder: scratch + "/20k", photos: 20_000)
    let largeServer = try large.serve()
    var firsts: [Double] = []
    for _ in 0..<11 {
      let start = ContinuousClock.now
      let deck = try BenchHTTP.get(port: largeServer.port, "/api/state", cookie: largeServer.cookie)
      guard let range = deck.range(of: #""image":"/photo/"#) else {
        throw ValidationError("no photo in the deck: \(deck.prefix(200))")
      }
      let path = deck[deck.index(range.upperBound, offsetBy: -7)...].prefix { $0 != "\"" }
      let photo = try BenchHTTP.get(
        port: largeServer.port, String(path), cookie: largeServer.cookie)
      guard !photo.isEmpty else { throw ValidationError("empty photo") }
      firsts.append(Self.milliseconds(ContinuousClock.now - start))
    }
    largeServer.stop()
    firsts.sort()
    rows.append(
      BenchmarkRow(fields: [
        ("case", .text("deck + first photo bytes (20,000 photos, 11 runs)")),
        ("p50Milliseconds", .number(firsts[firsts.count / 2])),
        ("p99Milliseconds", .number(firsts[firsts.count - 1])),
      ]))

    // 3. Server RSS with 100,000 photos.
    let huge = try WebStore(binary: binary, folder: scratch + "/100k", photos: 100_000)
    let hugeServer = try huge.serve()
    _ = try BenchHTTP.get(port: hugeServer.port, "/api/state", cookie: hugeServer.cookie)
    let hugeSocket = try BenchSocket(port: hugeServer.port, cookie: hugeServer.cookie)
    for index in 0..<20 {
      hugeSocket.send(
        #"{"type":"sample","phase":"began","t":0,"x":400,"y":300,"pointer":1,"session":"\#(hugeServer.session)","index":\#(index),"width":400}"#
      )
      hugeSocket.send(#"{"type":"sample","phase":"moved","t":16,"x":100,"y":300,"pointer":1}"#)
      hugeSocket.send(#"{"type":"sample","phase":"ended","t":200,"x":100,"y":300,"pointer":1}"#)
      while let message = hugeSocket.receiveText(), !message.contains(#""type":"decided""#) {}
    }
    _ = try BenchHTTP.get(port: hugeServer.port, "/api/review", cookie: hugeServer.cookie)
    let (rss, peak) = hugeServer.memory()
    hugeSocket.hangUp()
    hugeServer.stop()
    rows.append(
      BenchmarkRow(fields: [
        ("case", .text("server RSS, 100,000-photo session")),
        ("rssMegabytes", .number(rss)), ("peakRSSMegabytes", .number(peak)),
      ]))
    rows += try OrganizeWebFigures.measure(binary: binary, scratch: scratch)
    try Report.print(title: "offloadctl serve (release build, loopback)", rows: rows, json: json)
  }

  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  }
}

/// A store with one session over `photos` generated 1 × 1 PNGs.
struct WebStore {
  let binary: String
  let folder: String

  init(binary: String, folder: String, photos: Int) throws {
    self.binary = binary
    self.folder = folder
    try Self.writePixels(into: folder + "/photos", count: photos)
    let start = Process()
    start.executableURL = URL(fileURLWithPath: binary)
    start.arguments = ["photos", "start", folder + "/photos", "--order", "mtime", "--quiet"]
    start.environment = environment
    try start.run()
    start.waitUntilExit()
    guard start.terminationStatus == 0 else { throw ValidationError("photos start failed") }
  }

  var environment: [String: String] {
    ["OFFLOAD_HOME": folder + "/store", "XDG_DATA_HOME": folder + "/data", "HOME": folder]
  }

  /// Starts `offloadctl serve --port 0` and reads its address.
  func serve() throws -> BenchServer {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["serve", "--port", "0", "--root", folder]
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var line = ""
    while !line.contains("\n") {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      line += String(decoding: data, as: UTF8.self)
    }
    let address = line.prefix { $0 != "\n" }
    guard let colon = address.lastIndex(of: ":"), let slash = address[colon...].firstIndex(of: "/"),
      let port = Int(address[address.index(after: colon)..<slash]),
      let equals = address.firstIndex(of: "=")
    else { throw ValidationError("no address from serve: \(line)") }
    let token = String(address[address.index(after: equals)...])
    let cookie = "offload_\(port)=\(token)"
    let deck = try BenchHTTP.get(port: port, "/api/state", cookie: cookie)
    guard let id = deck.range(of: #""id":""#).map({ deck[$0.upperBound...].prefix { $0 != "\"" } })
    else { throw ValidationError("no session in \(deck.prefix(200))") }
    return BenchServer(process: process, port: port, cookie: cookie, session: String(id))
  }
}

/// A running server.
struct BenchServer {
  let process: Process
  let port: Int
  let cookie: String
  let session: String

  /// VmRSS and VmHWM from /proc, in megabytes.
  func memory() -> (Double, Double) {
    let status =
      (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8))
      ?? ""
    func field(_ name: String) -> Double {
      guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else {
        return 0
      }
      let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
      return kilobytes / 1024
    }
    return (field("VmRSS:"), field("VmHWM:"))
  }

  func stop() {
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
  }
}

/// Loopback HTTP/1.1 with `Connection: close`.
enum BenchHTTP {
  static func connect(_ port: Int) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    // An answer that never comes ends the run with an error instead of hanging it.
    var patience = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard fd >= 0, result == 0 else { throw ValidationError("cannot connect to port \(port)") }
    return fd
  }

  static func write(_ fd: Int32, _ bytes: [UInt8]) {
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes {
        send(fd, $0.baseAddress.map { $0 + done }, bytes.count - done, Int32(MSG_NOSIGNAL))
      }
      if n <= 0 { return }
      done += n
    }
  }

  /// The body of a GET (as text), or throws on a status other than 200.
  static func get(port: Int, _ path: String, cookie: String) throws -> String {
    let fd = try connect(port)
    defer { close(fd) }
    write(
      fd,
      Array(
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n"
          .utf8))
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 65_536, 0) }
      if n <= 0 { break }
      out += buffer[0..<n]
    }
    let text = String(decoding: out, as: UTF8.self)
    guard text.hasPrefix("HTTP/1.1 200"), let end = text.range(of: "\r\n\r\n") else {
      throw ValidationError("GET \(path): \(text.prefix(120))")
    }
    return String(text[end.upperBound...])
  }
}

/// The deck's WebSocket, client side: masked text frames out, text frames in.
final class BenchSocket {
  let fd: Int32
  private var pending: [UInt8] = []

  init(port: Int, cookie: String, path: String = "/ws") throws {
    fd = try BenchHTTP.connect(port)
    let head =
      "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
      + "Origin: http://127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n\r\n"
    BenchHTTP.write(fd, Array(head.utf8))
    while true {
      guard fill() else { throw ValidationError("the WebSocket closed during the handshake") }
      if let end = Self.headerEnd(pending) {
        guard String(decoding: pending[0..<end], as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
          throw ValidationError("no WebSocket upgrade")
        }
        pending.removeFirst(end + 4)
        return
      }
    }
  }

  deinit { close(fd) }

  /// Ends the connection from this side, so the server's shutdown does not wait for it.
  func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

  static func headerEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    return (0...(bytes.count - 4)).first { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }
  }

  private func fill() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 65_536, 0) }
    guard n > 0 else { return false }
    pending += buffer[0..<n]
    return true
  }

  func send(_ text: String) {
    sendFrame(opcode: 1, Array(text.utf8))
  }

  /// Sends one masked frame (a client's frames are masked).
  func sendFrame(opcode: UInt8, _ payload: [UInt8]) {
    var frame: [UInt8] = [0x80 | opcode]
    if payload.count < 126 {
      frame.append(0x80 | UInt8(payload.count))
    } else {
      frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    }
    let mask: [UInt8] = [1, 2, 3, 4]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    BenchHTTP.write(fd, frame)
  }

  /// The next text message; nil when the connection closed.
  func receiveText() -> String? {
    while true {
      if pending.count >= 2 {
        var length = Int(pending[1] & 0x7F)
        var offset = 2
        if length == 126, pending.count >= 4 {
          length = Int(pending[2]) << 8 | Int(pending[3])
          offset = 4
        } else if length == 127, pending.count >= 10 {
          length = (2..<10).reduce(0) { $0 << 8 | Int(pending[$1]) }
          offset = 10
        }
        if length < 126 || offset > 2, pending.count >= offset + length {
          let opcode = pending[0] & 0x0F
          let payload = Array(pending[offset..<offset + length])
          pending.removeFirst(offset + length)
          if opcode == 8 { return nil }
          if opcode == 1 { return String(decoding: payload, as: UTF8.self) }
          // The server pings every 30 s and closes a connection that does not answer.
          if opcode == 9 { sendFrame(opcode: 0xA, payload) }
          continue
        }
      }
      guard fill() else { return nil }
    }
  }
}
