/// What identifies one version of a file: its device, inode, size and modification time
/// (nanoseconds), as its ``FileStatus`` gives them.
///
/// A program that recorded a file's identity can tell later whether the file at a path is
/// still the same one: a suspended ``JSONLinesJournal`` resumes only while its files are
/// unchanged, and a photo session skips a card at commit when a file of it differs from the
/// one it saw. Encoded as its ``line``.
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
  public init(_ status: FileStatus) {
    self.init(
      device: status.device, inode: status.inode, size: status.size,
      modificationNanoseconds: status.modified.nanosecondsSince1970)
  }

  /// `device inode size nanoseconds`, the form of one line of a file of identities.
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
}
