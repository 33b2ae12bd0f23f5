import Foundation
public import Gestures
import Persistence

/// The JSON of the `Gestures` module's traces and reports.
///
/// `Gestures` imports nothing but the standard library, so its types are `Codable` and this
/// layer chooses the bytes, with Persistence's canonical encoder: numbers in the shortest text
/// that reads back to the same value (integers without a fraction), `/` and non-ASCII as is.
/// Trace lines keep the order their fields are encoded in (`type` first) on one line; reports
/// sort their keys and indent by two spaces with `"key" : value`, and carry the
/// `schemaVersion` of the command line's output. Reading uses Foundation's `JSONDecoder`, after
/// a syntax check that names the column of the first bad byte.
public enum GestureJSON {
  /// The version of the report shape; it changes when a field changes meaning or goes away.
  public static let schemaVersion = 1

  /// A report with the schema version beside its own fields.
  private struct Versioned<Report: Encodable>: Encodable {
    var report: Report

    enum CodingKeys: String, CodingKey { case schemaVersion }

    func encode(to encoder: any Encoder) throws {
      try report.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(GestureJSON.schemaVersion, forKey: .schemaVersion)
    }
  }

  /// `report` as indented JSON with sorted keys and a `schemaVersion`, without a final newline.
  ///
  /// The gesture reports hold only strings, integers, Booleans and numbers (null when not
  /// finite), which the encoder always takes.
  ///
  /// - Complexity: O(*n* log *n*), where *n* is the number of values (keys are sorted).
  public static func report(_ report: some Encodable) -> String {
    let encoder = LineEncoder(
      pretty: true, layout: .foundationSorted)
    var bytes: [UInt8] = []
    do {
      try encoder.encode(Versioned(report: report), into: &bytes)
    } catch {
      preconditionFailure("a gesture report holds only values JSON can write: \(error)")
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `trace` as JSON lines, each ending with a newline.
  ///
  /// - Complexity: O(*n*), where *n* is the number of entries.
  public static func lines(of trace: GestureTrace) -> String {
    let encoder = LineEncoder(
      pretty: false, layout: .encodingOrder)
    var bytes: [UInt8] = []
    for line in trace.lines {
      do {
        try encoder.encode(line, into: &bytes)
      } catch {
        preconditionFailure("a trace line holds only strings and numbers: \(error)")
      }
      bytes.append(0x0A)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Reads JSON-lines text: one flat object a line, blank lines skipped, `\r\n` line ends
  /// taken.
  ///
  /// - Throws: `GestureError` naming the first bad line: its column and what is wrong when
  ///   it is not JSON (`invalidJSON`), its field when a field has the
  ///   wrong type (`invalidValue`), and the errors of
  ///   `GestureTrace.Reader` for a missing field or a value out of its set.
  /// - Complexity: O(*n*), where *n* is the length of the text.
  public static func trace(parsing text: String) throws(GestureError) -> GestureTrace {
    var reader = GestureTrace.Reader()
    let decoder = JSONDecoder()
    var number = 0
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      number += 1
      let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
      if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
      try reader.read(try decodeLine(line, number: number, decoder), lineNumber: number)
    }
    return reader.trace
  }

  /// One line's fields, or an error naming the line and the place.
  static func decodeLine(_ line: Substring, number: Int, _ decoder: JSONDecoder)
    throws(GestureError) -> GestureTrace.Line
  {
    let data = Data(line.utf8)
    if let syntax = data.withUnsafeBytes({ JSONScanner.validate($0) }) {
      throw GestureError(
        .invalidJSON, line: number, column: syntax.offset + 1,
        description:
          "trace line \(number), column \(syntax.offset + 1): \(lineMessage(syntax.message))")
    }
    do {
      return try decoder.decode(GestureTrace.Line.self, from: data)
    } catch let DecodingError.typeMismatch(type, context) {
      throw fieldError(
        context.codingPath, number: number,
        expected: type == String.self ? "a string" : "a number", otherwise: "expected an object")
    } catch let DecodingError.dataCorrupted(context) {
      // Valid JSON that still does not decode: a number too large for a Double.
      throw fieldError(
        context.codingPath, number: number, expected: "a finite number",
        otherwise: "a number is out of range")
    } catch {
      throw fieldError([], number: number, expected: "", otherwise: "\(error)")
    }
  }

  /// A syntax message about a file, said of a line.
  static func lineMessage(_ message: String) -> String {
    message.replacingOccurrences(of: "; the file is truncated", with: "")
      .replacingOccurrences(of: "the text ends too soon", with: "the line ends too soon")
      .replacingOccurrences(of: "the end of the file", with: "the end of the line")
  }

  /// The error of a field of the wrong type or out of range, or `otherwise` for the line.
  static func fieldError(
    _ path: [any CodingKey], number: Int, expected: String, otherwise: String
  ) -> GestureError {
    if let key = path.first?.stringValue {
      return GestureError(
        .invalidValue, line: number,
        description: "trace line \(number): field \"\(key)\" must be \(expected)")
    }
    return GestureError(
      .invalidJSON, line: number, column: 1,
      description: "trace line \(number), column 1: \(otherwise)")
  }
}

extension GestureTrace {
  /// Reads JSON-lines text (see ``GestureJSON/trace(parsing:)``).
  ///
  /// - Throws: `GestureError` naming the first bad line.
  /// - Complexity: O(*n*), where *n* is the length of the text.
  public init(parsing text: String) throws(GestureError) {
    self = try GestureJSON.trace(parsing: text)
  }

  /// The trace as JSON lines (points, density 1), ending with a newline.
  ///
  /// - Complexity: O(*n*), where *n* is the number of entries.
  public var jsonLines: String { GestureJSON.lines(of: self) }
}

extension GestureReplay {
  /// The replay as the JSON document of `offloadctl gesture replay --json`.
  ///
  /// - Complexity: O(*e* log *e*), where *e* is the number of events.
  public var jsonText: String { GestureJSON.report(self) }
}

extension StrokeEvaluation {
  /// The evaluation as the JSON document of `offloadctl gesture eval --json`.
  ///
  /// - Complexity: O(*c* log *c*), where *c* is the number of confusion cells.
  public var jsonText: String { GestureJSON.report(self) }
}
