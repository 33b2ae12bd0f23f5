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
  public enum Code: String, Hashable, Sendable, CaseIterable {
    /// The row is not among the rows the operation was given (or not visible where it must be).
    case unknownRow
    /// A row occurs twice in a display order.
    case duplicateRow
    /// Following parents from a row comes back to that row.
    case parentCycle
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
