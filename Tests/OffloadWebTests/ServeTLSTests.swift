import Foundation
import OffloadTestSupport
import Testing

@testable import OffloadWeb

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `offloadctl serve --tls` on 127.0.0.1 (never another address of the machine): HTTPS with the
/// store's own certificate, its fingerprint printed, a `Secure` cookie, no plain HTTP, and the
/// same certificate on the next start.
@Suite("serve over HTTPS", .serialized)
struct ServeTLSTests {
  @Test("--tls: HTTPS with the store's certificate, its fingerprint printed, a Secure cookie")
  func servesHTTPS() throws {
    let fixture = try WebFixture(count: 2)
    defer { fixture.remove() }
    let server = try TLSServer(fixture)
    defer { server.stop() }
    let certificate = try #require(TLSServer.storedCertificate(fixture.store))
    let stored = WebIdentity.fingerprint(of: certificate)
    #expect(server.fingerprint == stored, "\(server.errors)")
    #expect(server.errors.contains("this store has no certificate yet"))
    // The key is the owner's alone; the certificate may be read by anyone.
    let folder = WebIdentity.folder(storeRoot: fixture.store)
    #expect(try Self.mode(folder + "/certificate-key.pem") == 0o600)
    #expect(try Self.mode(folder) == 0o700)

    // The first visit with the token: the peer's certificate is the printed one, verified
    // as the anchor for 127.0.0.1, and the cookie is Secure.
    let first = try TLSClient.request(
      port: server.port, "GET", "/?token=\(server.token)", anchor: folder + "/certificate.pem")
    #expect(first.fingerprint == server.fingerprint)
    #expect(first.answer.status == 303, "\(first.answer)")
    let cookie = try #require(first.answer.header("Set-Cookie"))
    #expect(cookie.hasPrefix("offload_\(server.port)=\(server.token);"))
    for flag in ["HttpOnly", "SameSite=Strict", "Secure"] {
      #expect(cookie.contains("; \(flag)"), "\(cookie)")
    }
    // With the cookie: the page, whose policy allows only this server's secure WebSocket.
    let page = try TLSClient.request(
      port: server.port, "GET", "/photos", headers: ["Cookie": server.cookie])
    #expect(page.answer.status == 200, "\(page.answer)")
    let policy = page.answer.header("Content-Security-Policy") ?? ""
    #expect(policy.contains("wss://127.0.0.1:\(server.port)"), "\(policy)")
    #expect(!policy.contains(" ws://"), "\(policy)")
    // A change must come from the https origin; the http one is another site.
    for (origin, status) in [("http://127.0.0.1:\(server.port)", 403), (server.origin, 400)] {
      let post = try TLSClient.request(
        port: server.port, "POST", "/api/undo",
        headers: ["Cookie": server.cookie, "Origin": origin, "Content-Type": "text/plain"])
      #expect(post.answer.status == status, "\(origin): \(post.answer)")
    }

    // The WebSocket: upgraded over TLS from the https origin only.
    for (origin, upgraded) in [(server.origin, true), ("http://127.0.0.1:\(server.port)", false)] {
      let upgrade = try TLSClient.request(
        port: server.port, "GET", "/ws",
        headers: [
          "Cookie": server.cookie, "Origin": origin, "Upgrade": "websocket",
          "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
          "Sec-WebSocket-Version": "13",
        ])
      #expect((upgrade.answer.status == 101) == upgraded, "\(origin): \(upgrade.answer)")
    }

    // Plain HTTP on the same port gets no HTTP answer.
    let plain = RawHTTP(port: server.port)
    let fd = try plain.connect()
    defer { close(fd) }
    RawHTTP.write(
      fd, Array("GET /?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
    let reply = RawHTTP.read(fd)
    #expect(!String(decoding: reply, as: UTF8.self).contains("HTTP/1."), "\(reply.prefix(64))")
  }

  @Test("the next start presents the same certificate; a damaged key makes a new one, and says so")
  func keepsTheCertificate() throws {
    let fixture = try WebFixture(count: 1)
    defer { fixture.remove() }
    let first = try TLSServer(fixture)
    first.stop()
    let second = try TLSServer(fixture)
    let seen = try TLSClient.request(port: second.port, "GET", "/?token=\(second.token)")
    second.stop()
    #expect(second.fingerprint == first.fingerprint)
    #expect(seen.fingerprint == first.fingerprint)
    #expect(!second.errors.contains("made a new certificate"), "\(second.errors)")

    let keyPath = WebIdentity.folder(storeRoot: fixture.store) + "/certificate-key.pem"
    #expect(FileManager.default.createFile(atPath: keyPath, contents: Data("garbage".utf8)))
    let third = try TLSServer(fixture)
    third.stop()
    #expect(third.fingerprint != first.fingerprint)
    #expect(
      third.errors.contains(
        "offloadctl: the store's certificate or its key is damaged: made a new certificate"),
      "\(third.errors)")
  }

  @Test("without --tls, loopback stays plain HTTP with no certificate made")
  func loopbackStaysPlain() throws {
    let fixture = try WebFixture(count: 1)
    defer { fixture.remove() }
    let server = try ServerProcess(fixture)
    let answer = try RawHTTP(port: server.port).request("/?token=\(server.token)")
    server.stop()
    #expect(answer.status == 303)
    #expect(answer.header("Set-Cookie")?.contains("Secure") == false)
    #expect(!FileManager.default.fileExists(atPath: WebIdentity.folder(storeRoot: fixture.store)))
  }

  static func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
  }
}

