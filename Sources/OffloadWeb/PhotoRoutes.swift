import Hummingbird
import HummingbirdWebSocket
import PhotoSession

/// The photo routes: the deck and review pages, the deck's JSON API, the photos and their
/// thumbnails by session and card index, and the deck's WebSocket.
///
/// Every handler decodes its input into a typed request, calls ``DeckService`` and returns a
/// `WebShapes` value; a failure is thrown and answered by ``WebErrorMiddleware``.
struct PhotoRoutes: Sendable {
  let service: DeckService
  let assets: WebAssets
  let recordTraces: String?

  /// The body of `POST /api/decide`: the card on screen and its decision.
  struct DecideRequest: WebCommand {
    static let requirement = "decide needs session, index and decision"
    var session: String
    var index: Int
    var decision: PhotoDecision
  }

  /// The body of `POST /api/change`: a decided card and its new decision.
  struct ChangeRequest: WebCommand {
    static let requirement = "change needs session, index and decision"
    var session: String
    var index: Int
    var decision: PhotoDecision
  }

  /// The body of `POST /api/undo`.
  struct UndoRequest: WebCommand {
    static let requirement = "undo needs a session"
    var session: String
  }

  /// The body of `POST /api/start`: a folder relative to one of the roots.
  struct StartRequest: WebCommand {
    var root: Int?
    var folder: String?
  }

  /// The query of `GET /api/state` and `GET /api/review`: a session (else the latest) and,
  /// for the review, one decision to show alone.
  struct SessionQuery: WebCommand {
    static let requirement = "the query names a session and, for a review, a decision"
    var session: String?
    var decision: String?
  }

  /// The query of `GET /api/folders`.
  struct FoldersQuery: WebCommand {
    static let requirement = "the query names a root by number and a folder inside it"
    var root: Int?
    var folder: String?
  }

  /// Adds the routes to `router`.
  ///
  /// - Parameter router: The server's router.
  func addRoutes(to router: some RouterMethods<WebContext>) {
    let assets = assets
    let service = service
    let recordTraces = recordTraces
    router.get("/photos") { _, _ in try assets.response("photos.html") }
    router.get("/photos/review") { _, _ in try assets.response("review.html") }
    router.get("/photo/:session/:index") { _, context in
      let (id, index) = try Self.card(context)
      return try await Self.image(service.photo(id, index: index))
    }
    // Thumbnails for the review grid: the same addressing and checks as /photo.
    router.get("/thumb/:session/:index") { _, context in
      let (id, index) = try Self.card(context)
      return try await Self.image(service.thumbnail(id, index: index))
    }
    router.get("/api/state", use: state)
    router.get("/api/review", use: review)
    router.get("/api/folders", use: folders)
    router.post("/api/decide", use: decide)
    router.post("/api/undo", use: undo)
    router.post("/api/change", use: change)
    router.post("/api/start", use: start)
    router.ws("/ws") { inbound, outbound, _ in
      try await DeckChannel(service: service, recordTraces: recordTraces).run(
        inbound: inbound, outbound: outbound)
    }
  }

  @Sendable func state(_ request: Request, context: WebContext) async throws -> WebShapes.Deck {
    let query = try request.query(as: SessionQuery.self, context: context)
    return try await service.state(query.session)
  }

  @Sendable func review(_ request: Request, context: WebContext) async throws -> WebShapes.Review {
    let query = try request.query(as: SessionQuery.self, context: context)
    return try await service.review(
      query.session, decision: query.decision.flatMap(PhotoDecision.init))
  }

  @Sendable func folders(_ request: Request, context: WebContext) async throws
    -> WebShapes.Folders
  {
    let query = try request.query(as: FoldersQuery.self, context: context)
    return try await service.folders(root: query.root ?? 0, folder: query.folder ?? "")
  }

  @Sendable func decide(_ request: Request, context: WebContext) async throws -> WebShapes.Deck {
    let command = try await request.decode(as: DecideRequest.self, context: context)
    return try await service.decide(command.session, index: command.index, command.decision)
  }

  @Sendable func undo(_ request: Request, context: WebContext) async throws -> WebShapes.Deck {
    let command = try await request.decode(as: UndoRequest.self, context: context)
    return try await service.undo(command.session)
  }

  @Sendable func change(_ request: Request, context: WebContext) async throws -> WebShapes.Review {
    let command = try await request.decode(as: ChangeRequest.self, context: context)
    return try await service.change(command.session, index: command.index, command.decision)
  }

  @Sendable func start(_ request: Request, context: WebContext) async throws -> WebShapes.Deck {
    let command = try await request.decode(as: StartRequest.self, context: context)
    return try await service.start(root: command.root ?? 0, folder: command.folder ?? "")
  }

  /// The session and card index a photo address names.
  ///
  /// - Throws: `HTTPError` 404 when the address names no card.
  static func card(_ context: WebContext) throws -> (String, Int) {
    guard let id = context.parameters.get("session"),
      let index = context.parameters.get("index", as: Int.self)
    else { throw HTTPError(.notFound, message: "no such photo") }
    return (id, index)
  }

  /// An image's response, kept by the browser for ten minutes.
  static func image(_ image: (bytes: [UInt8], type: String)) -> Response {
    var response = WebResponse.bytes(200, image.bytes, type: image.type)
    response.headers[.cacheControl] = "private, max-age=600"
    return response
  }
}
