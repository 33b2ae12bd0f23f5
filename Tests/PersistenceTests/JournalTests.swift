import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

typealias DeckJournal = JSONLinesJournal<Swipe, Deck>

func openDeck(
  _ folder: TemporaryDirectory, durability: JournalDurability = .everyEntry,
  fileSystem: any FileSystem = POSIXFileSystem()
) throws(PersistenceError) -> DeckJournal {
  try DeckJournal.open(
    directory: folder.path, name: "deck", format: deckFormat, durability: durability,
    lockTimeout: .milliseconds(100), fileSystem: fileSystem)
}

/// The state a journal replays to: its snapshot with every entry applied.
func replayed(_ contents: JournalContents<Swipe, Deck>) -> Deck {
  var deck = contents.snapshot ?? Deck()
  for record in contents.entries { deck.apply(record.entry) }
  return deck
}

@Suite("JSONLinesJournal: append and replay")
struct JournalTests {
  @Test func aNewJournalIsEmptyAndHasAHeader() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = try openDeck(folder)
    #expect(journal.recovered.entries.isEmpty)
    #expect(journal.recovered.snapshot == nil)
    #expect(journal.lastSequence == 0)
    try journal.close()
    #expect(
      String(decoding: try contents(folder.appending("deck.0.jsonl")), as: UTF8.self)
        == #"{"baseSequence":0,"format":"test.deck","generation":0,"journal":1,"version":1}"# + "\n"
    )
    #expect(try listing(folder) == ["deck.0.jsonl", "deck.lock"])
  }

  @Test func linesHaveTheDocumentedLayout() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = try openDeck(folder)
    #expect(try journal.append(Swipe(photo: 3, decision: "keep")) == 1)
    try journal.close()
    let lines = String(decoding: try contents(folder.appending("deck.0.jsonl")), as: UTF8.self)
      .split(separator: "\n")
    let entry = #"{"decision":"keep","photo":3}"#
    let crc = JournalLine.hex(CRC32.checksum(Array(entry.utf8)))
    #expect(lines.last == #"{"crc":"\#(crc)","entry":\#(entry),"seq":1}"#)
  }

  @Test(arguments: [
    JournalDurability.everyEntry, .never, .batched(entries: 7, interval: .seconds(60)),
  ])
  func randomAppendsReplayInOrderAfterReopen(durability: JournalDurability) throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    var rng = SplitMix64(seed: SplitMix64.testSeed(4))
    var expected: [Swipe] = []
    for round in 0..<5 {
      let journal = try openDeck(folder, durability: durability)
      #expect(journal.recovered.entries.map(\.entry) == expected, "round \(round) \(rng)")
      #expect(
        journal.recovered.entries.map(\.sequence)
          == Array(1...max(expected.count, 1)).prefix(expected.count).map { $0 })
      for _ in 0..<rng.index(below: 40) {
        let swipe = rng.swipe()
        let sequence = try journal.append(swipe)
        expected.append(swipe)
        #expect(sequence == expected.count)
      }
      try journal.close()
    }
  }

  @Test func aSecondOpenIsBusyWhileTheFirstIsOpen() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let first = try openDeck(folder)
    let error = try #require(throws: PersistenceError.self) { try openDeck(folder) }
    #expect(error.code == .busy)
    try first.close()
    let again = try openDeck(folder)
    try again.close()
  }

  @Test func aClosedJournalRefusesAppends() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = try openDeck(folder)
    try journal.close()
    let error = try #require(throws: PersistenceError.self) {
      try journal.append(Swipe(photo: 1, decision: "keep"))
    }
    #expect(error.code == .journalUnusable)
    #expect(error.description.contains("was closed; open it again to append"))
  }

  @Test func compactionReplacesSnapshotAndJournalAndKeepsSequenceNumbers() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    var rng = SplitMix64(seed: SplitMix64.testSeed(5))
    var deck = Deck()
    var sequence = 0
    for round in 0..<6 {
      let journal = try openDeck(folder)
      #expect(replayed(journal.recovered) == deck, "round \(round) \(rng)")
      #expect(journal.lastSequence == sequence)
      for _ in 0..<rng.index(below: 20) {
        let swipe = rng.swipe()
        sequence = try journal.append(swipe)
        deck.apply(swipe)
      }
      if rng.chance(0.7) {
        try journal.compact(deck)
        #expect(journal.generation >= 1)
        let next = try journal.append(rng.swipe())
        #expect(next == sequence + 1)
        sequence = next
        deck = replayed(
          try DeckJournal.read(directory: folder.path, name: "deck", format: deckFormat))
      }
      try journal.close()
      let files = try listing(folder).filter { $0.hasSuffix(".jsonl") }
      #expect(files == ["deck.\(journal.generation).jsonl"], "only the current journal remains")
    }
  }

  @Test func readsTheSnapshotWithoutTheJournalLock() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = try openDeck(folder)
    try journal.append(Swipe(photo: 1, decision: "trash"))
    var deck = Deck()
    deck.apply(Swipe(photo: 1, decision: "trash"))
    try journal.compact(deck)
    try journal.append(Swipe(photo: 2, decision: "keep"))
    let contents = try DeckJournal.read(directory: folder.path, name: "deck", format: deckFormat)
    #expect(contents.snapshot == deck)
    #expect(contents.snapshotSequence == 1)
    #expect(
      contents.entries == [JournalRecord(sequence: 2, entry: Swipe(photo: 2, decision: "keep"))])
    #expect(contents.lastSequence == 2)
    try journal.close()
  }

  @Test func neverBuffersUntilSyncAndFlushesOnClose() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.appending("deck.0.jsonl")
    let journal = try openDeck(folder, durability: .never)
    let header = try contents(path)
    for photo in 0..<10 { try journal.append(Swipe(photo: photo, decision: "keep")) }
    #expect(try contents(path) == header, "buffered, not written yet")
    try journal.sync()
    #expect(try contents(path).count > header.count)
    // A full buffer is written without a sync.
    var appended = 10
    while try contents(path).count < DeckJournal.bufferCapacity {
      try journal.append(Swipe(photo: appended, decision: "trash"))
      appended += 1
    }
    try journal.append(Swipe(photo: -1, decision: "keep"))
    try journal.close()
    let reopened = try openDeck(folder)
    #expect(reopened.recovered.entries.count == appended + 1)
    try reopened.close()
  }

  @Test func compactionDropsLinesBufferedForTheOldJournal() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    var deck = Deck()
    do {
      let journal = try openDeck(folder, durability: .never)
      for photo in 0..<5 {
        try journal.append(Swipe(photo: photo, decision: "keep"))
        deck.apply(Swipe(photo: photo, decision: "keep"))
      }
      try journal.compact(deck)
      try journal.append(Swipe(photo: 9, decision: "trash"))
      deck.apply(Swipe(photo: 9, decision: "trash"))
    }  // deinit flushes the last entry
    let journal = try openDeck(folder)
    #expect(replayed(journal.recovered) == deck)
    #expect(journal.recovered.entries.map(\.sequence) == [6])
    try journal.close()
  }

  @Test func batchedDurabilitySyncsEveryNEntries() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let counting = FaultInjectingFileSystem()
    let journal = try openDeck(
      folder, durability: .batched(entries: 3, interval: .seconds(3600)), fileSystem: counting)
    let before = counting.operations.filter { $0.hasPrefix("fsync") }.count
    for photo in 0..<7 { try journal.append(Swipe(photo: photo, decision: "keep")) }
    #expect(counting.operations.filter { $0.hasPrefix("fsync") }.count - before == 2)
    try journal.sync()
    #expect(counting.operations.filter { $0.hasPrefix("fsync") }.count - before == 3)
    try journal.sync()  // nothing pending: no fsync
    #expect(counting.operations.filter { $0.hasPrefix("fsync") }.count - before == 3)
    try journal.close()
    let zeroInterval = try openDeck(
      folder, durability: .batched(entries: 1000, interval: .zero), fileSystem: counting)
    let start = counting.operations.filter { $0.hasPrefix("fsync") }.count
    try zeroInterval.append(Swipe(photo: 1, decision: "keep"))
    #expect(counting.operations.filter { $0.hasPrefix("fsync") }.count - start == 1)
    try zeroInterval.close()
  }
}