/// A running `offloadctl serve --tls --port 0` on 127.0.0.1 (or, with `tls: false`, plain
/// `serve`): the address from its first line, the fingerprint from its standard error; the
/// environment can add to the fixture's (a `PATH` with a decoder that counts its runs).
final class TLSServer: @unchecked Sendable {
  let process = Process()
  let port: Int
  let token: String
  let fingerprint: String?
  private(set) var errors = ""
  private let output = Pipe()
  private let errorPipe = Pipe()

  init(_ fixture: WebFixture, tls: Bool = true, environment extra: [String: String] = [:]) throws {
    process.executableURL = URL(fileURLWithPath: BuiltProduct.path("offloadctl"))
    process.arguments =
      ["serve", "--host", "127.0.0.1", "--port", "0", "--root", fixture.photos]
      + (tls ? ["--tls"] : [])
    var environment = fixture.environment
    environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    process.environment = environment.merging(extra) { $1 }
    process.standardOutput = output
    process.standardError = errorPipe
    try process.run()
    let line =
      Self.readUntil(output, deadline: 30) { $0.contains("\n") }.split(separator: "\n").first ?? ""
    if tls {
      errors = Self.readUntil(errorPipe, deadline: 10) { text in
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
          .contains { $0.contains("fingerprint") }
      }
    }
    let pattern = /^(https?):\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64})$/
    let printed = #/fingerprint ((?:[0-9A-F]{2}:){31}[0-9A-F]{2}) /#
    let shown = errors.firstMatch(of: printed).map { String($0.1) }
    guard let match = String(line).wholeMatch(of: pattern), let port = Int(match.2),
      match.1 == (tls ? "https" : "http"), (shown != nil) == tls
    else {
      process.terminate()
      throw ServerFailure(message: "not the address and fingerprint: \"\(line)\" \(errors)")
    }
    self.port = port
    token = String(match.3)
    fingerprint = shown
  }

  var cookie: String { "offload_\(port)=\(token)" }
  var origin: String { "https://127.0.0.1:\(port)" }

  /// Reads from `pipe` until what was read is `enough` or `deadline` seconds passed.
  static func readUntil(_ pipe: Pipe, deadline: Double, _ enough: (String) -> Bool) -> String {
    var text = ""
    let end = Date().addingTimeInterval(deadline)
    let handle = pipe.fileHandleForReading
    while !enough(text) && Date() < end {
      let data = handle.availableData
      if data.isEmpty { break }
      text += String(decoding: data, as: UTF8.self)
    }
    return text
  }

  /// Stops the server with SIGTERM and waits for it.
  func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    process.waitUntilExit()
  }

  /// The DER bytes of the certificate kept in the store, if any.
  static func storedCertificate(_ store: String) -> [UInt8]? {
    let path = WebIdentity.folder(storeRoot: store) + "/certificate.pem"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    return Data(base64Encoded: body).map { [UInt8]($0) }
  }

  deinit { if process.isRunning { process.terminate() } }
}

/// One HTTPS exchange through Python's `ssl` module: the peer certificate's SHA-256
/// fingerprint and the answer. With `anchor`, the certificate must verify against that file
/// for the name 127.0.0.1; without, any certificate is accepted and only pinned by the caller.
enum TLSClient {
  static let script = """
    import base64, hashlib, json, socket, ssl, sys
    port, request, anchor = int(sys.argv[1]), base64.b64decode(sys.argv[2]), sys.argv[3]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    if anchor:
        context.load_verify_locations(cafile=anchor)
    else:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            der = tls.getpeercert(binary_form=True)
            tls.sendall(request)
            tls.settimeout(2)
            answer = b""
            while True:
                try:
                    part = tls.recv(65536)
                except (ssl.SSLError, ConnectionError, TimeoutError):
                    break
                if not part:
                    break
                answer += part
    digest = hashlib.sha256(der).hexdigest().upper()
    print(json.dumps({"fingerprint": ":".join(digest[i:i + 2] for i in range(0, 64, 2)),
                      "answer": base64.b64encode(answer).decode()}))
    """

