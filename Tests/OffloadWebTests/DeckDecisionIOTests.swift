import Foundation
import Offload
import OffloadTestSupport
import PhotoSession
import Testing

@testable import OffloadWeb

/// What a decision of the web deck asks of the file system, counted through the store's
/// `FileSystem` seam: the session's lock, the two `stat` calls that prove no other process
/// wrote, one append and one fsync, and the lock released; no listing of the session's folder
/// and no `stat` of its other files.
@Suite("DeckService: a decision's file operations", .serialized)
struct DeckDecisionIOTests {
  @Test("a decision writes once, syncs once and lists nothing")
  func oneAppendOneSync() async throws {
    let fixture = try WebFixture(count: 12)
    defer { fixture.remove() }
    let counting = FaultInjectingFileSystem()
    let folder = PhotoSessions.folder(root: fixture.store, environment: fixture.environment)
    let service = DeckService(
      store: PhotoSessionStore(folder: folder, fileSystem: counting), roots: [fixture.photos])
    let id = try #require(try await service.state(nil).session?.id)
    // The first decision opens the session; the ones after it find it in memory.
    _ = try await service.decide(id, index: 0, .trash)
    var perDecision: [[String]] = []
    for index in 1..<8 {
      let before = counting.operationCount
      let deck = try await service.decide(id, index: index, index % 2 == 0 ? .keep : .trash)
      #expect(deck.session?.reviewed == index + 1 && deck.current?.index == index + 1)
      perDecision.append(
        Array(counting.operations[before...]).map { $0.replacingOccurrences(of: folder, with: "") })
    }
    // The session's own files (the card coming into view has its header read, too).
    let session = "/\(id)/journal."
    let expected = [
      "open readWrite \(session)lock", "lock \(session)lock", "lstat \(session)0.jsonl",
      "lstat \(session)snapshot.json", "open append \(session)0.jsonl",
      "write \(session)0.jsonl", "fsync \(session)0.jsonl", "lstat \(session)0.jsonl",
      "lstat \(session)snapshot.json", "close \(session)0.jsonl", "close \(session)lock",
    ]
    for operations in perDecision {
      let own = operations.filter { $0.hasPrefix("list") || $0.contains("/\(id)") }
      #expect(own == expected, "\(operations)")
    }
    // A skip and an undo answer from the session they changed too.
    for step in ["skip", "undo"] {
      let before = counting.operationCount
      let deck =
        step == "skip" ? try await service.skip(id, index: 8) : try await service.undo(id)
      #expect(deck.current?.index == 8, "\(step)")
      let own = counting.operations[before...].filter { $0.contains("/\(id)/") }
      #expect(own.count == expected.count, "\(step): \(own)")
      #expect(!own.contains { $0.hasPrefix("list") || $0.hasPrefix("readdir") }, "\(step)")
    }
    // A read between decisions still notices a terminal's change.
    let swiped = try fixture.ctl(["photos", "swipe", "right"])
    #expect(swiped.status == 0, "\(swiped)")
    let seen = try await service.state(id)
    #expect(seen.session?.reviewed == 9 && seen.current?.index == 9, "\(seen)")
    let next = try await service.decide(id, index: 9, .keep)
    #expect(next.session?.reviewed == 10)
    let statistics = try fixture.statistics()
    #expect(statistics["reviewed"] as? Int == 10)
  }
}
