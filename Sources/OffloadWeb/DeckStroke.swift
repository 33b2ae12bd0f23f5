import Foundation
import Gestures
import HummingbirdWebSocket
import Offload
import PhotoSession

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

  /// A stroke beginning where `start` says, its first sample at `time` seconds on the page's
  /// clock.
  init(_ start: DeckStrokeStart, time: Double) {
    var configuration = GesturePreset.ios.configuration
    configuration.deckContainerWidth = start.width
    configuration.reduceMotion = start.reduceMotion
    self.session = start.session
    self.index = start.index
    self.containerWidth = start.width
    self.origin = time
    arena = GestureArena(surface: .photoDeck, configuration: configuration)
  }

  /// What the swipe ended as, when a sample finished it.
  enum Outcome: Equatable {
    case commit(PhotoDecision, direction: String, byFling: Bool)
    case snapBack
  }

  /// Feeds one sample (its time in seconds on the page's clock); returns the messages for the
  /// page and the outcome if the stroke ended.
  ///
  /// - Complexity: O(1) amortized (the arena's work per sample).
  ///
  /// A browser reports the lift (`pointerup`) as its own event, at the last position a little
  /// later. Like Flutter's and Android's velocity trackers, which leave the up event out of
  /// the estimate, a lift that did not move and came within the stop gap is stamped with the
  /// last move's time, so it does not read as the pointer stopping; the trace records it so.
  mutating func feed(_ input: TouchSample) -> (
    messages: [DeckServerMessage], outcome: Outcome?
  ) {
    let (phase, x, y) = (input.phase, input.location.x, input.location.y)
    var time = max(0, input.time - origin)
    if phase == .ended, let last = samples.last, last.location == TouchPoint(x: x, y: y),
      time - last.time < arena.configuration.velocityStopGap
    {
      time = last.time
    }
    let sample = TouchSample(time: time, x: x, y: y, phase: phase, pointer: input.pointer)
    if samples.count < WebLimits.strokeSamples || phase == .ended || phase == .cancelled {
      samples.append(sample)
    }
    var messages: [DeckServerMessage] = []
    var outcome: Outcome?
    for event in arena.feed(sample) {
      switch event {
      case .deckMark(let direction, let mark, let rising, _):
        messages.append(.mark(direction: direction.rawValue, mark: mark, rising: rising))
      case .haptic(.thresholdTick, _):
        messages.append(.tick)
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
