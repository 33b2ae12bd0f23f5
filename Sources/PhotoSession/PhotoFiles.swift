import Foundation
import Persistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The module's file operations over a `Persistence` ``Persistence/FileSystem`` (the real one,
/// or one that fails on purpose in tests), each failure turned into a ``PhotoSessionError``
/// that names the file and the system's reason.
struct PhotoFiles: Sendable {
  /// The file system every operation goes through.
  let system: any Persistence.FileSystem

  init(_ system: any Persistence.FileSystem) { self.system = system }

  /// The system's text for an error number.
  static func reason(_ number: Int32) -> String { String(cString: strerror(number)) }

  /// The module's error for a failed file operation: `cannot <action> "<path>": <reason>`.
  ///
  /// The action is named after the operation that failed unless `action` is given; an error
  /// without an error number keeps its own sentence.
  static func failure(
    _ code: PhotoSessionError.Code, _ cause: PersistenceError, action: String? = nil
  ) -> PhotoSessionError {
    let path = cause.path ?? ""
    guard let number = cause.errorNumber else {
      return PhotoSessionError(code, path: path, description: cause.description)
    }
    return PhotoSessionError(
      code, path: path, errno: number,
      description:
        "cannot \(action ?? verb(cause.operation)) \"\(path)\": \(reason(number))")
  }

  /// A system operation's name as the verb of a sentence.
  private static func verb(_ operation: String?) -> String {
    switch operation {
    case "open": "open"
    case "read": "read"
    case "write": "write"
    case "fsync": "sync"
    case "close": "close"
    case "rename": "rename"
    case "link": "link"
    case "unlink": "remove"
    case "mkdir": "create folder"
    case "opendir": "list folder"
    case "ftruncate": "truncate"
    case "flock": "lock"
    default: "inspect"
    }
  }

  /// The status of a path (the link itself unless `followingLinks`), or nil when nothing is
  /// there.
  func status(_ path: String, followingLinks: Bool = false) throws(PhotoSessionError)
    -> FileStatus?
  {
    do throws(PersistenceError) {
      return try system.statusIfPresent(path, followingLinks: followingLinks)
    } catch {
      throw Self.failure(.unreadable, error, action: "inspect")
    }
  }

  /// The status of a library file that must still be there as a regular file.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - name: The file's name in the library, as errors give it.
  /// - Throws: ``PhotoSessionError/Code/photoMissing`` when nothing is there,
  ///   ``PhotoSessionError/Code/unsupportedFormat`` when it is not a regular file, or
  ///   ``PhotoSessionError/Code/unreadable``.
  func regularFileStatus(_ path: String, name: String) throws(PhotoSessionError) -> FileStatus {
    guard let status = try status(path) else {
      throw PhotoSessionError(
        .photoMissing, path: name,
        description: "\"\(name)\" is no longer in the folder: it was moved or deleted")
    }
    guard status.kind == .regular else {
      throw PhotoSessionError(
        .unsupportedFormat, path: name, description: "\"\(name)\" is no longer a regular file")
    }
    return status
  }

  /// Whether `path` is a regular file (not following a final symbolic link); false when
  /// nothing is there or it cannot be inspected.
  func isRegularFile(_ path: String) -> Bool {
    (try? status(path))?.kind == .regular
  }

  /// Reads up to `limit` bytes from the start of a file; returns them and the file's size.
  func readPrefix(_ path: String, limit: Int) throws(PhotoSessionError) -> (
    bytes: [UInt8], size: Int
  ) {
    do throws(PersistenceError) {
      return try system.readPrefix(path, limit: limit)
    } catch  where error.code == .notFound {
      throw PhotoSessionError(
        .photoMissing, path: path, errno: error.errorNumber,
        description: "\"\(path)\" is no longer there: it was moved or deleted")
    } catch {
      throw Self.failure(.unreadable, error)
    }
  }

  /// Reads a whole file.
  func readAll(_ path: String) throws(PhotoSessionError) -> [UInt8] {
    try readPrefix(path, limit: Int.max).bytes
  }

  /// Writes a file atomically: a hidden temporary file beside it (`.NAME.tmp-<pid>-<random>`),
  /// fsync, rename, folder fsync. A crash at any point leaves either the old file or the new
  /// one, never a mix; a failure removes the temporary file. With `syncFolder` false the
  /// caller syncs the folder later (once for many files).
  func writeAtomically(
    _ bytes: [UInt8], to path: String, syncFolder: Bool = true
  ) throws(PhotoSessionError) {
    let temporary = PathName.join(
      PathName.directory(of: path),
      ".\(PathName.lastComponent(of: path)).tmp-\(ProcessInfo.processInfo.processIdentifier)-"
        + "\(UInt32.random(in: 0...UInt32.max))")
    do throws(PersistenceError) {
      try system.writeAtomically(
        Data(bytes), to: path, temporaryPath: temporary, syncFolder: syncFolder)
    } catch {
      throw Self.failure(.writeFailed, error)
    }
  }

  /// Creates a folder and its missing parents with the given permission bits.
  func makeDirectories(_ path: String, permissions: Int = 0o755) throws(PhotoSessionError) {
    do throws(PersistenceError) {
      try system.makeDirectories(path, permissions: permissions)
    } catch {
      throw Self.failure(.writeFailed, error)
    }
  }

  /// Flushes a folder's entries (names created, renamed or removed) to stable storage.
  func syncDirectory(_ path: String) throws(PhotoSessionError) {
    do throws(PersistenceError) {
      try system.syncDirectory(path)
    } catch {
      throw Self.failure(.writeFailed, error, action: "sync folder")
    }
  }

  /// Removes a name, ignoring any failure: cleanup after another failure, or of leftovers.
  func removeQuietly(_ path: String) {
    do throws(PersistenceError) { try system.unlink(path) } catch {}
  }

  /// The names in a folder (without `.` and `..`), unsorted.
  func names(in folder: String) throws(PhotoSessionError) -> [String] {
    do throws(PersistenceError) {
      return try system.listDirectory(folder)
    } catch {
      throw Self.failure(.unreadable, error, action: "list folder")
    }
  }
}

extension PhotoSessionError {
  /// Whether a system call was refused for lack of permission (`EACCES` or `EPERM`).
  var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }
}
