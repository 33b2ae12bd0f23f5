import Hummingbird
import HummingbirdWebSocket

/// The home routes: the home page at `/` (the photo session's progress, the lists and plans)
/// and the web app manifest that makes the pages installable as a standalone app.
struct HomeRoutes: Sendable {
  let assets: WebAssets

  /// Adds the routes to `router`.
  ///
  /// - Parameter router: The server's router.
  func add(to router: Router<BasicWebSocketRequestContext>) {
    let assets = assets
    router.get("/") { _, _ in WebRoutes.page("home.html", assets) }
    // At the root, so its scope covers every page; revalidated like the other assets.
    router.get("/manifest.webmanifest") { _, _ in
      WebRoutes.page("manifest.webmanifest", assets, cache: true)
    }
  }
}
