public import Persistence

/// A sign that a folder is carried between devices by a sync engine: a file or folder the
/// engine leaves in the folder it syncs (or in one of its ancestors), or a place on disk only
/// the engine fills.
///
/// A store found inside such a folder is shared between devices on its first open (see
/// ``Workspace/sharedIfSynced(forChange:)`` and decision 0010), because two devices editing
/// one single-writer store apart lose one side's edits when the engine picks one copy.
///
/// ```swift
/// if let marker = SyncEngineMarker.find(from: storeFolder) {
///   print(marker.description)  // "Syncthing's .stfolder in /home/ada/Sync"
/// }
/// ```
public struct SyncEngineMarker: Hashable, Sendable, CustomStringConvertible {
  /// The sync engine the marker belongs to ("Syncthing", "Dropbox", …).
  public var engine: String
  /// The marker's name: a file or folder name (`.stfolder`), or a path's part
  /// (`Library/Mobile Documents`).
  public var name: String
  /// The folder that holds the marker, or the folder the path's part names.
  public var folder: String

  /// The marker in a few words: `Syncthing's .stfolder in /home/ada/Sync`.
  public var description: String { "\(engine)'s \(name) in \(folder)" }

  /// The file and folder names a sync engine leaves in the root of the folder it carries, in
  /// the order they are looked for within one folder: Syncthing's folder marker and ignore
  /// list, Dropbox's marker and cache, Nextcloud's and ownCloud's journal databases and log.
  static let names: [(engine: String, matches: @Sendable (String) -> Bool)] = [
    ("Syncthing", { $0 == ".stfolder" }),
    ("Syncthing", { $0 == ".stignore" }),
    ("Dropbox", { $0 == ".dropbox" }),
    ("Dropbox", { $0 == ".dropbox.cache" }),
    ("Nextcloud or ownCloud", { $0.hasPrefix(".sync_") && $0.hasSuffix(".db") }),
    ("Nextcloud or ownCloud", { $0.hasPrefix("._sync_") && $0.hasSuffix(".db") }),
    ("Nextcloud or ownCloud", { $0 == ".owncloudsync.log" }),
  ]

  /// Folders only a sync engine fills, named by two path parts: iCloud Drive's
  /// `~/Library/Mobile Documents`, and macOS's File Provider place `~/Library/CloudStorage`
  /// (Google Drive for desktop, OneDrive, Dropbox and Box on macOS 12.1 and later).
  static let places: [(engine: String, parent: String, child: String)] = [
    ("iCloud Drive", "Library", "Mobile Documents"),
    ("a cloud storage provider", "Library", "CloudStorage"),
  ]

  /// The nearest sign that a folder is carried by a sync engine: first a place on its path
  /// only an engine fills (no file is read), then, from the folder up to the file system's
  /// root, the first folder whose listing holds an engine's marker. A folder that does not
  /// exist (yet) or cannot be listed has no markers; its ancestors are still looked at.
  ///
  /// - Parameters:
  ///   - folder: An absolute path (a relative one is looked at as given, without the
  ///     current folder's ancestors). Symbolic links are not resolved here.
  ///   - fileSystem: The file operations; the real ones by default.
  /// - Returns: The marker found, or `nil` when nothing says an engine carries the folder.
  /// - Complexity: O(*d* × *e*): one listing per folder on the path, *d* folders of at most
  ///   *e* entries.
  public static func find(from folder: String, fileSystem: any FileSystem = POSIXFileSystem())
    -> SyncEngineMarker?
  {
    let parts = folder.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    let absolute = folder.hasPrefix("/")
    func path(_ count: Int) -> String {
      let joined = parts.prefix(count).joined(separator: "/")
      return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
    for index in parts.indices.dropLast() {
      for place in places where parts[index] == place.parent && parts[index + 1] == place.child {
        return SyncEngineMarker(
          engine: place.engine, name: place.parent + "/" + place.child, folder: path(index + 2))
      }
    }
    var count = parts.count
    while true {
      let current = path(count)
      if let entries = try? fileSystem.listDirectory(current) {
        for marker in names {
          if let name = entries.filter(marker.matches).min() {
            return SyncEngineMarker(engine: marker.engine, name: name, folder: current)
          }
        }
      }
      if count == 0 { return nil }
      count -= 1
    }
  }
}
