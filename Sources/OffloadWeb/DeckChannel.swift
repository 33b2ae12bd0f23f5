import Foundation
import Gestures
import Hummingbird
import HummingbirdWebSocket
import Persistence
import PhotoSession

/// One page's WebSocket: pointer samples in, the arena's answers and decisions out; and the
/// commit with its progress.
struct DeckChannel {
  let service: DeckService
  let recordTraces: String?

  func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
    var stroke: DeckStroke?
    for try await message in inbound.messages(maxSize: WebLimits.message) {
      let parsed: Result<DeckClientMessage, DeckMessageError>
      if case .text(let text) = message {
        parsed = DeckClientMessage.parse(text)
      } else {
        parsed = .failure(DeckMessageError("not a deck message"))
      }
      switch parsed {
      case .failure(let error):
        try await send(.error(error.description), outbound)
      case .success(.sample(let sample, let start)):
        if let start { stroke = DeckStroke(start, time: sample.time) }
        guard var current = stroke else { continue }
        let (messages, outcome) = current.feed(sample)
        stroke = current
        for message in messages { try await send(message, outbound) }
        guard let outcome else { continue }
        stroke = nil
        record(current, outcome)
        try await finish(current, outcome, outbound)
      case .success(.skip(let session, let index)):
        try await skip(session, index, outbound)
      case .success(.commit(let session)):
        try await commit(session, outbound)
      }
    }
  }

  /// Skips card `index` of the session (the deck's Skip key and button, queued with the
  /// decisions): answers `skipped` with the deck, or `refused` with the reason.
  private func skip(
    _ session: String, _ index: Int, _ outbound: WebSocketOutboundWriter
  ) async throws {
    do {
      try await send(.skipped(deck: try await service.skip(session, index: index)), outbound)
    } catch let failure as DeckFailure {
      try await refuse(session, failure, outbound)
    }
  }

  /// Answers `refused` with the reason and the deck as it is now.
  private func refuse(
    _ session: String, _ failure: any Error, _ outbound: WebSocketOutboundWriter
  ) async throws {
    let deck = try? await service.state(session)
    try await send(.refused(error: "\(failure)", deck: deck), outbound)
  }

  private func finish(
    _ stroke: DeckStroke, _ outcome: DeckStroke.Outcome, _ outbound: WebSocketOutboundWriter
  ) async throws {
    switch outcome {
    case .snapBack:
      try await send(.snapBack, outbound)
    case .commit(let decision, let direction, let byFling):
      do {
        let deck = try await service.decide(stroke.session, index: stroke.index, decision)
        try await send(
          .decided(direction: direction, byFling: byFling, decision: decision, deck: deck),
          outbound)
      } catch {
        try await refuse(stroke.session, error, outbound)
      }
    }
  }

  private func commit(_ session: String?, _ outbound: WebSocketOutboundWriter) async throws {
    do {
      guard let id = try await service.resolve(session) else {
        throw DeckFailure(status: 404, "there is no photo session")
      }
      // Progress is gathered while the session is locked and sent as it comes.
      let (stream, continuation) = AsyncStream.makeStream(of: CommitProgress.self)
      let task = Task { () -> Result<WebShapes.Committed, DeckFailure> in
        defer { continuation.finish() }
        do {
          return .success(try await service.commit(id) { continuation.yield($0) })
        } catch let failure as DeckFailure {
          return .failure(failure)
        } catch {
          return .failure(DeckFailure(status: 500, "\(error)"))
        }
      }
      for await progress in stream {
        try await send(.progress(done: progress.done, total: progress.total), outbound)
      }
      let committed = try await task.value.get()
      try await send(.committed(committed), outbound)
    } catch let failure as DeckFailure {
      try await send(.error(failure.description), outbound)
    }
  }

  /// Writes the stroke as `stroke-<ms since 1970>-<card>-<outcome>.jsonl`.
  private func record(_ stroke: DeckStroke, _ outcome: DeckStroke.Outcome) {
    guard let recordTraces else { return }
    let stamp = Int((Date().timeIntervalSince1970 * 1000).rounded())
    let name: String
    switch outcome {
    case .commit(_, let direction, _): name = "commit-" + direction
    case .snapBack: name = "snapBack"
    }
    let path = recordTraces + "/stroke-\(stamp)-\(stroke.index)-\(name).jsonl"
    try? POSIXFileSystem().writeAtomically(
      Data(stroke.trace.jsonLines.utf8), to: path, syncFolder: false)
  }

  private func send(_ message: DeckServerMessage, _ outbound: WebSocketOutboundWriter) async throws
  {
    try await outbound.write(.text(String(decoding: WebShapes.encode(message), as: UTF8.self)))
  }
}
