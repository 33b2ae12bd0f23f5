import Foundation
import OffloadTestSupport
import Testing

/// One store on two devices, carried by two real Syncthing daemons on 127.0.0.1
/// (`Tools/ReplicaTests/syncthing_test.py`): edits made apart on both devices all survive the
/// folders' meeting, with no conflict copy and a clean `store verify` on both (issue 28).
@Suite("offloadctl on two devices: one store carried by Syncthing", .serialized)
struct SyncthingEndToEndTests {
  @Test(
    "apart, the laptop adds and moves, the phone adds and ticks; after the folders meet both hold all four edits",
    .enabled(
      if: SyncthingHarness.shouldRun,
      "needs syncthing on PATH (apt-get install syncthing); .ci/run installs it"),
    .timeLimit(.minutes(4)))
  func nothingLostBetweenTwoDevices() throws {
    let result = try SyncthingHarness.run("syncthing_test.py", budget: .seconds(180))
    if result.status == 77 {
      Issue.record(
        "syncthing is not installed, and this run requires it (CI): apt-get install syncthing\n\(result)"
      )
      return
    }
    #expect(
      result.status == 0 && result.stdout.contains("PASS: syncthing end to end"),
      "the two devices did not end with the same store holding every edit:\n\(result)")
  }
}