  static func request(
    port: Int, _ method: String, _ target: String, headers: [String: String] = [:],
    anchor: String = ""
  ) throws -> (fingerprint: String, answer: RawHTTP.Answer) {
    var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    if headers["Connection"] == nil { head += "Connection: close\r\n" }
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    if method == "POST" { head += "Content-Length: 0\r\n" }
    head += "\r\n"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c", script, String(port), Data(head.utf8).base64EncodedString(), anchor,
    ]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let said = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let object = try JSONSerialization.jsonObject(with: data) as? [String: String],
      let fingerprint = object["fingerprint"],
      let answer = object["answer"].flatMap({ Data(base64Encoded: $0) })
    else {
      throw ServerFailure(message: "TLS client failed: \(String(decoding: said, as: UTF8.self))")
    }
    return (fingerprint, RawHTTP.parse([UInt8](answer)))
  }
}

/// The rules behind HTTPS, in process: when the server uses it, and when the store's
/// certificate is kept or made again.
@Suite("HTTPS rules and the store's certificate")
struct WebIdentityTests {
  @Test("HTTPS beyond loopback always, on loopback only when asked")
  func whenTLS() {
    let cases: [(host: String, tls: Bool, expected: Bool)] = [
      ("127.0.0.1", false, false), ("127.0.0.1", true, true), ("::1", false, false),
      ("localhost", false, false), ("0.0.0.0", false, true), ("192.168.1.20", false, true),
      ("::", false, true), ("fe80::1", true, true),
    ]
    for (host, tls, expected) in cases {
      var options = WebServer.Options(storeRoot: "/nonexistent", environment: [:])
      options.host = host
      options.tls = tls
      let server = WebServer(options: options)
      #expect(server.usesTLS == expected, "\(host) --tls \(tls)")
      #expect(server.address(port: 9).hasPrefix(expected ? "https://" : "http://"), "\(host)")
    }
  }

  @Test("kept while valid; made again when expired, damaged or not its key's, saying why")
  func renewal() throws {
    let folder = try TemporaryDirectory(prefix: "offload-tls")
    defer { folder.remove() }
    let store = folder.appending("store")
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let first = try WebIdentity.load(storeRoot: store, host: "192.168.1.20", now: now)
    #expect(first.renewal == "this store has no certificate yet")
    let again = try WebIdentity.load(storeRoot: store, host: "10.0.0.1", now: now + 86_400 * 300)
    #expect(again.renewal == nil && again.certificateDER == first.certificateDER)
    // The certificate names the host it was made for, beside loopback.
    let text = try #require(
      String(data: Data(first.certificateDER), encoding: .isoLatin1))
    #expect(text.contains("localhost"))
    #expect(first.certificateDER.windows(ofCount: 4).contains([192, 168, 1, 20]))

    let late = try WebIdentity.load(storeRoot: store, host: "::1", now: now + 86_400 * 397)
    #expect(late.renewal == "the store's certificate expired")
    #expect(late.certificateDER != first.certificateDER)

    let web = WebIdentity.folder(storeRoot: store)
    let otherStore = folder.appending("other")
    _ = try WebIdentity.load(storeRoot: otherStore, host: "::1", now: now)
    try FileManager.default.removeItem(atPath: web + "/certificate-key.pem")
    try FileManager.default.copyItem(
      atPath: WebIdentity.folder(storeRoot: otherStore) + "/certificate-key.pem",
      toPath: web + "/certificate-key.pem")
    let mismatched = try WebIdentity.load(storeRoot: store, host: "::1", now: now)
    #expect(mismatched.renewal == "the store's certificate does not match its key")

    #expect(FileManager.default.createFile(atPath: web + "/certificate.pem", contents: Data()))
    let damaged = try WebIdentity.load(storeRoot: store, host: "::1", now: now)
    #expect(damaged.renewal == "the store's certificate or its key is damaged")
    #expect(try WebIdentity.load(storeRoot: store, host: "::1", now: now).renewal == nil)
  }

  @Test("a store folder that cannot hold the certificate is one clear error")
  func unwritable() throws {
    let folder = try TemporaryDirectory(prefix: "offload-tls")
    defer { folder.remove() }
    let store = folder.appending("store")
    #expect(FileManager.default.createFile(atPath: store, contents: Data("a file".utf8)))
    let error = #expect(throws: WebTLSError.self) {
      try WebIdentity.load(storeRoot: store, host: "127.0.0.1")
    }
    #expect(error?.description.hasPrefix("cannot keep the certificate in \(store)/web: ") == true)
  }
}

extension Array {
  /// Every run of `count` neighbours.
  fileprivate func windows(ofCount count: Int) -> [[Element]] {
    guard self.count >= count else { return [] }
    return (0...(self.count - count)).map { Array(self[$0..<($0 + count)]) }
  }
}
