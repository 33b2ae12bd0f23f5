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
