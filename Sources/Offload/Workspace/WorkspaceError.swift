/// An error from a workspace operation: what went wrong and with which name, id or file.
///
/// ``description`` is one sentence a user can act on; ``code`` says which kind of failure it
/// is, so a command maps it to an exit status without reading the text.
public struct WorkspaceError: Error, CustomStringConvertible, Sendable {
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
      .notFound, .ambiguous, .invalidRequest, .badInput, .refused, .alreadyExists, .notEmpty,
      .nothingToUndo, .conflict, .damagedStore, .storeBusy, .cannotCreate, .ioFailure,
    ]

    /// No collection, item or file has that name or id.
    public static let notFound = Code(rawValue: "notFound")
    /// A typed id prefix matches several items or collections.
    public static let ambiguous = Code(rawValue: "ambiguous")
    /// The arguments contradict each other or the request makes no sense here.
    public static let invalidRequest = Code(rawValue: "invalidRequest")
    /// The data given (an outline, a JSON file, a text) cannot be used.
    public static let badInput = Code(rawValue: "badInput")
    /// The forest refused a move or insert (a cycle, too deep, nesting in a list).
    public static let refused = Code(rawValue: "refused")
    /// A collection with that name exists already.
    public static let alreadyExists = Code(rawValue: "alreadyExists")
    /// The collection still has items and `force` was not given.
    public static let notEmpty = Code(rawValue: "notEmpty")
    /// Nothing to undo.
    public static let nothingToUndo = Code(rawValue: "nothingToUndo")
    /// What undo would restore has changed since.
    public static let conflict = Code(rawValue: "conflict")
    /// A store file is damaged or from a newer version.
    public static let damagedStore = Code(rawValue: "damagedStore")
    /// Another process holds the store lock.
    public static let storeBusy = Code(rawValue: "storeBusy")
    /// The store folder cannot be created.
    public static let cannotCreate = Code(rawValue: "cannotCreate")
    /// Reading or writing failed.
    public static let ioFailure = Code(rawValue: "ioFailure")
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
