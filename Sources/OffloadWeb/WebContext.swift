import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket

/// The request context of every route: Hummingbird's WebSocket-capable context, with the
/// server's body limit, its typed request decoder and its JSON encoder.
struct WebContext: RequestContext, WebSocketRequestContext {
  var coreContext: CoreRequestContextStorage
  let webSocket: WebSocketHandlerReference<Self>

  init(source: Source) {
    coreContext = .init(source: source)
    webSocket = .init()
  }

  /// A request body holds at most ``WebLimits/requestBody`` bytes.
  var maxUploadSize: Int { WebLimits.requestBody }
  var requestDecoder: WebRequestDecoder { WebRequestDecoder() }
  var responseEncoder: WebResponseEncoder { WebResponseEncoder() }
}

/// A typed request a page posts (a JSON body) or asks with (a query): what it must hold, said
/// in one line when it does not.
protocol WebCommand: Decodable {
  /// The one-line reason given when a body or query does not decode as this type.
  static var requirement: String { get }
}

extension WebCommand {
  static var requirement: String { "the body must be a JSON command" }
}

/// Decodes a request body as a ``WebCommand``: JSON only, at most ``WebLimits/requestBody``
/// bytes, failures as an `HTTPError` with one line (413 for a body too large, 400 otherwise;
/// a ``DeckFailure`` the type's decoding throws keeps its status and line).
struct WebRequestDecoder: RequestDecoder {
  func decode<T: Decodable>(
    _ type: T.Type, from request: Request, context: some RequestContext
  ) async throws -> T {
    let buffer: ByteBuffer
    do {
      buffer = try await request.body.collect(upTo: context.maxUploadSize)
    } catch {
      throw HTTPError(
        .contentTooLarge,
        message: "a request body holds at most \(context.maxUploadSize) bytes")
    }
    guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
      throw HTTPError(.badRequest, message: "the body must be a JSON command")
    }
    do {
      return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
    } catch let refusal as DeckFailure {
      throw HTTPError(refusal)
    } catch DecodingError.dataCorrupted(let where_) where where_.codingPath.isEmpty {
      throw HTTPError(.badRequest, message: "the body must be a JSON command")
    } catch {
      throw HTTPError(.badRequest, message: Self.requirement(of: type))
    }
  }

  /// The one-line requirement of `type`, or the general one.
  static func requirement<T>(of type: T.Type) -> String {
    (type as? any WebCommand.Type)?.requirement ?? "the body must be a JSON command"
  }
}

extension Request {
  /// The query decoded as `type`, or a 400 `HTTPError` with its requirement.
  ///
  /// - Throws: `HTTPError` (400) naming what the query must hold.
  func query<T: WebCommand>(as type: T.Type, context: WebContext) throws -> T {
    do {
      return try uri.decodeQuery(as: type, context: context)
    } catch {
      throw HTTPError(.badRequest, message: T.requirement)
    }
  }
}

/// Encodes a handler's value as the server's JSON (sorted keys, ``WebShapes/encode(_:)``).
struct WebResponseEncoder: ResponseEncoder {
  func encode(
    _ value: some Encodable, from request: Request, context: some RequestContext
  ) throws -> Response {
    WebResponse.json(200, value)
  }
}

extension HTTPError {
  /// The HTTP error of a library failure: its status and its one line.
  init(_ failure: DeckFailure) {
    self.init(
      HTTPResponse.Status(code: failure.status), message: Printable.clean(failure.description))
  }
}

/// Maps every failure of a route to its response, in one place: an `HTTPError` or a
/// ``DeckFailure`` keeps its status and its one line, as JSON `{"error": ...}` for the JSON
/// API and the photo files (`/api/`, `/photo/`, `/thumb/`), as a line of text for the rest;
/// any other error is a 500 with a line, never a stack trace.
struct WebErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch {
      let failure = Self.httpError(error)
      let reason = failure.body ?? failure.status.reasonPhrase
      let path = request.uri.path
      if ["/api/", "/photo/", "/thumb/"].contains(where: { path.hasPrefix($0) }) {
        return WebResponse.json(failure.status.code, WebShapes.Problem(error: reason))
      }
      return WebResponse.text(failure.status.code, reason)
    }
  }

  /// The HTTP error a failure answers with.
  static func httpError(_ error: any Error) -> HTTPError {
    switch error {
    case let failure as HTTPError: failure
    case let failure as DeckFailure: HTTPError(failure)
    default: HTTPError(.internalServerError, message: Printable.clean("\(error)"))
    }
  }
}

// The shapes handlers return, encoded by ``WebResponseEncoder``.
extension WebShapes.Deck: ResponseEncodable {}
extension WebShapes.Review: ResponseEncodable {}
extension WebShapes.Folders: ResponseEncodable {}
extension OrganizeShapes.Collections: ResponseEncodable {}
extension OrganizeShapes.Collection: ResponseEncodable {}
