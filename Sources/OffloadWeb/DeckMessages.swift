import Foundation
import Gestures
import PhotoSession

/// One message from the page over the deck's WebSocket, tagged by its `type` member.
///
/// ```json
/// {"type":"sample","phase":"began","t":5000,"x":200,"y":300,"pointer":1,
///  "session":"2f1c","index":3,"width":390,"reduceMotion":false}
/// {"type":"sample","phase":"moved","t":5016,"x":187,"y":301,"pointer":1}
/// {"type":"skip","session":"2f1c","index":3}
/// {"type":"commit","session":"2f1c"}
/// ```
///
/// Decoding checks what each type needs and throws a ``DeckMessageError`` whose description
/// is the one line the page is sent back.
enum DeckClientMessage: Decodable, Equatable {
  /// A pointer sample of a stroke, its time in seconds on the page's clock (the message's `t`
  /// is in milliseconds) and its pointer id clamped to ±1,000,000; the first sample of a
  /// stroke (`began`) names the card it starts on.
  case sample(TouchSample, start: DeckStrokeStart?)
  /// Skip card `index` of the session (the deck's Skip key and button).
  case skip(session: String, index: Int)
  /// Commit the session's decisions (the review page); nil for the current session.
  case commit(session: String?)

  private enum Key: String, CodingKey {
    case type, session, index, phase, t, x, y, pointer, width, reduceMotion
  }

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Key.self)
    func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
      do {
        return try c.decodeIfPresent(type, forKey: key)
      } catch {
        let kind =
          T.self == String.self ? "a string" : T.self == Int.self ? "a whole number" : "a number"
        throw DeckMessageError("\"\(key.rawValue)\" is not \(kind)")
      }
    }
    switch try optional(String.self, .type) {
    case "sample":
      guard let phase = try optional(String.self, .phase).flatMap(TouchPhase.init),
        let t = try optional(Double.self, .t), let x = try optional(Double.self, .x),
        let y = try optional(Double.self, .y), t.isFinite, x.isFinite, y.isFinite
      else { throw DeckMessageError("a sample needs phase, t, x, y") }
      let pointer = min(max(try optional(Int.self, .pointer) ?? 0, -1_000_000), 1_000_000)
      let sample = TouchSample(time: t / 1000, x: x, y: y, phase: phase, pointer: pointer)
      guard phase == .began else {
        self = .sample(sample, start: nil)
        return
      }
      guard let session = try optional(String.self, .session),
        let index = try optional(Int.self, .index)
      else { throw DeckMessageError("a stroke begins on a session's card") }
      let width = min(max(try optional(Double.self, .width) ?? 390, 100), 10_000)
      let reduceMotion = (try? c.decodeIfPresent(Bool.self, forKey: .reduceMotion)) ?? nil
      self = .sample(
        sample,
        start: DeckStrokeStart(
          session: session, index: index, width: width, reduceMotion: reduceMotion ?? false))
    case "skip":
      guard let session = try optional(String.self, .session),
        let index = try optional(Int.self, .index)
      else { throw DeckMessageError("a skip names a session's card") }
      self = .skip(session: session, index: index)
    case "commit":
      self = .commit(session: try optional(String.self, .session))
    case nil:
      throw DeckMessageError("not a deck message")
    default:
      throw DeckMessageError("unknown message type")
    }
  }

  /// The message in `text`, or the one line that says why it is not one.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  static func parse(_ text: String) -> Result<DeckClientMessage, DeckMessageError> {
    do {
      return .success(try JSONDecoder().decode(DeckClientMessage.self, from: Data(text.utf8)))
    } catch let error as DeckMessageError {
      return .failure(error)
    } catch {
      return .failure(DeckMessageError("not a deck message"))
    }
  }
}

/// Why a page's message was not taken: the one line sent back as an `error` message.
struct DeckMessageError: Error, Equatable, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The card a stroke begins on and the container it is drawn in.
struct DeckStrokeStart: Equatable {
  var session: String
  var index: Int
  /// The card container's width in CSS pixels, clamped to 100...10,000 (390 when missing).
  var width: Double
  var reduceMotion: Bool
}

/// One message from the server to a deck or review page, tagged by its `type` member; the
/// other members are those of its case (keys sorted, as every web answer).
enum DeckServerMessage: Encodable, Equatable {
  /// A mark of the swipe's progress rose or fell (`direction`: left, right, up).
  case mark(direction: String, mark: Double, rising: Bool)
  /// The threshold was crossed (a haptic tick).
  case tick
  /// The stroke ended without a decision: the card goes back.
  case snapBack
  /// The stroke's decision is on stable storage; `deck` is the deck after it.
  case decided(direction: String, byFling: Bool, decision: PhotoDecision, deck: WebShapes.Deck)
  /// The decision or skip was refused, with the deck as it is (when known).
  case refused(error: String, deck: WebShapes.Deck?)
  /// The card was skipped; `deck` is the deck after it.
  case skipped(deck: WebShapes.Deck)
  /// How far a commit got.
  case progress(done: Int, total: Int)
  /// The commit finished.
  case committed(WebShapes.Committed)
  /// A message that was not taken, or a commit that failed.
  case error(String)

  private enum Key: String, CodingKey {
    case type, direction, mark, rising, byFling, decision, deck, error, done, total, committed
  }

  /// The `type` member.
  var type: String {
    switch self {
    case .mark: "mark"
    case .tick: "tick"
    case .snapBack: "snapBack"
    case .decided: "decided"
    case .refused: "refused"
    case .skipped: "skipped"
    case .progress: "progress"
    case .committed: "committed"
    case .error: "error"
    }
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Key.self)
    try c.encode(type, forKey: .type)
    switch self {
    case .tick, .snapBack:
      break
    case .mark(let direction, let mark, let rising):
      try c.encode(direction, forKey: .direction)
      try c.encode(mark, forKey: .mark)
      try c.encode(rising, forKey: .rising)
    case .decided(let direction, let byFling, let decision, let deck):
      try c.encode(direction, forKey: .direction)
      try c.encode(byFling, forKey: .byFling)
      try c.encode(decision.rawValue, forKey: .decision)
      try c.encode(deck, forKey: .deck)
    case .refused(let error, let deck):
      try c.encode(error, forKey: .error)
      try c.encodeIfPresent(deck, forKey: .deck)
    case .skipped(let deck):
      try c.encode(deck, forKey: .deck)
    case .progress(let done, let total):
      try c.encode(done, forKey: .done)
      try c.encode(total, forKey: .total)
    case .committed(let committed):
      try c.encode(committed, forKey: .committed)
    case .error(let error):
      try c.encode(error, forKey: .error)
    }
  }
}
