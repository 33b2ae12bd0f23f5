public import Foundation
public import Persistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Moves files to the Trash as the freedesktop.org Trash specification (1.0) says, so a file
/// manager (GNOME Files, Dolphin, Thunar, `gio trash --restore`) can restore them.
///
/// For each file, `info/NAME.trashinfo` is created first with an exclusive create (`O_EXCL`,
/// which also settles name collisions between processes), holding the original `Path=`
/// (percent-encoded) and `DeletionDate=` (local time); it is synced, and only then is the file
/// renamed into `files/NAME`. Files on the home Trash's file system go to
/// `$XDG_DATA_HOME/Trash`; files on another file system go to that volume's `$topdir/.Trash/$uid`
/// (when the administrator made a sticky `.Trash`) or `$topdir/.Trash-$uid`. A file is never
/// copied across file systems and never unlinked: when no Trash on its own file system can be
/// used, trashing fails with ``PhotoSessionError/Code/crossDevice`` and the file stays.
public struct FreedesktopTrash: Sendable {
  /// The home Trash folder (`$XDG_DATA_HOME/Trash`).
  public let homeTrash: String
  /// The user id used in volume Trash names.
  public let userID: UInt32
  /// The time zone of `DeletionDate` (the specification asks for local time).
  public let timeZone: TimeZone
  /// The device of a path (its `st_dev`), or nil when it does not exist; tests replace it to
  /// simulate other mounts.
  public let deviceOf: @Sendable (String) -> UInt64?
  /// The file operations (injectable for fault tests).
  public let fileSystem: any Persistence.FileSystem

  /// A Trash rooted at `homeTrash`.
  ///
  /// - Parameters:
  ///   - homeTrash: The home Trash folder; created on first use.
  ///   - userID: The user id for volume Trash folder names.
  ///   - timeZone: The time zone of deletion dates.
  ///   - deviceOf: The device of a path; by default `st_dev` of the path or of its nearest
  ///     existing ancestor, read through `fileSystem`.
  ///   - fileSystem: The file operations; the real ones by default.
  public init(
    homeTrash: String, userID: UInt32 = UInt32(getuid()), timeZone: TimeZone = .current,
    deviceOf: (@Sendable (String) -> UInt64?)? = nil,
    fileSystem: any Persistence.FileSystem = POSIXFileSystem()
  ) {
    self.homeTrash = homeTrash
    self.userID = userID
    self.timeZone = timeZone
    self.deviceOf = deviceOf ?? Self.device(using: fileSystem)
    self.fileSystem = fileSystem
  }

  private var io: PhotoFiles { PhotoFiles(fileSystem) }

