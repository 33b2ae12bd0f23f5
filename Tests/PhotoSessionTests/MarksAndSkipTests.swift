import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

/// A small deterministic generator (SplitMix64) for seeded cases.
private struct Seeded {
  var state: UInt64
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}

@Suite("Ratings, flags, labels and skip: journaled, undoable, replayed and snapshotted")
struct MarksAndSkipTests {
  /// Random sessions of marks, skips, decisions and undos: the live state equals the state
  /// replayed from the journal and the state restored from a snapshot; the queue is always an
  /// order of the same photos and the decided photos are never moved.
  @Test(arguments: 0..<40)
  func replayAndSnapshotGiveTheLiveState(seed: Int) throws {
    var random = Seeded(state: UInt64(seed) &* 7919 &+ 1)
    let manifest = (0..<(2 + random.next(12))).map { "p\($0).jpg" }
    let journal = MemorySessionJournal()
    let depth = random.next(6)
    let session = try CullingSession(
      photos: manifest, journal: journal, undoDepth: depth, clock: { 1000 })
    for _ in 0..<60 {
      let decidedBefore = Array(session.state.photos[..<session.state.cursor])
      switch random.next(7) {
      case 0: _ = try? session.rate(random.next(6))
      case 1: _ = try? session.flag(random.next(2) == 0 ? .pick : .reject)
      case 2: _ = try? session.label(PhotoMarks.ColorLabel.allCases[random.next(5)])
      case 3: _ = try? session.skip()
      case 4: _ = try? session.undo()
      case 5: _ = try? session.decide(PhotoDecision.allCases[random.next(3)])
      default:
        if random.next(4) == 0 { _ = try? session.commit() }
      }
      #expect(session.state.photos.sorted() == manifest.sorted())
      let kept = min(decidedBefore.count, session.state.cursor)
      #expect(Array(session.state.photos[..<kept]) == Array(decidedBefore[..<kept]))
    }
    let replayed = try CullingSession(photos: manifest, journal: journal, undoDepth: depth)
    #expect(replayed.state == session.state)
    let restored = try CullingState(photos: manifest, snapshot: session.state.snapshot)
    #expect(restored == session.state)
    let encoded = try JSONEncoder().encode(session.state.snapshot)
    let decoded = try JSONDecoder().decode(SessionSnapshot.self, from: encoded)
    #expect(try CullingState(photos: manifest, snapshot: decoded) == session.state)
  }

