/// A recorded input: touch samples, clock advances and accessibility actions, one JSON object
/// a line.
///
/// ```text
/// {"type":"config","surface":"listRow","preset":"ios","density":1}
/// {"type":"sample","t":0,"x":200,"y":300,"phase":"began","pointer":0}
/// {"type":"sample","t":0.016,"x":188,"y":301,"phase":"moved","pointer":0}
/// {"type":"advance","t":0.6}
/// {"type":"action","t":1.2,"action":"delete"}
/// ```
///
/// `config` lines are optional and may name the `surface` (`listRow`, `photoDeck`,
/// `plainList`, `reorderHandle`), the `preset`, the `density` of pixel coordinates (default 1:
/// points) and the deck's `containerWidth`. Empty lines are skipped. `pointer` defaults to 0.
///
/// The module reads and writes no text: a trace is `Codable` line by line (``Line``, checked
/// by ``Reader``), and the `Offload` module reads and writes the files (`GestureJSON`).
public struct GestureTrace: Hashable, Sendable {
  /// One line of a trace.
  public enum Entry: Hashable, Sendable {
    /// A touch sample, in points.
    case sample(TouchSample)
    /// Let time pass to this moment.
    case advance(Double)
    /// An accessibility action at a moment.
    case action(AccessibilityAction, time: Double)
  }

  /// The entries in order.
  public var entries: [Entry]
  /// The surface named by the trace, if any.
  public var surfaceName: String?
  /// The preset named by the trace, if any.
  public var preset: GesturePreset?
  /// The deck container width named by the trace, if any.
  public var containerWidth: Double?

  /// Creates a trace from entries.
  public init(
    entries: [Entry], surfaceName: String? = nil, preset: GesturePreset? = nil,
    containerWidth: Double? = nil
  ) {
    self.entries = entries
    self.surfaceName = surfaceName
    self.preset = preset
    self.containerWidth = containerWidth
  }

  /// The surfaces a trace may name.
  public static func surface(named name: String) -> GestureSurface? {
    switch name {
    case "listRow": .listRow
    case "photoDeck": .photoDeck
    case "plainList": .plainList
    case "reorderHandle": .reorderHandle
    default: nil
    }
  }

  /// Reads `lines` in order, numbering them from 1 in errors.
  ///
  /// - Throws: ``GestureError`` naming the first bad line and field.
  /// - Complexity: O(*n*), where *n* is the number of lines.
  public init(lines: [Line]) throws(GestureError) {
    var reader = Reader()
    for (index, line) in lines.enumerated() { try reader.read(line, lineNumber: index + 1) }
    self = reader.trace
  }

  /// The trace as lines (points, density 1): a `config` line when the trace names a surface,
  /// a preset or a container width, then one line an entry.
  ///
  /// - Complexity: O(*n*), where *n* is the number of entries.
  public var lines: [Line] {
    var result: [Line] = []
    if surfaceName != nil || preset != nil || containerWidth != nil {
      result.append(
        Line(
          type: "config", surface: surfaceName, preset: preset?.rawValue,
          containerWidth: containerWidth))
    }
    for entry in entries {
      switch entry {
      case .sample(let sample):
        result.append(
          Line(
            type: "sample", t: sample.time, x: sample.location.x, y: sample.location.y,
            phase: sample.phase.rawValue, pointer: Double(sample.pointer)))
      case .advance(let time): result.append(Line(type: "advance", t: time))
      case .action(let action, let time):
        result.append(Line(type: "action", t: time, action: action.rawValue))
      }
    }
    return result
  }
}

extension GestureTrace {
  /// One line of a trace file, field by field, as decoded and before any check: every field
  /// is optional here, and ``Reader`` says which a line of each `type` needs.
  ///
  /// Encoding writes the fields in the order declared (`type` first), leaving out nil ones.
  public struct Line: Codable, Hashable, Sendable {
    /// `config`, `sample`, `advance` or `action`.
    public var type: String?
    /// A `config` line's surface name.
    public var surface: String?
    /// A `config` line's preset name.
    public var preset: String?
    /// A `config` line's deck container width, in points.
    public var containerWidth: Double?
    /// A `config` line's pixels per point for the samples after it (default 1).
    public var density: Double?
    /// The moment, in seconds.
    public var t: Double?
    /// A sample's horizontal position, in pixels of the current density.
    public var x: Double?
    /// A sample's vertical position, in pixels of the current density.
    public var y: Double?
    /// A sample's phase: `began`, `moved`, `ended` or `cancelled`.
    public var phase: String?
    /// A sample's pointer (an integer; default 0).
    public var pointer: Double?
    /// An `action` line's accessibility action.
    public var action: String?

