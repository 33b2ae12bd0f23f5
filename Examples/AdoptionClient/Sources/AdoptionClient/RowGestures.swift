import Gestures

// snippet: row-gestures-model
/// The view model behind one list row's touches: swipe to delete, swipe to reveal quick
/// actions, long press to reorder.
///
/// The view forwards every touch sample and, from its frame clock, the time; the arena
/// decides, and the model keeps only what the row draws.
@MainActor
final class RowGestureModel {
  private var arena: GestureArena
  /// The width of the row's quick actions (0: none, a swipe that does not delete closes).
  let actionsWidth: Double
  /// The row's horizontal offset while it follows the finger or rests open.
  private(set) var offset = 0.0
  /// The trash icon's opacity behind the row: full strength only when releasing deletes.
  private(set) var trashOpacity = 0.0
  /// Whether lifting the finger now deletes the row (draw the armed trash icon).
  private(set) var releaseDeletes = false
  /// Whether the row rests open on its quick actions.
  private(set) var isRevealed = false
  /// Whether the row was lifted for reordering.
  private(set) var isLifted = false
  /// What the row asked the app to do: "delete", "reveal", "close by tap", haptics.
  private(set) var requests: [String] = []

  init(actionsWidth: Double = 0) {
    var configuration = GesturePreset.ios.configuration
    configuration.rowSwipeRevealWidth = actionsWidth
    self.actionsWidth = actionsWidth
    arena = GestureArena(surface: .listRow, configuration: configuration)
  }

  /// A touch sample from the view (time on the same clock as `tick(at:)`).
  func touch(_ sample: TouchSample) { draw(arena.feed(sample)) }

  /// The frame clock: a finger resting long enough becomes a long press.
  func tick(at time: Double) { draw(arena.advance(to: time)) }

  /// A touch on another row or on the list's background, or a quick action performed.
  func closeActions(at time: Double) { draw(arena.closeRevealedRow(at: time)) }

  private func draw(_ events: [GestureEvent]) {
    for event in events {
      switch event {
      case .rowSwipe(let frame, _):
        offset = frame.offset
        trashOpacity = frame.trashOpacity
        releaseDeletes = frame.releaseWillDelete
      case .rowSwipeFinished(let outcome, _):
        isRevealed = outcome == .reveal
        offset = isRevealed ? -actionsWidth : 0
        trashOpacity = 0
        releaseDeletes = false
        requests.append(outcome == .delete ? "delete" : isRevealed ? "reveal" : "snap back")
      case .rowRevealClosed(let reason, _):
        isRevealed = false
        offset = 0
        requests.append("close by \(reason)")
      case .reorder(.lift, _, _): isLifted = true
      case .reorder(.drop, _, _), .reorder(.cancel, _, _): isLifted = false
      case .haptic(let cue, _): requests.append("haptic \(cue)")
      default: break
      }
    }
  }
}
// snippet-end
