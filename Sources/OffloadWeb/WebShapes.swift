import Foundation
import Offload
import Persistence
import PhotoSession

/// The JSON documents the server sends the pages (sorted keys, no control characters).
enum WebShapes {
  /// A session's figures, flat: the library's shared shape, its folder made printable.
  typealias Figures = PhotoJSON.Figures

  /// The figures of session `id`.
  static func figures(
    id: String, manifest: PhotoSessionStore.Manifest, session: CullingSession
  ) -> Figures {
    Figures(
      id: id, folder: Printable.clean(manifest.root), statistics: session.statistics,
      canUndo: !session.state.undoStack.isEmpty)
  }

  /// One photo as a card.
  struct Card: Codable, Equatable {
    var index: Int
    var name: String
    /// The photo's address on this server, or nil when no browser shows its format.
    var image: String?
    var width: Int?
    var height: Int?
    var format: String?
    var captureDate: String?
    var decision: String?
    /// Why the photo cannot be shown or read, if it cannot.
    var problem: String?
    /// `video` for a video alone (no image; ``video`` describes it), else `photo`.
    var kind: String = CardKind.photo.rawValue
    /// A video card's metadata in one line (format, size, duration, date), shown in place of
    /// an image.
    var video: String?

    init(session id: String, card: PhotoCard) {
      index = card.index
      name = Printable.clean(card.photo)
      decision = card.decision?.rawValue
      kind = card.kind.rawValue
      video = card.video.map(PhotoJSON.Video.line)
      let format = card.metadata?.format ?? ImageFormat(fileName: card.photo)
      self.format = format?.rawValue
      width = card.metadata?.displayWidth
      height = card.metadata?.displayHeight
      captureDate = card.metadata?.captureDate.map(Printable.clean)
      if let format, WebMedia.isShown(format) {
        image = "/photo/\(id)/\(card.index)"
      } else if let format {
        problem =
          "A browser cannot show \(format.rawValue.uppercased()) files; decide by its name, or open it in a photo viewer."
      }
      if let error = card.problem { problem = Printable.clean(error.description) }
    }
  }

  /// The deck: the session, the card on screen and the next ones to preload.
  struct Deck: Codable, Equatable {
    var session: Figures?
    var current: Card?
    var next: [Card]

    init(session: Figures?) {
      self.session = session
      current = nil
      next = []
    }

    init(id: String, manifest: PhotoSessionStore.Manifest, session: CullingSession) {
      self.session = WebShapes.figures(id: id, manifest: manifest, session: session)
      current = session.current.map { Card(session: id, card: $0) }
      next = session.preloadWindow.map { Card(session: id, card: $0) }
    }
  }

  /// The review grid.
  struct Review: Codable, Equatable {
    struct Item: Codable, Equatable {
      var index: Int
      var name: String
      var decision: String
      var committed: Bool
      var failed: Bool
      var image: String?
    }
    var session: Figures
    var items: [Item]

    init(
      id: String, manifest: PhotoSessionStore.Manifest, session: CullingSession,
      items: [ReviewItem]
    ) {
      self.session = WebShapes.figures(id: id, manifest: manifest, session: session)
      self.items = items.map { item in
        let shown = ImageFormat(fileName: item.photo).map(WebMedia.isShown) ?? false
        return Item(
          index: item.index, name: Printable.clean(item.photo), decision: item.decision.rawValue,
          committed: item.commitState == .applied, failed: item.commitState == .failed,
          image: shown ? "/photo/\(id)/\(item.index)" : nil)
      }
    }
  }

  /// What a commit did: the library's shared shape.
  typealias Committed = PhotoJSON.CommitSummary

  /// What a commit did, its failures made printable.
  static func committed(report: CommitReport, statistics: SessionStatistics) -> Committed {
    var committed = Committed(report: report, statistics: statistics)
    committed.failed = committed.failed.map(Printable.clean)
    return committed
  }

  /// A folder picker's listing.
  struct Folders: Codable, Equatable {
    var roots: [String]
    var root: Int
    var folder: String
    var folders: [String]
  }

  /// An error for the page.
  struct Problem: Codable, Equatable {
    var error: String
  }

  /// The JSON bytes of `value`, keys sorted.
  static func encode(_ value: some Encodable) -> [UInt8] {
    if let fast = value as? any WebJSONWritable {
      var writer = CanonicalJSONWriter(pretty: false, reservingCapacity: 4_096)
      if fast.writeJSON(to: &writer) { return writer.bytes }
    }
    return encodeThroughJSONEncoder(value)
  }

  /// The JSON bytes of `value` through `JSONEncoder`: what a `WebJSONWritable` value must write.
  static func encodeThroughJSONEncoder(_ value: some Encodable) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? Array(encoder.encode(value))) ?? Array(#"{"error":"encoding failed"}"#.utf8)
  }
}
