import Hummingbird
import HummingbirdWebSocket

/// The home routes: the home page at `/` (the photo session's progress, the lists and plans),
/// the web app manifest that makes the pages installable as a standalone app, and the
/// scripts, styles and icons under `/assets/`.
struct HomeRoutes: Sendable {
  let assets: WebAssets

  /// Adds the routes to `router`.
  ///
  /// - Parameter router: The server's router.
  func addRoutes(to router: some RouterMethods<WebContext>) {
    let assets = assets
    router.get("/") { _, _ in try assets.response("home.html") }
    // At the root, so its scope covers every page; revalidated like the other assets.
    router.get("/manifest.webmanifest") { _, _ in
      try assets.response("manifest.webmanifest", revalidate: true)
    }
    router.get("/assets/:name") { _, context in
      try assets.response(context.parameters.get("name") ?? "", revalidate: true)
    }
  }
}
