public import Foundation

/// The Syncthing end-to-end harness in `Tools/ReplicaTests`: two Syncthing daemons on
/// 127.0.0.1, each carrying one device's store folder, driven by a Python script that runs the
/// built `offloadctl` as two devices.
///
/// CI (`.ci/run`) installs Syncthing and exports `OFFLOAD_REQUIRE_SYNCTHING=1`, and CI services
/// set `CI`: there a missing `syncthing` fails the tests. Elsewhere they run when `syncthing` is
/// on `PATH`.
public enum SyncthingHarness {
  /// Whether `syncthing` is on `PATH`.
  public static var isInstalled: Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/syncthing")
    }
  }

  /// Whether the tests must run even without Syncthing (and then fail): in CI.
  public static var isRequired: Bool {
    Environment.value("OFFLOAD_REQUIRE_SYNCTHING") == "1" || Environment.value("CI") != nil
  }

  /// Whether the Syncthing tests run: Syncthing is installed, or they are required.
  public static var shouldRun: Bool { isInstalled || isRequired }

  /// The repository's root folder.
  public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Runs a script of `Tools/ReplicaTests` with `python3`, the built `offloadctl` and a fresh
  /// work folder, and stops it (and with it its daemons) when it outlasts `budget`.
  ///
  /// - Parameters:
  ///   - script: The script's file name in `Tools/ReplicaTests`.
  ///   - arguments: More arguments for the script.
  ///   - budget: The time the script may take.
  /// - Returns: What the script left; its status is 124 when it was stopped for time.
  /// - Throws: When the work folder cannot be made or `python3` cannot be started.
  public static func run(_ script: String, _ arguments: [String] = [], budget: Duration) throws
    -> ProcessResult
  {
    let work = try TemporaryDirectory(prefix: "offload-syncthing")
    defer { work.remove() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      [
        "python3", repository.appendingPathComponent("Tools/ReplicaTests/" + script).path,
        "--offloadctl", BuiltProduct.path("offloadctl"), "--work", work.path,
      ] + arguments
    process.environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": work.path,
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let timedOut = TimeoutFlag()
    let seconds = Double(budget.components.seconds)
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [process] in
      guard process.isRunning else { return }
      timedOut.set()
      process.terminate()  // the script stops its daemons on SIGTERM
    }
    var result = ProcessResult.collect(process, out: out, err: err)
    if timedOut.isSet {
      result.status = 124
      result.stderr += "stopped: the script outlasted its budget of \(budget)\n"
    }
    return result
  }
}

/// A flag set once from another thread.
private final class TimeoutFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool { lock.withLock { value } }

  func set() { lock.withLock { value = true } }
}
