public import ArgumentParser
import Foundation
import Offload
public import PhotoSession
import TerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Arguments, exit codes and text output of the `photos` commands.

/// `--session ID`: which session a command acts on (the latest by default).
struct SessionSelection: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The session id (see `photos sessions`); the latest by default.", valueName: "id"))
  var session: String?

  /// Opens the chosen session.
  func open(_ global: GlobalOptions) throws -> PhotoSessionStore.Opened {
    let store = try global.photoStore()
    let root = try global.storeLocation().path
    return try failing { () throws(PhotoSessionError) in
      if let session {
        // Another device's session of a shared store is that device's alone to write.
        try PhotoSessions.refuseOtherDevice(
          session, root: root, environment: ProcessInfo.processInfo.environment)
        return try store.open(session)
      }
      return try store.openLatest()
    }
  }
}

// The photo module's own values are the arguments: no mirror enums to keep in step.
extension SwipeDirection: ExpressibleByArgument {}
extension PhotoDecision: ExpressibleByArgument {}
extension PhotoMarks.Flag: ExpressibleByArgument {}
extension PhotoMarks.ColorLabel: ExpressibleByArgument {}

/// `--order capture-date|mtime`. The one argument type of its own: the command line's names
/// are not the raw values the session manifest stores (`captureDate`, `modificationTime`).
enum PhotoOrder: String, ExpressibleByArgument, CaseIterable {
  case captureDate = "capture-date"
  case mtime

  var ordering: FolderScanOptions.Ordering {
    switch self {
    case .captureDate: .captureDate
    case .mtime: .modificationTime
    }
  }
}

extension GlobalOptions {
  /// The photo session store of the store folder these options choose, opened as every
  /// command opens the store first: a store in a folder a sync engine carries becomes shared
  /// (so a new session starts in this device's folder), and what opening it says goes to
  /// stderr.
  func photoStore() throws -> PhotoSessionStore {
    let root = try workspace(forChange: true).root
    return PhotoSessions.store(root: root, environment: ProcessInfo.processInfo.environment)
  }
}

/// Text output of the photo commands: the words themselves come from `Offload`'s `PhotoText`,
/// which the cull screen uses too, so both print the same lines.
enum PhotoOutput {
  /// `Session: 23 / 10,000` with the remaining count.
  static func progressLine(_ stats: SessionStatistics) -> String { PhotoText.progressLine(stats) }

  /// What a commit would do: `23 photos (3 to the Trash, 2 favorites, 18 kept)`.
  static func commitSummary(_ session: CullingSession, library: FolderLibrary? = nil) -> String {
    PhotoText.commitSummary(session, library: library)
  }

  /// The lines describing a photo card: name, size, dimensions, orientation, date, or the
  /// problem reading it.
  static func describe(_ card: PhotoCard) -> [String] { PhotoText.describe(card) }

  /// `rated 3 · pick · label red`: the card's rating, flag and label, or nil when it has none.
  static func marksText(_ card: PhotoCard) -> String? { PhotoText.marksText(card) }

  /// One review line: position, decision, commit state, photo.
  static func reviewLine(_ item: ReviewItem) -> String { PhotoText.reviewLine(item) }

  /// Prints the photo on screen, or that the library is done.
  static func printCurrent(_ session: CullingSession) {
    if let card = session.current {
      Output.line("On screen:")
      for line in describe(card) { Output.line("  " + line) }
    } else {
      Output.line("Every photo has a decision.")
    }
  }

  /// Prints what a scan skipped as warnings on stderr.
  static func warn(_ issues: [ScanIssue], quiet: Bool) {
    guard !quiet else { return }
    for issue in issues { Output.error("offloadctl: warning: \(issue.message)") }
  }

  /// Prints what opening repaired as warnings on stderr.
  static func warn(repairs: [String], quiet: Bool) {
    guard !quiet else { return }
    for repair in repairs { Output.error("offloadctl: warning: \(repair)") }
  }
}

extension Int {
  /// The number and a noun, plural unless the number is 1: `1 photo`, `10,000 photos`.
  func counting(_ noun: String) -> String { PhotoText.counting(self, noun) }

  /// The number with thousands separators: `10,000`.
  var grouped: String { PhotoText.grouped(self) }
}

extension PhotoOutput {
  /// Lists other devices' sessions of a shared store first, each marked with its device:
  /// they are shown, never opened here.
  static func listOtherDevices(_ others: [PhotoSessions.OtherDevice]) {
    for other in others {
      let device =
        other.replica.isEmpty || other.name == other.replica
        ? other.name : "\(other.name) (\(other.replica))"
      for summary in other.sessions {
        Output.line("\(summary.id)  on \(device), read-only  \(summary.root)")
      }
    }
  }
}
