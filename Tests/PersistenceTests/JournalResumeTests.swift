import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

@Suite("JSONLinesJournal: suspend between changes, resume without reading")
struct JournalResumeTests {
  private func resume(
    _ folder: TemporaryDirectory, at point: DeckJournal.ResumePoint
  ) throws(PersistenceError) -> DeckJournal? {
    try DeckJournal.resume(
      at: point, directory: folder.path, name: "deck", format: deckFormat,
      lockTimeout: .milliseconds(100))
  }

  /// Suspended and resumed with nothing in between: appends follow on, numbered on, and the
  /// lock is free while suspended.
  @Test func anUnchangedJournalResumesWhereItStopped() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    var journal = try openDeck(folder)
    for round in 0..<5 {
      #expect(try journal.append(Swipe(photo: round, decision: "keep")) == round + 1)
      let point = try journal.suspend()
      #expect(point.lastSequence == round + 1)
      // Free while suspended: another process could open it (and here reads it).
      let read = try DeckJournal.read(directory: folder.path, name: "deck", format: deckFormat)
      #expect(read.entries.count == round + 1)
      journal = try #require(try resume(folder, at: point))
      #expect(journal.lastSequence == round + 1 && journal.recovered.entries.isEmpty)
    }
    try journal.close()
    let reopened = try openDeck(folder)
    #expect(reopened.recovered.entries.map(\.sequence) == [1, 2, 3, 4, 5])
    #expect(replayed(reopened.recovered).count == 5)
  }

  /// Another writer's append, or a compaction, between suspend and resume: resume says so
  /// (nil) and releases the lock; opening again reads what the other wrote.
  @Test(arguments: ["append", "compact"])
  func anotherWritersChangeIsNoticed(change: String) throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = try openDeck(folder)
    try journal.append(Swipe(photo: 1, decision: "trash"))
    let point = try journal.suspend()
    do {
      let other = try openDeck(folder)
      var deck = replayed(other.recovered)
      try other.append(Swipe(photo: 2, decision: "keep"))
      deck.apply(Swipe(photo: 2, decision: "keep"))
      if change == "compact" { try other.compact(deck) }
      try other.close()
    }
    #expect(try resume(folder, at: point) == nil)
    let again = try openDeck(folder)  // the lock was released
    #expect(replayed(again.recovered).count == 2, "\(change)")
  }

  /// Resuming while another holder keeps the journal open is busy, and the point stays good.
  @Test func resumingWhileAnotherHoldsItIsBusy() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let journal = try openDeck(folder)
    try journal.append(Swipe(photo: 1, decision: "trash"))
    let point = try journal.suspend()
    let other = try openDeck(folder)
    let busy = #expect(throws: PersistenceError.self) { try resume(folder, at: point) }
    #expect(busy?.code == .busy)
    try other.close()
    let resumed = try #require(try resume(folder, at: point))
    #expect(try resumed.append(Swipe(photo: 2, decision: "keep")) == 2)
    try resumed.close()
  }
}
