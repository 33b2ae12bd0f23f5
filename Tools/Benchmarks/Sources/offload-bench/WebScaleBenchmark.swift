import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `offload-bench web --scale`: decisions on a large session through the release
/// `offloadctl serve`, window by window, to show that a decision costs the same on the last
/// card as on the first.
///
/// On one session of `photos` generated 1 × 1 PNG files: `decisions` strokes over the deck's
/// WebSocket (pointer-up to `decided`, which the server sends after the decision is synced to
/// the journal), then `decisions` more through `POST /api/decide` on one kept-alive
/// connection (request to answer). Each window of `window` decisions prints its p50 and p99
/// and the server's resident memory (VmRSS from /proc) at its end.
enum WebScaleFigures {
  static func measure(
    binary: String, scratch: String, photos: Int, decisions: Int, window: Int
  ) throws -> [BenchmarkRow] {
    let setup = ContinuousClock.now
    let store = try WebStore(binary: binary, folder: scratch + "/scale", photos: photos)
    let server = try store.serve()
    defer { server.stop() }
    FileHandle.standardError.write(
      Data(
        "scale: \(photos) photos written, started and served in \(WebBenchmark.milliseconds(ContinuousClock.now - setup) / 1000) s\n"
          .utf8))
    let label = photos.formatted(.number.grouping(.automatic))
    var rows: [BenchmarkRow] = []
    var latencies: [Double] = []
    var windows: [(p50: Double, p99: Double, rss: Double)] = []
    func close(_ channel: String, first: Int) {
      latencies.sort()
      let p50 = latencies[latencies.count / 2]
      let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
      let rss = server.memory().0
      windows.append((p50, p99, rss))
      let range =
        "\((first + 1).formatted(.number.grouping(.automatic)))–\((first + latencies.count).formatted(.number.grouping(.automatic)))"
      rows.append(
        BenchmarkRow(fields: [
          ("case", .text("\(channel) decisions \(range) (\(label) photos)")),
          ("p50Milliseconds", .number(p50)), ("p99Milliseconds", .number(p99)),
          ("rssMegabytes", .number(rss)),
        ]))
      latencies.removeAll(keepingCapacity: true)
      FileHandle.standardError.write(
        Data("scale: \(channel) \(range): p50 \(p50) ms, p99 \(p99) ms, RSS \(rss) MB\n".utf8))
    }
    func summarize(_ channel: String) {
      guard let first = windows.first, let last = windows.last else { return }
      rows.append(
        BenchmarkRow(fields: [
          ("case", .text("\(channel): last window's p50 / first window's p50; worst p99, RSS")),
          ("p50Milliseconds", .number(last.p50 / first.p50)),
          ("p99Milliseconds", .number(windows.map(\.p99).max() ?? 0)),
          ("rssMegabytes", .number(windows.map(\.rss).max() ?? 0)),
        ]))
      windows.removeAll()
    }

    // 1. Strokes over the WebSocket, cards 0 ..< decisions.
    let socket = try BenchSocket(port: server.port, cookie: server.cookie)
    for card in 0..<decisions {
      latencies.append(
        try socket.swipe(
          session: server.session, card: card, sign: card % 2 == 0 ? -1 : 1, moves: 2, step: 150,
          t0: Double(card) * 1000, lift: 16))
      if latencies.count == window { close("WebSocket", first: card + 1 - window) }
    }
    if !latencies.isEmpty { close("WebSocket", first: decisions - latencies.count) }
    socket.hangUp()
    summarize("WebSocket")

    // 2. POST /api/decide, the next cards, on one kept-alive connection.
    let client = try BenchKeptAlive(port: server.port, cookie: server.cookie)
    let last = min(photos, 2 * decisions)
    for card in decisions..<last {
      let start = ContinuousClock.now
      let answer = try client.post(
        "/api/decide",
        #"{"session":"\#(server.session)","index":\#(card),"decision":"keep"}"#)
      latencies.append(WebBenchmark.milliseconds(ContinuousClock.now - start))
      guard answer.status == 200 else {
        throw ValidationError("decide \(card): \(answer.status) \(answer.body.prefix(300))")
      }
      if latencies.count == window {
        close("POST /api/decide", first: card + 1 - decisions - window)
      }
    }
    if !latencies.isEmpty {
      close("POST /api/decide", first: last - decisions - latencies.count)
    }
    summarize("POST /api/decide")
    rows.append(try syncBaseline(folder: scratch + "/scale", count: window))
    return rows
  }

  /// The baseline under every decision: `count` appends of a journal-sized line to a file in
  /// the same folder, each followed by `fsync`, measured now, on the same disk.
  static func syncBaseline(folder: String, count: Int) throws -> BenchmarkRow {
    let fd = open(folder + "/fsync-baseline", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw ValidationError("cannot write into \(folder)") }
    defer { close(fd) }
    let line = Array(String(repeating: "x", count: 120).utf8) + [10]
    var latencies: [Double] = []
    for _ in 0..<count {
      let start = ContinuousClock.now
      let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      guard written == line.count, fsync(fd) == 0 else {
        throw ValidationError("cannot append and sync in \(folder)")
      }
      latencies.append(WebBenchmark.milliseconds(ContinuousClock.now - start))
    }
    latencies.sort()
    return BenchmarkRow(fields: [
      ("case", .text("baseline: append 121 bytes + fsync, same disk (\(count) times)")),
      ("p50Milliseconds", .number(latencies[latencies.count / 2])),
      ("p99Milliseconds", .number(latencies[min(latencies.count - 1, latencies.count * 99 / 100)])),
    ])
  }
}

/// HTTP/1.1 requests on one kept-alive loopback connection, as a page's `fetch` makes them.
final class BenchKeptAlive {
  let fd: Int32
  let port: Int
  let cookie: String
  private var pending: [UInt8] = []
  private var buffer = [UInt8](repeating: 0, count: 65_536)