  @Test func marksStayOnTheCardAndUndoTakesThemBackOneByOne() throws {
    let session = try CullingSession(
      photos: ["a.jpg", "b.jpg"], journal: MemorySessionJournal(), clock: { 0 })
    try session.rate(3)
    try session.label(.green)
    try session.flag(.reject)
    #expect(session.state.cursor == 0)
    #expect(session.current?.marks == PhotoMarks(rating: 3, flag: .reject, label: .green))
    #expect(session.current?.rating == -1 && session.current?.label == "green")
    #expect(try session.undo() == 0)
    #expect(session.current?.marks == PhotoMarks(rating: 3, label: .green))
    #expect(session.current?.rating == 3)
    try session.undo()
    try session.undo()
    #expect(session.current?.marks == nil)
    #expect(
      PhotoMarks(rating: 2).xmpRating(for: .favorite, favoriteRating: 5) == 2
        && PhotoMarks().xmpRating(for: .favorite, favoriteRating: 5) == 5
        && PhotoMarks().xmpRating(for: .keep, favoriteRating: 5) == nil
        && PhotoMarks(rating: 4, flag: .reject).xmpRating(for: .keep, favoriteRating: 5) == -1
        && PhotoMarks(flag: .pick).xmpRating(for: .keep, favoriteRating: 5) == nil)
  }

  @Test func badRatingsAndMarksAtTheEndAreRefusedWithAMessage() throws {
    let session = try CullingSession(
      photos: ["a.jpg"], journal: MemorySessionJournal(), clock: { 0 })
    let high = #expect(throws: PhotoSessionError.self) { try session.rate(6) }
    #expect(high?.code == .invalidArgument)
    #expect(high?.description == "a rating is 0 to 5 stars, not 6")
    #expect(throws: PhotoSessionError.self) { try session.rate(-1) }
    try session.decide(.keep)
    let end = #expect(throws: PhotoSessionError.self) { try session.skip() }
    #expect(end?.code == .endOfLibrary)
    #expect(
      end?.description
        == "nothing to skip: the session is at the end of the library (all 1 photos have a decision)"
    )
    let mark = #expect(throws: PhotoSessionError.self) { try session.label(.red) }
    #expect(mark?.description.hasPrefix("nothing to rate, flag or label:") == true)
  }

  @Test func skipMovesTheCardWithItsMarksToTheEndAndUndoBringsItBack() throws {
    let journal = MemorySessionJournal()
    let session = try CullingSession(
      photos: ["a.jpg", "b.jpg", "c.jpg", "d.jpg"], journal: journal, clock: { 0 })
    try session.decide(.trash)  // a
    try session.rate(4)  // b
    try session.skip()
    #expect(session.state.photos == ["a.jpg", "c.jpg", "d.jpg", "b.jpg"])
    #expect(session.current?.photo == "c.jpg" && session.current?.marks == nil)
    #expect(session.card(at: 3).marks == PhotoMarks(rating: 4))
    #expect(session.statistics.remaining == 3 && session.statistics.trash == 1)
    try session.undo()
    #expect(session.state.photos == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
    #expect(session.current?.photo == "b.jpg" && session.current?.marks == PhotoMarks(rating: 4))
    try session.skip()
    try session.skip()  // c
    #expect(session.state.photos == ["a.jpg", "d.jpg", "b.jpg", "c.jpg"])
    try session.decide(.keep)  // d
    try session.decide(.favorite)  // b
    try session.decide(.keep)  // c
    #expect(session.review().map(\.photo) == ["a.jpg", "d.jpg", "b.jpg", "c.jpg"])
    // Compacted, the order and marks survive in the snapshot.
    try session.compact()
    let reopened = try CullingSession(
      photos: ["a.jpg", "b.jpg", "c.jpg", "d.jpg"], journal: journal)
    #expect(reopened.state == session.state)
    #expect(journal.snapshot?.order == [0, 3, 1, 2])
    #expect(reopened.card(at: 2).marks == PhotoMarks(rating: 4))
  }

  @Test func aSnapshotWithABadOrderOrMarksIsRefused() throws {
    let state = CullingState(photos: ["a", "b"])
    var snapshot = state.snapshot
    snapshot.order = [0, 0]
    let order = #expect(throws: PhotoSessionError.self) {
      try CullingState(photos: ["a", "b"], snapshot: snapshot)
    }
    #expect(order?.code == .sessionCorrupt)
    #expect(
      order?.description
        == "the session snapshot is damaged: its queue order is not an order of the 2 photos")
    snapshot.order = nil
    snapshot.marks = ["7": PhotoMarks(rating: 1)]
    let marks = #expect(throws: PhotoSessionError.self) {
      try CullingState(photos: ["a", "b"], snapshot: snapshot)
    }
    #expect(marks?.code == .sessionCorrupt)
  }

  @Test func theJournalFormOfMarksAndSkipsRoundTrips() throws {
    let events: [SessionEvent] = [
      .marked(index: 2, photo: "x.jpg", marks: PhotoMarks(rating: 5, label: .purple), time: 1.5),
      .skipped(index: 3, photo: "y.jpg", time: 2),
    ]
    for event in events {
      let data = try JSONEncoder().encode(event)
      #expect(try JSONDecoder().decode(SessionEvent.self, from: data) == event)
    }
    let text = String(decoding: try JSONEncoder().encode(events[1]), as: UTF8.self)
    #expect(text.contains("\"op\":\"skip\""))
  }
}
