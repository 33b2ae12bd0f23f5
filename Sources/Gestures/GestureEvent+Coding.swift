extension GestureEvent {
  /// The event's name, as in traces and reports.
  public var name: String {
    switch self {
    case .state: "state"
    case .axisLocked: "axisLocked"
    case .decided: "decided"
    case .tap: "tap"
    case .scroll: "scroll"
    case .rowSwipe: "rowSwipe"
    case .rowSwipeFinished: "rowSwipeFinished"
    case .rowRevealClosed: "rowRevealClosed"
    case .reorder: "reorder"
    case .longPress: "longPress"
    case .deck: "deck"
    case .deckMark: "deckMark"
    case .deckFinished: "deckFinished"
    case .haptic: "haptic"
    case .motion: "motion"
    case .accessibility: "accessibility"
    }
  }

  /// The event's fields other than its name and time, as (key, text) pairs (numbers in the
  /// shortest form that reads back to the same value).
  public var details: [(String, String)] {
    func n(_ value: Double) -> String { shortText(value) }
    switch self {
    case .state(let kind, let state, _):
      return [("gesture", kind.rawValue), ("state", state.rawValue)]
    case .axisLocked(let axis, _, let distance):
      return [("axis", axis.rawValue), ("distance", n(distance))]
    case .decided(let kind, _, let distance):
      return [("gesture", kind.rawValue), ("distance", n(distance))]
    case .tap(let point, _): return [("x", n(point.x)), ("y", n(point.y))]
    case .scroll(let translation, let velocity, _):
      return [("translation", n(translation)), ("velocity", n(velocity))]
    case .rowSwipe(let frame, _):
      return [
        ("offset", n(frame.offset)), ("trashOpacity", n(frame.trashOpacity)),
        ("releaseWillDelete", frame.releaseWillDelete ? "true" : "false"),
        ("release", frame.release.name), ("revealProgress", n(frame.revealProgress)),
      ]
    case .rowSwipeFinished(let outcome, _): return [("outcome", outcome.name)]
    case .rowRevealClosed(let reason, _): return [("reason", reason.rawValue)]
    case .reorder(let phase, let point, _):
      return [("phase", phase.rawValue), ("x", n(point.x)), ("y", n(point.y))]
    case .longPress(let state, let point, _):
      return [("state", state.rawValue), ("x", n(point.x)), ("y", n(point.y))]
    case .deck(let frame, _):
      return [
        ("dx", n(frame.offset.x)), ("dy", n(frame.offset.y)),
        ("direction", frame.direction?.rawValue ?? "none"), ("progress", n(frame.progress)),
        ("rotation", n(frame.rotation)), ("scale", n(frame.scale)),
        ("overlayOpacity", n(frame.overlayOpacity)),
      ]
    case .deckMark(let direction, let mark, let rising, _):
      return [
        ("direction", direction.rawValue), ("mark", n(mark)), ("rising", rising ? "true" : "false"),
      ]
    case .deckFinished(let outcome, _):
      switch outcome {
      case .commit(let direction, let byFling):
        return [
          ("outcome", "commit"), ("direction", direction.rawValue),
          ("byFling", byFling ? "true" : "false"),
        ]
      case .snapBack: return [("outcome", "snapBack")]
      }
    case .haptic(let cue, _): return [("cue", cue.rawValue)]
    case .motion(let cue, _): return [("cue", cue.rawValue)]
    case .accessibility(let action, _): return [("action", action.rawValue)]
    }
  }

  /// One line of text: time, name and details.
  public var summary: String {
    ([shortText(time), name] + details.map { "\($0.0)=\($0.1)" }).joined(separator: " ")
  }
}

extension RowSwipeOutcome {
  /// The outcome's name, as in traces and reports: `delete`, `snapBack` or `reveal`.
  public var name: String {
    switch self {
    case .delete: "delete"
    case .snapBack: "snapBack"
    case .reveal: "reveal"
    }
  }
}

extension GestureEvent: Encodable {
  /// Encodes `event` (the ``name``), `time` and the ``details``: `true` and `false` as
  /// Booleans, numbers as numbers, the rest (and `gesture`) as strings.
  ///
  /// - Complexity: O(1): an event has at most seven details.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingName.self)
    try container.encode(name, forKey: CodingName("event"))
    try container.encodeNumber(time, forKey: CodingName("time"))
    for (key, value) in details {
      if value == "true" || value == "false" {
        try container.encode(value == "true", forKey: CodingName(key))
      } else if let number = Double(value), key != "gesture" {
        try container.encodeNumber(number, forKey: CodingName(key))
      } else {
        try container.encode(value, forKey: CodingName(key))
      }
    }
  }
}
