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
    return try failing { () throws(PhotoSessionError) in
      if let session { return try store.open(session) }
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
  /// The photo session store of the store folder these options choose.
  func photoStore() throws -> PhotoSessionStore {
    PhotoSessions.store(
      root: try storeLocation().path, environment: ProcessInfo.processInfo.environment)
  }
}

/// Text output shared by the photo commands and the cull screen.
enum PhotoOutput {
  /// `Session: 23 / 10,000` with the remaining count.
  static func progressLine(_ stats: SessionStatistics) -> String {
    "Session: \(stats.reviewed.grouped) / \(stats.total.grouped)"
  }

  /// What a commit would do: `23 photos (3 to the Trash, 2 favorites, 18 kept)`.
  static func commitSummary(_ session: CullingSession, library: FolderLibrary? = nil) -> String {
    let pending = session.review().filter { $0.commitState != .applied }
    let trashed = pending.filter { $0.decision == .trash }
    let trash = trashed.count
    let favorite = pending.filter { $0.decision == .favorite }.count
    let bytes =
      library.flatMap { library in
        trash == 0
          ? nil : ": \(trashed.reduce(0) { $0 + library.byteCount(of: $1.photo) }.counting("byte"))"
      } ?? ""
    return
      "\(pending.count.counting("photo")) (\(trash) to the Trash\(bytes), \(favorite.counting("favorite")), \(pending.count - trash - favorite) kept)"
  }

  /// The lines describing a photo card: name, size, dimensions, orientation, date, or the
  /// problem reading it; for a video card, its format, size, duration and date.
  static func describe(_ card: PhotoCard) -> [String] {
    var lines = [card.photo]
    if let metadata = card.metadata {
      var parts = [metadata.format.rawValue.uppercased(), byteText(metadata.byteCount)]
      if let width = metadata.displayWidth, let height = metadata.displayHeight {
        parts.append("\(width)×\(height)")
      }
      parts.append("orientation \(metadata.orientationName)")
      lines.append(parts.joined(separator: " · "))
      lines.append(dateText(metadata))
    }
    if let video = card.video {
      var parts = ["VIDEO " + video.format.rawValue.uppercased(), byteText(video.byteCount)]
      if let seconds = video.durationSeconds { parts.append(durationText(seconds)) }
      lines.append(parts.joined(separator: " · "))
      lines.append(videoDateText(video))
      lines.append("a video alone: no preview; decide it from its name and metadata")
    }
    if let problem = card.problem { lines.append("cannot read this photo: \(problem.description)") }
    if let marks = marksText(card) { lines.append(marks) }
    return lines
  }

  /// `rated 3 · pick · label red`: the card's rating, flag and label, or nil when it has none.
  static func marksText(_ card: PhotoCard) -> String? {
    var parts: [String] = []
    if let rating = card.marks?.rating ?? card.metadata?.rating, rating >= 0 {
      parts.append("rated \(rating)")
    }
    if let flag = card.marks?.flag {
      parts.append(flag.rawValue)
    } else if card.metadata?.rating == -1 {
      parts.append("reject")
    }
    if let label = card.label { parts.append("label \(label)") }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }

  /// The photo's capture date, else its modification time.
  static func dateText(_ metadata: PhotoMetadata) -> String {
    if let date = metadata.captureDate { return "taken \(date)" }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return
      "modified \(formatter.string(from: Date(timeIntervalSince1970: metadata.modificationTime))) UTC"
  }

  /// A duration as people read it: `0:07`, `1:02:03`.
  static func durationText(_ seconds: Double) -> String {
    let total = Int(seconds.rounded())
    let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
    let tail = (rest < 10 ? "0" : "") + String(rest)
    return hours > 0
      ? "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(tail)" : "\(minutes):\(tail)"
  }

  /// A video's creation time from its movie header, else its modification time.
  static func videoDateText(_ video: VideoMetadata) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    if let created = video.creationTime {
      return "recorded \(formatter.string(from: Date(timeIntervalSince1970: created))) UTC"
    }
    return
      "modified \(formatter.string(from: Date(timeIntervalSince1970: video.modificationTime))) UTC"
  }

  /// A byte count as people read it (`1.2 MB`).
  static func byteText(_ count: Int) -> String {
    if count < 1000 { return "\(count) bytes" }
    let units = ["kB", "MB", "GB", "TB"]
    var value = Double(count) / 1000
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return String(format: "%.1f %@", value, units[unit])
  }

  /// One review line: position, decision, commit state, photo.
  static func reviewLine(_ item: ReviewItem) -> String {
    let position = String(item.index + 1)
    let decision = item.decision.rawValue
    return String(repeating: " ", count: max(0, 6 - position.count)) + position + "  "
      + decision + String(repeating: " ", count: max(0, 9 - decision.count))
      + item.commitState.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + item.photo
  }

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
  func counting(_ noun: String) -> String {
    "\(grouped) \(noun)" + (self == 1 ? "" : "s")
  }

  /// The number with thousands separators: `10,000`.
  var grouped: String {
    let digits = String(magnitude)
    var result = ""
    for (offset, character) in digits.enumerated() {
      if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
      result.append(character)
    }
    return (self < 0 ? "-" : "") + result
  }
}
