import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

private func someEvents(_ count: Int) -> [SessionEvent] {
  (0..<count).map { .decided(index: $0, photo: "p\($0).jpg", decision: .keep, time: Double($0)) }
}

@Suite("JSONLinesSessionJournal: durable lines, torn tails, compaction")
struct JSONLinesSessionJournalTests {
  @Test func appendThenReplayInAnotherInstance() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = JSONLinesSessionJournal(folder: folder.path)
    let events = someEvents(5)
    try journal.append(Array(events[0..<2]))
    try journal.append(Array(events[2...]))
    let contents = try JSONLinesSessionJournal(folder: folder.path).replay()
    #expect(contents.events == events && contents.snapshot == nil && contents.repairs.isEmpty)
    let text = try String(contentsOfFile: journal.journalPath, encoding: .utf8)
    let first = try #require(text.split(separator: "\n").first)
    let body = #"{"d":"keep","i":0,"id":"p0.jpg","op":"decide","t":0}"#
    let crc = String(CRC32.checksum(Array(body.utf8)), radix: 16)
    #expect(
      first
        == "{\"seq\":1,\"crc\":\"\(String(repeating: "0", count: 8 - crc.count) + crc)\",\"event\":\(body)}"
    )
  }

  @Test func crcMatchesTheStandardCheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
  }

  /// A crash can cut the last line anywhere: every cut replays to the lines before it, and the
  /// file is repaired so appending goes on cleanly.
  @Test func everyTornTailIsCutOffAndReported() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = JSONLinesSessionJournal(folder: folder.path)
    try journal.append(someEvents(3))
    let full = try FileSystem.readAll(journal.journalPath)
    let lastStart = full.dropLast().lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
    for cut in lastStart..<full.count {
      try Data(full.prefix(cut)).write(to: URL(fileURLWithPath: journal.journalPath))
      let reopened = JSONLinesSessionJournal(folder: folder.path)
      let contents = try reopened.replay()
      #expect(contents.events == someEvents(2), "cut at \(cut)")
      #expect(contents.repairs.count == (cut == lastStart ? 0 : 1), "cut at \(cut)")
      if cut > lastStart {
        #expect(
          contents.repairs[0].hasPrefix("cut off a torn last line 3 of"), "\(contents.repairs)")
      }
      #expect(try FileSystem.readAll(journal.journalPath).count == lastStart)
      try reopened.append([someEvents(3)[2]])
      #expect(try JSONLinesSessionJournal(folder: folder.path).replay().events == someEvents(3))
    }
  }

  @Test func damageBeforeTheTailNamesTheLine() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = JSONLinesSessionJournal(folder: folder.path)
    try journal.append(someEvents(4))
    var bytes = try FileSystem.readAll(journal.journalPath)
    let second = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
    // Flip a digit of the photo name inside line 2: the CRC no longer matches.
    let at = try #require(bytes[second...].firstIndex(of: UInt8(ascii: "p"))) + 1
    bytes[at] = UInt8(ascii: "9")
    try Data(bytes).write(to: URL(fileURLWithPath: journal.journalPath))
    let error = #expect(throws: PhotoSessionError.self) {
      try JSONLinesSessionJournal(folder: folder.path).replay()
    }
    #expect(error?.code == .journalCorrupt && error?.offset == 2)
    #expect(
      error?.description
        == "the journal \"\(journal.journalPath)\" is damaged at line 2 (byte \(second)): its checksum does not match its content"
    )
  }

  @Test(arguments: [
    ("{\"sq\":1}", "it does not start with {\"seq\":"),
    ("{\"seq\":,", "it has no sequence number"),
    ("{\"seq\":1,\"crx\":", "it has no crc field"),
    ("{\"seq\":1,\"crc\":\"12", "its crc is cut short"),
    ("{\"seq\":1,\"crc\":\"1234567g\"", "its crc is not hexadecimal"),
    ("{\"seq\":1,\"crc\":\"12345678\",\"evnt\":", "it has no event field"),
    ("{\"seq\":1,\"crc\":\"12345678\",\"event\":{", "it does not end with }"),
  ])
  func lineErrors(line: String, reason: String) {
    guard case .failure(let error) = JSONLinesSessionJournal.parse(ArraySlice(Array(line.utf8)))
    else {
      Issue.record("\(line) parsed")
      return
    }
    #expect(error.message == reason)
  }

  @Test func sequenceGapsAndUnreadableEventsAreErrors() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let body: [UInt8] = Array(#"{"op":"undo","t":1}"#.utf8)
    let bad: [UInt8] = Array(#"{"op":"fly"}"#.utf8)
    let path = folder.appending("journal.jsonl")
    try Data(
      JSONLinesSessionJournal.line(sequence: 1, body: body)
        + JSONLinesSessionJournal.line(sequence: 3, body: body)
    ).write(to: URL(fileURLWithPath: path))
    let gap = #expect(throws: PhotoSessionError.self) {
      try JSONLinesSessionJournal(folder: folder.path).replay()
    }
    #expect(gap?.description == "the journal \"\(path)\" skips from sequence 1 to 3 at line 2")
    try Data(
      JSONLinesSessionJournal.line(sequence: 1, body: bad)
        + JSONLinesSessionJournal.line(sequence: 2, body: body)
    ).write(to: URL(fileURLWithPath: path))
    let unreadable = #expect(throws: PhotoSessionError.self) {
      try JSONLinesSessionJournal(folder: folder.path).replay()
    }
    #expect(unreadable?.code == .journalCorrupt)
    #expect(
      unreadable?.description.hasPrefix(
        "the journal \"\(path)\" has an unreadable event at line 1") == true)
  }

  @Test func compactionKeepsTheStateAndSurvivesACrashBetweenItsSteps() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = JSONLinesSessionJournal(folder: folder.path)
    var state = CullingState(photos: (0..<10).map { "p\($0).jpg" })
    for event in someEvents(6) { try state.apply(event) }
    try journal.append(someEvents(6))
    let oldJournal = try FileSystem.readAll(journal.journalPath)
    try journal.compact(into: state.snapshot)
    try journal.append([.undone(time: 9)])
    var contents = try JSONLinesSessionJournal(folder: folder.path).replay()
    #expect(contents.snapshot == state.snapshot && contents.events == [.undone(time: 9)])
    // A crash after the snapshot was written but before the journal was emptied leaves the old
    // lines, which the snapshot already covers: replay skips them.
    try Data(oldJournal).write(to: URL(fileURLWithPath: journal.journalPath))
    contents = try JSONLinesSessionJournal(folder: folder.path).replay()
    #expect(contents.snapshot == state.snapshot && contents.events.isEmpty)
    let next = JSONLinesSessionJournal(folder: folder.path)
    _ = try next.replay()
    try next.append([.undone(time: 10)])
    contents = try JSONLinesSessionJournal(folder: folder.path).replay()
    #expect(contents.events == [.undone(time: 10)])
  }

  @Test func damagedSnapshotFile() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.appending("snapshot.json")
    try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: PhotoSessionError.self) {
      try JSONLinesSessionJournal(folder: folder.path).replay()
    }
    #expect(error?.code == .sessionCorrupt)
    #expect(error?.description.hasPrefix("the session snapshot \"\(path)\" is damaged") == true)
    try Data(
      #"{"format":"offload.photo-session.snapshot","version":2,"throughSequence":0,"state":{"photoCount":0,"cursor":0,"decisions":"","commits":"","undo":[],"undoDepth":5,"swipeCount":0,"commitRunning":false}}"#
        .utf8
    ).write(to: URL(fileURLWithPath: path))
    let newer = #expect(throws: PhotoSessionError.self) {
      try JSONLinesSessionJournal(folder: folder.path).replay()
    }
    #expect(
      newer?.description
        == "the session snapshot \"\(path)\" is format offload.photo-session.snapshot version 2; this build reads version 1"
    )
  }

  @Test func aReadOnlyJournalReportsATornTailWithoutCuttingIt() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = JSONLinesSessionJournal(folder: folder.path)
    try journal.append(someEvents(2))
    let handle = try #require(FileHandle(forWritingAtPath: journal.journalPath))
    handle.seekToEndOfFile()
    handle.write(Data("{\"seq\":3,".utf8))
    try handle.close()
    let size = try FileSystem.readAll(journal.journalPath).count
    let reader = JSONLinesSessionJournal(folder: folder.path, readOnly: true)
    let contents = try reader.replay()
    #expect(contents.events == someEvents(2) && contents.repairs.count == 1)
    #expect(try FileSystem.readAll(journal.journalPath).count == size)
    let append = #expect(throws: PhotoSessionError.self) { try reader.append(someEvents(1)) }
    #expect(
      append?.description
        == "cannot write the journal \"\(journal.journalPath)\": it was opened read-only")
    #expect(throws: PhotoSessionError.self) {
      try reader.compact(into: CullingState(photos: []).snapshot)
    }
  }

  @Test func appendToAFolderThatIsGoneFails() throws {
    let journal = JSONLinesSessionJournal(folder: "/nonexistent-offload-folder")
    let error = #expect(throws: PhotoSessionError.self) { try journal.append(someEvents(1)) }
    #expect(error?.code == .writeFailed)
    #expect(
      error?.description
        == "cannot open journal \"/nonexistent-offload-folder/journal.jsonl\": No such file or directory"
    )
  }
}
