import Foundation
public import PhotoSession

/// The words a photo session is shown in: progress, a card's details, a review line and the
/// commit question's summary.
///
/// The cull screen and the `photos` commands print the same facts, so they take their text
/// from one place: a person who culls full-screen and then runs `photos review` reads the
/// same lines.
///
/// ```swift
/// let session = try CullingSession(photos: ["a.jpg", "b.jpg"], journal: MemorySessionJournal())
/// _ = try session.swipe(.left)
/// print(PhotoText.progressLine(session.statistics))  // Session: 1 / 2
/// print(PhotoText.commitSummary(session))  // 1 photo (1 to the Trash, 0 favorites, 0 kept)
/// ```
public enum PhotoText {
  /// `Session: 23 / 10,000`: the photos reviewed and the library's size.
  ///
  /// - Parameter stats: The session's statistics.
  /// - Returns: The line, numbers grouped by thousands.
  public static func progressLine(_ stats: SessionStatistics) -> String {
    "Session: \(grouped(stats.reviewed)) / \(grouped(stats.total))"
  }

  /// What a commit would do: `23 photos (3 to the Trash: 12,345 bytes, 2 favorites, 18 kept)`.
  ///
  /// - Parameters:
  ///   - session: The session whose pending decisions are counted.
  ///   - library: The folder the photos are in; when given, the bytes the Trash would get are
  ///     named too (each trashed file's size is read).
  /// - Returns: The summary, without the question around it.
  /// - Complexity: O(*d*) for *d* decided photos, plus one `stat` per photo to trash when
  ///   `library` is given.
  public static func commitSummary(_ session: CullingSession, library: FolderLibrary? = nil)
    -> String
  {
    let pending = session.review().filter { $0.commitState != .applied }
    let trashed = pending.filter { $0.decision == .trash }
    let trash = trashed.count
    let favorite = pending.filter { $0.decision == .favorite }.count
    let bytes =
      library.flatMap { library in
        trash == 0
          ? nil
          : ": \(counting(trashed.reduce(0) { $0 + library.byteCount(of: $1.photo) }, "byte"))"
      } ?? ""
    return
      "\(counting(pending.count, "photo")) (\(trash) to the Trash\(bytes), \(counting(favorite, "favorite")), \(pending.count - trash - favorite) kept)"
  }

  /// The lines describing a card: its name; then its format, size, dimensions (as displayed)
  /// and orientation, and its date, when its header could be read; the problem reading it
  /// otherwise; for a video card, its format, size, duration and date; and its marks, if any.
  ///
  /// - Parameter card: The card.
  /// - Returns: One to six lines, the name first.
  public static func describe(_ card: PhotoCard) -> [String] {
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
  ///
  /// - Parameter card: The card.
  /// - Returns: The marks, set in this session or read from the photo's sidecar.
  public static func marksText(_ card: PhotoCard) -> String? {
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

  /// `taken 2024:05:01 10:00:00` (the capture date), else `modified 2023-11-14 22:13:20 UTC`.
  ///
  /// - Parameter metadata: The photo's metadata.
  /// - Returns: The date line, the same in every time zone and locale.
  public static func dateText(_ metadata: PhotoMetadata) -> String {
    if let date = metadata.captureDate { return "taken \(date)" }
    return "modified \(utcText(metadata.modificationTime))"
  }

  /// A duration as people read it: `0:07`, `1:02:03`.
  ///
  /// - Parameter seconds: The duration; rounded to whole seconds.
  public static func durationText(_ seconds: Double) -> String {
    let total = Int(seconds.rounded())
    let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
    let tail = (rest < 10 ? "0" : "") + String(rest)
    return hours > 0
      ? "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(tail)" : "\(minutes):\(tail)"
  }

  /// A video's creation time from its movie header, else its modification time, in UTC.
  ///
  /// - Parameter video: The video's metadata.
  public static func videoDateText(_ video: VideoMetadata) -> String {
    if let created = video.creationTime { return "recorded \(utcText(created))" }
    return "modified \(utcText(video.modificationTime))"
  }

  /// `2023-11-14 22:13:20 UTC`: seconds since 1970 as a UTC time, the same in every locale.
  static func utcText(_ seconds: Double) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return "\(formatter.string(from: Date(timeIntervalSince1970: seconds))) UTC"
  }

  /// A byte count as people read it: `999 bytes`, `1.2 MB`.
  ///
  /// - Parameter count: The number of bytes.
  /// - Returns: Bytes below 1000, else one decimal in kB, MB, GB or TB (powers of 1000).
  public static func byteText(_ count: Int) -> String {
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

  /// One review line: position, decision and commit state in columns, then the photo.
  ///
  /// ```
  ///      3  favorite pending    IMG_2.jpg
  /// ```
  ///
  /// - Parameter item: The decided photo.
  /// - Returns: The line.
  public static func reviewLine(_ item: ReviewItem) -> String {
    let position = String(item.index + 1)
    let decision = item.decision.rawValue
    return String(repeating: " ", count: max(0, 6 - position.count)) + position + "  "
      + decision + String(repeating: " ", count: max(0, 9 - decision.count))
      + item.commitState.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + item.photo
  }

  /// The number and a noun, plural unless the number is 1: `1 photo`, `10,000 photos`.
  ///
  /// - Complexity: O(*k*) for a number of *k* digits.
  public static func counting(_ count: Int, _ noun: String) -> String {
    "\(grouped(count)) \(noun)" + (count == 1 ? "" : "s")
  }

  /// The number with thousands separators: `10,000`, `-12,000`.
  ///
  /// - Complexity: O(*k*) for a number of *k* digits.
  public static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var result = ""
    for (offset, character) in digits.enumerated() {
      if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
      result.append(character)
    }
    return (number < 0 ? "-" : "") + result
  }
}
