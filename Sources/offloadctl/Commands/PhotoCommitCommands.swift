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

// `photos commit` and `photos restore`: the Trash and the sidecars, and back.
extension PhotosCommand {
  // MARK: commit

  struct Commit: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "commit",
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
      commandName: "restore",
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
}
