import Foundation
import OffloadTestSupport
import Testing

/// `offloadctl organize` clears the terminal, so what opening the store says (the merge
/// report, the line saying the store became shared) is shown on the screen's first status
/// line, not on stderr where the screen would draw over it.
@Suite(
  "offloadctl organize: what opening the store said, on the screen", .serialized,
  .timeLimit(.minutes(5)),
  .enabled(
    if: PseudoTerminal.isAvailable,
    "needs /dev/ptmx (a devpts mount) to open a pseudo-terminal; no other tool is needed"))
struct OrganizeNoticeEndToEndTests {
  let work: TemporaryDirectory

  init() throws {
    work = try TemporaryDirectory(prefix: "offloadctl-organize-notice")
  }

  /// One device's environment: its store under `<name>/Sync` (marked by Syncthing's
  /// `.stfolder`), its own state folder and name.
  func environment(_ name: String) -> [String: String] {
    [
      "OFFLOAD_HOME": work.appending(name + "/Sync/offload"), "HOME": work.appending(name),
      "XDG_STATE_HOME": work.appending(name + "/state"), "OFFLOAD_DEVICE_NAME": name,
      "TZ": "UTC", "SWIFT_BACKTRACE": "enable=no",
    ]
  }

  @discardableResult
  func ok(_ name: String, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation)
    throws -> ProcessResult
  {
    let result = try BuiltProduct.run("offloadctl", arguments, environment: environment(name))
    #expect(result.status == 0, "\(name): \(arguments): \(result)", sourceLocation: sourceLocation)
    return result
  }

  func organize(_ name: String) throws -> PseudoTerminal {
    try PseudoTerminal(
      product: "offloadctl", ["organize", "Trip"], columns: 80, rows: 24,
      environment: environment(name))
  }

  func quit(_ terminal: PseudoTerminal) throws {
    terminal.send("q")
    #expect(try terminal.waitForExit() == .exited(0))
  }

  @Test("the merge report of the phone's changes is on the first frame, and only there")
  func mergeReportOnScreen() throws {
    defer { work.remove() }
    try FileManager.default.createDirectory(
      atPath: work.appending("laptop/Sync/.stfolder"), withIntermediateDirectories: true)
    try ok("laptop", "collection", "create", "Trip", "--kind", "list")
    try ok("laptop", "item", "add", "Trip", "Hotel")
    try FileManager.default.copyItem(
      atPath: work.appending("laptop/Sync"), toPath: work.appending("phone/Sync"))
    try ok("phone", "item", "add", "Trip", "Sunscreen")
    try ok("phone", "item", "add", "Trip", "Charger")
    // The phone's folder reaches the laptop, as the sync engine would carry it.
    let laptopReplicas = work.appending("laptop/Sync/offload/replicas")
    let phoneReplicas = work.appending("phone/Sync/offload/replicas")
    let laptopIDs = Set(try FileManager.default.contentsOfDirectory(atPath: laptopReplicas))
    let phoneID = try #require(
      try FileManager.default.contentsOfDirectory(atPath: phoneReplicas).first {
        !laptopIDs.contains($0)
      })
    try FileManager.default.createDirectory(
      atPath: laptopReplicas + "/" + phoneID, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: phoneReplicas + "/" + phoneID)
    where name.hasPrefix("ops.") || name == "device.json" {
      try FileManager.default.copyItem(
        atPath: phoneReplicas + "/" + phoneID + "/" + name,
        toPath: laptopReplicas + "/" + phoneID + "/" + name)
    }

    let terminal = try organize("laptop")
    try terminal.waitForScreen { $0.contains("row 1/3") }
    #expect(terminal.screen.line(22) == "2 changes from phone")
    try quit(terminal)
    // It was shown: the next command has nothing more to report.
    let next = try ok("laptop", "collection", "show", "Trip")
    #expect(next.stderr.isEmpty, "\(next)")
  }

  @Test("organize as the first command in a synced store shows that the store is now shared")
  func sharingLineOnScreen() throws {
    defer { work.remove() }
    try ok("laptop", "collection", "create", "Trip", "--kind", "list")
    try ok("laptop", "item", "add", "Trip", "Hotel")
    try FileManager.default.createDirectory(
      atPath: work.appending("laptop/Sync/.stfolder"), withIntermediateDirectories: true)
    let terminal = try organize("laptop")
    try terminal.waitForScreen { $0.contains("row 1/1") }
    let status = (20...22).map { terminal.screen.line($0) }.joined(separator: " ")
    #expect(
      status
        == "this store is now shared between devices, each writing its own log, because it "
        + "lies in a folder a sync engine carries: found Syncthing's .stfolder in "
        + work.appending("laptop/Sync"), "\(terminal.screen.text)")
    try quit(terminal)
    #expect(FileManager.default.fileExists(atPath: work.appending("laptop/Sync/offload/replicas")))
  }
}
