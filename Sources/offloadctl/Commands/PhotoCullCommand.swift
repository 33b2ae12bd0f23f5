import ArgumentParser
import Foundation
import Offload
import PhotoSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension PhotosCommand {
  /// `offloadctl photos cull [DIR]`: the full-screen culling screen.
  struct Cull: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "cull",
      abstract: "Cull photos full-screen: ←/→/↑ decide, u undoes, r reviews, c commits, q quits.",
      discussion: """
        With DIR, resumes the latest session over that folder (or starts one); without, opens \
        the latest session. Every key is saved as it is pressed, so q (or Ctrl-C) needs no \
        save. Terminals that advertise an inline image protocol (kitty: TERM=xterm-kitty; \
        iTerm2: TERM_PROGRAM=iTerm.app) show the photo itself; others show its details only. \
        --viewer CMD runs CMD (split into arguments, no shell) with the photo's path as its \
        last argument on every card, for an image viewer beside the terminal.
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: ArgumentHelp("The photo folder.", valueName: "dir"), completion: .directory)
    var folder: String?

    @Flag(help: "Start a new session over DIR even if one exists.")
    var new = false

    @Flag(help: "Scan subfolders too (when a session starts).")
    var recursive = false

    @Option(help: "Order by capture-date or mtime (when a session starts).")
    var order: PhotoOrder = .captureDate

    @Option(
      help: ArgumentHelp(
        "Run this command with the photo's path as last argument on every card (no shell).",
        valueName: "command"))
    var viewer: String?

    func validate() throws {
      if let viewer {
        do throws(PhotoViewer.ViewerError) {
          _ = try PhotoViewer(command: viewer)
        } catch {
          throw ValidationError(error.description)
        }
      }
    }

    func run() throws {
      guard isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 else {
        throw CommandFailure(
          code: .usage,
          message:
            "photos cull needs a terminal on standard input and output; use `photos swipe` in scripts"
        )
      }
      let photoViewer = try viewer.map { (command) throws(PhotoViewer.ViewerError) in
        try PhotoViewer(command: command)
      }
      let opened = try openOrStart()
      let environment = ProcessInfo.processInfo.environment
      let terminal = try TerminalSession.start()
      var cull = PhotoCullTerminal(
        screen: PhotoCullScreen(session: opened.session, sessionID: opened.id),
        root: opened.library.root,
        inlineImages: InlineImageProtocol.detect(environment: environment), viewer: photoViewer)
      cull.run(on: terminal)
      terminal.finish()
      if !global.quiet {
        let stats = opened.session.statistics
        Output.line(
          "\(PhotoOutput.progressLine(stats)) · pending \(stats.pending) · session \(opened.id); every decision is saved."
        )
      }
    }

    private func openOrStart() throws -> PhotoSessionStore.Opened {
      guard let folder else { return try selection.open(global) }
      let store = try global.photoStore()
      var absolute =
        folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder
      while absolute.count > 1 && absolute.hasSuffix("/") { absolute.removeLast() }
      let existing =
        new
        ? nil
        : try failing { () throws(PhotoSessionError) in
          try PhotoSessions.latestSession(over: absolute, in: store)
        }
      if let existing {
        return try failing { () throws(PhotoSessionError) in try store.open(existing) }
      }
      let opened = try failing { () throws(PhotoSessionError) in
        try store.start(
          folder: absolute,
          options: FolderScanOptions(recursive: recursive, ordering: order.ordering))
      }
      PhotoOutput.warn(opened.issues, quiet: global.quiet)
      return opened
    }
  }
}
