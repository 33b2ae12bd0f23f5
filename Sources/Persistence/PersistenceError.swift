/// An error from a `Persistence` operation: what went wrong, with which file, and where in it.
///
/// Every failure of the module is one of these, thrown with typed throws where the module
/// controls every failure, so a caller switches over ``code`` without casting.
/// ``description`` is one sentence a user can act on: it names the file, the place in it
/// (byte offset or line) and what is wrong.
///
/// ```swift
/// do {
///   settings = try store.load()
/// } catch where error.code == .damaged {
///   print(error)  // settings.json is damaged at line 3, column 9 (byte 41): expected ',' ...
///   if error.backupPath != nil { settings = try store.restoreBackup() }
/// }
/// ```
public struct PersistenceError: Error, CustomStringConvertible {
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
      .notFound, .ioFailure, .busy, .damaged, .newerVersion, .wrongFormat, .missingMigration,
      .migrationFailed, .encodingFailed, .journalMismatch, .journalUnusable,
    ]

    /// The file does not exist.
    public static let notFound = Code(rawValue: "notFound")
    /// A file operation (open, read, write, fsync, rename, link, unlink, close, lock) failed.
    public static let ioFailure = Code(rawValue: "ioFailure")
    /// Another process held the store's lock for longer than the timeout (exit code 75).
    public static let busy = Code(rawValue: "busy")
    /// The file is not a valid document or journal: truncated, not JSON, or the wrong shape.
    public static let damaged = Code(rawValue: "damaged")
    /// The file was written by a newer version of the format; it is refused, never rewritten.
    public static let newerVersion = Code(rawValue: "newerVersion")
    /// The file holds a different format than the one asked for.
    public static let wrongFormat = Code(rawValue: "wrongFormat")
    /// No migration is registered from the file's version to the next one.
    public static let missingMigration = Code(rawValue: "missingMigration")
    /// A migration threw while upgrading the file's data.
    public static let migrationFailed = Code(rawValue: "migrationFailed")
    /// The value could not be encoded as JSON.
    public static let encodingFailed = Code(rawValue: "encodingFailed")
    /// A journal's snapshot and journal file do not belong together.
    public static let journalMismatch = Code(rawValue: "journalMismatch")
    /// A journal stopped accepting appends after a failure whose effect on disk is unknown.
    public static let journalUnusable = Code(rawValue: "journalUnusable")
  }

  /// What kind of failure this is.
  public var code: Code
  /// The file the failure is about, when there is one.
  public var path: String?
  /// The byte offset in the file where the problem is, when it has a place.
  public var offset: Int?
  /// The 1-based line in the file where the problem is, when it has one.
  public var line: Int?
  /// The file operation that failed (`"open"`, `"fsync"`, ...), for ``Code/ioFailure``.
  public var operation: String?
  /// The operating system's error number, for ``Code/ioFailure``.
  public var errorNumber: Int32?
  /// Where a damaged file was moved aside to, when it was quarantined.
  public var quarantinedPath: String?
  /// The last good copy of a damaged document, when one exists and loads.
  public var backupPath: String?
  /// The error that caused this one (a decoding or migration error), if any.
  public var underlying: (any Error)?
  /// One sentence that names the file, the place and what is wrong.
  public var description: String

  /// Creates an error from its parts.
  ///
  /// - Parameters:
  ///   - code: What kind of failure this is.
  ///   - path: The file the failure is about.
  ///   - offset: The byte offset of the problem, if it has one.
  ///   - line: The 1-based line of the problem, if it has one.
  ///   - operation: The file operation that failed, if one did.
  ///   - errorNumber: The operating system's error number, if any.
  ///   - underlying: The error that caused this one, if any.
  ///   - description: One sentence a user can act on.
  public init(
    _ code: Code, path: String? = nil, offset: Int? = nil, line: Int? = nil,
    operation: String? = nil, errorNumber: Int32? = nil, underlying: (any Error)? = nil,
    description: String
  ) {
    self.code = code
    self.path = path
    self.offset = offset
    self.line = line
    self.operation = operation
    self.errorNumber = errorNumber
    self.underlying = underlying
    self.description = description
  }
}
