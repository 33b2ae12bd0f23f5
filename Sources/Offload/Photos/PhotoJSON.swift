import Foundation
public import PhotoSession

/// The JSON shapes of photo data, one set for every surface: `offloadctl photos --json`
/// prints them inside its documents, and the web server's API sends them to the pages.
///
/// ``Session``, ``Card``, ``Metadata``, ``Video`` and ``Summary`` are what the command line
/// prints; ``Figures`` (a session's figures, flat) and ``CommitSummary`` are what the pages
/// read, with ``Video/line(_:)`` for a video card's caption. Encoded with sorted keys, the
/// same data gives the same bytes wherever it is printed or sent.
///
/// A page's figures come from the same session shape the command line prints:
/// `PhotoJSON.Figures(session, canUndo: ...)`.
public enum PhotoJSON {
  /// A session: its id, folder, start, ordering and figures (`photos status --json`'s
  /// `session`).
  public struct Session: Codable, Equatable, Sendable {
    /// The session's id.
    public var id: String
    /// The folder the session culls.
    public var root: String
    /// When it started, as an ISO 8601 date (``PhotoJSON/isoDate(_:)``).
    public var createdAt: String
    /// The queue's order (`name`, `mtime`, `capture`).
    public var ordering: String
    /// Whether subfolders are part of the session.
    public var recursive: Bool
    /// The session's figures.
    public var statistics: SessionStatistics

    /// The shape of a session's manifest and figures.
    ///
    /// - Parameters:
    ///   - id: The session's id.
    ///   - manifest: Its manifest.
    ///   - statistics: Its figures.
    public init(id: String, manifest: PhotoSessionStore.Manifest, statistics: SessionStatistics) {
      self.id = id
      root = manifest.root
      createdAt = PhotoJSON.isoDate(manifest.createdAt)
      ordering = manifest.ordering.rawValue
      recursive = manifest.recursive
      self.statistics = statistics
    }
  }

  /// A session's figures flat, as the deck and review pages draw them.
  public struct Figures: Codable, Equatable, Sendable {
    /// The session's id.
    public var id: String
    /// The folder the session culls.
    public var folder: String
    /// Photos in the session.
    public var total: Int
    /// Photos decided.
    public var reviewed: Int
    /// Decided trash.
    public var trash: Int
    /// Decided favorite.
    public var favorite: Int
    /// Decided keep.
    public var keep: Int
    /// Decisions not committed yet.
    public var pending: Int
    /// Decisions committed.
    public var committed: Int
    /// Whether every photo is decided.
    public var isAtEnd: Bool
    /// Whether there is a decision or change to undo.
    public var canUndo: Bool

    /// The figures of `session`.
    ///
    /// - Parameters:
    ///   - session: The session's shape.
    ///   - canUndo: Whether its undo stack holds anything.
    public init(_ session: Session, canUndo: Bool) {
      self.init(
        id: session.id, folder: session.root, statistics: session.statistics, canUndo: canUndo)
    }

    /// The figures of a session from its parts.
    ///
    /// - Parameters:
    ///   - id: The session's id.
    ///   - folder: The folder it culls.
    ///   - stats: Its figures.
    ///   - canUndo: Whether its undo stack holds anything.
    public init(id: String, folder: String, statistics stats: SessionStatistics, canUndo: Bool) {
      self.id = id
      self.folder = folder
      total = stats.total
      reviewed = stats.reviewed
      trash = stats.trash
      favorite = stats.favorite
      keep = stats.keep
      pending = stats.pending
      committed = stats.committed
      isAtEnd = stats.isAtEnd
      self.canUndo = canUndo
    }
  }

  /// A photo's metadata as the header gave it, its modification time as an ISO 8601 date.
  ///
  /// It writes the members of `PhotoMetadata` as that type encodes them, but the modification
  /// time as an ISO 8601 date (``PhotoJSON/isoDate(_:)``), and without the sidecar's rating
  /// and label, which the ``PhotoJSON/Card`` carries beside it.
  public struct Metadata: Encodable, Equatable, Sendable {
    /// The photo's metadata.
    public var metadata: PhotoMetadata

    /// The shape of `metadata`.
    ///
    /// - Parameter metadata: A photo's metadata.
    public init(_ metadata: PhotoMetadata) {
      self.metadata = metadata
    }

    private enum Key: String, CodingKey {
      case modificationTime
    }

    /// Writes the header's members, the modification time as a date.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: The encoder's errors.
    public func encode(to encoder: any Encoder) throws {
      var header = metadata
      (header.rating, header.label) = (nil, nil)
      try header.encode(to: encoder)
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(PhotoJSON.isoDate(metadata.modificationTime), forKey: .modificationTime)
    }
  }

  /// A video card's metadata, its dates as ISO 8601 dates.
  public struct Video: Codable, Equatable, Sendable {
    /// The container format.
    public var format: VideoFormat
    /// The file's size.
    public var byteCount: Int
    /// The file's modification time.
    public var modificationTime: String
    /// When the video was made, when the container tells it.
    public var creationTime: String?
    /// Its length, when the container tells it.
    public var durationSeconds: Double?

    /// The shape of `video`.
    ///
    /// - Parameter video: A video's metadata.
    public init(_ video: VideoMetadata) {
      format = video.format
      byteCount = video.byteCount
      modificationTime = PhotoJSON.isoDate(video.modificationTime)
      creationTime = video.creationTime.map(PhotoJSON.isoDate)
      durationSeconds = video.durationSeconds
    }

