import Gestures

// snippet: row-gestures-model
/// The view model behind one list row's touches: swipe to delete, long press to reorder.
///
/// The view forwards every touch sample and, from its frame clock, the time; the arena
/// decides, and the model keeps only what the row draws.
@MainActor
final class RowGestureModel {
  private var arena = GestureArena(
    surface: .listRow, configuration: GesturePreset.ios.configuration)
  /// The row's horizontal offset while it follows the finger.
  private(set) var offset = 0.0
  /// The trash icon's opacity behind the row.
  private(set) var trashOpacity = 0.0
  /// Whether the row was lifted for reordering.
  private(set) var isLifted = false
  /// What the row asked the app to do: "delete", "snap back", haptics.
  private(set) var requests: [String] = []

  /// A touch sample from the view (time on the same clock as `tick(at:)`).
  func touch(_ sample: TouchSample) { draw(arena.feed(sample)) }

  /// The frame clock: a finger resting long enough becomes a long press.
  func tick(at time: Double) { draw(arena.advance(to: time)) }

  private func draw(_ events: [GestureEvent]) {
    for event in events {
      switch event {
      case .rowSwipe(let frame, _):
        offset = frame.offset
        trashOpacity = frame.trashOpacity
      case .rowSwipeFinished(.delete, _): requests.append("delete")
      case .rowSwipeFinished(.snapBack, _):
        offset = 0
        trashOpacity = 0
        requests.append("snap back")
      case .reorder(.lift, _, _): isLifted = true
      case .reorder(.drop, _, _), .reorder(.cancel, _, _): isLifted = false
      case .haptic(let cue, _): requests.append("haptic \(cue)")
      default: break
      }
    }
  }
}
// snippet-end
