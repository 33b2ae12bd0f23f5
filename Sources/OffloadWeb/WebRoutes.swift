import Foundation
import Gestures
import Hummingbird
import HummingbirdWebSocket
import PhotoSession

/// The routes: pages, the JSON API, photos by session and index, and the deck's WebSocket.
struct WebRoutes: Sendable {
  let service: DeckService
  let assets: WebAssets
  let recordTraces: String?

  /// A command posted by a page.
  struct Command: Decodable {
    var session: String?
    var index: Int?
    var decision: String?
    var root: Int?
    var folder: String?

    /// The session, card index and decision a `verb` command needs.
    func card(_ verb: String) throws(DeckFailure) -> (String, Int, PhotoDecision) {
      guard let session, let index, let decision = decision.flatMap(PhotoDecision.init) else {
        throw DeckFailure(status: 400, "\(verb) needs session, index and decision")
      }
      return (session, index, decision)
    }
  }

  func add(to router: Router<BasicWebSocketRequestContext>) {
    let assets = assets
    let service = service
    router.get("/photos") { _, _ in Self.page("photos.html", assets) }
    router.get("/photos/review") { _, _ in Self.page("review.html", assets) }
    router.get("/assets/:name") { _, context in
      Self.page(context.parameters.get("name") ?? "", assets, cache: true)
    }
    router.get("/photo/:session/:index") { _, context in
      await Self.image(context) { id, index throws(DeckFailure) in
        try await service.photo(id, index: index)
      }
    }
    // Thumbnails for the review grid: the same addressing and checks as /photo.
    router.get("/thumb/:session/:index") { _, context in
      await Self.image(context) { id, index throws(DeckFailure) in
        try await service.thumbnail(id, index: index)
      }
    }
    router.get("/api/state") { request, _ in
      await Self.answer { () throws(DeckFailure) in
        try await service.state(request.uri.queryParameters.get("session"))
      }
    }
    router.get("/api/review") { request, _ in
      await Self.answer { () throws(DeckFailure) in
        let filter = request.uri.queryParameters.get("decision").flatMap(PhotoDecision.init)
        return try await service.review(
          request.uri.queryParameters.get("session"), decision: filter)
      }
    }
    router.get("/api/folders") { request, _ in
      await Self.answer { () throws(DeckFailure) in
        let root = request.uri.queryParameters.get("root").flatMap { Int($0) } ?? 0
        let folder = request.uri.queryParameters.get("folder") ?? ""
        return try await service.folders(root: root, folder: folder)
      }
    }
    router.post("/api/decide") { request, context in
      await Self.command(request, context) { command throws(DeckFailure) in
        let (id, index, decision) = try command.card("decide")
        return try await service.decide(id, index: index, decision)
      }
    }
    router.post("/api/undo") { request, context in
      await Self.command(request, context) { command throws(DeckFailure) in
        guard let id = command.session else {
          throw DeckFailure(status: 400, "undo needs a session")
        }
        return try await service.undo(id)
      }
    }
    router.post("/api/change") { request, context in
      await Self.command(request, context) { command throws(DeckFailure) in
        let (id, index, decision) = try command.card("change")
        return try await service.change(id, index: index, decision)
      }
    }
    router.post("/api/start") { request, context in
      await Self.command(request, context) { command throws(DeckFailure) in
        try await service.start(root: command.root ?? 0, folder: command.folder ?? "")
      }
    }
    let recordTraces = recordTraces
    router.ws("/ws") { inbound, outbound, _ in
      try await DeckChannel(service: service, recordTraces: recordTraces).run(
        inbound: inbound, outbound: outbound)
    }
  }

  /// An image addressed by session and card index, or the failure's status.
  static func image(
    _ context: BasicWebSocketRequestContext,
    _ load: (String, Int) async throws(DeckFailure) -> (bytes: [UInt8], type: String)
  ) async -> Response {
    guard let id = context.parameters.get("session"),
      let index = context.parameters.get("index", as: Int.self)
    else { return WebResponse.text(404, "no such photo") }
    do {
      let image = try await load(id, index)
      var response = WebResponse.bytes(200, image.bytes, type: image.type)
      response.headers[.cacheControl] = "private, max-age=600"
      return response
    } catch {
      return WebResponse.failure(error)
    }
  }

  static func page(_ name: String, _ assets: WebAssets, cache: Bool = false) -> Response {
    guard let asset = assets.files[name] else { return WebResponse.text(404, "no such page") }
    var response = WebResponse.bytes(200, asset.bytes, type: asset.type)
    if cache { response.headers[.cacheControl] = "no-cache" }
    return response
  }

  static func answer(_ body: () async throws(DeckFailure) -> some Encodable) async -> Response {
    do {
      return WebResponse.json(200, try await body())
    } catch {
      return WebResponse.failure(error)
    }
  }

  static func command(
    _ request: Request, _ context: BasicWebSocketRequestContext,
    _ body: (Command) async throws(DeckFailure) -> some Encodable
  ) async -> Response {
    let buffer: ByteBuffer
    do {
      buffer = try await request.body.collect(upTo: WebLimits.requestBody)
    } catch {
      return WebResponse.failure(
        DeckFailure(status: 413, "a request body holds at most \(WebLimits.requestBody) bytes"))
    }
    guard request.headers[.contentType]?.hasPrefix("application/json") == true,
      let command = try? JSONDecoder().decode(Command.self, from: Data(buffer.readableBytesView))
    else {
      return WebResponse.failure(DeckFailure(status: 400, "the body must be a JSON command"))
    }
    return await answer { () throws(DeckFailure) in try await body(command) }
  }
}

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
    _ = FileManager.default.createFile(atPath: path, contents: Data(stroke.trace.jsonLines.utf8))
  }

  private func send(_ message: ServerMessage, _ outbound: WebSocketOutboundWriter) async throws {
    try await outbound.write(.text(String(decoding: WebShapes.encode(message), as: UTF8.self)))
  }
}
