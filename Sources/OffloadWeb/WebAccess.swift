import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who may use the server: the rules every request passes before any route sees it.
///
/// - The Host header must name this server by an address (or `localhost`) and its port, so a
///   page on another name that resolves here (DNS rebinding) is refused.
/// - The first visit with `?token=` gets an HttpOnly, SameSite=Strict cookie (and `Secure` over
///   HTTPS) and a redirect to the clean address; afterwards the cookie must carry the token.
/// - A WebSocket upgrade and every state change (anything but GET and HEAD) must come from the
///   server's own origin.
final class WebAccess: Sendable {
  /// What to do with a request.
  enum Verdict: Equatable {
    /// Let it through.
    case allow
    /// Answer `303 See Other` to `location`, setting the session cookie.
    case redirect(location: String, cookie: String)
    /// Refuse it with `status` and a one-line reason.
    case deny(status: Int, reason: String)
  }

  /// The random token in the address printed at start.
  let token: String
  /// Whether the server listens on loopback only (then only loopback names are accepted).
  let loopbackOnly: Bool
  /// Whether the server speaks HTTPS (then the cookie is `Secure` and origins are `https://`).
  let secure: Bool
  private let boundPort = Mutex(0)

  init(token: String, loopbackOnly: Bool, secure: Bool = false) {
    self.token = token
    self.loopbackOnly = loopbackOnly
    self.secure = secure
  }

  /// The scheme of the server's own pages: `https` or `http`.
  var scheme: String { secure ? "https" : "http" }

  /// The port the server listens on, once it does.
  var port: Int {
    get { boundPort.withLock { $0 } }
    set { boundPort.withLock { $0 = newValue } }
  }

  /// The name of the cookie holding the token; it names the port, since cookies are shared
  /// by every port of a host.
  var cookieName: String { "offload_\(port)" }

  /// A fresh token: 32 random bytes as lowercase hexadecimal.
  static func makeToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in
      let byte = UInt8.random(in: 0...255, using: &generator)
      return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
    }.joined()
  }

  /// Compares in time independent of where the strings differ.
  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for i in x.indices { difference |= x[i] ^ y[i] }
    return difference == 0
  }

  /// Whether `host` (a Host header: name or address, and port) names this server.
  func acceptsHost(_ host: String?) -> Bool {
    guard let host, let (name, port) = Self.split(host), port == self.port else { return false }
    let lower = name.lowercased()
    if lower == "localhost" { return true }
    guard let loopback = Self.isLoopbackAddress(lower) else { return false }
    return loopback || !loopbackOnly
  }

  /// Host and port of a Host header; the port is 80 when it is missing.
  static func split(_ host: String) -> (String, Int)? {
    if host.hasPrefix("[") {
      guard let close = host.firstIndex(of: "]") else { return nil }
      let name = String(host[host.index(after: host.startIndex)..<close])
      let rest = host[host.index(after: close)...]
      if rest.isEmpty { return (name, 80) }
      guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
      return (name, port)
    }
    let parts = host.split(separator: ":", omittingEmptySubsequences: false)
    switch parts.count {
    case 1: return (host, 80)
    case 2: return Int(parts[1]).map { (String(parts[0]), $0) }
    default: return nil
    }
  }

  /// Whether an IP address literal is a loopback address; nil when `text` is no address.
  static func isLoopbackAddress(_ text: String) -> Bool? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
      return text.hasPrefix("127.")
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 {
      return text == "::1" || text == "0:0:0:0:0:0:0:1"
    }
    return nil
  }

  /// The value of cookie `name` in a Cookie header.
  static func cookie(_ name: String, in header: String?) -> String? {
    guard let header else { return nil }
    for part in header.split(separator: ";") {
      let pair = part.trimmingCharacters(in: .whitespaces)
      if pair.hasPrefix(name + "=") { return String(pair.dropFirst(name.count + 1)) }
    }
    return nil
  }

  /// The verdict on one request.
  ///
  /// - Parameters:
  ///   - method: The HTTP method.
  ///   - path: The path, without the query.
  ///   - queryToken: The `token` query parameter, if any.
  ///   - host: The Host header (or the request's authority).
  ///   - origin: The Origin header.
  ///   - cookieHeader: The Cookie header.
  ///   - isUpgrade: Whether the request asks for a WebSocket.
  func check(
    method: String, path: String, queryToken: String?, host: String?, origin: String?,
    cookieHeader: String?, isUpgrade: Bool
  ) -> Verdict {
    guard acceptsHost(host), let host else {
      return .deny(status: 421, reason: "this server answers only to its own address")
    }
    if let queryToken {
      guard Self.same(queryToken, token) else {
        return .deny(
          status: 403, reason: "the token is not this server's; open the address it printed")
      }
      guard method == "GET" && !isUpgrade else {
        return .deny(status: 403, reason: "a token is accepted only when opening a page")
      }
      // Only a local path: never `//host` (protocol-relative) or a backslash variant.
      let local = path.hasPrefix("/") && !path.hasPrefix("//") && !path.contains("\\")
      return .redirect(
        location: local ? path : "/",
        cookie: "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
          + (secure ? "; Secure" : ""))
    }
    guard let presented = Self.cookie(cookieName, in: cookieHeader) else {
      return .deny(
        status: 401, reason: "open the address `offloadctl serve` printed, with its token")
    }
    guard Self.same(presented, token) else {
      return .deny(status: 403, reason: "the session cookie is not this server's")
    }
    if isUpgrade || (method != "GET" && method != "HEAD") {
      guard let origin, origin == scheme + "://" + host else {
        return .deny(status: 403, reason: "changes are accepted only from this server's own pages")
      }
    }
    return .allow
  }

  /// The Content-Security-Policy of every response: scripts, styles, images and the web app
  /// manifest from this server only, no inline script, no framing.
  func contentSecurityPolicy(host: String) -> String {
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
      + "connect-src 'self' \(secure ? "wss" : "ws")://\(host); manifest-src 'self'; "
      + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
  }
}
