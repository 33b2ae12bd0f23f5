/// How the arena's decisions compare with a CSV file's derived labels.
public struct StrokeEvaluation: Hashable, Sendable, Encodable {
  /// Strokes evaluated.
  public var strokes: Int
  /// Strokes longer than the axis threshold (60 px).
  public var longStrokes: Int
  /// Of the long strokes, the fraction whose direction-lock axis matches the final axis (a
  /// stroke the lock never decided counts as a miss). The lock runs on every stroke, also
  /// those a long press takes first.
  public var axisAgreement: Double
  /// Of the long strokes, the fraction the arena gave to a scroll or swipe on the final axis;
  /// long strokes that a long press or reorder took (the finger rested first) count as misses.
  public var arenaAxisAgreement: Double
  /// Long strokes that a long press or reorder took.
  public var longStrokesPressed: Int
  /// Of the long strokes decided as a scroll or a swipe, the fraction on the right axis.
  public var axisAgreementWhenPanning: Double
  /// Of the strokes labelled `tap`, the fraction decided as tap, long press or reorder.
  public var tapAccuracy: Double
  /// Strokes labelled `tap` whose finger went farther from the start than the touch slop
  /// before it came back: a drag out and back, which every anchor (a UIKit scroll view,
  /// Android's touch slop, Flutter's `kTouchSlop`) gives to the scroll, never to a tap.
  public var tapsBeyondSlop: Int
  /// Of the strokes labelled `tap` that stayed within the touch slop, the fraction decided
  /// as tap, long press or reorder.
  public var tapAccuracyWithinSlop: Double
  /// Label → how many strokes of that label deleted a row on the `listRow` surface (every
  /// label of the file is present, zero included).
  public var rowDeletes: [String: Int]
  /// Strokes labelled `left` that went farther left than the row commit distance at a quick
  /// average speed (``GestureConfiguration/isQuickRowSwipe(distance:duration:)``): the
  /// swipes the row rule means to delete.
  public var quickLeftSwipes: Int
  /// Of ``quickLeftSwipes``, how many deleted the row (the others locked vertical on a steep
  /// start, rested into a reorder first, or came back right fast enough to cancel).
  public var quickLeftSwipesDeleting: Int
  /// Label → decision → count. Decisions: `tap`, `longPress`, `reorder`, `left`, `right`
  /// (a horizontal lock, by the sign of the final displacement), `up`, `down`, `none`.
  public var confusion: [String: [String: Int]]
  /// The median distance from the start at the decision, in points.
  public var medianDecisionDistance: Double
  /// The median time from the start to the decision, in milliseconds.
  public var medianDecisionMs: Double
  /// The density used (pixels per point).
  public var density: Double
  /// The preset used.
  public var preset: GesturePreset

