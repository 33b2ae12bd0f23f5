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
  /// A session: the library's shared shape.
  typealias SessionShape = PhotoJSON.Session

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

  /// A card with every file of it: the library's shared shape.
  typealias CardShape = PhotoJSON.Card

  /// A photo's metadata and a video's, dates as ISO 8601 dates: the library's shared shapes.
  typealias MetadataShape = PhotoJSON.Metadata
  typealias VideoShape = PhotoJSON.Video

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

  /// One session of `photos sessions --json`: the library's shared shape.
  typealias SummaryShape = PhotoJSON.Summary

  /// What `swipe`, `undo`, `rate`, `flag`, `label` and `skip` print: the card acted on
  /// (under `decided` for swipe, `photo` for the others), the card on screen and the figures.
  struct ActedOn: Encodable {
    enum Key: String, CodingKey { case decided, photo, current, statistics }

    /// The key of the card acted on: `decided` or `photo`.
    var key: Key
    var card: CardShape
    var current: CardShape?
    var statistics: SessionStatistics

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(card, forKey: key)
      try container.encodeIfPresent(current, forKey: .current)
      try container.encode(statistics, forKey: .statistics)
    }
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
    /// Other devices' sessions of a shared store (read-only here); absent otherwise.
    var otherDevices: [DeviceSessions]?
  }

  /// Another device's sessions: its name, replica id and sessions.
  struct DeviceSessions: Encodable {
    var device: String
    var replica: String
    var sessions: [SummaryShape]

    init(_ other: PhotoSessions.OtherDevice) {
      device = other.name
      replica = other.replica
      sessions = other.sessions.map(SummaryShape.init)
    }
  }
}

extension PhotoJSON.Session {
  /// The shape of an open session.
  init(_ opened: PhotoSessionStore.Opened) {
    self.init(id: opened.id, manifest: opened.manifest, statistics: opened.session.statistics)
  }
}
