/// A recorded stroke from a CSV file in the layout of the real-hands calibration set.
public struct RecordedStroke: Hashable, Sendable {
  /// The stroke's id in the file.
  public var id: Int
  /// The samples, in device pixels, time in milliseconds since the stroke's first sample.
  public var samples: [(milliseconds: Double, x: Double, y: Double, phase: TouchPhase)]
  /// The file's derived label (`tap`, `left`, `right`, `up`, `down`), not ground truth.
  public var label: String

  /// Creates a stroke.
  public init(
    id: Int, samples: [(milliseconds: Double, x: Double, y: Double, phase: TouchPhase)],
    label: String
  ) {
    self.id = id
    self.samples = samples
    self.label = label
  }

  /// Equal when ids, labels and every sample are equal.
  ///
  /// - Complexity: O(*n*), where *n* is the number of samples.
  public static func == (lhs: RecordedStroke, rhs: RecordedStroke) -> Bool {
    lhs.id == rhs.id && lhs.label == rhs.label && lhs.samples.count == rhs.samples.count
      && zip(lhs.samples, rhs.samples).allSatisfy {
        $0.milliseconds == $1.milliseconds && $0.x == $1.x && $0.y == $1.y && $0.phase == $1.phase
      }
  }

  /// Hashes the id, the label and the sample count.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(label)
    hasher.combine(samples.count)
  }

  /// The straight-line distance from the first to the last sample, in pixels.
  public var pixelLength: Double {
    guard let first = samples.first, let last = samples.last else { return 0 }
    return TouchPoint(x: last.x - first.x, y: last.y - first.y).length
  }

  /// The dominant axis of the end-minus-start displacement (ties vertical).
  public var finalAxis: Axis {
    guard let first = samples.first, let last = samples.last else { return .vertical }
    return abs(last.x - first.x) > abs(last.y - first.y) ? .horizontal : .vertical
  }

  /// Parses CSV text with a header naming at least `stroke_id`, `t_ms`, `x`, `y`, `phase`
  /// and `derived_label`. Rows of one stroke must be consecutive.
  ///
  /// - Throws: ``GestureError`` naming the missing column or the bad row and field.
  /// - Complexity: O(*n*), where *n* is the length of the text.
  public static func parseCSV(_ text: String) throws(GestureError) -> [RecordedStroke] {
    // "\r\n" is one Character in Swift: split on both spellings of a line end.
    var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
      .makeIterator()
    guard let headerLine = lines.next() else {
      throw GestureError(.missingColumn, line: 1, description: "the CSV file is empty")
    }
    let header = headerLine.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingSpaceAndReturn()
    }
    func column(_ name: String) throws(GestureError) -> Int {
      guard let index = header.firstIndex(of: name) else {
        throw GestureError(
          .missingColumn, line: 1,
          description:
            "the CSV header lacks the column \"\(name)\" (it has: \(header.prefix(20).joined(separator: ", ")))"
        )
      }
      return index
    }
    let idColumn = try column("stroke_id")
    let timeColumn = try column("t_ms")
    let xColumn = try column("x")
    let yColumn = try column("y")
    let phaseColumn = try column("phase")
    let labelColumn = try column("derived_label")
    var strokes: [RecordedStroke] = []
    var lineNumber = 1
    while let line = lines.next() {
      lineNumber += 1
      let trimmed = line.trimmingSpaceAndReturn()
      if trimmed.isEmpty { continue }
      let cells = trimmed.split(separator: ",", omittingEmptySubsequences: false)
      guard cells.count == header.count else {
        throw GestureError(
          .invalidRow, line: lineNumber,
          description:
            "CSV line \(lineNumber) has \(cells.count) fields; the header has \(header.count)")
      }
      func number(_ index: Int) throws(GestureError) -> Double {
        guard let value = Double(cells[index]), value.isFinite else {
          throw GestureError(
            .invalidRow, line: lineNumber,
            description:
              "CSV line \(lineNumber): \(header[index]) \"\(cells[index])\" is not a number")
        }
        return value
      }
      let idValue = try number(idColumn)
      guard idValue == idValue.rounded() else {
        throw GestureError(
          .invalidRow, line: lineNumber,
          description: "CSV line \(lineNumber): stroke_id \"\(cells[idColumn])\" is not an integer")
      }
      guard let phase = TouchPhase(rawValue: String(cells[phaseColumn])) else {
        throw GestureError(
          .invalidRow, line: lineNumber,
          description:
            "CSV line \(lineNumber): phase \"\(cells[phaseColumn])\" is not began, moved, ended or cancelled"
        )
      }
      let sample = (
        milliseconds: try number(timeColumn), x: try number(xColumn), y: try number(yColumn),
        phase: phase
      )
      let id = Int(idValue)
      if strokes.last?.id == id {
        strokes[strokes.count - 1].samples.append(sample)
      } else {
        if strokes.contains(where: { $0.id == id }) {
          throw GestureError(
            .invalidRow, line: lineNumber,
            description:
              "CSV line \(lineNumber): stroke \(id) continues after other strokes; keep a stroke's rows together"
          )
        }
        strokes.append(RecordedStroke(id: id, samples: [sample], label: String(cells[labelColumn])))
      }
    }
    return strokes
  }
}

