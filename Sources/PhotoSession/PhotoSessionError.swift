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
///   print(error)  // the session is at the end of the library: every photo has a decision ...
/// }
/// ```
public struct PhotoSessionError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// What kind of failure this is.
  public enum Code: String, Hashable, Sendable, CaseIterable, Codable {
    /// The library folder does not exist or is not a folder.
    case notAFolder
    /// The library folder holds no image files.
    case emptyLibrary
    /// A file or folder could not be read (permission, I/O error).
    case unreadable
    /// A photo is no longer where the session found it.
    case photoMissing
    /// A photo's path now holds another file (or a folder) than the one the session saw at
    /// start: its device, inode, size or modification time changed.
    case photoChanged
    /// A photo cannot be restored from the Trash: its original path is taken, or it is not in
    /// the Trash.
    case restoreRefused
    /// A photo is a zero-byte file.
    case emptyFile
    /// A photo's header is cut short before the data the reader needs.
    case truncatedImage
    /// A photo's header is not a valid image of its format.
    case corruptImage
    /// The file is not an image format the reader knows.
    case unsupportedFormat
    /// The session is at the end of the library; there is no photo to decide.
    case endOfLibrary
    /// There is nothing left to undo.
    case nothingToUndo
    /// The photo is not in this session.
    case unknownPhoto
    /// The photo has no decision yet, so there is nothing to change.
    case notDecided
    /// The photo's decision has already been applied by a commit and cannot change.
    case alreadyCommitted
    /// A journal line or snapshot is damaged before the tail.
    case journalCorrupt
    /// A session file (manifest, snapshot) is damaged or from a newer version.
    case sessionCorrupt
    /// Writing or syncing a file failed.
    case writeFailed
    /// A file could not be moved to the Trash.
    case trashFailed
    /// An XMP sidecar could not be read, merged or written.
    case sidecarFailed
    /// The photo and the only usable Trash are on different file systems.
    case crossDevice
    /// No session exists where one was expected.
    case noSession
    /// An argument is out of its allowed range.
    case invalidArgument
    /// Another process has the session open.
    case sessionBusy
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