    /// Creates a line.
    public init(
      type: String? = nil, surface: String? = nil, preset: String? = nil,
      containerWidth: Double? = nil, density: Double? = nil, t: Double? = nil, x: Double? = nil,
      y: Double? = nil, phase: String? = nil, pointer: Double? = nil, action: String? = nil
    ) {
      self.type = type
      self.surface = surface
      self.preset = preset
      self.containerWidth = containerWidth
      self.density = density
      self.t = t
      self.x = x
      self.y = y
      self.phase = phase
      self.pointer = pointer
      self.action = action
    }
  }

  /// Reads a trace line by line, so an error names the first bad line even when later lines
  /// are not read yet; a `config` line's density applies to the samples after it.
  public struct Reader: Sendable {
    /// The trace read so far.
    public private(set) var trace = GestureTrace(entries: [])
    /// Pixels per point of the samples to come.
    private var density = 1.0

    /// A reader at the start of a trace.
    public init() {}

    /// Reads the next line; `lineNumber` is what errors call it.
    ///
    /// - Throws: ``GestureError`` (a missing field, a value out of its set) naming the line.
    public mutating func read(_ line: Line, lineNumber: Int) throws(GestureError) {
      let reader = FieldReader(line: lineNumber)
      switch try reader.required("type", line.type) {
      case "config":
        if let name = line.surface {
          guard GestureTrace.surface(named: name) != nil else {
            throw reader.invalid(
              "surface", "must be listRow, photoDeck, plainList or reorderHandle, got \"\(name)\"")
          }
          trace.surfaceName = name
        }
        if let name = line.preset {
          guard let preset = GesturePreset(rawValue: name) else {
            throw reader.invalid("preset", "must be ios, android or flutter, got \"\(name)\"")
          }
          trace.preset = preset
        }
        if let value = line.density {
          guard value > 0 else { throw reader.invalid("density", "must be greater than zero") }
          density = value
        }
        if let value = line.containerWidth {
          guard value > 0 else {
            throw reader.invalid("containerWidth", "must be greater than zero")
          }
          trace.containerWidth = value
        }
      case "sample":
        let phaseName = try reader.required("phase", line.phase)
        guard let phase = TouchPhase(rawValue: phaseName) else {
          throw reader.invalid(
            "phase", "must be began, moved, ended or cancelled, got \"\(phaseName)\"")
        }
        let pointer = line.pointer ?? 0
        guard pointer == pointer.rounded(), abs(pointer) < 1e9 else {
          throw reader.invalid("pointer", "must be an integer")
        }
        trace.entries.append(
          .sample(
            TouchSample(
              time: try reader.required("t", line.t), pixelX: try reader.required("x", line.x),
              pixelY: try reader.required("y", line.y), phase: phase, pointer: Int(pointer),
              density: density)))
      case "advance":
        trace.entries.append(.advance(try reader.required("t", line.t)))
      case "action":
        let name = try reader.required("action", line.action)
        guard let action = AccessibilityAction(rawValue: name) else {
          throw reader.invalid(
            "action", "must be delete, trash, favorite, keep, reorder or nest, got \"\(name)\"")
        }
        trace.entries.append(.action(action, time: try reader.required("t", line.t)))
      case let other:
        throw reader.invalid("type", "must be config, sample, advance or action, got \"\(other)\"")
      }
    }
  }
}

extension GestureTrace: Codable {
  /// Decodes a trace written as an array of lines.
  ///
  /// - Throws: `DecodingError.dataCorrupted` with the ``GestureError``'s text when a line is
  ///   bad, or the decoder's own error when the data is not an array of flat objects.
  /// - Complexity: O(*n*), where *n* is the number of lines.
  public init(from decoder: any Decoder) throws {
    let lines = try [Line](from: decoder)
    do {
      try self.init(lines: lines)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Encodes the trace as an array of its ``lines``.
  ///
  /// - Complexity: O(*n*), where *n* is the number of entries.
  public func encode(to encoder: any Encoder) throws {
    try lines.encode(to: encoder)
  }
}

/// The errors of a trace line, naming the line and field.
private struct FieldReader {
  let line: Int

  func invalid(_ key: String, _ message: String) -> GestureError {
    GestureError(
      .invalidValue, line: line, description: "trace line \(line): field \"\(key)\" \(message)")
  }

  /// `value`, or a missing-field error.
  func required<Value>(_ key: String, _ value: Value?) throws(GestureError) -> Value {
    guard let value else {
      throw GestureError(
        .missingField, line: line, description: "trace line \(line): missing field \"\(key)\"")
    }
    return value
  }
}
