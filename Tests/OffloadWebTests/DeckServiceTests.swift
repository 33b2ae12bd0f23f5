import Foundation
import Offload
import OffloadTestSupport
import PhotoSession
import Testing

@testable import OffloadWeb

/// The web app's deck in process: the library's `PhotoDeck` behind the server's actor, with a
/// terminal command deciding in between.
@Suite("DeckService: decisions from memory, shared with the terminal", .serialized)
struct DeckServiceTests {
  private func service(_ fixture: WebFixture) -> DeckService {
    DeckService(
      store: PhotoSessions.store(root: fixture.store, environment: fixture.environment),
      roots: [fixture.photos])
  }

  @Test("a terminal decision between two page decisions is kept and shown")
  func terminalBetweenPageDecisions() async throws {
    let fixture = try WebFixture(count: 6)
    defer { fixture.remove() }
    let service = service(fixture)
    let first = try await service.state(nil)
    let id = try #require(first.session?.id)
    #expect(first.current?.index == 0)
    let decided = try await service.decide(id, index: 0, .trash)
    #expect(decided.session?.reviewed == 1 && decided.current?.index == 1)
    // The server holds no lock between changes: the terminal decides at once.
    let swiped = try fixture.ctl(["photos", "swipe", "right"])
    #expect(swiped.status == 0, "\(swiped)")
    let seen = try await service.state(id)
    #expect(seen.session?.reviewed == 2 && seen.current?.index == 2, "\(seen)")
    // A page still showing card 1 is refused, and nothing is decided twice.
    do {
      _ = try await service.decide(id, index: 1, .keep)
      Issue.record("a stale card was decided")
    } catch {
      #expect(error.status == 409)
      #expect(
        error.description == "photo 2 is no longer on screen (photo 3 is): it was decided elsewhere"
      )
    }
    let next = try await service.decide(id, index: 2, .keep)
    #expect(next.session?.reviewed == 3)
    let statistics = try fixture.statistics()
    #expect(statistics["trash"] as? Int == 1 && statistics["favorite"] as? Int == 1)
    #expect(statistics["keep"] as? Int == 1 && statistics["reviewed"] as? Int == 3)
    // A review change by queue position, then undo, through the same path.
    let review = try await service.change(id, index: 0, .favorite)
    #expect(review.items.first { $0.index == 0 }?.decision == "favorite")
    let undone = try await service.undo(id)
    #expect(undone.session?.favorite == 1 && undone.session?.trash == 1)
  }

  @Test(
    "skip moves the card on screen to the end, only if it is still on screen; undo brings it back"
  )
  func skipAndUndo() async throws {
    let fixture = try WebFixture(count: 4)
    defer { fixture.remove() }
    let service = service(fixture)
    let first = try await service.state(nil)
    let id = try #require(first.session?.id)
    let skipped = try #require(first.current?.name)
    let after = try await service.skip(id, index: 0)
    #expect(after.current?.index == 0 && after.current?.name != skipped, "\(after)")
    #expect(after.session?.reviewed == 0 && after.session?.canUndo == true)
    // A page still showing another card is refused, and nothing moves.
    do {
      _ = try await service.skip(id, index: 2)
      Issue.record("a card not on screen was skipped")
    } catch {
      #expect(error.status == 409 && error.description == "photo 3 is no longer on screen")
    }
    let undone = try await service.undo(id)
    #expect(undone.current?.index == 0 && undone.current?.name == skipped, "\(undone)")
  }

  @Test("photos and thumbnails are the cards of the session in memory; others are refused")
  func photosFromMemory() async throws {
    let fixture = try WebFixture(count: 3)
    defer { fixture.remove() }
    let service = service(fixture)
    let id = try #require(try await service.resolve(nil))
    let photo = try await service.photo(id, index: 1)
    let file = try Data(contentsOf: URL(fileURLWithPath: fixture.photos + "/p001.png"))
    #expect(photo.type == "image/png" && photo.bytes == Array(file))
    let thumbnail = try await service.thumbnail(id, index: 2)
    #expect(thumbnail.type == "image/png")
    do {
      _ = try await service.photo(id, index: 3)
      Issue.record("a card outside the queue was served")
    } catch {
      #expect(error.status == 404 && error.description == "no photo 3 in session \(id)")
    }
    do {
      _ = try await service.photo("19990101-000000", index: 0)
      Issue.record("a photo of an unknown session was served")
    } catch {
      #expect(error.status == 404)
    }
  }
}
