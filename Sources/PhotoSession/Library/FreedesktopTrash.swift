public import Foundation

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

  /// A Trash rooted at `homeTrash`.
  ///
  /// - Parameters:
  ///   - homeTrash: The home Trash folder; created on first use.
  ///   - userID: The user id for volume Trash folder names.
  ///   - timeZone: The time zone of deletion dates.
  ///   - deviceOf: The device of a path; the default reads `st_dev`.
  public init(
    homeTrash: String, userID: UInt32 = UInt32(getuid()), timeZone: TimeZone = .current,
    deviceOf: @escaping @Sendable (String) -> UInt64? = FreedesktopTrash.systemDevice
  ) {
    self.homeTrash = homeTrash
    self.userID = userID
    self.timeZone = timeZone
    self.deviceOf = deviceOf
  }

  /// The user's Trash: `$XDG_DATA_HOME/Trash`, else `$HOME/.local/share/Trash`.
  ///
  /// - Parameter environment: The environment to read (the process's by default).
  public static func user(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> FreedesktopTrash {
    let dataHome: String
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      dataHome = xdg
    } else {
      dataHome = FileSystem.join(environment["HOME"] ?? NSHomeDirectory(), ".local/share")
    }
    return FreedesktopTrash(homeTrash: FileSystem.join(dataHome, "Trash"))
  }

  /// The `st_dev` of a path, or of its nearest existing ancestor.
  public static let systemDevice: @Sendable (String) -> UInt64? = { path in
    var status = stat()
    var current = path
    while true {
      if stat(current, &status) == 0 { return UInt64(status.st_dev) }
      let above = FileSystem.parent(current)
      if above == current { return nil }
      current = above
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
    public var file: String { FileSystem.join(FileSystem.join(trash, "files"), name) }
    /// The info file's path.
    public var info: String { FileSystem.join(FileSystem.join(trash, "info"), name + ".trashinfo") }
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
    var top = FileSystem.parent(path)
    while top != "/" {
      let above = FileSystem.parent(top)
      if deviceOf(above) != fileDevice { break }
      top = above
    }
    let shared = FileSystem.join(top, ".Trash")
    if let status = try? FileSystem.linkStatus(shared), FileSystem.isDirectory(status),
      status.st_mode & S_ISVTX != 0
    {
      let mine = FileSystem.join(shared, String(userID))
      if (try? FileSystem.makeDirectories(mine, mode: 0o700)) != nil { return (mine, top) }
    }
    let own = FileSystem.join(top, ".Trash-\(userID)")
    if let status = try? FileSystem.linkStatus(own) {
      if FileSystem.isDirectory(status) && status.st_uid == userID { return (own, top) }
    } else if mkdir(own, 0o700) == 0 {
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
    guard try FileSystem.linkStatus(path) != nil else {
      throw PhotoSessionError(
        .photoMissing, path: path,
        description: "cannot trash \"\(path)\": it is no longer there (moved or deleted)")
    }
    let (folder, relativeTo) = try trashFolder(for: path)
    let files = FileSystem.join(folder, "files")
    let infos = FileSystem.join(folder, "info")
    do {
      try FileSystem.makeDirectories(files, mode: 0o700)
      try FileSystem.makeDirectories(infos, mode: 0o700)
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
    let base = FileSystem.lastComponent(path)
    for attempt in 1...10_000 {
      let name = Self.candidate(base, attempt)
      let item = Item(trash: folder, name: name)
      let fd = open(item.info, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if fd < 0 {
        if errno == EEXIST { continue }
        throw FileSystem.failure(.trashFailed, "create the Trash info file", item.info)
      }
      // The name is ours in info/; it must also be free in files/.
      if (try? FileSystem.linkStatus(item.file)) != nil {
        close(fd)
        unlink(item.info)
        continue
      }
      do {
        try FileSystem.writeAll(fd, Array(content.utf8), path: item.info)
        try FileSystem.sync(fd, path: item.info)
        close(fd)
        try FileSystem.syncDirectory(infos)
      } catch {
        close(fd)
        unlink(item.info)
        throw PhotoSessionError(
          .trashFailed, path: path, errno: error.errno,
          description: "cannot trash \"\(path)\": \(error.description)")
      }
      if rename(path, item.file) != 0 {
        let number = errno
        unlink(item.info)
        if number == EXDEV {
          throw PhotoSessionError(
            .crossDevice, path: path, errno: number,
            description:
              "cannot trash \"\(path)\": \"\(files)\" is on another file system; nothing was moved")
        }
        if number == ENOENT {
          throw PhotoSessionError(
            .photoMissing, path: path, errno: number,
            description: "cannot trash \"\(path)\": it is no longer there (moved or deleted)")
        }
        throw FileSystem.failure(.trashFailed, "move to the Trash", path, number)
      }
      var moved = item
      moved.changedFolders = [files, FileSystem.parent(path)]
      if syncFolders {
        for folder in moved.changedFolders { try FileSystem.syncDirectory(folder) }
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
    items(original: path).filter { (try? FileSystem.linkStatus($0.file)) != nil }.last
  }

  /// Removes info files for `path` whose file is not in `files/`: what a crash between writing
  /// the info file and moving the file leaves. An info file with no `Path=` line (a crash
  /// right after its exclusive create) and no file, under a name this file could have been
  /// given, is removed too. Only `.trashinfo` files are removed.
  ///
  /// - Complexity: O(*t*), where *t* is the number of items in that Trash.
  public func removeOrphanedInfo(original path: String) {
    for (item, matches) in infoFiles(original: path) where matches != false {
      if (try? FileSystem.linkStatus(item.file)) == nil { unlink(item.info) }
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
    let infos = FileSystem.join(folder, "info")
    guard let names = try? FileSystem.names(in: infos) else { return [] }
    var found: [(Item, Bool?)] = []
    // Only names this file could have been given (`photo.jpg`, `photo.2.jpg`, ...) are read.
    let base = FileSystem.lastComponent(path)
    let stem = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
    for name in names where name.hasSuffix(".trashinfo") && name.hasPrefix(stem) {
      guard let bytes = try? FileSystem.readPrefix(FileSystem.join(infos, name), limit: 65536).bytes
      else { continue }
      let text = String(decoding: bytes, as: UTF8.self)
      let item = Item(trash: folder, name: String(name.dropLast(".trashinfo".count)))
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Path=") })
      found.append((item, line.map { Self.percentDecode($0.dropFirst(5)) == original }))
    }
    return found.sorted { $0.0.name < $1.0.name }
  }
}