  /// Runs every stroke through a `listRow` arena and compares.
  ///
  /// Samples are converted from pixels with `density` before any threshold applies; each
  /// stroke's clock starts at 0 and timeouts fire at their moment between samples.
  ///
  /// - Parameters:
  ///   - strokes: The recorded strokes.
  ///   - preset: The thresholds.
  ///   - density: Pixels per point (the calibration phones: about 2.625).
  ///   - axisThreshold: The pixel length over which a stroke counts for axis agreement.
  /// - Complexity: O(*s*), where *s* is the number of samples.
  public init(
    strokes: [RecordedStroke], preset: GesturePreset = .ios, density: Double = 2.625,
    axisThreshold: Double = 60
  ) {
    precondition(density > 0, "density must be greater than zero, got \(density)")
    var arena = GestureArena(surface: .listRow, configuration: preset.configuration)
    var confusion: [String: [String: Int]] = [:]
    var long = 0
    var panning = 0
    var panningAgreeing = 0
    var lockAgreeing = 0
    var pressed = 0
    var taps = 0
    var tapsRight = 0
    var beyondSlop = 0
    var beyondSlopRight = 0
    var distances: [Double] = []
    var delays: [Double] = []
    var deletes: [String: Int] = [:]
    var quickLeft = 0
    var quickLeftDeleting = 0
    for stroke in strokes {
      guard let first = stroke.samples.first, let last = stroke.samples.last else { continue }
      var lock = DirectionLock()
      var deleted = false
      for (index, sample) in stroke.samples.enumerated() {
        var phase = sample.phase
        if index == 0 { phase = .began } else if phase == .began { phase = .moved }
        let touch = TouchSample(
          time: sample.milliseconds / 1000, pixelX: sample.x, pixelY: sample.y, phase: phase,
          density: density)
        deleted = Self.deletesRow(arena.feed(touch)) || deleted
        let start = TouchPoint(x: first.x / density, y: first.y / density)
        _ = lock.update(
          touch.location - start, final: index == stroke.samples.count - 1,
          configuration: arena.configuration)
      }
      if arena.isTracking {
        // A stroke without an `ended` row ends at its last sample.
        let ending = arena.feed(
          TouchSample(
            time: last.milliseconds / 1000, pixelX: last.x, pixelY: last.y, phase: .ended,
            density: density))
        deleted = Self.deletesRow(ending) || deleted
      }
      deletes[stroke.label, default: 0] += deleted ? 1 : 0
      let leftward = (first.x - last.x) / density
      let quick = arena.configuration.isQuickRowSwipe(
        distance: leftward, duration: (last.milliseconds - first.milliseconds) / 1000)
      if stroke.label == "left" && leftward > arena.configuration.rowSwipeCommitDistance && quick {
        quickLeft += 1
        if deleted { quickLeftDeleting += 1 }
      }
      let decided: String
      switch arena.decision?.kind {
      case .tap?: decided = "tap"
      case .longPress?: decided = "longPress"
      case .reorder?: decided = "reorder"
      case .scroll?: decided = last.y - first.y < 0 ? "up" : "down"
      case .rowSwipe?: decided = last.x - first.x < 0 ? "left" : "right"
      case .deckSwipe?: decided = "deck"
      case nil: decided = "none"
      }
      confusion[stroke.label, default: [:]][decided, default: 0] += 1
      if let decision = arena.decision {
        distances.append(decision.distance)
        delays.append((decision.time - first.milliseconds / 1000) * 1000)
      }
      if stroke.label == "tap" {
        let right = decided == "tap" || decided == "longPress" || decided == "reorder"
        taps += 1
        if right { tapsRight += 1 }
        var farthest = 0.0
        for sample in stroke.samples {
          let dx = sample.x - first.x
          let dy = sample.y - first.y
          farthest = max(farthest, (dx * dx + dy * dy).squareRoot() / density)
        }
        if farthest > arena.configuration.touchSlop {
          beyondSlop += 1
          if right { beyondSlopRight += 1 }
        }
      }
      if stroke.pixelLength > axisThreshold {
        long += 1
        if lock.axis == stroke.finalAxis { lockAgreeing += 1 }
        if decided == "longPress" || decided == "reorder" { pressed += 1 }
        let axis: Axis? =
          switch arena.decision?.kind {
          case .scroll?: .vertical
          case .rowSwipe?: .horizontal
          default: nil
          }
        if let axis {
          panning += 1
          if axis == stroke.finalAxis {
            panningAgreeing += 1
          }
        }
      }
    }
    self.strokes = strokes.count
    longStrokes = long
    axisAgreement = long == 0 ? 0 : Double(lockAgreeing) / Double(long)
    arenaAxisAgreement = long == 0 ? 0 : Double(panningAgreeing) / Double(long)
    longStrokesPressed = pressed
    axisAgreementWhenPanning = panning == 0 ? 0 : Double(panningAgreeing) / Double(panning)
    tapAccuracy = taps == 0 ? 0 : Double(tapsRight) / Double(taps)
    tapsBeyondSlop = beyondSlop
    let within = taps - beyondSlop
    tapAccuracyWithinSlop =
      within == 0 ? 0 : Double(tapsRight - beyondSlopRight) / Double(within)
    self.confusion = confusion
    rowDeletes = deletes
    quickLeftSwipes = quickLeft
    quickLeftSwipesDeleting = quickLeftDeleting
    medianDecisionDistance = Self.median(distances)
    medianDecisionMs = Self.median(delays)
    self.density = density
    self.preset = preset
  }

