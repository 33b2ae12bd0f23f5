import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

/// Whether operation `n` (1-based) may fail without its caller reporting it: closing a file that
/// was only read, or a lock file, or closing and removing the old journal after a compaction
/// committed (nothing durable depends on any of them; the next open removes the old journal).
private func mayFailSilently(_ operations: [String], _ n: Int) -> Bool {
  let operation = operations[n - 1]
  let committed = operations[..<(n - 1)].contains {
    $0.hasPrefix("rename ") && $0.contains(".snapshot.json.tmp-")
  }
  if committed && operation.hasSuffix(".0.jsonl")
    && (operation.hasPrefix("close ") || operation.hasPrefix("unlink "))
  {
    return true
  }
  guard operation.hasPrefix("close ") else { return false }
  let path = operation.dropFirst("close ".count)
  let opened = operations[..<(n - 1)].last { $0.hasPrefix("open ") && $0.hasSuffix(" " + path) }
  return opened?.hasPrefix("open read ") == true || opened?.hasPrefix("open readWrite ") == true
}

@Suite("Fault injection: fail the n-th file operation for every n")
struct FaultInjectionTests {
  @Test(arguments: [EIO, ENOSPC])
  func everyFailingOperationOfASaveLeavesTheOldOrTheNewDocument(errorNumber: Int32) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(7))
    let old = rng.plan(maxItems: 5)
    let new = rng.plan(maxItems: 5)
    let dry = FaultInjectingFileSystem()
    do {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      try DocumentStore(path: folder.appending("p.json"), format: planFormat).save(old)
      try DocumentStore(path: folder.appending("p.json"), format: planFormat, fileSystem: dry).save(
        new)
    }
    #expect(dry.operationCount == 10, "\(dry.operations)")
    for n in 1...dry.operationCount {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let path = folder.appending("p.json")
      try DocumentStore(path: path, format: planFormat).save(old)
      let faulty = FaultInjectingFileSystem(failingOperation: n, errorNumber: errorNumber)
      let error = try #require(throws: PersistenceError.self, "n = \(n)") {
        try DocumentStore(path: path, format: planFormat, fileSystem: faulty).save(new)
      }
      #expect(error.code == .ioFailure)
      #expect(error.errorNumber == errorNumber)
      #expect(error.description.contains("injected fault at operation \(n)"))
      let loaded = try DocumentStore(path: path, format: planFormat).load()
      #expect(loaded == old || loaded == new, "n = \(n): \(dry.operations[n - 1])")
      if n <= 7 { #expect(loaded == old, "before the rename the old document stays, n = \(n)") }
      #expect(try listing(folder).allSatisfy { !$0.contains(".tmp-") }, "n = \(n)")
    }
  }

  @Test func everyFailingOperationOfAnUpdateLosesNoAcknowledgedUpdate() throws {
    let dry = FaultInjectingFileSystem()
    let base = Plan(title: "base", items: [])
    do {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      try DocumentStore(path: folder.appending("p.json"), format: planFormat).save(base)
      try DocumentStore(path: folder.appending("p.json"), format: planFormat, fileSystem: dry)
        .update { $0?.title = "updated" }
    }
    for n in 1...dry.operationCount {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let path = folder.appending("p.json")
      try DocumentStore(path: path, format: planFormat).save(base)
      let faulty = FaultInjectingFileSystem(failingOperation: n)
      var threw = false
      do {
        try DocumentStore(path: path, format: planFormat, fileSystem: faulty).update {
          $0?.title = "updated"
        }
      } catch let error as PersistenceError {
        threw = true
        #expect(error.code == .ioFailure, "n = \(n)")
      }
      if !threw {
        #expect(mayFailSilently(dry.operations, n), "n = \(n): \(dry.operations[n - 1])")
      }
      let title = try DocumentStore(path: path, format: planFormat).load()?.title
      #expect(title == "base" || title == "updated", "n = \(n)")
      if !threw { #expect(title == "updated") }
    }
  }

  /// Open, append twice, compact, append, close; every failure point of all of them.
  @Test(arguments: [true, false])
  func everyFailingOperationOfAJournalKeepsEveryAcknowledgedEntry(tornWrites: Bool) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(8))
    let prefill = (0..<5).map { _ in rng.swipe() }
    let later = (0..<4).map { _ in rng.swipe() }

    func prepare(_ folder: TemporaryDirectory) throws {
      let journal = try openDeck(folder)
      for swipe in prefill { try journal.append(swipe) }
      try journal.close()
    }

    /// Runs the workload, returning the swipes acknowledged and the first error.
    func workload(_ folder: TemporaryDirectory, _ fileSystem: any FileSystem) -> (
      [Swipe], PersistenceError?
    ) {
      var acknowledged = prefill
      do throws(PersistenceError) {
        let journal = try openDeck(folder, fileSystem: fileSystem)
        var deck = replayed(journal.recovered)
        for swipe in later.prefix(2) {
          try journal.append(swipe)
          acknowledged.append(swipe)
          deck.apply(swipe)
        }
        do throws(PersistenceError) {
          try journal.compact(deck)
        } catch  where error.code == .ioFailure && journal.generation == 0 {
          // Before the commit point: the journal stays usable on the old pair.
          try journal.append(later[3])
          acknowledged.append(later[3])
          try journal.close()
          return (acknowledged, error)
        }
        try journal.append(later[2])
        acknowledged.append(later[2])
        try journal.close()
        return (acknowledged, nil)
      } catch {
        return (acknowledged, error)
      }
    }

    let dry = FaultInjectingFileSystem()
    do {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      try prepare(folder)
      let (acknowledged, error) = workload(folder, dry)
      #expect(error == nil)
      #expect(acknowledged.count == 8)
    }
    #expect(dry.operationCount > 30, "\(dry.operations)")
    for n in 1...dry.operationCount {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      try prepare(folder)
      let faulty = FaultInjectingFileSystem(failingOperation: n, tornWrites: tornWrites)
      let (acknowledged, error) = workload(folder, faulty)
      let operation = dry.operations[n - 1]
      if let error {
        #expect(
          [.ioFailure, .notFound, .journalUnusable].contains(error.code), "n = \(n): \(error)")
      } else {
        #expect(mayFailSilently(dry.operations, n), "n = \(n): \(operation) failed unreported")
      }
      // Reopen with the real file system: every acknowledged entry is there, in order.
      let journal = try openDeck(folder)
      var expected = Deck()
      for swipe in acknowledged { expected.apply(swipe) }
      let recovered = replayed(journal.recovered)
      let total = journal.recovered.snapshotSequence + journal.recovered.entries.count
      #expect(total >= acknowledged.count, "n = \(n): \(operation) lost an acknowledged entry")
      #expect(total <= acknowledged.count + 1, "n = \(n): \(operation)")
      if total == acknowledged.count {
        #expect(recovered == expected, "n = \(n): \(operation)")
      }
      try journal.close()
      let journals = try listing(folder).filter { $0.hasSuffix(".jsonl") }
      #expect(journals.count == 1, "n = \(n): \(journals)")
    }
  }

  @Test func everyFailingOperationOfRestoreBackupKeepsBothDocuments() throws {
    let first = Plan(title: "first", items: [])
    let second = Plan(title: "second", items: [])
    func prepare(_ folder: TemporaryDirectory) throws -> String {
      let path = folder.appending("p.json")
      try DocumentStore(path: path, format: planFormat).save(first)
      try DocumentStore(path: path, format: planFormat).save(second)
      return path
    }
    let dry = FaultInjectingFileSystem()
    do {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let path = try prepare(folder)
      _ = try DocumentStore(path: path, format: planFormat, fileSystem: dry).restoreBackup()
    }
    for n in 1...dry.operationCount {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let path = try prepare(folder)
      let faulty = FaultInjectingFileSystem(failingOperation: n)
      do {
        _ = try DocumentStore(path: path, format: planFormat, fileSystem: faulty).restoreBackup()
      } catch {
        #expect(error.code == .ioFailure, "n = \(n)")
      }
      // Both saves survive somewhere: the document, its backup, or the replaced copy.
      let titles = try listing(folder).filter {
        $0.hasPrefix("p.json") && !$0.contains(".tmp-") && !$0.hasSuffix(".lock")
      }
      .compactMap {
        try? DocumentStore(path: folder.appending($0), format: planFormat).load()?.title
      }
      #expect(
        Set(titles) == ["first", "second"], "n = \(n): \(dry.operations[n - 1]) -> \(titles)")
      let current = try DocumentStore(path: path, format: planFormat).load()?.title
      #expect(current == "first" || current == "second")
    }
  }

  @Test func everyFailingOperationOfKeepValidPrefixKeepsTheDamagedBytes() throws {
    func prepare(_ folder: TemporaryDirectory) throws -> [UInt8] {
      let journal = try openDeck(folder)
      for photo in 0..<4 { try journal.append(Swipe(photo: photo, decision: "keep")) }
      try journal.close()
      let path = folder.appending("deck.0.jsonl")
      var bytes = try contents(path)
      let second = bytes.indices.filter { bytes[$0] == 0x0A }[1] + 1
      bytes[second + 30] ^= 1
      try overwrite(path, bytes)
      return bytes
    }
    let dry = FaultInjectingFileSystem()
    do {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      _ = try prepare(folder)
      _ = try DeckJournal.keepValidPrefix(
        directory: folder.path, name: "deck", format: deckFormat, fileSystem: dry)
    }
    for n in 1...dry.operationCount {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let damaged = try prepare(folder)
      let faulty = FaultInjectingFileSystem(failingOperation: n)
      var repaired = false
      do {
        repaired =
          try DeckJournal.keepValidPrefix(
            directory: folder.path, name: "deck", format: deckFormat, fileSystem: faulty) != nil
      } catch {
        #expect([.ioFailure, .notFound].contains(error.code), "n = \(n): \(error)")
      }
      // The damaged bytes survive, under the journal's name or a quarantine name.
      let kept = try listing(folder).filter { $0.hasPrefix("deck.0.jsonl") }
      #expect(
        try kept.contains { try contents(folder.appending($0)) == damaged },
        "n = \(n): \(dry.operations[n - 1])")
      // Either the journal still refuses (damaged) or it opens with the valid prefix.
      do {
        let journal = try openDeck(folder)
        #expect(journal.recovered.entries.count == 1, "n = \(n)")
        try journal.close()
      } catch {
        #expect(error.code == .damaged && !repaired, "n = \(n): \(error)")
      }
    }
  }

  @Test func aFailedFsyncMakesTheJournalRefuseAppendsUntilReopened() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try openDeck(folder).close()
    let counting = FaultInjectingFileSystem()
    let probe = try openDeck(folder, fileSystem: counting)
    let opens = counting.operationCount
    try probe.close()
    // open's operations, then the append's write, then its fsync.
    let faulty = FaultInjectingFileSystem(failingOperation: opens + 2)
    let failing = try openDeck(folder, fileSystem: faulty)
    let error = try #require(throws: PersistenceError.self) {
      try failing.append(Swipe(photo: 1, decision: "keep"))
    }
    #expect(error.operation == "fsync")
    let next = try #require(throws: PersistenceError.self) {
      try failing.append(Swipe(photo: 2, decision: "keep"))
    }
    #expect(next.code == .journalUnusable)
    #expect(next.description.contains("stopped accepting entries after a failure"))
    #expect(next.description.hasSuffix("open it again to continue."))
    #expect(throws: PersistenceError.self) { try failing.sync() }
    try? failing.close()
    let reopened = try openDeck(folder)
    #expect(reopened.recovered.entries.count <= 1)
    try reopened.close()
  }
}
