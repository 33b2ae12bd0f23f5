import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

/// A store over `count` JPEG files in temporary folders, with a Trash of its own.
private struct DeckFixture {
  let work: TemporaryDirectory
  let photos: TemporaryDirectory
  let store: PhotoSessionStore
  let id: String

  init(count: Int) throws {
    work = try TemporaryDirectory(prefix: "offload-deck")
    photos = try TemporaryDirectory(prefix: "offload-deck-photos")
    for index in 0..<count {
      try TestImages.write(
        TestImages.jpeg(width: 4 + index, height: 3, date: "2021:05:01 10:00:00"),
        String(format: "IMG_%04d.jpg", index), in: photos,
        modified: Double(1_600_000_000 + index))
    }
    store = Self.store(work)
    let opened = try store.start(folder: photos.path)
    id = opened.id
    try opened.close()
  }

  /// Another store object over the same folder: as another process sees the sessions.
  static func store(_ work: TemporaryDirectory) -> PhotoSessionStore {
    PhotoSessionStore(
      folder: work.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")))
  }

  /// The session's state replayed from its journal, read-only (without the lock).
  func replayed() throws -> CullingState {
    let manifest = try store.readManifest(id)
    let journal = JSONLinesSessionJournal(
      folder: store.folder + "/" + id, readOnly: true)
    return try CullingSession(
      photos: manifest.photos, journal: journal, undoDepth: manifest.undoDepth, clock: { 0 }
    ).state
  }

  func remove() {
    work.remove()
    photos.remove()
  }
}

@Suite("PhotoDeck: the open session in memory, the journal its truth", .serialized)
struct PhotoDeckTests {
  /// Seeded random sequences of decisions (some on a card no longer on screen), undos, skips,
  /// review changes, commits, and changes made through another handle between two of the
  /// deck's: after every step the deck's state is the state replayed from the journal.
  @Test(arguments: 0..<10)
  func decisionsThroughTheDeckEqualTheJournalReplayed(seed: UInt64) throws {
    var random = SplitMix64(seed: SplitMix64.testSeed(0xDEC0 &+ seed))
    let fixture = try DeckFixture(count: 12 + random.index(below: 20))
    defer { fixture.remove() }
    let deck = PhotoDeck(store: fixture.store)
    let id = fixture.id
    for step in 0..<70 {
      let state = try deck.session(id).state
      let roll = random.index(below: 20)
      var refused: PhotoSessionError?
      do throws(PhotoSessionError) {
        switch roll {
        case 0..<8:
          try deck.decide(id, at: state.cursor, PhotoDecision.allCases[random.index(below: 3)])
        case 8:
          // A stale page: the card it shows was decided meanwhile.
          try deck.decide(id, at: state.cursor + 1, .keep)
          Issue.record("step \(step): a decision on a card not on screen was taken")
        case 9..<11: try deck.undo(id)
        case 11: try deck.change(id) { session throws(PhotoSessionError) in try session.skip() }
        case 12..<14:
          try deck.change(
            id, at: random.index(below: max(1, state.cursor)),
            to: PhotoDecision.allCases[random.index(below: 3)])
        case 14:
          _ = try deck.change(id) { session throws(PhotoSessionError) in try session.commit() }
        case 15: deck.forget(id)
        default:
          // Another process's change between two of the deck's.
          let other = try DeckFixture.store(fixture.work).open(id)
          if random.chance(0.5) {
            _ = try? other.session.decide(.favorite)
          } else {
            _ = try? other.session.undo()
          }
          try other.close()
        }
      } catch {
        refused = error
      }
      let replayed = try fixture.replayed()
      #expect(
        try deck.session(id).state == replayed,
        "seed \(seed) step \(step) (roll \(roll), refused: \(String(describing: refused)))")
      if roll == 8 { #expect(refused?.code == .sessionBusy && replayed == state) }
    }
  }

  /// The deck keeps one session in memory and changes it in place: no replay between
  /// decisions, and no lock held between them.
  @Test func decisionsChangeTheSessionInMemory() throws {
    let fixture = try DeckFixture(count: 8)
    defer { fixture.remove() }
    let deck = PhotoDeck(store: fixture.store)
    try deck.decide(fixture.id, at: 0, .trash)
    let session = try deck.session(fixture.id)
    for index in 1..<5 {
      try deck.decide(fixture.id, at: index, .keep)
      #expect(try deck.session(fixture.id) === session, "decision \(index) replayed the journal")
      // Between two decisions the session is free: another handle opens it at once.
      let other = try DeckFixture.store(fixture.work).open(fixture.id)
      #expect(other.session.state == session.state)
      try other.close()
    }
    #expect(session.state.cursor == 5 && session.state.decision(at: 0) == .trash)
  }