@Suite("JSONLinesJournal: torn tails and damage")
struct JournalDamageTests {
  /// A journal of `count` entries, closed; returns its path and the swipes.
  func filled(_ folder: TemporaryDirectory, count: Int) throws -> (String, [Swipe]) {
    var rng = SplitMix64(seed: SplitMix64.testSeed(6))
    let journal = try openDeck(folder)
    var swipes: [Swipe] = []
    for _ in 0..<count {
      let swipe = rng.swipe()
      try journal.append(swipe)
      swipes.append(swipe)
    }
    try journal.close()
    return (folder.appending("deck.0.jsonl"), swipes)
  }

  @Test func everyCutInsideTheLastLineIsATornTail() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let (path, swipes) = try filled(folder, count: 4)
    let full = try contents(path)
    let lastStart = full.dropLast().lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    for cut in lastStart..<(full.count - 1) {
      try overwrite(path, Array(full[..<cut]))
      let journal = try openDeck(folder)
      #expect(journal.recovered.entries.map(\.entry) == Array(swipes.dropLast()), "cut at \(cut)")
      if cut == lastStart {
        #expect(journal.recovered.tornTail == nil)
      } else {
        let torn = try #require(journal.recovered.tornTail)
        #expect(torn.line == 5)
        #expect(torn.offset == lastStart)
        #expect(torn.length == cut - lastStart)
        #expect(torn.reason == "it has no final newline (an append was interrupted)")
      }
      // The cut was applied: appending continues cleanly after the valid prefix.
      #expect(try journal.append(swipes.last!) == 4)
      try journal.close()
      #expect(try contents(path) == full)
    }
  }

  @Test func aChecksumFailingLastLineIsCutAndReported() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let (path, swipes) = try filled(folder, count: 3)
    var bytes = try contents(path)
    // Change a digit of the last entry's photo number: still JSON, but not what was written.
    let marker = Array(#""photo":"#.utf8)
    let found = try #require(
      (0..<(bytes.count - marker.count)).last {
        bytes[$0..<($0 + marker.count)].elementsEqual(marker)
      })
    let index = found + marker.count
    bytes[index] = bytes[index] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
    try overwrite(path, bytes)
    let journal = try openDeck(folder)
    #expect(journal.recovered.entries.map(\.entry) == Array(swipes.prefix(2)))
    let torn = try #require(journal.recovered.tornTail)
    #expect(torn.line == 4)
    #expect(torn.reason.hasPrefix("the checksum does not match (the line says "))
    #expect(torn.description.hasPrefix("line 4 ("))
    try journal.close()
  }

  @Test func damageBeforeTheTailNamesTheLineAndKeepsThePrefixReadable() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let (path, swipes) = try filled(folder, count: 5)
    var bytes = try contents(path)
    let lineStarts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
    // Flip a byte in the entry of line 3 (the second entry).
    let target = lineStarts[2] + 30
    bytes[target] ^= 0x01
    try overwrite(path, bytes)
    let error = try #require(throws: PersistenceError.self) { try openDeck(folder) }
    #expect(error.code == .damaged)
    #expect(error.line == 3)
    #expect(error.offset == lineStarts[2])
    #expect(
      error.description.hasPrefix(
        "\(path) is damaged at line 3, column 1 (byte \(lineStarts[2])): "))
    #expect(error.description.hasSuffix("; the 1 entries before it are readable."))
    let prefix = try DeckJournal.read(directory: folder.path, name: "deck", format: deckFormat)
    #expect(prefix.entries.map(\.entry) == [swipes[0]])
    #expect(prefix.damage?.line == 3)
    // Nothing was changed by the failed open.
    #expect(try contents(path) == bytes)
    // Keeping the valid prefix sets the damaged file aside and makes the journal open again.
    let aside = try #require(
      try DeckJournal.keepValidPrefix(directory: folder.path, name: "deck", format: deckFormat))
    #expect(aside.hasPrefix(path + ".corrupt-"))
    #expect(try contents(aside) == bytes)
    #expect(try contents(path) == Array(bytes[..<lineStarts[2]]))
    let journal = try openDeck(folder)
    #expect(journal.recovered.entries.map(\.entry) == [swipes[0]])
    #expect(try journal.append(swipes[1]) == 2)
    try journal.close()
    #expect(
      try DeckJournal.keepValidPrefix(directory: folder.path, name: "deck", format: deckFormat)
        == nil)
  }

  @Test func outOfOrderSequenceAndUndecodableEntriesAreDamage() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let (path, _) = try filled(folder, count: 0)
    var text = String(decoding: try contents(path), as: UTF8.self)
    func line(_ entry: String, _ sequence: Int) -> String {
      let crc = JournalLine.hex(CRC32.checksum(Array(entry.utf8)))
      return #"{"crc":"\#(crc)","entry":\#(entry),"seq":\#(sequence)}"# + "\n"
    }
    text += line(#"{"decision":"keep","photo":1}"#, 1) + line(#"{"decision":"keep","photo":2}"#, 3)
    try overwrite(path, Array(text.utf8))
    var error = try #require(throws: PersistenceError.self) { try openDeck(folder) }
    #expect(error.description.contains("line 3"))
    #expect(error.description.contains("the sequence number is 3, expected 2"))
    text =
      String(
        text.split(separator: "\n", omittingEmptySubsequences: false).prefix(2).joined(
          separator: "\n")) + "\n"
    text += line(#"{"decision":"keep","photo":"two"}"#, 2)
    try overwrite(path, Array(text.utf8))
    error = try #require(throws: PersistenceError.self) { try openDeck(folder) }
    #expect(error.code == .damaged)
    #expect(error.description.contains("line 3, column 27"))
    #expect(error.description.contains("the entry does not decode: expected Int at photo"))
  }

  @Test func headerProblemsAreReported() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.appending("deck.0.jsonl")
    // A torn header (crash while creating the journal) is rewritten.
    try overwrite(path, Array(#"{"baseSeq"#.utf8))
    var journal = try openDeck(folder)
    #expect(journal.recovered.tornTail?.line == 1)
    try journal.append(Swipe(photo: 1, decision: "keep"))
    try journal.close()
    journal = try openDeck(folder)
    #expect(journal.recovered.entries.count == 1)
    try journal.close()
    let good = try contents(path)
    // A first line that is not a header, with more lines after it, is damage.
    try overwrite(path, Array("garbage\n".utf8) + good)
    var error = try #require(throws: PersistenceError.self) { try openDeck(folder) }
    #expect(
      error.description.contains(
        "line 1, column 1 (byte 0): the first line is not a journal header"))
    // Another format, a newer version, another generation.
    let variants: [(String, PersistenceError.Code, String)] = [
      (
        #"{"baseSequence":0,"format":"other","generation":0,"journal":1,"version":1}"#,
        .wrongFormat, "is a journal of \"other\", not \"test.deck\""
      ),
      (
        #"{"baseSequence":0,"format":"test.deck","generation":0,"journal":1,"version":2}"#,
        .newerVersion, "was written by a newer version"
      ),
      (
        #"{"baseSequence":5,"format":"test.deck","generation":0,"journal":1,"version":1}"#,
        .journalMismatch,
        "starts after entry 5 in generation 0, but its snapshot ends at entry 0 in generation 0"
      ),
    ]
    for (header, code, phrase) in variants {
      try overwrite(path, Array((header + "\n").utf8))
      error = try #require(throws: PersistenceError.self) { try openDeck(folder) }
      #expect(error.code == code)
      #expect(error.description.contains(phrase), "\(error)")
    }
  }

  @Test func aSnapshotWithoutItsJournalOrWithoutAPositionIsAMismatch() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = try openDeck(folder)
    try journal.append(Swipe(photo: 1, decision: "keep"))
    try journal.compact(Deck(decisions: [1: "keep"], count: 1))
    try journal.close()
    try FileManager.default.removeItem(atPath: folder.appending("deck.1.jsonl"))
    var error = try #require(throws: PersistenceError.self) { try openDeck(folder) }
    #expect(error.code == .journalMismatch)
    #expect(error.description.contains("deck.1.jsonl, which is missing"))
    try DocumentStore(path: folder.appending("deck.snapshot.json"), format: deckFormat).save(Deck())
    error = try #require(throws: PersistenceError.self) { try openDeck(folder) }
    #expect(error.code == .journalMismatch)
    #expect(error.description.contains("is a document but not a journal snapshot"))
  }

  @Test func aDamagedSnapshotIsReportedAndNotMovedAside() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = try openDeck(folder)
    try journal.compact(Deck())
    try journal.close()
    let snapshot = folder.appending("deck.snapshot.json")
    try overwrite(snapshot, Array("{\"data\":".utf8))
    let error = try #require(throws: PersistenceError.self) { try openDeck(folder) }
    #expect(error.code == .damaged)
    #expect(error.quarantinedPath == nil)
    #expect(try contents(snapshot) == Array("{\"data\":".utf8))
  }
}
