import Persistence

// The identities and companions a session records at start.
extension PhotoSessionStore {
  /// The scan's non-empty companion lists by photo id, or nil when there are none.
  static func companionTable(_ scan: FolderScan) -> [String: [String]]? {
    var table: [String: [String]] = [:]
    for (photo, files) in zip(scan.photos, scan.companions) where !files.isEmpty {
      table[photo] = files
    }
    return table.isEmpty ? nil : table
  }

  /// The bytes of an identities file: one `FileIdentity.line` per identity.
  ///
  /// - Complexity: O(*n*) for *n* identities.
  static func identityLines(_ identities: [FileIdentity]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(identities.count * 48)
    for identity in identities {
      bytes.append(contentsOf: identity.line.utf8)
      bytes.append(UInt8(ascii: "\n"))
    }
    return bytes
  }

  /// Reads a session's companion identities file into a dictionary by relative path; empty
  /// when the file does not exist (no companions, or a session started before version 3).
  ///
  /// - Throws: ``PhotoSessionError/Code/sessionCorrupt`` when a line is damaged or the count
  ///   differs from the manifest's companions.
  /// - Complexity: O(*n* + *c*) for *n* photos and *c* companions.
  static func readCompanionIdentities(
    folder sessionFolder: String, manifest: Manifest, io: PhotoFiles
  ) throws(PhotoSessionError) -> [String: FileIdentity] {
    let path = PathName.join(sessionFolder, companionIdentitiesFile)
    guard let table = manifest.companions,
      try io.status(path, followingLinks: true) != nil
    else { return [:] }
    let files = manifest.photos.flatMap { table[$0] ?? [] }
    return try readIdentityLines(path, keys: files, what: "companions", io: io)
  }

  /// Reads a session's identities file into a dictionary by photo id; empty when the file
  /// does not exist.
  ///
  /// - Throws: ``PhotoSessionError/Code/sessionCorrupt`` when a line is damaged or the count
  ///   differs from the manifest's.
  /// - Complexity: O(*n*) for *n* photos.
  static func readIdentities(
    folder sessionFolder: String, photos: [String], io: PhotoFiles
  ) throws(PhotoSessionError) -> [String: FileIdentity] {
    let path = PathName.join(sessionFolder, identitiesFile)
    guard try io.status(path, followingLinks: true) != nil else { return [:] }
    return try readIdentityLines(path, keys: photos, what: "photos", io: io)
  }

  /// Reads the identities file at `path`, one line per key, into a dictionary.
  ///
  /// - Throws: ``PhotoSessionError/Code/sessionCorrupt`` when a line is damaged or the count
  ///   differs from the number of keys.
  /// - Complexity: O(*n*) for *n* keys.
  private static func readIdentityLines(
    _ path: String, keys: [String], what: String, io: PhotoFiles
  ) throws(PhotoSessionError) -> [String: FileIdentity] {
    let text = String(decoding: try io.readAll(path), as: UTF8.self)
    let lines = text.split(separator: "\n")
    guard lines.count == keys.count else {
      throw PhotoSessionError(
        .sessionCorrupt, path: path,
        description:
          "the session file \"\(path)\" lists \(lines.count) identities for \(keys.count) \(what)")
    }
    var result: [String: FileIdentity] = [:]
    result.reserveCapacity(keys.count)
    for (index, line) in lines.enumerated() {
      guard let identity = FileIdentity(line: line) else {
        throw PhotoSessionError(
          .sessionCorrupt, path: path,
          description: "the session file \"\(path)\" is damaged at line \(index + 1)")
      }
      result[keys[index]] = identity
    }
    return result
  }

}
