import Foundation
import OffloadTestSupport
import OffloadWeb
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The examples of OffloadWeb's doc comments, DocC catalog and guide, compiled here;
/// `everyExampleIsHere` fails when an example is written that this file does not hold.
///
/// The examples serve until SIGINT or SIGTERM, and `run` installs handlers for both signals
/// in the whole process, which stay after the server stops: run inside the test process, they
/// would leave it deaf to SIGTERM. So the examples are compiled in functions that are not
/// called, and what they say is checked on the built `offloadctl serve`, whose `ServeCommand`
/// makes the same `WebServer` and runs it the same way.
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

  /// The `WebServer` example: compiled, not called (see the suite's comment).
  static func webServerExample(location: URL, environment: [String: String]) async throws {
    let server = WebServer(options: .init(storeRoot: location.path, environment: environment))
    try await server.run { url in print(url) }  // until SIGINT or SIGTERM
  }

  /// The catalog's example: compiled, not called (see the suite's comment).
  static func catalogExample(store: String, environment: [String: String]) async throws {
    let server = WebServer(options: .init(storeRoot: store, environment: environment))
    try await server.run { address in print(address) }  // until SIGINT or SIGTERM
  }

  @Test(
    "the server prints its address, serves the page to its token, and stops on the signal",
    .timeLimit(.minutes(5)), arguments: [SIGTERM, SIGINT])
  func servesUntilASignal(signal: Int32) throws {
    let fixture = try WebFixture(count: 2)
    defer { fixture.remove() }
    // ServerProcess reads the first line and checks it is the address with its token.
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    let http = RawHTTP(port: server.port)
    let answer = try http.request("/?token=\(server.token)")
    #expect(answer.status == 303 && answer.header("Location") == "/", "\(answer)")
    let cookie = try #require(answer.header("Set-Cookie")?.split(separator: ";").first)
    let page = try http.request("/photos", headers: ["Cookie": String(cookie)])
    #expect(
      page.status == 200 && page.header("Content-Type")?.hasPrefix("text/html") == true, "\(page)")
    #expect(try http.request("/photos").status >= 400)  // no cookie, no page
    // Until the signal: then it ends cleanly and the port no longer answers.
    #expect(server.stop(signal) == 0)
    #expect(throws: (any Error).self) { try http.request("/") }
  }
}
