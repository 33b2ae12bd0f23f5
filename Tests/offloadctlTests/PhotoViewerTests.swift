import Foundation
import OffloadTestSupport
import Testing

@testable import offloadctl

@Suite("photos cull --viewer: a command run on every card, without a shell")
struct PhotoViewerTests {
  @Test func theCommandIsSplitLikeArgumentsWithoutAShell() throws {
    #expect(try PhotoViewer.split("feh  --reload 1") == ["feh", "--reload", "1"])
    #expect(
      try PhotoViewer.split("a 'b c' \"d \\\" e\" f\\ g ''") == ["a", "b c", "d \" e", "f g", ""])
    #expect(try PhotoViewer.split("x; rm -rf $HOME") == ["x;", "rm", "-rf", "$HOME"])
    let open = #expect(throws: PhotoViewer.ViewerError.self) { try PhotoViewer.split("a 'b") }
    #expect(open?.description == "the --viewer command \"a 'b\" has an unclosed quote")
    #expect(throws: PhotoViewer.ViewerError.self) { try PhotoViewer(command: "  ") }
  }

  @Test func aMissingViewerIsReportedOnceAndAFailingOneToo() throws {
    var missing = try PhotoViewer(command: "/nonexistent/viewer --flag")
    #expect(
      missing.show("/p/a.jpg")
        == "the viewer /nonexistent/viewer was not found or is not executable; the screen goes on without it"
    )
    #expect(missing.show("/p/b.jpg") == nil)
    var failing = try PhotoViewer(command: "false")
    #expect(failing.show("/p/a.jpg") == nil)
    var waited = 0
    while waited < 200, failing.show("/p/b.jpg") == nil, !failing.reported {
      usleep(20_000)
      waited += 1
    }
    #expect(failing.reported)
  }

  @Test func cullRunsTheViewerWithEachPhotosPathAsLastArgument() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    let log = fixture.folder.appending("viewer.log")
    let script = fixture.folder.appending("viewer.sh")
    try Data("#!/bin/sh\necho \"$@\" >> '\(log)'\n".utf8).write(to: URL(fileURLWithPath: script))
    chmod(script, 0o755)
    let terminal = try PseudoTerminal(
      product: "offloadctl",
      [
        "photos", "cull", fixture.photos, "--order", "mtime", "--viewer",
        script + " --one 'two words'",
      ],
      columns: 90, rows: 20,
      environment: fixture.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 })
    try terminal.waitForScreen { $0.contains("Session: 0 / 4") }
    terminal.send("\u{1B}[C")  // →
    try terminal.waitForScreen { $0.contains("Session: 1 / 4") }
    terminal.send("q")
    #expect(try terminal.waitForExit() == .exited(0))
    var lines: [String] = []
    for _ in 0..<100 {
      lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        .map(String.init)
      if lines.count >= 2 { break }
      usleep(20_000)
    }
    #expect(
      lines == [
        "--one two words \(fixture.photos)/a.jpg", "--one two words \(fixture.photos)/b.png",
      ])
  }
}
