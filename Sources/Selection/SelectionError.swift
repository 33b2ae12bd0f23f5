/// An error from a `Selection` operation: what went wrong, and with which row.
///
/// Every failure in the module is one of these, thrown with typed throws, so a caller
/// switches over ``code`` without casting. ``description`` is one sentence a user can act on.
///
/// ```swift
/// do {
///   try selection.extend(to: 42, in: rows)
/// } catch {
///   print(error)  // cannot extend the selection to row 42: it is not among the visible rows
/// }
/// ```
public struct SelectionError: Error, Hashable, Sendable, CustomStringConvertible {
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
    public static let allCases: [Code] = [.unknownRow, .duplicateRow, .parentCycle]

    /// The row is not among the rows the operation was given (or not visible where it must be).
    public static let unknownRow = Code(rawValue: "unknownRow")
    /// A row occurs twice in a display order.
    public static let duplicateRow = Code(rawValue: "duplicateRow")
    /// Following parents from a row comes back to that row.
    public static let parentCycle = Code(rawValue: "parentCycle")
  }

  /// What kind of failure this is.
  public var code: Code
  /// The row the failure is about, as text.
  public var row: String
  /// One sentence that names the row and what is wrong with it.
  public var description: String

  /// Creates an error from its parts.
  ///
  /// - Parameters:
  ///   - code: What kind of failure this is.
  ///   - row: The row the failure is about, as text.
  ///   - description: One sentence a user can act on.
  public init(_ code: Code, row: String, description: String) {
    self.code = code
    self.row = row
    self.description = description
  }

  static func unknownRow(_ id: some Hashable, _ action: String) -> SelectionError {
    let row = String(describing: id)
    return SelectionError(
      .unknownRow, row: row,
      description: "cannot \(action) row \(row): it is not among the visible rows")
  }

  static func duplicateRow(_ id: some Hashable, first: Int, second: Int) -> SelectionError {
    let row = String(describing: id)
    return SelectionError(
      .duplicateRow, row: row,
      description:
        "row \(row) occurs twice in the display order, at positions \(first) and \(second)")
  }

  static func parentCycle(_ id: some Hashable, length: Int) -> SelectionError {
    let row = String(describing: id)
    return SelectionError(
      .parentCycle, row: row,
      description:
        "the parents of row \(row) form a cycle of \(length) row\(length == 1 ? "" : "s"); "
        + "repair the hierarchy before a bulk action")
  }
}