extension Substring {
  fileprivate func trimmingSpaceAndReturn() -> String {
    var text = self
    while let last = text.last, last == "\r" || last == " " { text = text.dropLast() }
    while let first = text.first, first == " " { text = text.dropFirst() }
    return String(text)
  }
}

/// How the arena's decisions compare with a CSV file's derived labels.
public struct StrokeEvaluation: Hashable, Sendable {
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
    var distances: [Double] = []
    var delays: [Double] = []
    for stroke in strokes {
      guard let first = stroke.samples.first, let last = stroke.samples.last else { continue }
      var lock = DirectionLock()
      for (index, sample) in stroke.samples.enumerated() {
        var phase = sample.phase
        if index == 0 { phase = .began } else if phase == .began { phase = .moved }
        let touch = TouchSample(
          time: sample.milliseconds / 1000, pixelX: sample.x, pixelY: sample.y, phase: phase,
          density: density)
        arena.feed(touch)
        let start = TouchPoint(x: first.x / density, y: first.y / density)
        _ = lock.update(
          touch.location - start, final: index == stroke.samples.count - 1,
          configuration: arena.configuration)
      }
      if arena.isTracking {
        // A stroke without an `ended` row ends at its last sample.
        arena.feed(
          TouchSample(
            time: last.milliseconds / 1000, pixelX: last.x, pixelY: last.y, phase: .ended,
            density: density))
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
        taps += 1
        if decided == "tap" || decided == "longPress" || decided == "reorder" { tapsRight += 1 }
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
    self.confusion = confusion
    medianDecisionDistance = Self.median(distances)
    medianDecisionMs = Self.median(delays)
    self.density = density
    self.preset = preset
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The evaluation as one JSON document.
  ///
  /// - Complexity: O(*c*), where *c* is the number of confusion cells.
  public var json: JSONDocument {
    .object([
      "schemaVersion": .integer(1),
      "strokes": .integer(strokes),
      "longStrokes": .integer(longStrokes),
      "axisAgreement": .number(Self.round(axisAgreement, 6)),
      "axisAgreementWhenPanning": .number(Self.round(axisAgreementWhenPanning, 6)),
      "arenaAxisAgreement": .number(Self.round(arenaAxisAgreement, 6)),
      "longStrokesPressed": .integer(longStrokesPressed),
      "tapAccuracy": .number(Self.round(tapAccuracy, 6)),
      "confusion": .object(
        confusion.mapValues { row in .object(row.mapValues { .integer($0) }) }),
      "medianDecisionDistance": .number(Self.round(medianDecisionDistance, 3)),
      "medianDecisionMs": .number(Self.round(medianDecisionMs, 3)),
      "density": .number(density),
      "preset": .string(preset.rawValue),
    ])
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
      "strokes: \(strokes) (preset \(preset.rawValue), density \(JSONText.number(density)) px/pt)",
      "axis agreement of the direction lock (strokes > 60 px, n = \(longStrokes)): "
        + percent(axisAgreement),
      "  arena decisions on the final axis: \(percent(arenaAxisAgreement)) (among pan decisions: "
        + "\(percent(axisAgreementWhenPanning)); \(longStrokesPressed) long strokes rested into a long press first)",
      "tap accuracy: \(percent(tapAccuracy))",
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
