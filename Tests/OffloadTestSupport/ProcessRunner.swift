public import Foundation

/// What a finished child process left: its exit status and its two output streams.
public struct ProcessResult: Sendable, CustomStringConvertible {
  /// The exit status (or the terminating signal's number when it was signalled).
  public var status: Int32
  /// Everything written to standard output.
  public var stdout: String
  /// Everything written to standard error.
  public var stderr: String

  public var description: String {
    "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
  }
}

/// Locates and runs executables that SwiftPM built beside the test bundle.
public enum BuiltProduct {
  /// The folder SwiftPM builds products into (the folder of the running test bundle).
  public static var productsDirectory: URL {
    if let override = Environment.value("OFFLOAD_PRODUCTS_DIR") {
      return URL(fileURLWithPath: override, isDirectory: true)
    }
    #if os(macOS)
      for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
      }
    #endif
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = executable.deletingLastPathComponent()
    // On Linux the test runner is `<products>/<Name>PackageTests.xctest`.
    while !folder.path.isEmpty && folder.path != "/" {
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent("offloadctl").path) {
        return folder
      }
      folder.deleteLastPathComponent()
    }
    return Bundle.main.bundleURL
  }

  /// The path of a built executable product.
  public static func path(_ name: String) -> String {
    productsDirectory.appendingPathComponent(name).path
  }

  /// Runs a built product with arguments, an environment and optional standard input.
  ///
  /// The environment replaces the parent's, except `PATH`, which is kept, so tests never
  /// read the developer's own store or settings.
  public static func run(
    _ name: String, _ arguments: [String], environment: [String: String] = [:],
    stdin: String? = nil
  ) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path(name))
    process.arguments = arguments
    var env = environment
    env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    return ProcessResult.collect(process, out: out, err: err)
  }
}

extension ProcessResult {
  /// Reads a started process's two output pipes to the end (both at once, so a large output
  /// cannot block the child), then waits for it to exit.
  ///
  /// - Parameters:
  ///   - process: A running process whose standard output and error are `out` and `err`.
  ///   - out: Its standard output's pipe.
  ///   - err: Its standard error's pipe.
  /// - Returns: Its exit status and everything it wrote.
  public static func collect(_ process: Process, out: Pipe, err: Pipe) -> ProcessResult {
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
      status: process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
