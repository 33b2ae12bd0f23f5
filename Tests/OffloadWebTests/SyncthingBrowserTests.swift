import Foundation
import OffloadTestSupport
import Testing

/// An organize page open on one device shows another device's change once two real
/// Syncthing daemons carry it, without a reload (`Tools/ReplicaTests/syncthing_browser_test.py`).
@Suite("offloadctl serve on two devices: a page sees the other device's change")
struct SyncthingBrowserTests {
  @Test(
    "the laptop's page shows the phone's added and ticked items after the folders meet, and keeps its own",
    .enabled(
      if: BrowserTools.available && SyncthingHarness.shouldRun,
      "needs syncthing, chromium and Playwright for Python (apt-get install syncthing chromium; pip install playwright); .ci/run installs them"
    ),
    .timeLimit(.minutes(4)))
  func pageSeesTheOtherDevice() throws {
    let output = BrowserTools.repository.appendingPathComponent("Tests/Output/web-replicas").path
    try? FileManager.default.removeItem(atPath: output)
    let result = try SyncthingHarness.run(
      "syncthing_browser_test.py", ["--out", output], budget: .seconds(180))
    if result.status == 77 {
      Issue.record("a tool is missing, and this run requires it (CI):\n\(result)")
      return
    }
    #expect(
      result.status == 0 && result.stdout.contains("PASS: syncthing in the browser"),
      "the page did not show the other device's change:\n\(result)")
    #expect(FileManager.default.fileExists(atPath: output + "/replica-page.png"))
  }
}
