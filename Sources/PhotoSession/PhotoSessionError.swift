/// An error from a `PhotoSession` operation: what went wrong, with which photo or file, and where.
///
/// Every failure in the module is one of these, thrown with typed throws, so a caller switches
/// over ``code`` without casting. ``description`` is one sentence a user can act on: it names
/// the photo or file and, for damaged files, the byte offset or line.
///
/// ```swift
/// do {
///   try session.swipe(.left)
/// } catch {
///   print(error)  // the session is at the end of the library: all 2 photos have a decision; ...
/// }
/// ```
public struct PhotoSessionError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// What kind of failure this is.
  ///
  /// An open set of named values rather than an enum, so that a code added in a later version
  /// does not break a client's `switch` (which therefore ends with `default`).
  public struct Code: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible,
    Codable
  {
    /// The code's name, as it appears in messages and JSON.
    public var rawValue: String
    /// Creates a code from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The code's name.
    public var description: String { rawValue }
    /// Every code this version defines, in the order they are declared.
    public static let allCases: [Code] = [
      .notAFolder, .emptyLibrary, .unreadable, .photoMissing, .photoChanged, .restoreRefused,
      .emptyFile, .truncatedImage, .corruptImage, .unsupportedFormat, .endOfLibrary, .nothingToUndo,
      .unknownPhoto, .notDecided, .alreadyCommitted, .journalCorrupt, .sessionCorrupt, .writeFailed,
      .trashFailed, .sidecarFailed, .crossDevice, .noSession, .invalidArgument, .sessionBusy,
    ]

    /// The library folder does not exist or is not a folder.
    public static let notAFolder = Code(rawValue: "notAFolder")
    /// The library folder holds no image files.
    public static let emptyLibrary = Code(rawValue: "emptyLibrary")
    /// A file or folder could not be read (permission, I/O error).
    public static let unreadable = Code(rawValue: "unreadable")
    /// A photo is no longer where the session found it.
    public static let photoMissing = Code(rawValue: "photoMissing")
    /// A photo's path now holds another file (or a folder) than the one the session saw at
    /// start: its device, inode, size or modification time changed.
    public static let photoChanged = Code(rawValue: "photoChanged")
    /// A photo cannot be restored from the Trash: its original path is taken, or it is not in
    /// the Trash.
    public static let restoreRefused = Code(rawValue: "restoreRefused")
    /// A photo is a zero-byte file.
    public static let emptyFile = Code(rawValue: "emptyFile")
    /// A photo's header is cut short before the data the reader needs.
    public static let truncatedImage = Code(rawValue: "truncatedImage")
    /// A photo's header is not a valid image of its format.
    public static let corruptImage = Code(rawValue: "corruptImage")
    /// The file is not an image format the reader knows.
    public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
    /// The session is at the end of the library; there is no photo to decide.
    public static let endOfLibrary = Code(rawValue: "endOfLibrary")
    /// There is nothing left to undo.
    public static let nothingToUndo = Code(rawValue: "nothingToUndo")
    /// The photo is not in this session.
    public static let unknownPhoto = Code(rawValue: "unknownPhoto")
    /// The photo has no decision yet, so there is nothing to change.
    public static let notDecided = Code(rawValue: "notDecided")
    /// The photo's decision has already been applied by a commit and cannot change.
    public static let alreadyCommitted = Code(rawValue: "alreadyCommitted")
    /// A journal line or snapshot is damaged before the tail.
    public static let journalCorrupt = Code(rawValue: "journalCorrupt")
    /// A session file (manifest, snapshot) is damaged or from a newer version.
    public static let sessionCorrupt = Code(rawValue: "sessionCorrupt")
    /// Writing or syncing a file failed.
    public static let writeFailed = Code(rawValue: "writeFailed")
    /// A file could not be moved to the Trash.
    public static let trashFailed = Code(rawValue: "trashFailed")
    /// An XMP sidecar could not be read, merged or written.
    public static let sidecarFailed = Code(rawValue: "sidecarFailed")
    /// The photo and the only usable Trash are on different file systems.
    public static let crossDevice = Code(rawValue: "crossDevice")
    /// No session exists where one was expected.
    public static let noSession = Code(rawValue: "noSession")
    /// An argument is out of its allowed range.
    public static let invalidArgument = Code(rawValue: "invalidArgument")
    /// Another process has the session open.
    public static let sessionBusy = Code(rawValue: "sessionBusy")
  }

  /// What kind of failure this is.
  public var code: Code
  /// The photo id or file path the failure is about, when there is one.
  public var path: String?
  /// The byte offset (in a file) or the line number (in a journal) of the problem, when known.
  public var offset: Int?
  /// The operating system's error number, when the failure came from a system call.
  public var errno: Int32?
  /// One sentence that names the photo or file and what is wrong.
  public var description: String

  /// Creates an error from its parts.
  ///
  /// - Parameters:
  ///   - code: What kind of failure this is.
  ///   - path: The photo id or file path involved.
  ///   - offset: The byte offset or line number of the problem.
  ///   - errno: The system error number, if a system call failed.
  ///   - description: One sentence a user can act on.
  public init(
    _ code: Code, path: String? = nil, offset: Int? = nil, errno: Int32? = nil,
    description: String
  ) {
    self.code = code
    self.path = path
    self.offset = offset
    self.errno = errno
    self.description = description
  }
}
