import Gestures

/// One message from an organize page over its WebSocket, told apart by its `type` member:
/// `watch` (the change feed), `sample` (a pointer sample), `advance` (time passes while the
/// finger rests), `rows` (the visible rows after a scroll) or `close` (a touch the arena
/// cannot see closes the revealed row). The members sit beside `type` in one JSON object, as
/// the page writes them.
enum OrganizeInput: Decodable, Sendable {
  /// A row's frame as the page measured it, in the list's coordinates.
  struct Frame: Decodable, Sendable {
    /// The row's id.
    var i: String
    /// Its top.
    var y: Double
    /// Its height.
    var h: Double
    /// Its depth.
    var d: Int
    /// Whether its children are shown.
    var o: Bool?
  }

  /// The page's geometry: the visible rows, the viewport and the indentation (each optional:
  /// a message names what changed).
  struct Geometry: Decodable, Sendable {
    var rows: [Frame]?
    /// The viewport's top and bottom, in the list's coordinates.
    var top: Double?
    var bottom: Double?
    /// The x of depth 0 and the indentation per level, in the list's coordinates.
    var originX: Double?
    var indent: Double?
  }

  /// What a stroke's first sample says of it.
  struct Begin: Decodable, Sendable {
    var collection: String?
    var version: String?
    /// `row` (a touch anywhere on a row: the `listRow` arena) or `handle` (the reorder handle).
    var surface: String?
    /// The row the stroke began on.
    var id: String?
    /// The page's number for the stroke, echoed in the answers.
    var stroke: Int?
    var reduceMotion: Bool?
  }

  /// A pointer sample.
  struct Sample: Sendable {
    var phase: TouchPhase
    /// Milliseconds on the page's clock.
    var t: Double
    var x: Double
    var y: Double
    var pointer: Int
    /// The page's number for the message, echoed in the answers to it.
    var n: Int?
    var geometry: Geometry
    /// Read on `began` only.
    var begin: Begin
  }

  case watch(collection: String?, version: String?)
  case sample(Sample)
  case advance(t: Double, n: Int?)
  case rows(Geometry, x: Double?, y: Double?, n: Int?)
  case close(t: Double?)

  /// A message that names its type but lacks what the type needs: the line the page is sent.
  struct Refusal: Error, Equatable {
    var message: String
  }

  private enum Key: String, CodingKey {
    case type, collection, version, phase, t, x, y, pointer, n
  }

  /// Reads a message.
  ///
  /// - Throws: ``Refusal`` for an unknown type or a sample without its members; a
  ///   `DecodingError` for what is not an organize message at all.
  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Key.self)
    func number(_ key: Key) throws -> Double? {
      try c.decodeIfPresent(Double.self, forKey: key).flatMap { $0.isFinite ? $0 : nil }
    }
    let n = try c.decodeIfPresent(Int.self, forKey: .n)
    switch try c.decode(String.self, forKey: .type) {
    case "watch":
      self = .watch(
        collection: try c.decodeIfPresent(String.self, forKey: .collection),
        version: try c.decodeIfPresent(String.self, forKey: .version))
    case "close":
      self = .close(t: try number(.t))
    case "rows":
      self = .rows(try Geometry(from: decoder), x: try number(.x), y: try number(.y), n: n)
    case "advance":
      guard let t = try number(.t) else { throw Refusal(message: "a sample needs t") }
      self = .advance(t: t, n: n)
    case "sample":
      guard let t = try number(.t) else { throw Refusal(message: "a sample needs t") }
      guard
        let phase = try c.decodeIfPresent(String.self, forKey: .phase).flatMap(TouchPhase.init),
        let x = try number(.x), let y = try number(.y)
      else { throw Refusal(message: "a sample needs phase, t, x, y") }
      let given = try c.decodeIfPresent(Int.self, forKey: .pointer) ?? 0
      let pointer = min(max(given, -1_000_000), 1_000_000)
      self = .sample(
        Sample(
          phase: phase, t: t, x: x, y: y, pointer: pointer, n: n,
          geometry: try Geometry(from: decoder), begin: try Begin(from: decoder)))
    default:
      throw Refusal(message: "unknown message type")
    }
  }
}
