/// What ``FileSystem/status(_:followingLinks:)`` tells about a path: its kind, where it lives
/// (device and inode), its size, owner, permission bits and modification time.
///
/// Together, device, inode, size and modification time identify one version of a file (its
/// ``FileIdentity``): a program that recorded them can tell later whether the file at a path is
/// still the same one.
public struct FileStatus: Sendable, Hashable {
  /// What kind of file a path names.
  public enum Kind: Sendable, Hashable {
    /// A regular file.
    case regular
    /// A folder.
    case directory
    /// A symbolic link (only when the link itself was asked about).
    case symbolicLink
    /// A FIFO, a device or a socket.
    case other
  }

  /// A modification time: whole seconds since 1970 and the nanoseconds past them.
  public struct Time: Sendable, Hashable {
    /// Whole seconds since 1970 (`tv_sec`).
    public var seconds: Int64
    /// Nanoseconds past ``seconds``, from 0 to 999,999,999 (`tv_nsec`).
    public var nanoseconds: Int64

    /// A time from its parts.
    public init(seconds: Int64, nanoseconds: Int64) {
      self.seconds = seconds
      self.nanoseconds = nanoseconds
    }

    /// The time in nanoseconds since 1970.
    public var nanosecondsSince1970: Int64 { seconds * 1_000_000_000 + nanoseconds }
    /// The time in seconds since 1970, the nanoseconds as a fraction.
    public var secondsSince1970: Double { Double(seconds) + Double(nanoseconds) / 1e9 }
  }

  /// The kind of file.
  public var kind: Kind
  /// The device holding it (`st_dev`).
  public var device: UInt64
  /// Its inode on that device (`st_ino`).
  public var inode: UInt64
  /// Its size in bytes.
  public var size: Int64
  /// Its owner's user id (`st_uid`).
  public var owner: UInt32
  /// Its permission bits, with the set-user-id, set-group-id and sticky bits (`st_mode & 07777`).
  public var permissions: Int
  /// When its contents last changed.
  public var modified: Time

  /// A status from its parts.
  public init(
    kind: Kind, device: UInt64, inode: UInt64, size: Int64, owner: UInt32, permissions: Int,
    modified: Time
  ) {
    self.kind = kind
    self.device = device
    self.inode = inode
    self.size = size
    self.owner = owner
    self.permissions = permissions
    self.modified = modified
  }

  /// Whether the sticky bit is set (on a folder: only owners may remove or rename its entries).
  public var isSticky: Bool { permissions & 0o1000 != 0 }
}

/// One name in a folder, as ``FileSystem/readDirectory(_:)`` lists it.
public struct DirectoryEntry: Sendable, Hashable {
  /// The name's bytes, as the file system stores them (not always valid UTF-8).
  public var rawName: [UInt8]
  /// The kind of file, when the listing tells it without a status call (`d_type`); nil when
  /// the file system does not say, and a ``FileSystem/status(_:followingLinks:)`` must ask.
  public var kind: FileStatus.Kind?

  /// An entry from its parts.
  public init(rawName: [UInt8], kind: FileStatus.Kind?) {
    self.rawName = rawName
    self.kind = kind
  }

  /// The name as text, or nil when its bytes are not valid UTF-8.
  public var name: String? { String(validating: rawName, as: UTF8.self) }
}
