import Foundation
import Gestures
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
public import Logging
import Offload
import PhotoSession

/// The local web app behind `offloadctl serve`: the photo deck and its review in a browser,
/// on top of the same store and photo sessions as every other command.
///
/// Pages and scripts are package resources; the page draws, the server decides. Pointer
/// samples come over one WebSocket and run through the Gestures `photoDeck` arena here;
/// every decision goes through `CullingSession` and its synced journal before the page lets
/// the card go.
///
/// Beyond loopback (and on loopback when ``Options/tls`` asks for it) the server speaks only
/// HTTPS, with the store's own self-signed certificate (kept in its `web` folder), and its cookie is
/// `Secure`.
///
/// ```swift
/// let server = WebServer(options: .init(storeRoot: location.path, environment: environment))
/// try await server.run { url in print(url) }   // until SIGINT or SIGTERM
/// ```
public final class WebServer: Sendable {
  /// How to run the server.
  public struct Options: Sendable {
    /// The address to listen on; loopback unless the user says otherwise.
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one.
    public var port = 0
    /// The store folder (see `StoreLocation`).
    public var storeRoot: String
    /// The process environment (the Trash and the clock, as `PhotoSessions.store` reads them).
    public var environment: [String: String]
    /// Folders the page may start a session in (these and their subfolders).
    public var roots: [String] = []
    /// A folder to write each stroke into as a gesture trace, or nil.
    public var recordTraces: String?
    /// Whether to serve HTTPS on loopback too; beyond loopback the server always does.
    public var tls = false

    /// Options for the store at `storeRoot` with the defaults: loopback, a free port, no
    /// session folders, no trace recording, plain HTTP (each a property to set).
    public init(storeRoot: String, environment: [String: String]) {
      self.storeRoot = storeRoot
      self.environment = environment
    }
  }

  /// What a listening server tells its caller once.
  public struct Ready: Sendable {
    /// The address to open, with the token.
    public var address: String
    /// The SHA-256 fingerprint of the certificate served, when the server speaks HTTPS.
    public var fingerprint: String?
    /// Why the certificate was made on this start, when it was: the store had none, or it
    /// expired, was damaged or did not match its key.
    public var renewal: String?
  }

  /// The options the server runs with.
  public let options: Options
  /// Where the server's own messages go (Hummingbird's and the routes').
  public let logger: Logger
  let access: WebAccess

  /// A server with a fresh random token.
  ///
  /// - Parameters:
  ///   - options: How to run it.
  ///   - logger: Where its messages go, at the level the caller chose; by default errors
  ///     only, on standard error, so the printed address stays the only output.
  public init(options: Options, logger: Logger = WebServer.quietLogger) {
    self.options = options
    self.logger = logger
    let loopback = WebAccess.isLoopbackAddress(options.host) ?? (options.host == "localhost")
    self.access = WebAccess(
      token: WebAccess.makeToken(), loopbackOnly: loopback, secure: options.tls || !loopback)
  }

  /// A logger that reports errors only: the default, since the address is the server's only
  /// output.
  public static var quietLogger: Logger {
    var logger = Logger(label: "offload.web")
    logger.logLevel = .error
    return logger
  }

  /// Whether the server listens on loopback only.
  public var isLoopbackOnly: Bool { access.loopbackOnly }

  /// Whether the server speaks HTTPS: beyond loopback always, on loopback when asked to.
  public var usesTLS: Bool { access.secure }

  /// The address to open, with the token, once the server listens on `port`.
  public func address(port: Int) -> String {
    let host = options.host.contains(":") ? "[\(options.host)]" : options.host
    let shown = ["0.0.0.0", "::", "[::]"].contains(host) ? "127.0.0.1" : host
    return "\(access.scheme)://\(shown):\(port)/?token=\(access.token)"
  }

  /// Runs until SIGINT or SIGTERM, then stops cleanly (open connections are closed).
  ///
  /// - Parameter onReady: Called once with the address to open, when the server listens.
  /// - Throws: When the address cannot be bound, or the certificate cannot be made.
  public func run(onReady: @escaping @Sendable (String) -> Void) async throws {
    try await serve { ready in onReady(ready.address) }
  }

  /// Runs until SIGINT or SIGTERM, then stops cleanly (open connections are closed), as
  /// ``run(onReady:)`` does, and tells more once it listens.
  ///
  /// - Parameter onStart: Called once when the server listens, with the address to open and,
  ///   over HTTPS, the certificate's fingerprint.
  /// - Throws: When the address cannot be bound, or the certificate cannot be made
  ///   (``WebTLSError``).
  public func serve(onStart: @escaping @Sendable (Ready) -> Void) async throws {
    try await buildApplication(onStart: onStart).runService(
      gracefulShutdownSignals: [.sigterm, .sigint])
  }

