/// A JSON value for the reports the module writes: objects render with sorted keys, numbers
/// in Swift's shortest round-trip form, so the same report is the same bytes everywhere.
public indirect enum JSONDocument: Hashable, Sendable {
  /// An object; keys are sorted when rendered.
  case object([String: JSONDocument])
  /// An array.
  case array([JSONDocument])
  /// A string.
  case string(String)
  /// A number.
  case number(Double)
  /// An integer.
  case integer(Int)
  /// A Boolean.
  case bool(Bool)
  /// Null.
  case null

  /// The document as text, pretty-printed with two-space indentation, without a final newline.
  ///
  /// - Complexity: O(*n* log *n*), where *n* is the number of values (keys are sorted).
  public var text: String {
    var out = ""
    render(into: &out, indent: 0)
    return out
  }

  private func render(into out: inout String, indent: Int) {
    let pad = String(repeating: "  ", count: indent + 1)
    let closePad = String(repeating: "  ", count: indent)
    switch self {
    case .object(let fields):
      if fields.isEmpty {
        out += "{}"
        return
      }
      out += "{\n"
      for (index, key) in fields.keys.sorted().enumerated() {
        out += pad + JSONText.string(key) + " : "
        fields[key, default: .null].render(into: &out, indent: indent + 1)
        out += index == fields.count - 1 ? "\n" : ",\n"
      }
      out += closePad + "}"
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "[\n"
      for (index, item) in items.enumerated() {
        out += pad
        item.render(into: &out, indent: indent + 1)
        out += index == items.count - 1 ? "\n" : ",\n"
      }
      out += closePad + "]"
    case .string(let text): out += JSONText.string(text)
    case .number(let value): out += value.isFinite ? JSONText.number(value) : "null"
    case .integer(let value): out += String(value)
    case .bool(let value): out += value ? "true" : "false"
    case .null: out += "null"
    }
  }
}

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
    func n(_ value: Double) -> String { JSONText.number(value) }
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
        ("pastCommit", frame.pastCommit ? "true" : "false"),
      ]
    case .rowSwipeFinished(let outcome, _):
      switch outcome {
      case .delete: return [("outcome", "delete")]
      case .snapBack: return [("outcome", "snapBack")]
      }
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
    ([JSONText.number(time), name] + details.map { "\($0.0)=\($0.1)" }).joined(separator: " ")
  }

  /// The event as a JSON object.
  public var json: JSONDocument {
    var fields: [String: JSONDocument] = ["event": .string(name), "time": .number(time)]
    for (key, value) in details {
      if value == "true" || value == "false" {
        fields[key] = .bool(value == "true")
      } else if let number = Double(value), key != "gesture" {
        fields[key] = .number(number)
      } else {
        fields[key] = .string(value)
      }
    }
    return .object(fields)
  }
}
