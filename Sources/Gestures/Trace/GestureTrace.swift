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

  /// Parses JSON-lines text.
  ///
  /// - Throws: ``GestureError`` naming the line (and column) of the first bad line.
  /// - Complexity: O(*n*), where *n* is the length of the text.
  public init(parsing text: String) throws(GestureError) {
    entries = []
    var density = 1.0
    var lineNumber = 0
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      lineNumber += 1
      let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
      if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
      var parser = FlatJSONParser(line, line: lineNumber)
      let fields = try parser.parseObject()
      let reader = FieldReader(fields: fields, line: lineNumber)
      switch try reader.string("type") {
      case "config":
        if let name = try reader.optionalString("surface") {
          guard Self.surface(named: name) != nil else {
            throw reader.invalid(
              "surface", "must be listRow, photoDeck, plainList or reorderHandle, got \"\(name)\"")
          }
          surfaceName = name
        }
        if let name = try reader.optionalString("preset") {
          guard let preset = GesturePreset(rawValue: name) else {
            throw reader.invalid("preset", "must be ios, android or flutter, got \"\(name)\"")
          }
          self.preset = preset
        }
        if let value = try reader.optionalNumber("density") {
          guard value > 0 else { throw reader.invalid("density", "must be greater than zero") }
          density = value
        }
        if let value = try reader.optionalNumber("containerWidth") {
          guard value > 0 else {
            throw reader.invalid("containerWidth", "must be greater than zero")
          }
          containerWidth = value
        }
      case "sample":
        let phaseName = try reader.string("phase")
        guard let phase = TouchPhase(rawValue: phaseName) else {
          throw reader.invalid(
            "phase", "must be began, moved, ended or cancelled, got \"\(phaseName)\"")
        }
        let pointer = try reader.optionalNumber("pointer") ?? 0
        guard pointer == pointer.rounded(), abs(pointer) < 1e9 else {
          throw reader.invalid("pointer", "must be an integer")
        }
        entries.append(
          .sample(
            TouchSample(
              time: try reader.number("t"), pixelX: try reader.number("x"),
              pixelY: try reader.number("y"), phase: phase, pointer: Int(pointer),
              density: density)))
      case "advance":
        entries.append(.advance(try reader.number("t")))
      case "action":
        let name = try reader.string("action")
        guard let action = AccessibilityAction(rawValue: name) else {
          throw reader.invalid(
            "action", "must be delete, trash, favorite, keep, reorder or nest, got \"\(name)\"")
        }
        entries.append(.action(action, time: try reader.number("t")))
      case let other:
        throw reader.invalid("type", "must be config, sample, advance or action, got \"\(other)\"")
      }
    }
  }

  /// The trace as JSON lines (points, density 1), ending with a newline.
  ///
  /// - Complexity: O(*n*), where *n* is the number of entries.
  public var jsonLines: String {
    var out = ""
    var config: [(String, String)] = [("type", JSONText.string("config"))]
    if let surfaceName { config.append(("surface", JSONText.string(surfaceName))) }
    if let preset { config.append(("preset", JSONText.string(preset.rawValue))) }
    if let containerWidth { config.append(("containerWidth", JSONText.number(containerWidth))) }
    if config.count > 1 { out += JSONText.object(config) + "\n" }
    for entry in entries {
      switch entry {
      case .sample(let sample):
        out += JSONText.object([
          ("type", JSONText.string("sample")), ("t", JSONText.number(sample.time)),
          ("x", JSONText.number(sample.location.x)), ("y", JSONText.number(sample.location.y)),
          ("phase", JSONText.string(sample.phase.rawValue)),
          ("pointer", String(sample.pointer)),
        ])
      case .advance(let time):
        out += JSONText.object([
          ("type", JSONText.string("advance")), ("t", JSONText.number(time)),
        ])
      case .action(let action, let time):
        out += JSONText.object([
          ("type", JSONText.string("action")), ("t", JSONText.number(time)),
          ("action", JSONText.string(action.rawValue)),
        ])
      }
      out += "\n"
    }
    return out
  }
}

/// Reads typed fields of a parsed trace line, with errors that name the line and field.
private struct FieldReader {
  let fields: [(String, FlatJSONValue)]
  let line: Int

  func value(_ key: String) -> FlatJSONValue? {
    fields.first { $0.0 == key }?.1
  }

  func missing(_ key: String) -> GestureError {
    GestureError(
      .missingField, line: line, description: "trace line \(line): missing field \"\(key)\"")
  }

  func invalid(_ key: String, _ message: String) -> GestureError {
    GestureError(
      .invalidValue, line: line, description: "trace line \(line): field \"\(key)\" \(message)")
  }

  func string(_ key: String) throws(GestureError) -> String {
    guard let value = try optionalString(key) else { throw missing(key) }
    return value
  }

  func optionalString(_ key: String) throws(GestureError) -> String? {
    switch value(key) {
    case nil, .null?: return nil
    case .string(let text)?: return text
    default: throw invalid(key, "must be a string")
    }
  }

  func number(_ key: String) throws(GestureError) -> Double {
    guard let value = try optionalNumber(key) else { throw missing(key) }
    return value
  }

  func optionalNumber(_ key: String) throws(GestureError) -> Double? {
    switch value(key) {
    case nil, .null?: return nil
    case .number(let number)?: return number
    default: throw invalid(key, "must be a number")
    }
  }
}
