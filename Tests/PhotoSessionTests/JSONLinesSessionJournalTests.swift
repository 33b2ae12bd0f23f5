import Foundation
import OffloadTestSupport
import Persistence
import Testing

@testable import PhotoSession

private func someEvents(_ count: Int) -> [SessionEvent] {
  (0..<count).map { .decided(index: $0, photo: "p\($0).jpg", decision: .keep, time: Double($0)) }
}

private func bytes(_ path: String) throws -> [UInt8] {
  Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

private func write(_ bytes: [UInt8], _ path: String) throws {
  try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// An entry line in the journal's layout, with its CRC-32.
private func line(_ sequence: Int, _ body: String) -> [UInt8] {
  let crc = String(Persistence.CRC32.checksum(Array(body.utf8)), radix: 16)
  let padded = String(repeating: "0", count: 8 - crc.count) + crc
  return Array("{\"crc\":\"\(padded)\",\"entry\":\(body),\"seq\":\(sequence)}\n".utf8)
}

@Suite("JSONLinesSessionJournal: the Persistence journal as a session journal")
struct JSONLinesSessionJournalTests {
  @Test func appendThenReplayInAnotherInstance() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = reopen(folder.path)
    let events = someEvents(5)
    try journal.append(Array(events[0..<2]))
    try journal.append(Array(events[2...]))
    // The writer holds the lock: a reader reads without it.
    var contents = try JSONLinesSessionJournal(folder: folder.path, readOnly: true).replay()
    #expect(contents.events == events && contents.snapshot == nil && contents.repairs.isEmpty)
    #expect(try journal.replay().events == events)
    try journal.close()
    contents = try reopen(folder.path).replay()
    #expect(contents.events == events)
    let text = try String(contentsOfFile: journal.journalPath, encoding: .utf8)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 6)
    let body = #"{"d":"keep","i":0,"id":"p0.jpg","op":"decide","t":0}"#
    #expect(Array(lines[1].utf8) + [0x0A] == line(1, body))
  }

  @Test func aSecondWriterIsRefusedAsBusy() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let first = JSONLinesSessionJournal(folder: folder.path)
    try first.append(someEvents(1))
    let error = #expect(throws: PhotoSessionError.self) {
      try JSONLinesSessionJournal(folder: folder.path).replay()
    }
    #expect(error?.code == .sessionBusy)
    #expect(
      error?.description
        == "the photo session in \"\(folder.path)\" is open in another process; close it there first"
    )
  }

  /// A crash can cut the last line anywhere: every cut replays to the lines before it, and the
  /// file is repaired so appending goes on cleanly.
  @Test func everyTornTailIsCutOffAndReported() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = reopen(folder.path)
    try journal.append(someEvents(3))
    try journal.close()
    let path = journal.journalPath
    let full = try bytes(path)
    let lastStart = full.dropLast().lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
    for cut in lastStart..<full.count {
      try write(Array(full.prefix(cut)), path)
      let reopened = reopen(folder.path)
      let contents = try reopened.replay()
      #expect(contents.events == someEvents(2), "cut at \(cut)")
      #expect(contents.repairs.count == (cut == lastStart ? 0 : 1), "cut at \(cut)")
      if cut > lastStart {
        #expect(
          contents.repairs[0].hasPrefix("cut off a torn last line 4 of \"\(path)\""),
          "\(contents.repairs)")
      }
      #expect(try bytes(path).count == lastStart)
      try reopened.append([someEvents(3)[2]])
      try reopened.close()
      #expect(try reopen(folder.path).replay().events == someEvents(3))
    }
  }

  @Test func damageBeforeTheTailNamesTheLine() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = reopen(folder.path)
    try journal.append(someEvents(4))
    try journal.close()
    var content = try bytes(journal.journalPath)
    let second = try #require(content.firstIndex(of: UInt8(ascii: "\n"))) + 1
    let third = try #require(content[second...].firstIndex(of: UInt8(ascii: "\n"))) + 1
    // Flip a digit of the photo name inside line 3 (the second entry): the CRC no longer matches.
    let at = try #require(content[third...].firstIndex(of: UInt8(ascii: "p"))) + 1
    content[at] = UInt8(ascii: "9")
    try write(content, journal.journalPath)
    for readOnly in [false, true] {
      let error = #expect(throws: PhotoSessionError.self) {
        try JSONLinesSessionJournal(folder: folder.path, readOnly: readOnly).replay()
      }
      #expect(error?.code == .journalCorrupt && error?.offset == 3)
      #expect(
        error?.description.hasPrefix(
          "\(journal.journalPath) is damaged at line 3, column 1 (byte \(third)): the checksum does not match"
        ) == true, "\(error?.description ?? "")")
    }
  }

  @Test func sequenceGapsAndUnreadableEventsAreErrors() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = reopen(folder.path)
    try journal.append(someEvents(1))
    try journal.close()
    let path = journal.journalPath
    let header = Array(try bytes(path).prefix { $0 != 0x0A }) + [0x0A]
    let undo = #"{"op":"undo","t":1}"#
    try write(header + line(1, undo) + line(3, undo), path)
    let gap = #expect(throws: PhotoSessionError.self) {
      try reopen(folder.path).replay()
    }
    #expect(gap?.code == .journalCorrupt && gap?.offset == 3)
    #expect(gap?.description.contains("the sequence number is 3, expected 2") == true)
    try write(header + line(1, #"{"op":"fly"}"#) + line(2, undo), path)
    let unreadable = #expect(throws: PhotoSessionError.self) {
      try reopen(folder.path).replay()
    }
    #expect(unreadable?.code == .journalCorrupt && unreadable?.offset == 2)
    #expect(unreadable?.description.contains("the entry does not decode") == true)
  }

  @Test func compactionKeepsTheState() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = reopen(folder.path)
    var state = CullingState(photos: (0..<10).map { "p\($0).jpg" })
    for event in someEvents(6) { try state.apply(event) }
    try journal.append(someEvents(6))
    try journal.compact(into: state.snapshot)
    try journal.append([.undone(time: 9)])
    #expect(try journal.replay().events == [.undone(time: 9)])
    try journal.close()
    let contents = try reopen(folder.path).replay()
    #expect(contents.snapshot == state.snapshot && contents.events == [.undone(time: 9)])
  }

  /// Compaction fails at every one of its file operations in turn: reopening gives the old
  /// events or the new snapshot, never a mix and never an error.
  @Test func aCompactionThatFailsAnywhereLeavesTheOldOrTheNewState() throws {
    var state = CullingState(photos: (0..<10).map { "p\($0).jpg" })
    for event in someEvents(6) { try state.apply(event) }
    func run(_ fileSystem: FaultInjectingFileSystem, _ folder: String) throws -> Bool {
      let journal = JSONLinesSessionJournal(folder: folder, fileSystem: fileSystem)
      try journal.append(someEvents(6))
      let before = fileSystem.operationCount
      do {
        try journal.compact(into: state.snapshot)
        return fileSystem.operationCount > before
      } catch {
        #expect(error.code == .writeFailed || error.code == .unreadable, "\(error)")
        return true
      }
    }
    let dry = FaultInjectingFileSystem()
    let dryFolder = try TemporaryDirectory()
    defer { dryFolder.remove() }
    let journal = JSONLinesSessionJournal(folder: dryFolder.path, fileSystem: dry)
    try journal.append(someEvents(6))
    let start = dry.operationCount
    try journal.compact(into: state.snapshot)
    let end = dry.operationCount
    try journal.close()
    #expect(end > start + 4)
    for failing in (start + 1)...end {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      _ = try run(FaultInjectingFileSystem(failingOperation: failing), folder.path)
      let contents = try reopen(folder.path).replay()
      let old = contents.snapshot == nil && contents.events == someEvents(6)
      let new = contents.snapshot == state.snapshot && contents.events.isEmpty
      #expect(old || new, "failing operation \(failing)")
    }
  }

  /// A failed write or fsync during an append: the error is `writeFailed`, the journal refuses
  /// further appends, and the reopened journal holds the acknowledged events and, for a failed
  /// fsync only, perhaps the failed one (as after a crash), never a part of a batch.
  @Test func aFailedAppendIsNotAcknowledgedAndStopsTheJournal() throws {
    let dry = FaultInjectingFileSystem()
    let dryFolder = try TemporaryDirectory()
    defer { dryFolder.remove() }
    let probe = JSONLinesSessionJournal(folder: dryFolder.path, fileSystem: dry)
    try probe.append(someEvents(1))
    let start = dry.operationCount
    try probe.append(Array(someEvents(3)[1...]))
    let end = dry.operationCount
    try probe.close()
    #expect(end - start == 2, "\(dry.operations.suffix(end - start))")  // one write, one fsync
    for failing in (start + 1)...end {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let journal = JSONLinesSessionJournal(
        folder: folder.path, fileSystem: FaultInjectingFileSystem(failingOperation: failing))
      try journal.append(someEvents(1))
      let error = #expect(throws: PhotoSessionError.self) {
        try journal.append(Array(someEvents(3)[1...]))
      }
      #expect(error?.code == .writeFailed)
      let next = #expect(throws: PhotoSessionError.self) { try journal.append([.undone(time: 1)]) }
      #expect(next?.code == .writeFailed)
      #expect(next?.description.contains("open it again") == true, "\(next?.description ?? "")")
      try? journal.close()
      let events = try reopen(folder.path).replay().events
      if failing == start + 1 {
        #expect(events == someEvents(1), "a failed write leaves nothing")
      } else {
        #expect(events == someEvents(1) || events == someEvents(3), "failing \(failing)")
      }
    }
  }

  @Test func damagedAndNewerSnapshotsAreSessionCorrupt() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = reopen(folder.path)
    try journal.append(someEvents(1))
    try journal.compact(into: CullingState(photos: ["p0.jpg"]).snapshot)
    try journal.close()
    let path = journal.snapshotPath
    try write(Array("{not json".utf8), path)
    let error = #expect(throws: PhotoSessionError.self) {
      try reopen(folder.path).replay()
    }
    #expect(error?.code == .sessionCorrupt)
    #expect(error?.description.hasPrefix("\(path) is damaged") == true, "\(error!)")
    try write(
      Array(
        #"{"data":{},"format":"offload.photo-session.snapshot","journal":{"generation":1,"lastSequence":1},"version":2}"#
          .utf8), path)
    let newer = #expect(throws: PhotoSessionError.self) {
      try reopen(folder.path).replay()
    }
    #expect(newer?.code == .sessionCorrupt)
    #expect(newer?.description.contains("newer version") == true, "\(newer!)")
  }

  @Test func aReadOnlyJournalReportsATornTailWithoutCuttingIt() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = reopen(folder.path)
    try journal.append(someEvents(2))
    let handle = try #require(FileHandle(forWritingAtPath: journal.journalPath))
    handle.seekToEndOfFile()
    handle.write(Data("{\"crc\":".utf8))
    try handle.close()
    let size = try bytes(journal.journalPath).count
    let reader = JSONLinesSessionJournal(folder: folder.path, readOnly: true)
    let contents = try reader.replay()
    #expect(contents.events == someEvents(2) && contents.repairs.count == 1)
    #expect(contents.repairs.first?.hasPrefix("found a torn last line 4 of") == true)
    #expect(try bytes(journal.journalPath).count == size)
    let append = #expect(throws: PhotoSessionError.self) { try reader.append(someEvents(1)) }
    #expect(
      append?.description
        == "cannot write the journal \"\(reader.journalPath)\": it was opened read-only")
    #expect(throws: PhotoSessionError.self) {
      try reader.compact(into: CullingState(photos: []).snapshot)
    }
  }

  @Test func aJournalThatCannotBeCreatedFails() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let file = folder.appending("file")
    try write([1], file)
    let journal = JSONLinesSessionJournal(folder: file + "/session")
    let error = #expect(throws: PhotoSessionError.self) { try journal.append(someEvents(1)) }
    #expect(error?.code == .writeFailed)
    #expect(error?.description.contains(file) == true, "\(error!)")
  }

  @Test func aSessionOfTheEarlierLayoutIsRefusedNotTakenForANewOne() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try write(Array("{\"seq\":1}\n".utf8), folder.appending("journal.jsonl"))
    for readOnly in [false, true] {
      let error = #expect(throws: PhotoSessionError.self) {
        try JSONLinesSessionJournal(folder: folder.path, readOnly: readOnly).replay()
      }
      #expect(error?.code == .sessionCorrupt)
      #expect(
        error?.description
          == "the session in \"\(folder.path)\" was written by an earlier development build (\"journal.jsonl\"); this build cannot read it: start a new session"
      )
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appending("journal.0.jsonl")))
  }
}

/// Opens a journal, waiting up to two seconds for its lock.
///
/// Tests in this process fork children (pseudo-terminal and kill-trial tests); until a child
/// execs it shares every open lock, so a journal reopened right after a close may find its
/// lock held for a moment. The product opens one session per process and keeps the zero
/// timeout; `aSecondWriterIsRefusedAsBusy` checks that timeout.
private func reopen(_ folder: String) -> JSONLinesSessionJournal {
  JSONLinesSessionJournal(folder: folder, lockTimeout: .seconds(2))
}