  /// The user's Trash: `$XDG_DATA_HOME/Trash`, else `$HOME/.local/share/Trash`.
  ///
  /// - Parameters:
  ///   - environment: The environment to read (the process's by default).
  ///   - fileSystem: The file operations; the real ones by default.
  public static func user(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileSystem: any Persistence.FileSystem = POSIXFileSystem()
  ) -> FreedesktopTrash {
    let dataHome: String
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      dataHome = xdg
    } else {
      dataHome = PathName.join(environment["HOME"] ?? NSHomeDirectory(), ".local/share")
    }
    return FreedesktopTrash(homeTrash: PathName.join(dataHome, "Trash"), fileSystem: fileSystem)
  }

  /// The `st_dev` of a path, or of its nearest existing ancestor, from the real file system.
  public static let systemDevice: @Sendable (String) -> UInt64? = device(
    using: POSIXFileSystem())

  /// The `st_dev` of a path, or of its nearest existing ancestor, read through `fileSystem`.
  ///
  /// - Complexity: O(*d*) status calls for a path of depth *d*.
  public static func device(
    using fileSystem: any Persistence.FileSystem
  ) -> @Sendable (String) -> UInt64? {
    { path in
      var current = path
      while true {
        if let status = try? fileSystem.status(current, followingLinks: true) {
          return status.device
        }
        let above = PathName.directory(of: current)
        if above == current { return nil }
        current = above
      }
    }
  }

  /// Where a trashed file went.
  public struct Item: Hashable, Sendable {
    /// The Trash folder used (holding `files/` and `info/`).
    public var trash: String
    /// The name under `files/` and `info/NAME.trashinfo`.
    public var name: String
    /// The folders a move changed (`files/` and the file's folder), to sync before the move is
    /// recorded as done; empty for an item found by ``FreedesktopTrash/locate(original:)``.
    public var changedFolders: [String] = []

    /// An item of a Trash folder.
    public init(trash: String, name: String) {
      self.trash = trash
      self.name = name
    }
    /// The trashed file's path.
    public var file: String { PathName.join(PathName.join(trash, "files"), name) }
    /// The info file's path.
    public var info: String { PathName.join(PathName.join(trash, "info"), name + ".trashinfo") }
  }

  // MARK: Choosing the Trash folder

  /// The Trash folder for a file, and the directory its `Path=` is relative to (nil: absolute).
  ///
  /// - Throws: ``PhotoSessionError/Code/crossDevice`` when the file is on another file system
  ///   and no Trash can be made there.
  /// - Complexity: O(*d*) for a path of depth *d* (to find the mount's top directory).
  public func trashFolder(for path: String) throws(PhotoSessionError) -> (
    folder: String, relativeTo: String?
  ) {
    let fileDevice = deviceOf(path)
    if fileDevice == nil || fileDevice == deviceOf(homeTrash) { return (homeTrash, nil) }
    // Find the top directory of the file's mount: the highest ancestor on the same device.
    var top = PathName.directory(of: path)
    while top != "/" {
      let above = PathName.directory(of: top)
      if deviceOf(above) != fileDevice { break }
      top = above
    }
    let shared = PathName.join(top, ".Trash")
    if let status = try? io.status(shared), status.kind == .directory, status.isSticky {
      let mine = PathName.join(shared, String(userID))
      if (try? io.makeDirectories(mine, permissions: 0o700)) != nil { return (mine, top) }
    }
    let own = PathName.join(top, ".Trash-\(userID)")
    if let status = try? io.status(own) {
      if status.kind == .directory && status.owner == userID { return (own, top) }
    } else if (try? fileSystem.createDirectory(own, permissions: 0o700)) != nil {
      return (own, top)
    }
    throw PhotoSessionError(
      .crossDevice, path: path,
      description:
        "cannot trash \"\(path)\": it is on another file system than the home Trash \"\(homeTrash)\" and no Trash can be made at \"\(own)\"; nothing was moved"
    )
  }

  // MARK: Trashing

  /// Moves a file to the Trash and returns where it went.
  ///
  /// The info file is synced (file and folder) before the move. With `syncFolders` false the
  /// two folders the move changed (`files/` and the file's folder) are not synced here: the
  /// caller syncs ``Item/changedFolders`` later, once for many files, before it records the
  /// move as done.
  ///
  /// - Throws: ``PhotoSessionError/Code/photoMissing`` when the file is not there,
  ///   ``PhotoSessionError/Code/crossDevice`` (see ``trashFolder(for:)``) or
  ///   ``PhotoSessionError/Code/trashFailed``; on failure the file is where it was and no info
  ///   file is left behind.
  /// - Complexity: O(*c*) file operations, where *c* is the number of names already taken.
  @discardableResult
  public func trash(
    _ path: String, now: Date = Date(), syncFolders: Bool = true
  ) throws(PhotoSessionError) -> Item {
    guard try io.status(path) != nil else {
      throw PhotoSessionError(
        .photoMissing, path: path,
        description: "cannot trash \"\(path)\": it is no longer there (moved or deleted)")
    }
    let (folder, relativeTo) = try trashFolder(for: path)
    let filesFolder = PathName.join(folder, "files")
    let infos = PathName.join(folder, "info")
    do {
      try io.makeDirectories(filesFolder, permissions: 0o700)
      try io.makeDirectories(infos, permissions: 0o700)
    } catch {
      throw PhotoSessionError(
        .trashFailed, path: path, errno: error.errno,
        description: "cannot trash \"\(path)\": \(error.description)")
    }
    var original = path
    if let relativeTo {
      original = String(path.dropFirst(relativeTo == "/" ? 1 : relativeTo.count + 1))
    }
    let content =
      "[Trash Info]\nPath=\(Self.percentEncode(original))\nDeletionDate=\(deletionDate(now))\n"
    let base = PathName.lastComponent(of: path)
    for attempt in 1...10_000 {
      let name = Self.candidate(base, attempt)
      let item = Item(trash: folder, name: name)
      let info: OpenFile
      do throws(PersistenceError) {
        info = try fileSystem.open(item.info, .createNew(permissions: 0o600))
      } catch  where error.errorNumber == EEXIST {
        continue
      } catch {
        throw PhotoFiles.failure(.trashFailed, error, action: "create the Trash info file")
      }
      // The name is ours in info/; it must also be free in files/.
      if (try? io.status(item.file)) != nil {
        fileSystem.closeQuietly(info)
        io.removeQuietly(item.info)
        continue
      }
      do throws(PersistenceError) {
        do {
          // Closed exactly once, whatever fails: a second close could close a descriptor
          // another thread has opened since under the same number.
          defer { fileSystem.closeQuietly(info) }
          try fileSystem.writeAll(info, Array(content.utf8))
          try fileSystem.sync(info)
        }
        try fileSystem.syncDirectory(infos)
      } catch {
        io.removeQuietly(item.info)
        let reason = PhotoFiles.failure(.trashFailed, error).description
        throw PhotoSessionError(
          .trashFailed, path: path, errno: error.errorNumber,
          description: "cannot trash \"\(path)\": \(reason)")
      }
      do throws(PersistenceError) {
        try fileSystem.rename(path, to: item.file)
      } catch {
        io.removeQuietly(item.info)
        if error.errorNumber == EXDEV {
          throw PhotoSessionError(
            .crossDevice, path: path, errno: EXDEV,
            description:
              "cannot trash \"\(path)\": \"\(filesFolder)\" is on another file system; nothing was moved"
          )
        }
        if error.errorNumber == ENOENT {
          throw PhotoSessionError(
            .photoMissing, path: path, errno: ENOENT,
            description: "cannot trash \"\(path)\": it is no longer there (moved or deleted)")
        }
        throw PhotoFiles.failure(.trashFailed, error, action: "move to the Trash")
      }
      var moved = item
      moved.changedFolders = [filesFolder, PathName.directory(of: path)]
      if syncFolders {
        for folder in moved.changedFolders { try io.syncDirectory(folder) }
      }
      return moved
    }
    throw PhotoSessionError(
      .trashFailed, path: path,
      description: "cannot trash \"\(path)\": 10,000 names like \"\(base)\" are taken in the Trash")
  }

  /// The `attempt`-th name for a file: `photo.jpg`, then `photo.2.jpg`, `photo.3.jpg`, ...
  static func candidate(_ base: String, _ attempt: Int) -> String {
    guard attempt > 1 else { return base }
    if let dot = base.lastIndex(of: "."), dot != base.startIndex {
      return "\(base[..<dot]).\(attempt)\(base[dot...])"
    }
    return "\(base).\(attempt)"
  }

  /// `YYYY-MM-DDThh:mm:ss` in ``timeZone``.
  func deletionDate(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ value: Int?) -> String {
      let v = value ?? 0
      return v < 10 ? "0\(v)" : "\(v)"
    }
    let year = String(c.year ?? 1970)
    return
      "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))"
  }

  /// Percent-encodes a path as the specification asks (RFC 2396 escaping, `/` kept).
  static func percentEncode(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
        UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return out
  }

  /// Decodes a percent-encoded path; nil when an escape is malformed.
  static func percentDecode(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
      if byte == UInt8(ascii: "%") {
        guard let high = iterator.next(), let low = iterator.next(),
          let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
        else { return nil }
        bytes.append(value)
      } else {
        bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  // MARK: Finding trashed files

  /// The trashed item whose original path is `path` and whose file is still in the Trash.
  ///
  /// Used when a commit resumes after a crash, to tell "already trashed" from "vanished".
  ///
  /// - Complexity: O(*t*), where *t* is the number of items in that Trash.
  public func locate(original path: String) -> Item? {
    items(original: path).filter { (try? io.status($0.file)) != nil }.last
  }

  /// Removes info files for `path` whose file is not in `files/`: what a crash between writing
  /// the info file and moving the file leaves. An info file with no `Path=` line (a crash
  /// right after its exclusive create) and no file, under a name this file could have been
  /// given, is removed too. Only `.trashinfo` files are removed.
  ///
  /// - Complexity: O(*t*), where *t* is the number of items in that Trash.
  public func removeOrphanedInfo(original path: String) {
    for (item, matches) in infoFiles(original: path) where matches != false {
      if (try? io.status(item.file)) == nil { io.removeQuietly(item.info) }
    }
  }

  /// The items of the Trash whose info file names `path` as the original, sorted by name.
  func items(original path: String) -> [Item] {
    infoFiles(original: path).filter { $0.1 == true }.map(\.0)
  }

  /// The info files under names `path` could have been given, with whether their `Path=`
  /// names `path` (nil when they have no readable `Path=` line).
  private func infoFiles(original path: String) -> [(Item, Bool?)] {
    guard let (folder, relativeTo) = try? trashFolder(for: path) else { return [] }
    var original = path
    if let relativeTo {
      original = String(path.dropFirst(relativeTo == "/" ? 1 : relativeTo.count + 1))
    }
    let infos = PathName.join(folder, "info")
    guard let names = try? io.names(in: infos) else { return [] }
    var found: [(Item, Bool?)] = []
    // Only names this file could have been given (`photo.jpg`, `photo.2.jpg`, ...) are read.
    let base = PathName.lastComponent(of: path)
    let stem = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
    for name in names where name.hasSuffix(".trashinfo") && name.hasPrefix(stem) {
      guard let bytes = try? io.readPrefix(PathName.join(infos, name), limit: 65536).bytes
      else { continue }
      let text = String(decoding: bytes, as: UTF8.self)
      let item = Item(trash: folder, name: String(name.dropLast(".trashinfo".count)))
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Path=") })
      found.append((item, line.map { Self.percentDecode($0.dropFirst(5)) == original }))
    }
    return found.sorted { $0.0.name < $1.0.name }
  }
}
