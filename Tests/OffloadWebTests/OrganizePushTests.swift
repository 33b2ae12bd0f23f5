import Foundation
import OffloadTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The organize pages' change feed is pushed: a change the command line makes reaches every
/// open page through the server's one watch of the store, and an idle server with pages open
/// touches no store file.
@Suite("offloadctl serve: organize changes are pushed")
struct OrganizePushTests {
  /// The Groceries list's id and version, from the collections page and the list's view.
  func groceries(_ server: ServerProcess) throws -> (String, String) {
    let http = RawHTTP(port: server.port)
    func object(_ path: String) throws -> [String: Any] {
      let answer = try http.request(path, headers: ["Cookie": server.cookie])
      return try #require(
        try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
    }
    let entries = try object("/api/collections")["collections"] as? [[String: Any]] ?? []
    let id = try #require(entries.first { $0["name"] as? String == "Groceries" }?["id"] as? String)
    let version = try #require(try object("/api/collection?id=\(id)")["version"] as? String)
    return (id, version)
  }

  /// Two pages watching Groceries on a running server over a store holding it.
  func withTwoPages(
    _ body: (WebFixture, ServerProcess, [RawWebSocket], String, String) throws -> Void
  ) throws {
    let fixture = try WebFixture(count: 1)
    defer { fixture.remove() }
    #expect(try fixture.ctl(["collection", "create", "Groceries", "--kind", "list"]).status == 0)
    #expect(try fixture.ctl(["item", "add", "Groceries", "Milk"]).status == 0)
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    let (id, version) = try groceries(server)
    let pages = try (0..<2).map { _ in
      try RawWebSocket(
        port: server.port, origin: server.origin, cookie: server.cookie, path: "/ws/organize")
    }
    for page in pages {
      page.send(#"{"type":"watch","collection":"\#(id)","version":"\#(version)"}"#)
    }
    try body(fixture, server, pages, id, version)
  }

  @Test("an item added by the command line reaches both open pages")
  func cliChangeReachesBothPages() throws {
    try withTwoPages { fixture, server, pages, _, version in
      #expect(try fixture.ctl(["item", "add", "Groceries", "Butter"]).status == 0)
      let (_, now) = try groceries(server)
      #expect(now != version)
      for page in pages {
        let changed = try #require(page.receiveJSON())
        #expect(changed["type"] as? String == "changed")
        #expect(changed["version"] as? String == now, "\(changed)")
      }
    }
  }

  @Test(
    "an idle server with two organize pages open reads no store file",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")))
  func idleServerReadsNothing() throws {
    try withTwoPages { fixture, server, _, _, _ in
      usleep(500_000)
      let calls = try StoreCalls.count(
        pid: server.process.processIdentifier, store: fixture.store, seconds: 4)
      #expect(calls.isEmpty, "\(calls.count) store calls: \(calls.prefix(5))")
      // The same trace sees a change made meanwhile, so an empty trace is not a blind one.
      let traced = try StoreCalls.count(
        pid: server.process.processIdentifier, store: fixture.store, seconds: 3
      ) { () throws -> Void in
        let added = try fixture.ctl(["item", "add", "Groceries", "Tea"])
        #expect(added.status == 0)
      }
      #expect(!traced.isEmpty)
    }
  }
}

/// The system calls a process makes on a folder's files, traced by strace.
enum StoreCalls {
  /// The lines of `strace -f -y` on `pid` for `seconds` that name a path under `store`, from
  /// the calls that open, stat, list or read a file; `during` runs once the trace is attached.
  static func count(
    pid: Int32, store: String, seconds: Int, during: () throws -> Void = {}
  ) throws -> [String] {
    let log = try TemporaryDirectory(prefix: "offload-strace")
    defer { log.remove() }
    // strace starts through python3, which clears the signal mask it would inherit from this
    // process's thread (a worker thread blocks SIGINT): strace only stops on a SIGINT it sees.
    let trace = Process()
    trace.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    trace.arguments = [
      "python3", "-c",
      "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
        + "os.execv(sys.argv[1], sys.argv[1:])",
      "/usr/bin/strace", "-f", "-y", "-qq", "-o", log.appending("trace"), "-p", String(pid),
      "-e", "trace=openat,open,stat,lstat,newfstatat,statx,getdents64,read,pread64",
    ]
    trace.standardError = FileHandle.nullDevice
    try trace.run()
    usleep(700_000)
    try during()
    sleep(UInt32(seconds))
    kill(trace.processIdentifier, SIGINT)
    trace.waitUntilExit()
    let text = (try? String(contentsOfFile: log.appending("trace"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init).filter { $0.contains(store) }
  }
}
