import ArgumentParser
import Foundation
import Offload
import PhotoSession

// `photos rescan`: what appeared in the folder since start joins the session.
extension PhotosCommand {
  struct Rescan: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rescan",
      abstract: "Add the photos that appeared in the folder since start; report vanished ones.",
      discussion: """
        New cards (grouped with their companions as at start) go to the end of the queue in \
        start order; a new file beside an undecided card joins it; one beside a decided card \
        does not and is reported. A card whose photo is gone is reported and never committed. \
        The rescan is saved as one journal entry and is not undone by `photos undo`.
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    func run() throws {
      let opened = try selection.open(global)
      let report = try failing { () throws(PhotoSessionError) in try opened.rescan() }
      if global.json {
        try Output.document(
          PhotoShapes.Rescanned(
            report: report, session: PhotoShapes.SessionShape(opened),
            current: opened.session.current.map { PhotoShapes.CardShape($0, opened.library) }))
        return
      }
      PhotoOutput.warn(report.skipped, quiet: global.quiet)
      guard !global.quiet else { return }
      func quoted(_ text: String) -> String { "\"\(text)\"" }
      for card in report.change.added {
        let files = [card.photo] + card.companions.map(\.path)
        Output.line("added \(files.map { quoted($0) }.joined(separator: ", "))")
      }
      for join in report.change.joined {
        Output.line(
          "\(join.files.map { quoted($0.path) }.joined(separator: ", ")) joined \(quoted(join.photo))"
        )
      }
      for file in report.notJoined {
        Output.line(
          "\(quoted(file.file)) did not join \(quoted(file.photo)): \(file.reason ?? "")"
        )
      }
      for photo in report.vanished {
        Output.line("vanished \(quoted(photo)): it will not be committed")
      }
      for file in report.vanishedCompanions {
        Output.line(
          "\(quoted(file.file)) of \(quoted(file.photo)) vanished: commit will skip the card"
        )
      }
      Output.line(
        "Rescanned \(opened.manifest.root): \(report.change.added.count.counting("card")) added, "
          + "\(report.change.joined.reduce(0) { $0 + $1.files.count }.counting("file")) joined, "
          + "\(report.vanished.count) vanished (\(PhotoOutput.progressLine(opened.session.statistics)))"
      )
    }
  }
}