  /// The application: the router of ``buildRouter(assets:)`` behind HTTP/1 with WebSocket
  /// upgrades (and TLS when the server speaks HTTPS), logging through the server's logger.
  ///
  /// - Parameter onStart: Called once when the server listens.
  /// - Returns: The application, not yet running.
  /// - Throws: When the resources cannot be read, or the certificate cannot be made.
  func buildApplication(
    onStart: @escaping @Sendable (Ready) -> Void
  ) throws -> some ApplicationProtocol {
    let identity =
      usesTLS ? try WebIdentity.load(storeRoot: options.storeRoot, host: options.host) : nil
    let router = buildRouter(assets: try WebAssets.load())
    let plain = HTTPServerBuilder.http1WebSocketUpgrade(
      webSocketRouter: router,
      configuration: .init(
        http1: .init(idleTimeout: .seconds(120)),
        ws: .init(maxFrameSize: WebLimits.message, autoPing: .enabled(timePeriod: .seconds(30)))))
    let access = access
    return Application(
      router: router,
      server: try identity.map { try .tls(plain, tlsConfiguration: $0.serverConfiguration()) }
        ?? plain,
      configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
      onServerRunning: { [self] channel in
        let port = channel.localAddress?.port ?? options.port
        access.port = port
        onStart(
          Ready(
            address: address(port: port), fingerprint: identity?.fingerprint,
            renewal: identity?.renewal))
      },
      logger: logger)
  }

  /// The router: access and security headers first, failures answered in one place, HEIC
  /// photos converted where a decoder is installed, then one route collection per area (home
  /// and assets, the photo deck and its photos, lists and plans).
  ///
  /// - Parameter assets: The pages, scripts and styles to serve.
  /// - Returns: The router, with the services it calls made for the server's store.
  func buildRouter(assets: WebAssets) -> Router<WebContext> {
    let router = Router(context: WebContext.self)
    router.add(middleware: SecurityMiddleware(access: access))
    router.add(middleware: WebErrorMiddleware())
    // HEIC photos as JPEG for every browser, where a decoder is installed.
    if let converter = WebHEIC.find(storeRoot: options.storeRoot, environment: options.environment)
    {
      router.add(middleware: HEICMiddleware(converter: converter))
    }
    let deck = DeckService(
      store: PhotoSessions.store(root: options.storeRoot, environment: options.environment),
      roots: options.roots, sharing: (options.storeRoot, options.environment))
    HomeRoutes(assets: assets).addRoutes(to: router)
    PhotoRoutes(service: deck, assets: assets, recordTraces: options.recordTraces)
      .addRoutes(to: router)
    let organize = OrganizeService(workspace: Workspace(root: options.storeRoot))
    OrganizeRoutes(service: organize, assets: assets).addRoutes(to: router)
    return router
  }
}

/// Applies ``WebAccess`` to every request and adds the security headers to every response.
struct SecurityMiddleware<Context: RequestContext>: RouterMiddleware {
  let access: WebAccess

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let host = request.head.authority
    let upgrade = request.headers[WebHeaders.upgrade]?.lowercased() == "websocket"
    let verdict = access.check(
      method: request.method.rawValue, path: request.uri.path,
      queryToken: request.uri.queryParameters.get("token"), host: host,
      origin: request.headers[.origin], cookieHeader: request.headers[.cookie],
      isUpgrade: upgrade)
    var response: Response
    switch verdict {
    case .allow:
      response = try await next(request, context)
    case .redirect(let location, let cookie):
      response = Response(status: .seeOther)
      response.headers[.location] = location
      response.headers[.setCookie] = cookie
    case .deny(let status, let reason):
      response = WebResponse.text(status, reason)
    }
    // Headers every response carries, whatever produced it.
    response.headers[.contentSecurityPolicy] = access.contentSecurityPolicy(
      host: access.acceptsHost(host) ? host ?? "127.0.0.1" : "127.0.0.1")
    response.headers[WebHeaders.contentTypeOptions] = "nosniff"
    response.headers[WebHeaders.referrerPolicy] = "no-referrer"
    response.headers[WebHeaders.frameOptions] = "DENY"
    response.headers[WebHeaders.resourcePolicy] = "same-origin"
    if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
    return response
  }
}

/// Small response builders.
enum WebResponse {
  /// A plain-text response.
  static func text(_ status: Int, _ text: String) -> Response {
    bytes(status, Array((Printable.clean(text) + "\n").utf8), type: "text/plain; charset=utf-8")
  }

  /// A JSON response.
  static func json(_ status: Int, _ value: some Encodable) -> Response {
    bytes(status, WebShapes.encode(value), type: "application/json")
  }

  /// A response carrying `bytes`.
  static func bytes(_ status: Int, _ bytes: [UInt8], type: String) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = type
    return Response(
      status: HTTPResponse.Status(code: status), headers: headers,
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
  }

  /// The JSON error response for a failure.
  static func failure(_ failure: DeckFailure) -> Response {
    json(failure.status, WebShapes.Problem(error: Printable.clean(failure.description)))
  }
}

/// Header names HTTPTypes does not predefine.
enum WebHeaders {
  // Literal names that are valid tokens: the initializer cannot fail on them.
  static let upgrade = HTTPField.Name("Upgrade") ?? .connection
  static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options") ?? .cacheControl
  static let referrerPolicy = HTTPField.Name("Referrer-Policy") ?? .cacheControl
  static let frameOptions = HTTPField.Name("X-Frame-Options") ?? .cacheControl
  static let resourcePolicy = HTTPField.Name("Cross-Origin-Resource-Policy") ?? .cacheControl
}