    /// `Video · MOV · 1.2 MB · 0:07 · 2024-05-01 10:00 UTC`: a video's metadata in one line,
    /// as a page shows it in place of an image.
    ///
    /// - Parameter video: A video's metadata.
    /// - Returns: The line.
    public static func line(_ video: VideoMetadata) -> String {
      var parts = ["Video", video.format.rawValue.uppercased()]
      let bytes = Double(video.byteCount)
      parts.append(
        bytes < 1000
          ? "\(video.byteCount) bytes"
          : bytes < 1e6
            ? "\(Int((bytes / 1e3).rounded())) kB" : "\(Int((bytes / 1e6).rounded())) MB")
      if let seconds = video.durationSeconds {
        let total = Int(seconds.rounded())
        parts.append("\(total / 60):\(total % 60 < 10 ? "0" : "")\(total % 60)")
      }
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = "yyyy-MM-dd HH:mm"
      let date = Date(timeIntervalSince1970: video.creationTime ?? video.modificationTime)
      parts.append(formatter.string(from: date) + " UTC")
      return parts.joined(separator: " · ")
    }
  }

  /// A card with every file of it (`files`: the photo, then its companions), its `kind`
  /// (`photo`, or `video` for a video alone, which carries `video` instead of `metadata`),
  /// its marks, and its dates as ISO 8601 dates (`photos status --json`'s `current`).
  public struct Card: Encodable, Sendable {
    /// The card.
    public var card: PhotoCard
    /// The photo's files: the photo, then its companions.
    public var files: [String]

    /// The shape of `card` in `library`.
    ///
    /// - Parameters:
    ///   - card: A card of a session over `library`.
    ///   - library: The session's folder.
    /// - Complexity: O(*c*) for *c* companions of the photo.
    public init(_ card: PhotoCard, _ library: FolderLibrary) {
      self.card = card
      self.files = library.files(of: card.photo)
    }

    private enum Key: String, CodingKey {
      case index, photo, kind, decision, commitState, metadata, video, problem, files, rating
      case flag, label
    }

    /// Writes the card's members; absent ones are left out.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: The encoder's errors.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(card.index, forKey: .index)
      try container.encode(card.photo, forKey: .photo)
      try container.encode(card.kind, forKey: .kind)
      try container.encodeIfPresent(card.video.map(Video.init), forKey: .video)
      try container.encodeIfPresent(card.decision, forKey: .decision)
      try container.encodeIfPresent(card.commitState, forKey: .commitState)
      try container.encodeIfPresent(card.metadata.map(Metadata.init), forKey: .metadata)
      try container.encodeIfPresent(card.problem, forKey: .problem)
      try container.encode(files, forKey: .files)
      try container.encodeIfPresent(card.rating, forKey: .rating)
      try container.encodeIfPresent(card.marks?.flag, forKey: .flag)
      try container.encodeIfPresent(card.label, forKey: .label)
    }
  }

  /// One session of a store's list (`photos sessions --json`), its start as an ISO 8601
  /// date; a session that cannot be read carries its problem instead of its figures.
  public struct Summary: Codable, Equatable, Sendable {
    /// The session's id.
    public var id: String
    /// The folder it culls.
    public var root: String
    /// When it started, unless it cannot be read.
    public var createdAt: String?
    /// Its figures, unless it cannot be read.
    public var statistics: SessionStatistics?
    /// Why it cannot be read, if it cannot.
    public var problem: String?

    /// The shape of `summary`.
    ///
    /// - Parameter summary: One session of the store's list.
    public init(_ summary: PhotoSessionStore.Summary) {
      id = summary.id
      root = summary.root
      createdAt = summary.problem == nil ? PhotoJSON.isoDate(summary.createdAt) : nil
      statistics = summary.statistics
      problem = summary.problem
    }
  }

  /// What a commit did, counted: the web API's `committed` message.
  public struct CommitSummary: Codable, Equatable, Sendable {
    /// Always `committed` (the message's type).
    public var type = "committed"
    /// Photos moved to the Trash.
    public var trashed: Int
    /// Favorites written as ratings.
    public var rated: Int
    /// Photos kept.
    public var kept: Int
    /// Each failure: the photo and why.
    public var failed: [String]
    /// Decisions still pending.
    public var pending: Int

    /// The summary of `report`.
    ///
    /// - Parameters:
    ///   - report: What the commit did.
    ///   - statistics: The session's figures after it.
    /// - Complexity: O(*n*) for *n* photos in the report.
    public init(report: CommitReport, statistics: SessionStatistics) {
      trashed = report.applied.filter { $0.decision == .trash }.count
      rated = report.applied.filter { $0.decision == .favorite }.count
      kept = report.applied.filter { $0.decision == .keep }.count
      failed = report.failed.map { "\($0.photo): \($0.detail)" }
      pending = statistics.pending
    }
  }

  /// Seconds since 1970 as an ISO 8601 date in UTC with milliseconds
  /// (`2024-05-01T10:00:00.250Z`).
  ///
  /// - Parameter seconds: Seconds since 1970.
  /// - Returns: The date.
  public static func isoDate(_ seconds: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
  }
}
