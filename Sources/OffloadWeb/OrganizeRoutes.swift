import Foundation
import Hummingbird
import HummingbirdWebSocket

/// The organize routes: the collections page, a collection page, their JSON API and their
/// WebSocket (the change feed and the row strokes).
struct OrganizeRoutes: Sendable {
  let service: OrganizeService
  let assets: WebAssets

  func add(to router: Router<BasicWebSocketRequestContext>) {
    let assets = assets
    let service = service
    router.get("/collections") { _, _ in WebRoutes.page("collections.html", assets) }
    router.get("/collections/:id") { _, context in
      // Resolved as the command line resolves it: a name first, then an id prefix.
      let raw = context.parameters.get("id") ?? ""
      let reference = raw.removingPercentEncoding ?? raw
      if let missing = await service.missing(reference) {
        return WebResponse.bytes(
          404, Array(Self.missingPage(missing).utf8), type: "text/html; charset=utf-8")
      }
      return WebRoutes.page("collection.html", assets)
    }
    router.get("/api/collections") { _, _ in
      await WebRoutes.answer { () throws(DeckFailure) in try await service.collections() }
    }
    router.get("/api/collection") { request, _ in
      await WebRoutes.answer { () throws(DeckFailure) in
        let id = try OrganizeService.required(
          request.uri.queryParameters.get("id"), "name a collection: /api/collection?id=ID")
        return try await service.collection(id)
      }
    }
    router.post("/api/collections") { request, context in
      await Self.command(request, context, service) { command throws(DeckFailure) in
        try await service.changeCollections(command)
      }
    }
    router.post("/api/items") { request, context in
      await Self.command(request, context, service) { command throws(DeckFailure) in
        try await service.changeItems(command)
      }
    }
    router.post("/api/items/role") { request, context in
      await Self.command(request, context, service, as: OrganizeRoleCommand.self) {
        command throws(DeckFailure) in try await service.setRole(command)
      }
    }
    router.ws("/ws/organize") { inbound, outbound, _ in
      try await OrganizeChannel(service: service).run(inbound: inbound, outbound: outbound)
    }
  }

  /// The page for an address that names no collection: why, and a link back.
  static func missingPage(_ reason: String) -> String {
    var escaped = Printable.clean(reason)
    for (character, entity) in [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;")] {
      escaped = escaped.replacingOccurrences(of: character, with: entity)
    }
    return """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8"><title>No such collection</title>
      <meta name="viewport" content="width=device-width, initial-scale=1"></head>
      <body><main><h1>No such collection</h1>
      <p>\(escaped)</p>
      <p><a href="/collections">Back to the collections</a></p></main></body></html>

      """
  }

  /// Decodes a command, carries it out and answers; the store's checkpoint, when one is due,
  /// comes after the answer (on the service, before its next call).
  static func command<Command: Decodable>(
    _ request: Request, _ context: BasicWebSocketRequestContext, _ service: OrganizeService,
    as type: Command.Type = OrganizeCommand.self,
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
      let command = try? JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
    else {
      return WebResponse.failure(DeckFailure(status: 400, "the body must be a JSON command"))
    }
    let response = await WebRoutes.answer { () throws(DeckFailure) in try await body(command) }
    Task { await service.checkpointIfDue() }
    return response
  }
}
