import Foundation
import OffloadTestSupport
import OffloadWeb
import Synchronization
import Testing

/// The examples of OffloadWeb's doc comments, DocC catalog and guide, compiled and run here;
/// `everyExampleIsHere` fails when an example is written that this file does not hold.
///
/// The examples run a server until SIGINT or SIGTERM. A signal here would go to the whole test
/// process, so the tests stop the server by cancelling the task that runs it, and the
/// signal itself is checked on the built `offloadctl serve` (`ServeSecurityTests`).
@Suite("OffloadWeb: documentation examples compile and do what they say")
struct DocExampleTests {
  @Test func everyExampleIsHere() {
    let root = DocExamples.packageRoot(from: #filePath)
    let blocks = DocExamples.blocks(
      module: "OffloadWeb", guides: ["Docs/Guides/Web.md"], root: root)
    #expect(blocks.count >= 2)
    let missing = DocExamples.missing(
      blocks, in: ["Tests/OffloadWebTests/DocExampleTests.swift"], root: root)
    #expect(missing.isEmpty, "examples not compiled by a test: \(missing)")
  }

  /// The address the example printed, once it has.
  final class Printed: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }

    /// Waits up to a minute for the first line.
    func first() async throws -> String {
      for _ in 0..<3_000 {
        if let line = all.first { return line }
        try await Task.sleep(for: .milliseconds(20))
      }
      throw ServerFailure(message: "the server printed no address")
    }
  }

  /// Checks that `address` is the server's: the token buys a cookie, the cookie the photo
  /// page.
  static func checkServes(_ address: String) throws {
    let prefix = "http://127.0.0.1:"
    #expect(address.hasPrefix(prefix) && address.contains("/?token="), "\(address)")
    let rest = address.dropFirst(prefix.count)
    let port = try #require(Int(rest.prefix { $0.isNumber }))
    let target = String(rest.drop { $0.isNumber })
    let http = RawHTTP(port: port)
    let answer = try http.request(target)
    #expect(answer.status == 303 && answer.header("Location") == "/", "\(answer)")
    let cookie = try #require(answer.header("Set-Cookie")?.split(separator: ";").first)
    let page = try http.request("/photos", headers: ["Cookie": String(cookie)])
    #expect(
      page.status == 200 && page.header("Content-Type")?.hasPrefix("text/html") == true, "\(page)")
    // Without the token's cookie, nothing.
    #expect(try http.request("/photos").status >= 400)
  }

  /// Runs `example` (a server) in a task, checks the address it prints, then cancels it and
  /// waits for it to end.
  static func run(
    _ example: @escaping @Sendable (@escaping @Sendable (String) -> Void) async throws -> Void
  ) async throws {
    let printed = Printed()
    let running = Task { try await example { printed.append($0) } }
    let address: String
    do {
      address = try await printed.first()
    } catch {
      running.cancel()
      throw error
    }
    try await onAThread { try checkServes(address) }
    running.cancel()
    _ = await running.result
    #expect(printed.all.count == 1)
    // Stopped: the port no longer answers.
    let port = Int(address.dropFirst("http://127.0.0.1:".count).prefix { $0.isNumber }) ?? 0
    let refused = try await onAThread { () -> Bool in
      do {
        _ = try RawHTTP(port: port).request("/")
        return false
      } catch {
        return true
      }
    }
    #expect(refused)
  }

  /// Runs `work`, which blocks on sockets, on a thread of its own: the server in this process
  /// answers on the tasks' thread pool, which a blocking read must not hold.
  static func onAThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value)
    async throws -> Value
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try work() }) }.start()
    }
  }

  @Test(.timeLimit(.minutes(2))) func webServer() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    struct Location { var path: String }
    let location = Location(path: folder.appending("store"))
    let environment = ["HOME": folder.path, "XDG_DATA_HOME": folder.appending("data")]
    try await Self.run { print in
      let server = WebServer(options: .init(storeRoot: location.path, environment: environment))
      try await server.run { url in print(url) }  // until SIGINT or SIGTERM
    }
  }

  @Test(.timeLimit(.minutes(2))) func catalogOverview() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let store = folder.appending("store")
    let environment = ["HOME": folder.path, "XDG_DATA_HOME": folder.appending("data")]
    try await Self.run { print in
      let server = WebServer(options: .init(storeRoot: store, environment: environment))
      try await server.run { address in print(address) }  // until SIGINT or SIGTERM
    }
  }
}
