/// An error from a `Gestures` operation: what went wrong and where.
///
/// Parsing errors name the line (1-based) and, for JSON, the column; ``description`` is one
/// sentence a user can act on.
///
/// ```swift
/// do {
///   _ = try GestureTrace(lines: [.init(type: "sample", phase: "began")])
/// } catch {
///   print(error)  // trace line 1: missing field "t"
/// }
/// ```
public struct GestureError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of failure this is.
  ///
  /// An open set of named values rather than an enum, so that a code added in a later version
  /// does not break a client's `switch` (which therefore ends with `default`).
  public struct Code: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The code's name, as it appears in messages and JSON.
    public var rawValue: String
    /// Creates a code from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The code's name.
    public var description: String { rawValue }
    /// Every code this version defines, in the order they are declared.
    public static let allCases: [Code] = [
      .invalidJSON, .missingField, .invalidValue, .missingColumn, .invalidRow, .actionUnavailable,
    ]

    /// A trace line is not a flat JSON object.
    public static let invalidJSON = Code(rawValue: "invalidJSON")
    /// A required field is missing.
    public static let missingField = Code(rawValue: "missingField")
    /// A field has the wrong type or an out-of-range value.
    public static let invalidValue = Code(rawValue: "invalidValue")
    /// A CSV file lacks a required column.
    public static let missingColumn = Code(rawValue: "missingColumn")
    /// A CSV row is malformed.
    public static let invalidRow = Code(rawValue: "invalidRow")
    /// The surface has no gesture for this accessibility action.
    public static let actionUnavailable = Code(rawValue: "actionUnavailable")
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