  init(port: Int, cookie: String) throws {
    self.port = port
    self.cookie = cookie
    fd = try BenchHTTP.connect(port)
  }

  deinit { close(fd) }

  /// POSTs a JSON body; returns the status and the body of the answer.
  func post(_ path: String, _ json: String) throws -> (status: Int, body: String) {
    let body = Array(json.utf8)
    let head =
      "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n"
      + "Origin: http://127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.count)\r\n\r\n"
    BenchHTTP.write(fd, Array(head.utf8) + body)
    while true {
      if let end = BenchSocket.headerEnd(pending) {
        let header = String(decoding: pending[0..<end], as: UTF8.self)
        let status = Int(header.dropFirst(9).prefix(3)) ?? 0
        guard
          let line = header.split(separator: "\r\n").first(where: {
            $0.lowercased().hasPrefix("content-length:")
          }), let length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces))
        else { throw ValidationError("an answer without Content-Length: \(header)") }
        while pending.count < end + 4 + length {
          guard fill() else { throw ValidationError("the connection closed mid-answer") }
        }
        let text = String(decoding: pending[(end + 4)..<(end + 4 + length)], as: UTF8.self)
        pending.removeFirst(end + 4 + length)
        return (status, text)
      }
      guard fill() else { throw ValidationError("the connection closed before an answer") }
    }
  }

  private func fill() -> Bool {
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 65_536, 0) }
    guard n > 0 else { return false }
    pending += buffer[0..<n]
    return true
  }
}

extension BenchSocket {
  /// One horizontal stroke on card `card` of `session` in a 400-pixel container: `began`, then
  /// `moves` moves of `step` pixels (left for a negative `sign`) 16 ms apart, then `ended` at
  /// the last move's place `lift` milliseconds later.
  ///
  /// - Returns: The milliseconds from sending `ended` to receiving `decided` (which the server
  ///   sends once the decision is synced to the journal).
  /// - Throws: When the stroke snaps back, is refused, or the connection closes.
  func swipe(
    session: String, card: Int, sign: Double, moves: Int, step: Double, t0: Double, lift: Double
  ) throws -> Double {
    send(
      #"{"type":"sample","phase":"began","t":\#(t0),"x":400,"y":300,"pointer":1,"session":"\#(session)","index":\#(card),"width":400}"#
    )
    for move in 1...moves {
      send(
        #"{"type":"sample","phase":"moved","t":\#(t0 + Double(move) * 16),"x":\#(400 + sign * step * Double(move)),"y":300,"pointer":1}"#
      )
    }
    let start = ContinuousClock.now
    let x = 400 + sign * step * Double(moves)
    send(
      #"{"type":"sample","phase":"ended","t":\#(t0 + Double(moves) * 16 + lift),"x":\#(x),"y":300,"pointer":1}"#
    )
    while let message = receiveText() {
      if message.contains(#""type":"decided""#) {
        return WebBenchmark.milliseconds(ContinuousClock.now - start)
      }
      if message.contains(#""type":"snapBack""#) || message.contains(#""type":"refused""#) {
        throw ValidationError("the stroke on card \(card) was not decided: \(message.prefix(300))")
      }
    }
    throw ValidationError("the WebSocket closed at card \(card)")
  }
}

extension WebStore {
  /// Writes `count` 1 × 1 PNG files `p<i>.png` into `folder` with plain system calls (a
  /// 100,000-photo folder in seconds).
  static func writePixels(into folder: String, count: Int) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let pixel = WebBenchmark.pixel
    for index in 0..<count {
      let fd = open(folder + "/p\(index).png", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw ValidationError("cannot write photos into \(folder)") }
      let written = pixel.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      close(fd)
      guard written == pixel.count else { throw ValidationError("cannot write into \(folder)") }
    }
  }
}
