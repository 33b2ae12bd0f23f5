import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 exchange over a plain loopback socket, so tests control every header (Host,
/// Origin, Cookie) and see every byte of the answer.
struct RawHTTP {
  struct Answer: CustomStringConvertible {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
      headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
    var text: String { String(decoding: body, as: UTF8.self) }
    var description: String {
      "\(status) \(headers.map { "\($0.0): \($0.1)" }.joined(separator: "; ")) \(text.prefix(200))"
    }
  }

  let port: Int

  /// Connects to 127.0.0.1:`port`.
  func connect() throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ServerFailure(message: "socket failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let result = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(fd)
      throw ServerFailure(message: "cannot connect to port \(port)")
    }
    return fd
  }

  static func write(_ fd: Int32, _ bytes: [UInt8]) {
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes {
        send(fd, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL))
      }
      if n <= 0 { return }
      done += n
    }
  }

  /// Reads until the peer closes (or `until` matches what was read so far).
  static func read(_ fd: Int32, until: (([UInt8]) -> Bool)? = nil) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, 65_536, 0) }
      if n <= 0 { break }
      out += buffer[0..<n]
      if let until, until(out) { break }
    }
    return out
  }

  /// A GET request.
  func request(
    _ target: String, host: String? = nil, headers: [String: String] = [:]
  ) throws -> Answer {
    try request("GET", target, host: host, headers: headers)
  }

  /// Sends one request (Connection: close) and reads the whole answer.
  func request(
    _ method: String, _ target: String, host: String? = nil, headers: [String: String] = [:],
    body: [UInt8] = []
  ) throws -> Answer {
    let fd = try connect()
    defer { close(fd) }
    var head =
      "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
    head += "\r\n"
    Self.write(fd, Array(head.utf8) + body)
    return Self.parse(Self.read(fd))
  }

  /// Parses a response: status line, headers, body (chunked or not).
  static func parse(_ bytes: [UInt8]) -> Answer {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard
      let end = (0..<max(0, bytes.count - 3)).first(where: {
        Array(bytes[$0..<$0 + 4]) == separator
      })
    else { return Answer(status: 0, headers: [], body: bytes) }
    let head = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
    let headers = head.dropFirst().compactMap { line -> (String, String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (
        String(line[..<colon]),
        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      )
    }
    var body = Array(bytes[(end + 4)...])
    if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1 == "chunked" }) {
      var decoded: [UInt8] = []
      var i = 0
      while i < body.count {
        guard
          let lineEnd = (i..<body.count - 1).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }),
          let size = Int(String(decoding: body[i..<lineEnd], as: UTF8.self), radix: 16), size > 0
        else { break }
        let start = lineEnd + 2
        decoded += body[start..<min(body.count, start + size)]
        i = start + size + 2
      }
      body = decoded
    }
    return Answer(status: status, headers: headers, body: body)
  }
}

/// A minimal WebSocket client for the deck's channel: handshake, masked text frames out,
/// text frames in.
final class RawWebSocket {
  let fd: Int32
  private var pending: [UInt8] = []

  /// Opens `path` with the given Origin and Cookie; throws unless the server switches.
  init(port: Int, origin: String?, cookie: String?, path: String = "/ws") throws {
    fd = try RawHTTP(port: port).connect()
    var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
    head += "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    head += "Sec-WebSocket-Version: 13\r\n"
    if let origin { head += "Origin: \(origin)\r\n" }
    if let cookie { head += "Cookie: \(cookie)\r\n" }
    head += "\r\n"
    RawHTTP.write(fd, Array(head.utf8))
    let answer = RawHTTP.read(fd) { bytes in
      bytes.count >= 4
        && (0...(bytes.count - 4)).contains { Array(bytes[$0..<$0 + 4]) == [13, 10, 13, 10] }
    }
    let text = String(decoding: answer, as: UTF8.self)
    guard text.hasPrefix("HTTP/1.1 101") else {
      close(fd)
      throw ServerFailure(message: "no upgrade: \(text.prefix(80))")
    }
    if let end = text.range(of: "\r\n\r\n") {
      pending = Array(answer[text.utf8.distance(from: text.startIndex, to: end.upperBound)...])
    }
  }

  deinit { close(fd) }

  /// Sends one masked frame (text by default).
  func send(_ payload: [UInt8], opcode: UInt8 = 1) {
    var frame: [UInt8] = [0x80 | opcode]
    if payload.count < 126 {
      frame.append(0x80 | UInt8(payload.count))
    } else if payload.count < 65_536 {
      frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    } else {
      frame.append(0x80 | 127)
      for shift in stride(from: 56, through: 0, by: -8) {
        frame.append(UInt8((payload.count >> shift) & 0xFF))
      }
    }
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    RawHTTP.write(fd, frame)
  }

  func send(_ text: String) { send(Array(text.utf8)) }

  /// The next frame: its opcode and payload; nil when the connection ended.
  func receive() -> (opcode: UInt8, payload: [UInt8])? {
    func need(_ n: Int) -> Bool {
      while pending.count < n {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, 65_536, 0) }
        if got <= 0 { return false }
        pending += buffer[0..<got]
      }
      return true
    }
    guard need(2) else { return nil }
    var length = Int(pending[1] & 0x7F)
    var offset = 2
    if length == 126 {
      guard need(4) else { return nil }
      length = Int(pending[2]) << 8 | Int(pending[3])
      offset = 4
    } else if length == 127 {
      guard need(10) else { return nil }
      length = (2..<10).reduce(0) { $0 << 8 | Int(pending[$1]) }
      offset = 10
    }
    guard need(offset + length) else { return nil }
    let frame = (pending[0] & 0x0F, Array(pending[offset..<offset + length]))
    pending.removeFirst(offset + length)
    return frame
  }

  /// The next text message, parsed as a JSON object; skips pings.
  func receiveJSON() -> [String: Any]? {
    while let (opcode, payload) = receive() {
      if opcode == 1 {
        return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
      }
      if opcode == 8 { return nil }
    }
    return nil
  }
}
