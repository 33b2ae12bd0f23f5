import ArgumentParser
import Foundation
import Offload
import PhotoSession
import TerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `offloadctl photos`: cull a folder of photos by swipes, review, and commit.
struct PhotosCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "photos",
    abstract: "Cull a folder of photos: left trashes, right favorites, up keeps; then commit.",
    discussion: """
      Decisions are saved (journaled and synced) as they are made; nothing happens to a photo \
      until `photos commit`, which moves trashed photos to the freedesktop.org Trash \
      ($XDG_DATA_HOME/Trash, restorable from a file manager) and writes xmp:Rating="5" into a \
      favorite's XMP sidecar. Photos are never deleted. Commands act on the latest session \
      unless --session names one.
      """,
    subcommands: [
      Start.self, Status.self, Swipe.self, Mark<Stars>.self, Mark<PhotoMarks.Flag>.self,
      Mark<PhotoMarks.ColorLabel>.self,
      Skip.self, Undo.self, Review.self, Change.self, Commit.self, Restore.self, Rescan.self,
      Sessions.self, Cull.self, PhotoPreviewCommand.self,
    ]
  )

  // MARK: start

  struct Start: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "start",
      abstract: "Start a session over a photo folder (skipped files are listed on stderr).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The photo folder.", valueName: "dir"), completion: .directory)
    var folder: String

    @Flag(help: "Scan subfolders too.")
    var recursive = false

    @Option(help: "Order by EXIF capture date (else modification time), or by mtime only.")
    var order: PhotoOrder = .captureDate

    @Option(help: "How many actions undo can take back.")
    var undoDepth = 5

    func run() throws {
      let store = try global.photoStore()
      let opened = try failing {
        () throws(PhotoSessionError) in
        try store.start(
          folder: folder,
          options: FolderScanOptions(recursive: recursive, ordering: order.ordering),
          undoDepth: undoDepth)
      }
      PhotoOutput.warn(opened.issues, quiet: global.quiet)
      let shape = PhotoShapes.SessionShape(opened)
      if global.json {
        try Output.document(PhotoShapes.Started(session: shape, skipped: opened.issues))
      } else if !global.quiet {
        Output.line(
          "Started photo session \(shape.id): \(shape.statistics.total.counting("photo")) in \(shape.root)"
            + (opened.issues.isEmpty ? "" : " (\(opened.issues.count) skipped)"))
        PhotoOutput.printCurrent(opened.session)
      }
    }
  }

  // MARK: status

  struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "status",
      abstract: "Show the session's progress and the photo on screen.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    func run() throws {
      let opened = try selection.open(global)
      if global.json {
        try Output.document(
          PhotoShapes.StatusShape(
            session: PhotoShapes.SessionShape(opened),
            current: opened.session.current.map { PhotoShapes.CardShape($0, opened.library) },
            next: opened.session.preloadWindow.map { PhotoShapes.CardShape($0, opened.library) },
            repairs: opened.session.repairs))
        return
      }
      PhotoOutput.warn(repairs: opened.session.repairs, quiet: global.quiet)
      guard !global.quiet else { return }
      let stats = opened.session.statistics
      Output.line("Session \(opened.id) · \(opened.manifest.root)")
      Output.line(PhotoOutput.progressLine(stats))
      Output.line(
        "trash \(stats.trash) · favorite \(stats.favorite) · keep \(stats.keep) · pending \(stats.pending)"
          + " · committed \(stats.committed)"
          + (stats.failed > 0 ? " · failed \(stats.failed)" : ""))
      PhotoOutput.printCurrent(opened.session)
    }
  }

  // MARK: swipe

  struct Swipe: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "swipe",
      abstract: "Decide the photo on screen: left = trash, right = favorite, up = keep.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: ArgumentHelp("left, right or up.", valueName: "direction"))
    var direction: SwipeDirection

    func run() throws {
      try PhotosCommand.actOnCard(global, selection, key: .decided) {
        (session) throws(PhotoSessionError) in
        try session.swipe(direction)
      } text: { card, session in
        Output.line(
          "\(card.photo) → \(card.decision?.rawValue ?? "") (\(PhotoOutput.progressLine(session.statistics)))"
        )
        if session.state.isAtEnd {
          Output.line("Every photo has a decision: review them, then `offloadctl photos commit`.")
        }
      }
    }
  }

  // MARK: undo

  struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "undo",
      abstract: "Undo the last decision or change (the last 5, since the last commit).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    func run() throws {
      try PhotosCommand.actOnCard(global, selection, key: .photo) {
        (session) throws(PhotoSessionError) in
        try session.undo()
      } text: { card, _ in
        if let decision = card.decision {
          Output.line("Undone: \(card.photo) is \(decision.rawValue) again")
        } else {
          Output.line("Undone: \(card.photo) has no decision and is on screen again")
        }
      }
    }
  }

  // MARK: review

  struct Review: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "review",
      abstract: "List the decided photos, with their decision and commit state.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Option(help: "Only photos with this decision: trash, favorite or keep.")
    var decision: PhotoDecision?

    @Flag(help: "Only photos not committed yet.")
    var pending = false

    func run() throws {
      let opened = try selection.open(global)
      var items = opened.session.review(decision)
      if pending { items = items.filter { $0.commitState != .applied } }
      if global.json {
        try Output.document(PhotoShapes.ReviewShape(session: opened.id, items: items))
        return
      }
      guard !global.quiet else { return }
      if items.isEmpty {
        Output.line("No decided photos" + (decision.map { " marked \($0)" } ?? ""))
      }
      for item in items { Output.line(PhotoOutput.reviewLine(item)) }
    }
  }

  // MARK: change

  struct Change: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "change",
      abstract: "Change the decision of a decided photo before it is committed.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: ArgumentHelp("The photo, as `review` lists it.", valueName: "photo"))
    var photo: String

    @Argument(help: ArgumentHelp("trash, favorite or keep.", valueName: "decision"))
    var decision: PhotoDecision

    func run() throws {
      let opened = try selection.open(global)
      let session = opened.session
      try failing { () throws(PhotoSessionError) in try session.change(photo, to: decision) }
      try global.report(
        PhotoShapes.Changed(photo: photo, decision: decision, statistics: session.statistics)
      ) {
        "\(photo) → \(decision.rawValue)"
      }
    }
  }

  // MARK: sessions

  struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sessions",
      abstract: "List the photo sessions, oldest first.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
      let store = try global.photoStore()
      let sessions = try failing { () throws(PhotoSessionError) in try store.sessions() }
      let others = PhotoSessions.otherDevices(
        root: try global.storeLocation().path, environment: ProcessInfo.processInfo.environment)
      if global.json {
        try Output.document(
          PhotoShapes.SessionList(
            sessions: sessions.map(PhotoShapes.SummaryShape.init),
            otherDevices: others.isEmpty ? nil : others.map(PhotoShapes.DeviceSessions.init)))
        return
      }
      guard !global.quiet else { return }
      if sessions.isEmpty {
        Output.line("No photo sessions; start one with `offloadctl photos start DIR`.")
      }
      for summary in sessions {
        if let stats = summary.statistics {
          Output.line(
            "\(summary.id)  \(PhotoOutput.progressLine(stats))  pending \(stats.pending)  \(summary.root)"
          )
        } else {
          Output.line("\(summary.id)  unreadable: \(summary.problem ?? "")")
        }
      }
      PhotoOutput.listOtherDevices(others)
    }
  }
}
