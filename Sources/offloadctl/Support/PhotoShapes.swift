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

/// JSON shapes printed by `photos --json`.
enum PhotoShapes {
  struct SessionShape: Encodable {
    var id: String
    var root: String
    var createdAt: String
    var ordering: String
    var recursive: Bool
    var statistics: SessionStatistics

    init(_ opened: PhotoSessionStore.Opened) {
      id = opened.id
      root = opened.manifest.root
      createdAt = PhotoShapes.isoDate(opened.manifest.createdAt)
      ordering = opened.manifest.ordering.rawValue
      recursive = opened.manifest.recursive
      statistics = opened.session.statistics
    }
  }

  struct Started: Encodable {
    var session: SessionShape
    var skipped: [ScanIssue]
  }

  struct StatusShape: Encodable {
    var session: SessionShape
    var current: CardShape?
    var next: [CardShape]
    var repairs: [String]
  }

  /// A card with every file of it (`files`: the photo, then its companions), its `kind`
  /// (`photo`, or `video` for a video alone, which carries `video` instead of `metadata`) and
  /// its dates as ISO 8601 dates.
  struct CardShape: Encodable {
    var card: PhotoCard
    var files: [String]

    init(_ card: PhotoCard, _ library: FolderLibrary) {
      self.card = card
      self.files = library.files(of: card.photo)
    }

    private enum Key: String, CodingKey {
      case index, photo, kind, decision, commitState, metadata, video, problem, files, rating
      case flag, label
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(card.index, forKey: .index)
      try container.encode(card.photo, forKey: .photo)
      try container.encode(card.kind, forKey: .kind)
      try container.encodeIfPresent(card.video.map(VideoShape.init), forKey: .video)
      try container.encodeIfPresent(card.decision, forKey: .decision)
      try container.encodeIfPresent(card.commitState, forKey: .commitState)
      try container.encodeIfPresent(card.metadata.map(MetadataShape.init), forKey: .metadata)
      try container.encodeIfPresent(card.problem, forKey: .problem)
      try container.encode(files, forKey: .files)
      try container.encodeIfPresent(card.rating, forKey: .rating)
      try container.encodeIfPresent(card.marks?.flag, forKey: .flag)
      try container.encodeIfPresent(card.label, forKey: .label)
    }
  }

  /// A photo's metadata with its modification time as an ISO 8601 date.
  struct MetadataShape: Encodable {
    var format: ImageFormat
    var byteCount: Int
    var pixelWidth: Int?
    var pixelHeight: Int?
    var orientation: Int
    var captureDate: String?
    var modificationTime: String

    init(_ metadata: PhotoMetadata) {
      format = metadata.format
      byteCount = metadata.byteCount
      pixelWidth = metadata.pixelWidth
      pixelHeight = metadata.pixelHeight
      orientation = metadata.orientation
      captureDate = metadata.captureDate
      modificationTime = PhotoShapes.isoDate(metadata.modificationTime)
    }
  }

  /// A video card's metadata with its dates as ISO 8601 dates.
  struct VideoShape: Encodable {
    var format: VideoFormat
    var byteCount: Int
    var modificationTime: String
    var creationTime: String?
    var durationSeconds: Double?

    init(_ video: VideoMetadata) {
      format = video.format
      byteCount = video.byteCount
      modificationTime = PhotoShapes.isoDate(video.modificationTime)
      creationTime = video.creationTime.map(PhotoShapes.isoDate)
      durationSeconds = video.durationSeconds
    }
  }

  /// What `photos rescan --json` prints: the cards added (each with its files), the files
  /// that joined a card, those that did not (with the reason), the cards and companions gone,
  /// what the scan skipped, then the session and the card on screen.
  struct Rescanned: Encodable {
    struct Added: Encodable {
      var photo: String
      var kind: CardKind
      var files: [String]
    }

    struct Joined: Encodable {
      var photo: String
      var files: [String]
    }

    var added: [Added]
    var joined: [Joined]
    var notJoined: [RescanReport.File]
    var vanished: [String]
    var vanishedCompanions: [RescanReport.File]
    var skipped: [ScanIssue]
    var session: SessionShape
    var current: CardShape?

    init(report: RescanReport, session: SessionShape, current: CardShape?) {
      added = report.change.added.map {
        Added(
          photo: $0.photo, kind: CardKind(path: $0.photo),
          files: [$0.photo] + $0.companions.map(\.path))
      }
      joined = report.change.joined.map { Joined(photo: $0.photo, files: $0.files.map(\.path)) }
      notJoined = report.notJoined
      vanished = report.vanished
      vanishedCompanions = report.vanishedCompanions
      skipped = report.skipped
      self.session = session
      self.current = current
    }
  }

  /// One session of `photos sessions --json`, its start as an ISO 8601 date.
  struct SummaryShape: Encodable {
    var id: String
    var root: String
    var createdAt: String?
    var statistics: SessionStatistics?
    var problem: String?

    init(_ summary: PhotoSessionStore.Summary) {
      id = summary.id
      root = summary.root
      createdAt = summary.problem == nil ? PhotoShapes.isoDate(summary.createdAt) : nil
      statistics = summary.statistics
      problem = summary.problem
    }
  }

  /// Seconds since 1970 as an ISO 8601 date in UTC with milliseconds
  /// (`2024-05-01T10:00:00.250Z`).
  static func isoDate(_ seconds: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
  }

  struct Decided: Encodable {
    var decided: CardShape
    var current: CardShape?
    var statistics: SessionStatistics
  }

  struct Undone: Encodable {
    var photo: CardShape
    var current: CardShape?
    var statistics: SessionStatistics
  }

  /// What `rate`, `flag`, `label` and `skip` print: the card acted on, the card on screen.
  struct Marked: Encodable {
    var photo: CardShape
    var current: CardShape?
    var statistics: SessionStatistics
  }

  struct ReviewShape: Encodable {
    var session: String
    var items: [ReviewItem]
  }

  struct Changed: Encodable {
    var photo: String
    var decision: PhotoDecision
    var statistics: SessionStatistics
  }

  struct Committed: Encodable {
    var report: CommitReport
    /// The bytes of the cards moved to the Trash (that would be, in a dry run).
    var trashBytes: Int
    var statistics: SessionStatistics
  }

  /// What `photos restore --json` prints: each card restored, each refused with its code.
  struct Restored: Encodable {
    struct Entry: Encodable {
      var photo: String
      var detail: String
      var failure: PhotoSessionError.Code?
    }

    var restored: [Entry] = []
    var failed: [Entry] = []
  }

  struct SessionList: Encodable {
    var sessions: [SummaryShape]
  }
}
