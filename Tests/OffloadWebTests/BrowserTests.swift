import Foundation
import OffloadTestSupport
import Synchronization
import Testing

/// Whether the browser tests can run: the system's Chromium and Playwright for Python.
enum BrowserTools {
  static func which(_ name: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
  }

  static let hasPlaywright: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import playwright"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus == 0
    } catch {
      return false
    }
  }()

  static var available: Bool { (which("chromium") || which("chromium-browser")) && hasPlaywright }

  /// Runs `python3 ...` (through env) with `environment` plus PATH, returning its output.
  static func run(_ arguments: [String], environment: [String: String]) throws -> ToolResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    var env = environment
    env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errors = Mutex(Data())
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      let data = err.fileHandleForReading.readDataToEndOfFile()
      errors.withLock { $0 = data }
      group.leave()
    }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ToolResult(
      status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
      stderr: errors.withLock { String(decoding: $0, as: UTF8.self) })
  }

  /// The repository: the Playwright script is in Tools/WebTests, screenshots go to the
  /// git-ignored Tests/Output/web.
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
}

extension BrowserTools {
  /// Runs one Playwright script against the built `offloadctl`, with a throw-away HOME, and
  /// checks it passed and left each screenshot named in `Tests/Output/OUTPUT`.
  static func runScript(
    _ name: String, output folder: String, passLine: String, screenshots: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let work = try TemporaryDirectory(prefix: "offload-browser")
    defer { work.remove() }
    let output = repository.appendingPathComponent("Tests/Output/" + folder).path
    let script = repository.appendingPathComponent("Tools/WebTests/" + name)
    try? FileManager.default.removeItem(atPath: output)
    let result = try run(
      [
        "python3", script.path,
        "--offloadctl", BuiltProduct.path("offloadctl"), "--work", work.path, "--out", output,
      ],
      environment: ["HOME": work.path])
    #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.contains(passLine), "\(result)", sourceLocation: sourceLocation)
    for shot in screenshots {
      #expect(
        FileManager.default.fileExists(atPath: output + "/" + shot), "no screenshot \(shot)",
        sourceLocation: sourceLocation)
    }
  }
}

/// The deck in a real browser: Playwright drives the system's Chromium against the built
/// `offloadctl serve` (desktop mouse and phone touch), and checks the store through the CLI.
@Suite("offloadctl serve: in Chromium")
struct BrowserTests {
  @Test(
    "swipes, flings, keys, buttons, undo, review and commit in a desktop and a phone browser",
    .enabled(
      if: BrowserTools.available,
      "needs chromium on PATH and Playwright for Python (apt-get install chromium; pip install playwright); .ci/run installs both"
    ),
    .timeLimit(.minutes(10)))
  func deckInChromium() throws {
    try BrowserTools.runScript(
      "deck_browser_test.py", output: "web", passLine: "PASS: browser deck tests",
      screenshots: [
        "desktop-deck.png", "desktop-drag-left.png", "phone-deck.png", "review-committed.png",
      ])
  }
}

/// The deck under fast hands, and its overlay, in a real browser: every key, button, swipe
/// and undo lands in order on the photo it was meant for, checked through the CLI.
@Suite("offloadctl serve: the deck's input queue in Chromium")
struct DeckQueueBrowserTests {
  @Test(
    "20 keys and buttons 30 ms apart, undo at once, a swipe then keys; overlays in three modes",
    .enabled(
      if: BrowserTools.available,
      "needs chromium on PATH and Playwright for Python (apt-get install chromium; pip install playwright); .ci/run installs both"
    ),
    .timeLimit(.minutes(10)))
  func queueInChromium() throws {
    try BrowserTools.runScript(
      "deck_queue_browser_test.py", output: "web-queue",
      passLine: "PASS: browser deck queue tests",
      screenshots: [
        "overlay-left.png", "overlay-right.png", "overlay-up.png",
        "overlay-left-reduced-motion.png", "overlay-up-more-contrast.png",
      ])
  }
}