  /// Another handle's changes are seen by the deck's next read and next change; while another
  /// handle keeps the session open, the deck's change is refused as busy and nothing of it is
  /// journaled; a decision the deck acknowledged stays when the deck is forgotten.
  @Test func anotherProcessesChangesAreSeen() throws {
    let fixture = try DeckFixture(count: 10)
    defer { fixture.remove() }
    let deck = PhotoDeck(store: fixture.store, lockTimeout: .zero)
    let id = fixture.id
    try deck.decide(id, at: 0, .trash)
    let read = try deck.session(id)
    let other = DeckFixture.store(fixture.work)
    do {
      let opened = try other.open(id)
      try opened.session.decide(.keep)
      try opened.session.decide(.favorite)
      // Held by the other handle: the deck cannot change it, and reads it without the lock.
      let busy = #expect(throws: PhotoSessionError.self) { try deck.decide(id, at: 3, .trash) }
      #expect(busy?.code == .sessionBusy)
      #expect(try deck.session(id).state.cursor == 3)
      try opened.close()
    }
    let seen = try deck.session(id)
    #expect(seen !== read, "a changed journal is read again")
    #expect(seen.state.cursor == 3 && seen.state.decision(at: 2) == .favorite)
    #expect(seen.state == (try fixture.replayed()))
    // The deck's stale card never decides: the card on screen is card 3 now.
    let stale = #expect(throws: PhotoSessionError.self) { try deck.decide(id, at: 1, .trash) }
    #expect(stale?.code == .sessionBusy)
    #expect(
      stale?.description
        == "photo 2 is no longer on screen (photo 4 is): it was decided elsewhere")
    try deck.decide(id, at: 3, .trash)
    #expect(try deck.session(id).state == (try fixture.replayed()))
    deck.forget(id)
    #expect(try other.open(id).session.state.cursor == 4)
  }

  /// A process that swipes while the deck has the session in memory: the deck's next read
  /// and change see everything it did.
  @Test func aDriverProcessesSwipesAreSeen() throws {
    let fixture = try DeckFixture(count: 40)
    defer { fixture.remove() }
    let deck = PhotoDeck(store: fixture.store)
    try deck.decide(fixture.id, at: 0, .favorite)
    let result = try BuiltProduct.run(
      "photo-session-driver", ["swipe", fixture.store.folder, fixture.id, "25", "7"],
      environment: ["XDG_DATA_HOME": fixture.work.appending("data")])
    #expect(result.status == 0 && result.stdout.hasSuffix("finished\n"), "\(result)")
    let replayed = try fixture.replayed()
    #expect(replayed.cursor > 1)
    #expect(try deck.session(fixture.id).state == replayed)
    try deck.decide(fixture.id, at: replayed.cursor, .keep)
    #expect(try deck.session(fixture.id).state == (try fixture.replayed()))
  }

  /// Bad input: an unknown session, a card outside the queue, a change of a card not decided.
  @Test func badInputIsRefusedWithItsReason() throws {
    let fixture = try DeckFixture(count: 3)
    defer { fixture.remove() }
    let deck = PhotoDeck(store: fixture.store)
    let unknown = #expect(throws: PhotoSessionError.self) { try deck.resolve("19990101-000000") }
    #expect(unknown?.code == .noSession)
    #expect(unknown?.description == "there is no such photo session in this store")
    #expect(try deck.resolve(nil) == fixture.id)
    let outside = #expect(throws: PhotoSessionError.self) { try deck.file(fixture.id, at: 3) }
    #expect(outside?.code == .unknownPhoto)
    #expect(outside?.description == "no photo 3 in session \(fixture.id)")
    let file = try deck.file(fixture.id, at: 2)
    #expect(file.photo == "IMG_0002.jpg" && file.path == fixture.photos.appending("IMG_0002.jpg"))
    let undecided = #expect(throws: PhotoSessionError.self) {
      try deck.change(fixture.id, at: 1, to: .keep)
    }
    #expect(undecided?.code == .notDecided)
    let far = #expect(throws: PhotoSessionError.self) {
      try deck.change(fixture.id, at: 9, to: .keep)
    }
    #expect(far?.description == "no photo 9 in session \(fixture.id)")
  }
}
