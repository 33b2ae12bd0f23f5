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
      Start.self, Status.self, Swipe.self, Rate.self, FlagCommand.self, LabelCommand.self,
      Skip.self, Undo.self, Review.self, Change.self, Commit.self, Restore.self, Sessions.self,
      Cull.self, PhotoPreviewCommand.self,
    ]
  )

  // MARK: start

  struct Start: ParsableCommand {
    static let configuration = CommandConfiguration(
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
      abstract: "Decide the photo on screen: left = trash, right = favorite, up = keep.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: ArgumentHelp("left, right or up.", valueName: "direction"))
    var direction: SwipeDirection

    func run() throws {
      let opened = try selection.open(global)
      let session = opened.session
      let index = try failing { () throws(PhotoSessionError) in
        try session.swipe(direction)
      }
      let card = session.card(at: index)
      if global.json {
        try Output.document(
          PhotoShapes.Decided(
            decided: PhotoShapes.CardShape(card, opened.library),
            current: session.current.map { PhotoShapes.CardShape($0, opened.library) },
            statistics: session.statistics))
      } else if !global.quiet {
        Output.line(
          "\(card.photo) → \(card.decision?.rawValue ?? "") (\(PhotoOutput.progressLine(session.statistics)))"
        )
        if session.state.isAtEnd {
          Output.line("Every photo has a decision: review them, then `offloadctl photos commit`.")
        }
      }
    }
  }

  // MARK: rate, flag, label, skip

  /// Runs a mark (or skip) on the card on screen and prints the result.
  static func mark(
    _ global: GlobalOptions, _ selection: SessionSelection, verb: String,
    _ action: (CullingSession) throws(PhotoSessionError) -> Void
  ) throws {
    let opened = try selection.open(global)
    let session = opened.session
    let before = session.state.cursor
    let photo = session.current?.photo
    try failing { () throws(PhotoSessionError) in try action(session) }
    let index = photo.flatMap { session.state.photos.firstIndex(of: $0) } ?? before
    let card = session.card(at: index)
    if global.json {
      try Output.document(
        PhotoShapes.Marked(
          photo: PhotoShapes.CardShape(card, opened.library),
          current: session.current.map { PhotoShapes.CardShape($0, opened.library) },
          statistics: session.statistics))
    } else if !global.quiet {
      Output.line("\(card.photo): \(verb)" + (PhotoOutput.marksText(card).map { " (\($0))" } ?? ""))
    }
  }

  struct Rate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Rate the photo on screen 0 to 5 stars (written as xmp:Rating at commit).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: ArgumentHelp("0 to 5.", valueName: "stars"))
    var stars: Int

    func validate() throws {
      guard (0...5).contains(stars) else {
        throw ValidationError("a rating is 0 to 5 stars, not \(stars)")
      }
    }

    func run() throws {
      try PhotosCommand.mark(global, selection, verb: "rated \(stars)") {
        (session) throws(PhotoSessionError) in try session.rate(stars)
      }
    }
  }

  struct FlagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "flag",
      abstract: "Flag the photo on screen: pick, or reject (written as xmp:Rating -1).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: ArgumentHelp("pick or reject.", valueName: "flag"))
    var flag: PhotoMarks.Flag

    func run() throws {
      try PhotosCommand.mark(global, selection, verb: "flagged \(flag.rawValue)") {
        (session) throws(PhotoSessionError) in try session.flag(flag)
      }
    }
  }

  struct LabelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "label",
      abstract: "Give the photo on screen a colour label (written as xmp:Label at commit).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: ArgumentHelp("red, yellow, green, blue or purple.", valueName: "colour"))
    var colour: PhotoMarks.ColorLabel

    func run() throws {
      try PhotosCommand.mark(global, selection, verb: "labelled \(colour.rawValue)") {
        (session) throws(PhotoSessionError) in try session.label(colour)
      }
    }
  }

  struct Skip: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Move the photo on screen to the end of the queue without a decision.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    func run() throws {
      try PhotosCommand.mark(global, selection, verb: "skipped to the end of the queue") {
        (session) throws(PhotoSessionError) in try session.skip()
      }
    }
  }

  // MARK: undo

  struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Undo the last decision or change (the last 5, since the last commit).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    func run() throws {
      let opened = try selection.open(global)
      let session = opened.session
      let index = try failing { () throws(PhotoSessionError) in try session.undo() }
      let card = session.card(at: index)
      if global.json {
        try Output.document(
          PhotoShapes.Undone(
            photo: PhotoShapes.CardShape(card, opened.library),
            current: session.current.map { PhotoShapes.CardShape($0, opened.library) },
            statistics: session.statistics))
      } else if !global.quiet {
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
      if global.json {
        try Output.document(
          PhotoShapes.Changed(photo: photo, decision: decision, statistics: session.statistics))
      } else if !global.quiet {
        Output.line("\(photo) → \(decision.rawValue)")
      }
    }
  }

  // MARK: commit

  struct Commit: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Apply the pending decisions: trash to the Trash, favorites to XMP sidecars.",
      discussion: """
        Asks for confirmation on a terminal; scripts pass --yes. A photo that vanished or \
        cannot be changed is reported and stays pending (exit status 1); the next commit \
        tries it again.
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Flag(help: "List what would be done without touching any file.")
    var dryRun = false

    @Flag(name: [.customShort("y"), .long], help: "Do not ask for confirmation.")
    var yes = false

    @Option(help: "Photos per batch (two journal syncs per batch).")
    var batchSize = 100

    func run() throws {
      let opened = try selection.open(global)
      let session = opened.session
      let stats = session.statistics
      // With nothing pending a commit changes nothing: no question needed.
      if !dryRun && !yes && (stats.pending > 0 || session.state.commitRunning) {
        guard isatty(STDIN_FILENO) == 1 else {
          throw CommandFailure(
            code: .usage,
            message:
              "commit changes files and standard input is not a terminal to confirm: pass --yes (or --dry-run to see the plan)"
          )
        }
        let question =
          "Commit \(PhotoOutput.commitSummary(session, library: opened.library))? [y/N] "
        Output.write(TerminalText.escaped(question), to: STDERR_FILENO)
        let answer = readLine(strippingNewline: true) ?? ""
        guard ["y", "yes"].contains(answer.lowercased()) else {
          throw CommandFailure(code: .failure, message: "commit cancelled; nothing was changed")
        }
      }
      let showProgress = !dryRun && !global.quiet && isatty(STDERR_FILENO) == 1
      var sizes: [String: Int] = [:]
      for item in session.review(.trash) where item.commitState != .applied {
        sizes[item.photo] = opened.library.byteCount(of: item.photo)
      }
      let report = try failing { () throws(PhotoSessionError) in
        try session.commit(batchSize: batchSize, dryRun: dryRun) { progress in
          guard showProgress else { return }
          Output.write(
            "\r\u{1B}[Kcommitting \(progress.done) / \(progress.total)", to: STDERR_FILENO)
        }
      }
      if showProgress { Output.write("\r\u{1B}[K", to: STDERR_FILENO) }
      let trashBytes = report.applied.filter { $0.decision == .trash }.reduce(0) {
        $0 + (sizes[$1.photo] ?? 0)
      }
      try finish(report, session, trashBytes: trashBytes)
    }

    private func finish(_ report: CommitReport, _ session: CullingSession, trashBytes: Int) throws {
      if global.json {
        try Output.document(
          PhotoShapes.Committed(
            report: report, trashBytes: trashBytes, statistics: session.statistics))
      } else if !global.quiet {
        for entry in report.applied {
          Output.line("\(entry.photo): \(entry.detail)")
        }
        let verb = report.dryRun ? "Would commit" : "Committed"
        Output.line(
          "\(verb) \(report.applied.count.counting("photo"))"
            + (trashBytes > 0
              ? " (\(trashBytes.counting("byte")) \(report.dryRun ? "would go" : "moved") to the Trash)"
              : "")
            + (report.failed.isEmpty ? "" : "; \(report.failed.count) failed"))
      }
      let not = report.dryRun ? "would not be" : "was not"
      for entry in report.failed where !global.quiet {
        Output.error("offloadctl: warning: \(entry.photo) \(not) committed: \(entry.detail)")
      }
      if !report.failed.isEmpty {
        throw CommandFailure(
          code: .failure,
          message: report.dryRun
            ? "\(report.failed.count.counting("photo")) would not be committed; they would stay pending"
            : "\(report.failed.count.counting("photo")) could not be committed; they stay pending and the next commit tries them again"
        )
      }
    }
  }

  // MARK: restore

  struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Move photos this session trashed back from the Trash to where they were.",
      discussion: """
        Every file of each card goes back byte for byte and its .trashinfo is removed. A photo \
        whose original path is taken is refused and left in the Trash (exit status 1).
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: "Photos to restore, as listed by `photos review`.")
    var photos: [String] = []

    @Flag(help: "Restore every photo this session moved to the Trash.")
    var all = false

    func validate() throws {
      guard all != !photos.isEmpty else {
        throw ValidationError("give the photos to restore, or --all (not both)")
      }
    }

    func run() throws {
      let opened = try selection.open(global)
      let trashed = opened.session.review(.trash).filter { $0.commitState == .applied }
        .map(\.photo)
      let chosen = all ? trashed : photos
      var result = PhotoShapes.Restored()
      for photo in chosen {
        do throws(PhotoSessionError) {
          guard trashed.contains(photo) else {
            throw PhotoSessionError(
              .restoreRefused, path: photo,
              description: "\"\(photo)\" was not moved to the Trash by this session")
          }
          let detail = try opened.library.restore(photo)
          result.restored.append(.init(photo: photo, detail: detail))
          if !global.quiet && !global.json { Output.line("\(photo): \(detail)") }
        } catch {
          result.failed.append(.init(photo: photo, detail: error.description, failure: error.code))
          if !global.quiet { Output.error("offloadctl: warning: \(error.description)") }
        }
      }
      try opened.library.flush()
      if global.json { try Output.document(result) }
      let failures = result.failed.count
      if failures > 0 {
        throw CommandFailure(
          code: .failure,
          message: "\(failures.counting("photo")) could not be restored; they stay in the Trash")
      }
    }
  }

  // MARK: sessions

  struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the photo sessions, oldest first.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
      let store = try global.photoStore()
      let sessions = try failing { () throws(PhotoSessionError) in try store.sessions() }
      if global.json {
        try Output.document(
          PhotoShapes.SessionList(sessions: sessions.map(PhotoShapes.SummaryShape.init)))
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
    }
  }
}
