import Foundation
import OffloadTestSupport
import TerminalUI
import Testing

@testable import Offload

/// What opening the store said (the merge report, the sharing line) is shown on the organize
/// screen's first frame, where a line on stderr would be drawn over.
@Suite("OrganizeSession: what opening the store said, on the first frame")
struct OrganizeNoticeTests {
  /// The frame's lines as text.
  func lines(_ session: inout OrganizeSession, _ size: TerminalSize) -> [String] {
    var screen = session.screen
    return screen.frame(size: size).text.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
  }

  @Test("the merge report of another device's changes takes the first frame's status line")
  func mergeReportOnFirstFrame() throws {
    let folder = try TemporaryDirectory(prefix: "offload-organize-notice")
    defer { folder.remove() }
    let laptop = try Workspace(
      root: folder.appending("laptop"), stateDirectory: folder.appending("state")
    ).share()
    try laptop.createCollection(named: "Trip", kind: .list)
    for text in ["Hotel", "Tickets"] { try laptop.addItem(to: "Trip", text: text) }
    try FileManager.default.copyItem(atPath: laptop.root, toPath: folder.appending("phone"))
    let phone = Workspace(
      root: folder.appending("phone"), stateDirectory: folder.appending("state"))
    #expect(phone.reportArrivals() == nil)  // a new device reports no history
    try phone.addItem(to: "Trip", text: "Sunscreen")
    try phone.addItem(to: "Trip", text: "Charger")
    let id = try #require(phone.device?.replica.rawValue)
    let target = laptop.root + "/replicas/" + id
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: phone.root + "/replicas/" + id)
    where name.hasPrefix("ops.") || name == "device.json" {
      try FileManager.default.copyItem(
        atPath: phone.root + "/replicas/" + id + "/" + name, toPath: target + "/" + name)
    }
    let report = try #require(laptop.reportArrivals())
    #expect(report.hasPrefix("2 changes from "), "\(report)")

    let size = TerminalSize(columns: 60, rows: 10)
    var session = try OrganizeSession(workspace: laptop, collection: "Trip", notices: [report])
    let first = lines(&session, size)
    #expect(first.count == 10)
    #expect(first[0] == "Trip · list · 4 items · row 1/4")
    #expect(first[8] == report)
    #expect(first[9] == TerminalText.fit(OrganizeScreen.normalHints, width: 60))
    // The next key's message takes the line, as always.
    _ = session.handle(KeyPress(.character("h")))
    #expect(lines(&session, size)[8] == "Done items hidden · h shows them")
    // Without notices the first frame shows the collection's summary.
    var plain = try OrganizeSession(workspace: laptop, collection: "Trip")
    #expect(lines(&plain, size)[8] == "Trip: 4 items · e edits, q quits")
  }

  @Test("several notices are joined, and a long status wraps onto up to three lines")
  func longNoticeWraps() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    _ = try makeTrip(workspace)
    let shared =
      "this store is now shared between devices, each writing its own log, because it lies in "
      + "a folder a sync engine carries: found Syncthing's .stfolder in /home/ada/Sync"
    var session = try OrganizeSession(
      workspace: workspace, collection: "Trip", notices: [shared, "2 changes from phone"])
    let size = TerminalSize(columns: 60, rows: 13)
    let frame = lines(&session, size)
    #expect(frame.count == 13)
    #expect(
      Array(frame[9...11]) == [
        "this store is now shared between devices, each writing its",
        "own log, because it lies in a folder a sync engine carries:",
        "found Syncthing's .stfolder in /home/ada/Sync · 2 changes f…",
      ])
    // The list gives up the rows the status takes: 13 − header − 3 status − hints = 8 (7
    // items and one empty row).
    #expect(frame[1...7].allSatisfy { !$0.isEmpty } && frame[8].isEmpty)
    // On a short terminal the list keeps its rows and the status is cut to one line.
    let short = lines(&session, TerminalSize(columns: 60, rows: 11))
    #expect(short[9] == "this store is now shared between devices, each writing its …")
  }

  @Test("wrapping: short text stays, words are kept whole, a word wider than a line is cut")
  func wrapping() {
    #expect(OrganizeScreen.wrapped("Done", width: 10, lines: 3) == ["Done"])
    #expect(
      OrganizeScreen.wrapped("one two three four", width: 9, lines: 3)
        == ["one two", "three", "four"])
    #expect(
      OrganizeScreen.wrapped("one two three four five six", width: 9, lines: 2)
        == ["one two", "three fo…"])
    #expect(
      OrganizeScreen.wrapped("abcdefghijklmnop qr", width: 8, lines: 3) == ["abcdefg…", "qr"])
    // Over seeded texts: every line fits, and nothing is lost when the lines suffice.
    var random = SplitMix64(seed: SplitMix64.testSeed(0x0F_1235))
    for round in 0..<300 {
      let words = (0..<(1 + random.index(below: 20))).map { _ in
        String(repeating: "w", count: 1 + random.index(below: 12))
      }
      let text = words.joined(separator: " ")
      let width = 12 + random.index(below: 30)
      let wrapped = OrganizeScreen.wrapped(text, width: width, lines: 3)
      #expect(wrapped.allSatisfy { TerminalText.width(of: $0) <= width }, "round \(round)")
      #expect(wrapped.count <= 3, "round \(round)")
      if !wrapped.joined().contains("…") {
        #expect(wrapped.joined(separator: " ") == text, "round \(round): \(wrapped)")
      }
    }
  }
}