  static func deletesRow(_ events: [GestureEvent]) -> Bool {
    events.contains { if case .rowSwipeFinished(.delete, _) = $0 { true } else { false } }
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  static func round(_ value: Double, _ digits: Int) -> Double {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    return (value * scale).rounded() / scale
  }

  /// The evaluation as text: the figures, then the confusion matrix.
  ///
  /// - Complexity: O(*c*), where *c* is the number of confusion cells.
  public var text: String {
    func percent(_ value: Double) -> String { "\(Self.round(value * 100, 2)) %" }
    let decisions = ["tap", "longPress", "reorder", "left", "right", "up", "down", "none"]
    let labels = confusion.keys.sorted()
    var lines = [
      "strokes: \(strokes) (preset \(preset.rawValue), density \(shortText(density)) px/pt)",
      "axis agreement of the direction lock (strokes > 60 px, n = \(longStrokes)): "
        + percent(axisAgreement),
      "  arena decisions on the final axis: \(percent(arenaAxisAgreement)) (among pan decisions: "
        + "\(percent(axisAgreementWhenPanning)); \(longStrokesPressed) long strokes rested into a long press first)",
      "tap accuracy: \(percent(tapAccuracy))",
      "  \(tapsBeyondSlop) derived taps went past the touch slop "
        + "(\(shortText(preset.configuration.touchSlop)) pt) and back; "
        + "the others: \(percent(tapAccuracyWithinSlop))",
      "row deletes by label: "
        + rowDeletes.keys.sorted().map { "\($0) \(rowDeletes[$0, default: 0])" }
        .joined(separator: ", "),
      "  quick left swipes past \(shortText(preset.configuration.rowSwipeCommitDistance)) pt "
        + "(at least \(shortText(preset.configuration.rowSwipeQuickSpeed)) pt/s): "
        + "\(quickLeftSwipes), of which \(quickLeftSwipesDeleting) delete",
      "median decision distance: \(Self.round(medianDecisionDistance, 2)) pt",
      "median decision time: \(Self.round(medianDecisionMs, 1)) ms",
      "",
      "confusion (rows: derived label, columns: decision)",
    ]
    func pad(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    lines.append(pad("", 6) + decisions.map { pad($0, 10) }.joined())
    for label in labels {
      let row = confusion[label, default: [:]]
      lines.append(pad(label, 6) + decisions.map { pad(String(row[$0, default: 0]), 10) }.joined())
    }
    return lines.joined(separator: "\n")
  }
}

extension StrokeEvaluation {
  private enum CodingKeys: String, CodingKey {
    case strokes, longStrokes, axisAgreement, axisAgreementWhenPanning, arenaAxisAgreement
    case longStrokesPressed, tapAccuracy, tapAccuracyWithinSlop, tapsBeyondSlop, rowDeletes
    case quickLeftSwipes, quickLeftSwipesDeleting, confusion, medianDecisionDistance
    case medianDecisionMs, density, preset
  }

  /// Encodes the figures as reports show them: fractions rounded to 6 decimals, medians to 3.
  ///
  /// - Complexity: O(*c*), where *c* is the number of confusion cells.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(strokes, forKey: .strokes)
    try container.encode(longStrokes, forKey: .longStrokes)
    try container.encodeNumber(Self.round(axisAgreement, 6), forKey: .axisAgreement)
    try container.encodeNumber(
      Self.round(axisAgreementWhenPanning, 6), forKey: .axisAgreementWhenPanning)
    try container.encodeNumber(Self.round(arenaAxisAgreement, 6), forKey: .arenaAxisAgreement)
    try container.encode(longStrokesPressed, forKey: .longStrokesPressed)
    try container.encodeNumber(Self.round(tapAccuracy, 6), forKey: .tapAccuracy)
    try container.encodeNumber(Self.round(tapAccuracyWithinSlop, 6), forKey: .tapAccuracyWithinSlop)
    try container.encode(tapsBeyondSlop, forKey: .tapsBeyondSlop)
    try container.encode(rowDeletes, forKey: .rowDeletes)
    try container.encode(quickLeftSwipes, forKey: .quickLeftSwipes)
    try container.encode(quickLeftSwipesDeleting, forKey: .quickLeftSwipesDeleting)
    try container.encode(confusion, forKey: .confusion)
    try container.encodeNumber(
      Self.round(medianDecisionDistance, 3), forKey: .medianDecisionDistance)
    try container.encodeNumber(Self.round(medianDecisionMs, 3), forKey: .medianDecisionMs)
    try container.encodeNumber(density, forKey: .density)
    try container.encode(preset.rawValue, forKey: .preset)
  }
}
