/// An error from a workspace operation: what went wrong and with which name, id or file.
///
/// ``description`` is one sentence a user can act on; ``code`` says which kind of failure it
/// is, so a command maps it to an exit status without reading the text.
public struct WorkspaceError: Error, CustomStringConvertible, Sendable {
  /// What kind of failure this is.
  public enum Code: String, Hashable, Sendable, CaseIterable {
    /// No collection, item or file has that name or id.
    case notFound
    /// A typed id prefix matches several items or collections.
    case ambiguous
    /// The arguments contradict each other or the request makes no sense here.
    case invalidRequest
    /// The data given (an outline, a JSON file, a text) cannot be used.
    case badInput
    /// The forest refused a move or insert (a cycle, too deep, nesting in a list).
    case refused
    /// A collection with that name exists already.
    case alreadyExists
    /// The collection still has items and `force` was not given.
    case notEmpty
    /// Nothing to undo.
    case nothingToUndo
    /// What undo would restore has changed since.
    case conflict
    /// A store file is damaged or from a newer version.
    case damagedStore
    /// Another process holds the store lock.
    case storeBusy
    /// The store folder cannot be created.
    case cannotCreate
    /// Reading or writing failed.
    case ioFailure
  }

  /// What kind of failure this is.
  public var code: Code
  /// One sentence naming what was wrong and where.
  public var description: String
  /// The error this one reports, when it wraps another.
  public var underlying: (any Error & Sendable)?

  /// Creates an error.
  public init(_ code: Code, _ description: String, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.description = description
    self.underlying = underlying
  }
}
