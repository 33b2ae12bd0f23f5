import ArgumentParser
import Foundation
import Logging
import Offload
import OffloadWeb
import PhotoSession

/// `offloadctl serve`: the photo deck in a browser.
///
/// An `AsyncParsableCommand`: the server runs on the caller's task until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Cull photos in a browser: swipe, use the keys or the buttons, review and commit.",
    discussion: """
      Serves the store's photo sessions (the same ones `offloadctl photos` uses) on a local \
      web server. The first line printed is the address to open, with a fresh random token; \
      nobody without it gets in. Listens on loopback unless --host says otherwise; beyond \
      loopback it speaks only HTTPS, with a certificate made once for the store, and prints \
      the certificate's SHA-256 fingerprint on stderr to compare with the one the browser \
      shows. Ctrl-C stops it.
      """)

  @OptionGroup var global: GlobalOptions

  @Option(help: ArgumentHelp("The address to listen on.", valueName: "addr"))
  var host = "127.0.0.1"

  @Option(help: ArgumentHelp("The port; 0 picks a free one.", valueName: "n"))
  var port = 8_765

  @Flag(
    help:
      "Serve HTTPS on loopback too (beyond loopback it always does), with the store's own certificate."
  )
  var tls = false

  @Flag(help: "Open the address in the default browser.")
  var open = false

  @Flag(
    help:
      "Serve a throw-away store with a session over generated photos (removed on exit); your own store and Trash are never touched."
  )
  var demo = false

  @Option(
    help: ArgumentHelp(
      "A folder the page may start sessions in (repeatable; default: your home folder).",
      valueName: "dir"),
    completion: .directory)
  var root: [String] = []

  @Option(
    help: ArgumentHelp(
      "Write each stroke as a gesture trace (JSON lines) into this folder.", valueName: "dir"),
    completion: .directory)
  var recordTraces: String?

  func validate() throws {
    guard (0...65_535).contains(port) else {
      throw ValidationError("--port must be between 0 and 65535, not \(port)")
    }
    guard !host.isEmpty, !host.contains("/") else {
      throw ValidationError("--host must be an address such as 127.0.0.1, not \"\(host)\"")
    }
  }

  func run() async throws {
    let storeRoot: String
    var environment = ProcessInfo.processInfo.environment
    var roots = root
    var demoFolder: String?
    if demo {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("offload-serve-demo-\(ProcessInfo.processInfo.processIdentifier)")
        .path
      demoFolder = folder
      let prepared = try failing { () throws(PhotoSessionError) in
        try WebDemo.prepare(in: folder, environment: environment)
      }
      storeRoot = prepared.store
      environment = prepared.environment
      roots = [prepared.photos]
    } else {
      storeRoot = try global.storeLocation().path
      // Opened as every command opens it: a store in a folder a sync engine carries is shared
      // before the server writes to it, and a device whose identity came with a copied store
      // moves to a new replica id before its pages write.
      for line in try global.opened(forChange: true).notices { Output.error("offloadctl: \(line)") }
    }
    defer { if let demoFolder { try? FileManager.default.removeItem(atPath: demoFolder) } }
    var isFolder: ObjCBool = false
    if let recordTraces {
      try? FileManager.default.createDirectory(
        atPath: recordTraces, withIntermediateDirectories: true)
      guard FileManager.default.fileExists(atPath: recordTraces, isDirectory: &isFolder),
        isFolder.boolValue
      else {
        throw CommandFailure(
          code: .cannotCreate, message: "cannot create the trace folder \"\(recordTraces)\"")
      }
    }
    roots = (roots.isEmpty ? [environment["HOME"] ?? "/"] : roots).map { path in
      URL(fileURLWithPath: path).standardizedFileURL.path
    }
    // Hummingbird's own messages at error level unless LOG_LEVEL says otherwise: the
    // address is the command's only output.
    var logger = Logger(label: "offloadctl.serve")
    logger.logLevel = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .error
    var options = WebServer.Options(storeRoot: storeRoot, environment: environment)
    options.host = host
    options.port = port
    options.roots = roots
    options.recordTraces = recordTraces.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    options.tls = tls
    let server = WebServer(options: options, logger: logger)
    let openBrowser = open
    let loopback = server.isLoopbackOnly
    let shownHost = host
    // The server stops gracefully on SIGINT and SIGTERM, closing each WebSocket with a
    // handshake; a peer that never answers (a phone gone to sleep) must not hold the process,
    // so after a grace period it ends anyway. Every decision is already journaled and a
    // commit resumes where it stopped, so nothing is lost.
    let leftover = demoFolder
    let signals: [Int32] = [SIGINT, SIGTERM]
    let watchdogs = signals.map { number in
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.shutdownGrace) {
          if let leftover { try? FileManager.default.removeItem(atPath: leftover) }
          Foundation.exit(OffloadExitCode.success.rawValue)
        }
      }
      source.resume()
      return source
    }
    defer { watchdogs.forEach { $0.cancel() } }
    do {
      try await server.serve { ready in
        Output.line(ready.address)
        if let renewal = ready.renewal {
          Output.error("offloadctl: \(renewal): made a new certificate for this store")
        }
        if let fingerprint = ready.fingerprint {
          Output.error(
            "offloadctl: certificate SHA-256 fingerprint \(fingerprint) (the browser warns on the first visit: go on only if it shows this fingerprint)"
          )
        }
        if !loopback {
          Output.error(
            "offloadctl: listening on \(shownHost), reachable from other machines: on a phone on the same network, open this address with the computer's address in place of 127.0.0.1"
          )
        }
        if openBrowser { Self.launchBrowser(ready.address) }
      }
    } catch {
      throw CommandFailure(
        code: .temporaryFailure, message: "cannot serve on \(shownHost) port \(port): \(error)")
    }
  }

  /// How long a stopping server waits for open WebSockets to close, in seconds.
  static let shutdownGrace = 3.0

  private static func launchBrowser(_ address: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    #if os(macOS)
      process.arguments = ["open", address]
    #else
      process.arguments = ["xdg-open", address]
    #endif
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      Output.error("offloadctl: warning: could not open a browser; open the address above")
    }
  }
}
