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
    let decoder = JSONDecoder()
    for try await message in inbound.messages(maxSize: WebLimits.message) {
      guard case .text(let text) = message,
        let input = try? decoder.decode(ClientMessage.self, from: Data(text.utf8))
      else {
        try await send(ServerMessage(type: "error", error: "not a deck message"), outbound)
        continue
      }
      switch input.type {
      case "sample":
        guard let phase = input.phase.flatMap(TouchPhase.init), let t = input.t,
          let x = input.x, let y = input.y, t.isFinite, x.isFinite, y.isFinite
        else {
          try await send(
            ServerMessage(type: "error", error: "a sample needs phase, t, x, y"), outbound)
          continue
        }
        if phase == .began {
          guard let session = input.session, let index = input.index else {
            try await send(
              ServerMessage(type: "error", error: "a stroke begins on a session's card"), outbound)
            continue
          }
          let width = min(max(input.width ?? 390, 100), 10_000)
          stroke = DeckStroke(
            session: session, index: index, width: width,
            reduceMotion: input.reduceMotion ?? false, time: t / 1000)
        }
        guard var current = stroke else { continue }
        let pointer = min(max(input.pointer ?? 0, -1_000_000), 1_000_000)
        let (messages, outcome) = current.feed(
          phase: phase, milliseconds: t, x: x, y: y, pointer: pointer)
        stroke = current
        for message in messages { try await send(message, outbound) }
        guard let outcome else { continue }
        stroke = nil
        record(current, outcome)
        try await finish(current, outcome, outbound)
      case "skip":
        try await skip(input, outbound)
      case "commit":
        try await commit(input.session, outbound)
      default:
        try await send(ServerMessage(type: "error", error: "unknown message type"), outbound)
      }
    }
  }

  private func finish(
    _ stroke: DeckStroke, _ outcome: DeckStroke.Outcome, _ outbound: WebSocketOutboundWriter
  ) async throws {
    switch outcome {
    case .snapBack:
      try await send(ServerMessage(type: "snapBack"), outbound)
    case .commit(let decision, let direction, let byFling):
      let answer: ServerMessage
      do {
        let deck = try await service.decide(stroke.session, index: stroke.index, decision)
        answer = ServerMessage(
          type: "decided", direction: direction, byFling: byFling, decision: decision.rawValue,
          deck: deck)
      } catch {
        let failure = error
        let deck = try? await service.state(stroke.session)
        answer = ServerMessage(type: "refused", deck: deck, error: failure.description)
      }
      try await send(answer, outbound)
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
        try await send(
          ServerMessage(type: "progress", done: progress.done, total: progress.total), outbound)
      }
      let committed = try await task.value.get()
      try await send(ServerMessage(type: "committed", committed: committed), outbound)
    } catch let failure as DeckFailure {
      try await send(ServerMessage(type: "error", error: failure.description), outbound)
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

  private func send(_ message: ServerMessage, _ outbound: WebSocketOutboundWriter) async throws {
    try await outbound.write(.text(String(decoding: WebShapes.encode(message), as: UTF8.self)))
  }
}
