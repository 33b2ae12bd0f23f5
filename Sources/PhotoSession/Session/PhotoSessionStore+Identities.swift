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

  /// The scan's companion identities by relative path, or nil when there are none.
  static func companionIdentityTable(_ scan: FolderScan) -> [String: FileIdentity]? {
    var table: [String: FileIdentity] = [:]
    for (files, identities) in zip(scan.companions, scan.companionIdentities) {
      for (file, identity) in zip(files, identities) { table[file] = identity }
    }
    return table.isEmpty ? nil : table
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
    let text = String(decoding: try io.readAll(path), as: UTF8.self)
    let lines = text.split(separator: "\n")
    guard lines.count == photos.count else {
      throw PhotoSessionError(
        .sessionCorrupt, path: path,
        description:
          "the session file \"\(path)\" lists \(lines.count) identities for \(photos.count) photos")
    }
    var result: [String: FileIdentity] = [:]
    result.reserveCapacity(photos.count)
    for (index, line) in lines.enumerated() {
      guard let identity = FileIdentity(line: line) else {
        throw PhotoSessionError(
          .sessionCorrupt, path: path,
          description: "the session file \"\(path)\" is damaged at line \(index + 1)")
      }
      result[photos[index]] = identity
    }
    return result
  }

}
