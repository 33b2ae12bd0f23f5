import Foundation
import Gestures
import HummingbirdWebSocket
import Offload
import PhotoSession

/// One message from the page over the WebSocket.
struct ClientMessage: Decodable {
  /// `sample` (a pointer sample), `skip` (skip card `index`) or `commit` (commit the
  /// session's decisions).
  var type: String
  var session: String?
  /// The card the stroke started on.
  var index: Int?
  /// `began`, `moved`, `ended` or `cancelled`.
  var phase: String?
  /// Milliseconds on the page's clock.
  var t: Double?
  var x: Double?
  var y: Double?
  var pointer: Int?
  /// The card container's width in CSS pixels (on `began`).
  var width: Double?
  var reduceMotion: Bool?
}

/// What the server answers to pointer samples: the arena's marks, ticks and outcome.
struct ServerMessage: Encodable {
  var type: String
  var direction: String?
  var mark: Double?
  var rising: Bool?
  var byFling: Bool?
  var decision: String?
  var deck: WebShapes.Deck?
  var error: String?
  var done: Int?
  var total: Int?
  var committed: WebShapes.Committed?
}

/// One stroke on a card: the `photoDeck` arena fed with the page's samples, and the samples
/// kept for a trace.
struct DeckStroke {
  /// The session and card the stroke started on.
  var session: String
  var index: Int
  /// The arena deciding the gesture.
  var arena: GestureArena
  /// The samples so far, times relative to the first, for `--record-traces`.
  var samples: [TouchSample] = []
  var containerWidth: Double
  private var origin: Double

  /// A stroke beginning on card `index` of `session` in a container `width` points wide.
  init(session: String, index: Int, width: Double, reduceMotion: Bool, time: Double) {
    var configuration = GesturePreset.ios.configuration
    configuration.deckContainerWidth = width
    configuration.reduceMotion = reduceMotion
    self.session = session
    self.index = index
    self.containerWidth = width
    self.origin = time
    arena = GestureArena(surface: .photoDeck, configuration: configuration)
  }

  /// What the swipe ended as, when a sample finished it.
  enum Outcome: Equatable {
    case commit(PhotoDecision, direction: String, byFling: Bool)
    case snapBack
  }

  /// Feeds one sample; returns the messages for the page and the outcome if the stroke ended.
  ///
  /// - Complexity: O(1) amortized (the arena's work per sample).
  ///
  /// A browser reports the lift (`pointerup`) as its own event, at the last position a little
  /// later. Like Flutter's and Android's velocity trackers, which leave the up event out of
  /// the estimate, a lift that did not move and came within the stop gap is stamped with the
  /// last move's time, so it does not read as the pointer stopping; the trace records it so.
  mutating func feed(
    phase: TouchPhase, milliseconds: Double, x: Double, y: Double, pointer: Int
  ) -> (messages: [ServerMessage], outcome: Outcome?) {
    var time = max(0, milliseconds / 1000 - origin)
    if phase == .ended, let last = samples.last, last.location == TouchPoint(x: x, y: y),
      time - last.time < arena.configuration.velocityStopGap
    {
      time = last.time
    }
    let sample = TouchSample(time: time, x: x, y: y, phase: phase, pointer: pointer)
    if samples.count < WebLimits.strokeSamples || phase == .ended || phase == .cancelled {
      samples.append(sample)
    }
    var messages: [ServerMessage] = []
    var outcome: Outcome?
    for event in arena.feed(sample) {
      switch event {
      case .deckMark(let direction, let mark, let rising, _):
        messages.append(
          ServerMessage(type: "mark", direction: direction.rawValue, mark: mark, rising: rising))
      case .haptic(.thresholdTick, _):
        messages.append(ServerMessage(type: "tick"))
      case .deckFinished(.commit(let direction, let byFling), _):
        if let decision = PhotoDecision(gesture: direction) {
          outcome = .commit(decision, direction: direction.rawValue, byFling: byFling)
        } else {
          outcome = .snapBack
        }
      case .deckFinished(.snapBack, _):
        outcome = .snapBack
      default:
        break
      }
    }
    if outcome == nil && (phase == .ended || phase == .cancelled) { outcome = .snapBack }
    return (messages, outcome)
  }

  /// The stroke as a gesture trace that `offloadctl gesture replay` reads.
  var trace: GestureTrace {
    GestureTrace(
      entries: samples.map { .sample($0) }, surfaceName: "photoDeck", preset: .ios,
      containerWidth: containerWidth)
  }
}

extension DeckChannel {
  /// Skips card `index` of the session (the deck's Skip key and button, queued with the
  /// decisions): answers `skipped` with the deck, or `refused` with the reason.
  func skip(_ input: ClientMessage, _ outbound: WebSocketOutboundWriter) async throws {
    let answer: ServerMessage
    do {
      guard let session = input.session, let index = input.index else {
        throw DeckFailure(status: 400, "a skip names a session's card")
      }
      answer = ServerMessage(type: "skipped", deck: try await service.skip(session, index: index))
    } catch let failure as DeckFailure {
      let deck = try? await service.state(input.session)
      answer = ServerMessage(type: "refused", deck: deck, error: failure.description)
    }
    try await outbound.write(.text(String(decoding: WebShapes.encode(answer), as: UTF8.self)))
  }
}
