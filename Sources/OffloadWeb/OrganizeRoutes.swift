import Foundation
import Hummingbird
import HummingbirdWebSocket

/// The organize routes: the collections page, a collection page, their JSON API and their
/// WebSocket (the change feed and the row strokes).
struct OrganizeRoutes: Sendable {
  let service: OrganizeService
  let assets: WebAssets

  /// The query of `GET /api/collection`.
  struct CollectionQuery: WebCommand {
    static let requirement = "name a collection: /api/collection?id=ID"
    var id: String?
  }

  /// Adds the routes to `router`.
  ///
  /// - Parameter router: The server's router.
  func addRoutes(to router: some RouterMethods<WebContext>) {
    let assets = assets
    let service = service
    router.get("/collections") { _, _ in try assets.response("collections.html") }
    router.get("/collections/:id") { _, context in
      // Resolved as the command line resolves it: a name first, then an id prefix.
      let raw = context.parameters.get("id") ?? ""
      let reference = raw.removingPercentEncoding ?? raw
      if let missing = await service.missing(reference) {
        return WebResponse.bytes(
          404, Array(Self.missingPage(missing).utf8), type: "text/html; charset=utf-8")
      }
      return try assets.response("collection.html")
    }
    router.get("/api/collections") { _, _ in try await service.collections() }
    router.get("/api/collection") { request, context in
      let query = try request.query(as: CollectionQuery.self, context: context)
      return try await service.collection(
        OrganizeService.required(query.id, CollectionQuery.requirement))
    }
    router.post("/api/collections") { request, context in
      let command = try await request.decode(as: OrganizeCommand.Collections.self, context: context)
      return try await Self.checkpointing(service) { try await service.changeCollections(command) }
    }
    router.post("/api/items") { request, context in
      let command = try await request.decode(as: OrganizeCommand.Items.self, context: context)
      return try await Self.checkpointing(service) { try await service.changeItems(command) }
    }
    router.post("/api/items/role") { request, context in
      let command = try await request.decode(as: OrganizeRoleCommand.self, context: context)
      return try await Self.checkpointing(service) { try await service.setRole(command) }
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

  /// Carries out a change and answers; the store's checkpoint, when one is due, comes after
  /// the answer (on the service, before its next call), whether the change succeeded or not.
  static func checkpointing<T>(
    _ service: OrganizeService, _ change: () async throws -> T
  ) async throws -> T {
    defer { Task { await service.checkpointIfDue() } }
    return try await change()
  }
}

extension OrganizeCommand.Collections: WebCommand {}
extension OrganizeCommand.Items: WebCommand {}
extension OrganizeRoleCommand: WebCommand {}
extension OrganizeShapes.Changed: ResponseEncodable {}
