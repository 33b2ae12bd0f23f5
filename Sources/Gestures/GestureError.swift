/// An error from a `Gestures` operation: what went wrong and where.
///
/// Parsing errors name the line (1-based) and, for JSON, the column; ``description`` is one
/// sentence a user can act on.
///
/// ```swift
/// do {
///   _ = try GestureTrace(parsing: "{\"type\":\"sample\"}")
/// } catch {
///   print(error)  // trace line 1: missing field "t" ...
/// }
/// ```
public struct GestureError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of failure this is.
  public enum Code: String, Hashable, Sendable, CaseIterable {
    /// A trace line is not a flat JSON object.
    case invalidJSON
    /// A required field is missing.
    case missingField
    /// A field has the wrong type or an out-of-range value.
    case invalidValue
    /// A CSV file lacks a required column.
    case missingColumn
    /// A CSV row is malformed.
    case invalidRow
    /// The surface has no gesture for this accessibility action.
    case actionUnavailable
  }

  /// What kind of failure this is.
  public var code: Code
  /// The 1-based line of the input, when there is one.
  public var line: Int?
  /// The 1-based column (byte) within the line, when there is one.
  public var column: Int?
  /// One sentence that names the place and what is wrong.
  public var description: String

  /// Creates an error from its parts.
  public init(_ code: Code, line: Int? = nil, column: Int? = nil, description: String) {
    self.code = code
    self.line = line
    self.column = column
    self.description = description
  }
}
