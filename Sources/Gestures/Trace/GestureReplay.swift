/// The outcome of one stroke (or one accessibility action) of a replayed trace.
public struct ReplayStroke: Hashable, Sendable, Encodable {
  /// 1-based stroke number.
  public var index: Int
  /// When the stroke started.
  public var startTime: Double
  /// The gesture that won, if any.
  public var decision: GestureKind?
  /// Seconds from the start to the decision.
  public var decisionDelay: Double?
  /// Distance from the start at the decision, in points.
  public var decisionDistance: Double?
  /// The axis the direction lock chose, if it chose one.
  public var axis: Axis?
  /// What the stroke did in the end (`tap`, `delete`, `snapBack`, `commit-left`, …).
  public var outcome: String
  /// Every event of the stroke, in order.
  public var events: [GestureEvent]
}

/// Replays a trace through an arena; the same trace gives the same bytes every time.
public struct GestureReplay: Hashable, Sendable, Encodable {
  /// The strokes in order.
  public var strokes: [ReplayStroke]
  /// The preset used.
  public var preset: GesturePreset
  /// The surface name used.
  public var surfaceName: String

  /// Replays `trace` with a preset (the trace's own, else `preset`) on the trace's surface
  /// (else `listRow`, or `photoDeck` when the trace performs deck actions).
  ///
  /// - Parameters:
  ///   - trace: The trace.
  ///   - preset: The preset when the trace names none; a trace's own preset is overridden
  ///     when `overridePreset` is true.
  ///   - overridePreset: Whether `preset` wins over the trace's preset.
  /// - Complexity: O(*n* · (*m* + *h*)), where *n* is the number of entries.
  public init(trace: GestureTrace, preset: GesturePreset = .ios, overridePreset: Bool = false) {
    let chosen = overridePreset ? preset : (trace.preset ?? preset)
    var configuration = chosen.configuration
    if let width = trace.containerWidth { configuration.deckContainerWidth = width }
    let name = trace.surfaceName ?? "listRow"
    let surface = GestureTrace.surface(named: name) ?? .listRow
    var arena = GestureArena(surface: surface, configuration: configuration)
    var strokes: [ReplayStroke] = []
    var current: ReplayStroke?

    func close(_ stroke: inout ReplayStroke?, arena: GestureArena) {
      guard var finished = stroke else { return }
      if let decision = arena.decision {
        finished.decision = decision.kind
        finished.decisionDelay = decision.time - finished.startTime
        finished.decisionDistance = decision.distance
      }
      finished.axis = arena.lock.axis
      finished.outcome = Self.outcome(of: finished.events)
      strokes.append(finished)
      stroke = nil
    }

    for entry in trace.entries {
      switch entry {
      case .sample(let sample):
        if sample.phase == .began {
          if arena.isTracking {
            if arena.trackedPointer != sample.pointer {
              // A second finger: the arena ignores it, as does the replay.
              current?.events += arena.feed(sample)
              continue
            }
            current?.events += arena.cancel(at: sample.time)
          }
          close(&current, arena: arena)
          current = ReplayStroke(
            index: strokes.count + 1, startTime: sample.time, decision: nil, decisionDelay: nil,
            decisionDistance: nil, axis: nil, outcome: "none", events: [])
        }
        current?.events += arena.feed(sample)
        if !arena.isTracking { close(&current, arena: arena) }
      case .advance(let time):
        current?.events += arena.advance(to: time)
      case .action(let action, let time):
        close(&current, arena: arena)
        var stroke = ReplayStroke(
          index: strokes.count + 1, startTime: time, decision: nil, decisionDelay: nil,
          decisionDistance: nil, axis: nil, outcome: "none", events: [])
        do {
          stroke.events = try arena.perform(action, at: time)
        } catch {
          stroke.outcome = "unavailable"
        }
        var optional: ReplayStroke? = stroke
        if stroke.outcome == "unavailable" {
          strokes.append(stroke)
        } else {
          close(&optional, arena: arena)
        }
      }
    }
    close(&current, arena: arena)
    self.strokes = strokes
    self.preset = chosen
    self.surfaceName = name
  }

  /// The stroke's final effect, read from its events.
  static func outcome(of events: [GestureEvent]) -> String {
    for event in events.reversed() {
      switch event {
      case .tap: return "tap"
      case .rowSwipeFinished(.delete, _): return "delete"
      case .rowSwipeFinished(.snapBack, _): return "snapBack"
      case .rowSwipeFinished(.reveal, _): return "reveal"
      case .rowRevealClosed(.tap, _): return "close"
      case .deckFinished(.commit(let direction, _), _): return "commit-\(direction.rawValue)"
      case .deckFinished(.snapBack, _): return "snapBack"
      case .reorder(.drop, _, _): return "drop"
      case .reorder(.cancel, _, _): return "cancelled"
      case .longPress(.ended, _, _): return "longPress"
      case .scroll(_, _, _):
        if case .state(.scroll, .cancelled, _)? = events.last(where: {
          if case .state(.scroll, _, _) = $0 { return true }
          return false
        }) {
          return "cancelled"
        }
        return "scroll"
      case .accessibility(let action, _): return action.rawValue
      default: continue
      }
    }
    return "none"
  }

  /// The replay as text: one header line a stroke, then its events indented.
  ///
  /// - Complexity: O(*e*), where *e* is the number of events.
  public var text: String {
    var lines: [String] = []
    for stroke in strokes {
      var header = "stroke \(stroke.index) at \(shortText(stroke.startTime)) s: "
      if let decision = stroke.decision, let delay = stroke.decisionDelay,
        let distance = stroke.decisionDistance
      {
        header +=
          "\(decision.rawValue) after \(shortText(Self.milliseconds(delay))) ms and "
          + "\(shortText(Self.rounded(distance))) pt"
      } else {
        header += "no gesture"
      }
      header += ", outcome \(stroke.outcome)"
      lines.append(header)
      for event in stroke.events { lines.append("  " + event.summary) }
    }
    return lines.joined(separator: "\n")
  }

  static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000 * 1000).rounded() / 1000 }
  static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

extension ReplayStroke {
  private enum CodingKeys: String, CodingKey {
    case index, startTime, decision, decisionMs, decisionDistance, axis, outcome, events
  }

  /// Encodes the stroke as reports show it: the decision's delay in milliseconds and its
  /// distance rounded to 0.001, absent values as null.
  ///
  /// - Complexity: O(*e*), where *e* is the number of events.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(index, forKey: .index)
    try container.encodeNumber(startTime, forKey: .startTime)
    try container.encode(decision?.rawValue, forKey: .decision)
    try container.encodeNumber(decisionDelay.map(GestureReplay.milliseconds), forKey: .decisionMs)
    try container.encodeNumber(
      decisionDistance.map(GestureReplay.rounded), forKey: .decisionDistance)
    try container.encode(axis?.rawValue, forKey: .axis)
    try container.encode(outcome, forKey: .outcome)
    try container.encode(events, forKey: .events)
  }
}

extension GestureReplay {
  private enum CodingKeys: String, CodingKey {
    case preset, surface, strokes
  }

  /// Encodes the preset, the surface and the strokes.
  ///
  /// - Complexity: O(*e*), where *e* is the number of events.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(preset.rawValue, forKey: .preset)
    try container.encode(surfaceName, forKey: .surface)
    try container.encode(strokes, forKey: .strokes)
  }
}
