import Persistence

/// What identifies a file as the one a session saw at start: its device, inode, size and
/// modification time (nanoseconds).
///
/// A commit compares the identity of every file of a card (the photo and its companions) with
/// the one recorded at start (or at the rescan that added it) and skips the whole card
/// (``PhotoSessionError/Code/photoChanged``) when one differs, so a file replaced by another
/// file or by a folder is never trashed. Encoded as its ``line``.
public struct FileIdentity: Hashable, Sendable, Codable {
  /// The device (`st_dev`).
  public var device: UInt64
  /// The inode (`st_ino`).
  public var inode: UInt64
  /// The size in bytes.
  public var size: Int64
  /// The modification time, in nanoseconds since 1970.
  public var modificationNanoseconds: Int64
}

extension FileIdentity {
  /// The identity of a file's status.
  init(_ status: FileStatus) {
    self.init(
      device: status.device, inode: status.inode, size: status.size,
      modificationNanoseconds: status.modified.nanosecondsSince1970)
  }

  /// `device inode size nanoseconds`, the form of one line of a session's `identities` file.
  public var line: String { "\(device) \(inode) \(size) \(modificationNanoseconds)" }

  /// Parses ``line``; nil when it is not four decimal numbers.
  ///
  /// - Complexity: O(*n*) in the length of the line.
  public init?(line: Substring) {
    let parts = line.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 4, let device = UInt64(parts[0]), let inode = UInt64(parts[1]),
      let size = Int64(parts[2]), let time = Int64(parts[3])
    else { return nil }
    self.init(device: device, inode: inode, size: size, modificationNanoseconds: time)
  }

  /// Decodes an identity from its ``line``.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let identity = FileIdentity(line: Substring(text)) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "not a file identity: \(text)"))
    }
    self = identity
  }

  /// Encodes the identity as its ``line``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(line)
  }

  /// How `self` (what is at the path now) differs from `expected`, in a few words, or nil
  /// when it is the same file.
  func difference(from expected: FileIdentity) -> String? {
    if device != expected.device || inode != expected.inode {
      return "it is another file than the one the session saw (its inode changed)"
    }
    if size != expected.size {
      return "its size changed from \(expected.size) to \(size) bytes"
    }
    if modificationNanoseconds != expected.modificationNanoseconds {
      return "it was modified since the session started"
    }
    return nil
  }
}