/// The home page, the links home, the manifest and `serve --demo` in a real browser.
@Suite("offloadctl serve: home and the installable app in Chromium")
struct HomeBrowserTests {
  @Test(
    "home: progress, lists and plans, links home, the manifest and its icons, rem text, the demo",
    .enabled(
      if: BrowserTools.available,
      "needs chromium on PATH and Playwright for Python (apt-get install chromium; pip install playwright); .ci/run installs both"
    ),
    .timeLimit(.minutes(10)))
  func homeInChromium() throws {
    try BrowserTools.runScript(
      "home_browser_test.py", output: "web-home", passLine: "PASS: browser home tests",
      screenshots: ["home-desktop.png", "home-phone.png", "web-home.png", "web-demo-trip.png"])
  }
}

/// The collections list's edit mode in a real browser: a tap opens, Edit ticks, the toolbar
/// deletes (one undo) and reorders; checked through the CLI.
@Suite("offloadctl serve: the collections list's edit mode in Chromium")
struct CollectionsEditBrowserTests {
  @Test(
    "a tap opens a collection; edit mode ticks, deletes several in one undo, moves one; Done",
    .enabled(
      if: BrowserTools.available,
      "needs chromium on PATH and Playwright for Python (apt-get install chromium; pip install playwright); .ci/run installs both"
    ),
    .timeLimit(.minutes(10)))
  func collectionsEditInChromium() throws {
    try BrowserTools.runScript(
      "collections_edit_browser_test.py", output: "web-collections-edit",
      passLine: "PASS: browser collections edit tests",
      screenshots: ["collections-edit.png", "phone-collections-edit.png"])
  }
}

/// The organize pages in a real browser: drags, swipes, keys, edit mode and the change feed
/// on a desktop mouse context and a phone touch context, checked through the CLI.
@Suite("offloadctl serve: organize in Chromium")
struct OrganizeBrowserTests {
  @Test(
    "lists and plans: keyboard, drags, refused drops, auto-scroll, swipes, edit mode, two pages",
    .enabled(
      if: BrowserTools.available,
      "needs chromium on PATH and Playwright for Python (apt-get install chromium; pip install playwright); .ci/run installs both"
    ),
    .timeLimit(.minutes(10)))
  func organizeInChromium() throws {
    try BrowserTools.runScript(
      "organize_browser_test.py", output: "web-organize", passLine: "PASS: browser organize tests",
      screenshots: [
        "desktop-collections.png", "desktop-plan.png", "desktop-drag-line.png",
        "desktop-invalid-drop.png", "desktop-auto-scroll.png", "desktop-edit-mode.png",
        "phone-swiped.png", "phone-list.png", "phone-header.png", "phone-invalid-drop.png",
        "phone-quick-actions.png",
      ])
  }
}

/// The seeds' phone rows in a real browser: touch through CDP (slow drags, quick and partial
/// swipes, the revealed row kept across strokes, long press, scroll, edit mode) and the desktop's
/// hover and focus affordances; checked through the CLI.
@Suite("offloadctl serve: phone rows in Chromium")
struct PhoneRowsBrowserTests {
  @Test(
    "slow drag never deletes, quick swipe deletes, partial swipe reveals and stays, taps close, long press reorders, scroll does neither, edit mode",
    .enabled(
      if: BrowserTools.available,
      "needs chromium on PATH and Playwright for Python (apt-get install chromium; pip install playwright); .ci/run installs both"
    ),
    .timeLimit(.minutes(10)))
  func phoneRowsInChromium() throws {
    try BrowserTools.runScript(
      "phone_rows_browser_test.py", output: "web-phone-rows",
      passLine: "PASS: browser phone rows tests",
      screenshots: [
        "phone-row-open.png", "phone-row-armed.png", "phone-row-deleted.png",
        "phone-row-lifted.png", "phone-edit-mode.png", "desktop-row-hover.png",
      ])
  }
}

/// What a tool run left: its exit status and output.
struct ToolResult: CustomStringConvertible {
  var status: Int32
  var stdout: String
  var stderr: String
  var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}
