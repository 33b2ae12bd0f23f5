public import PhotoSession

/// Where a workspace keeps its photo sessions, and the Trash they use.
///
/// Sessions live in `<store>/photo-sessions` (one folder per session, see
/// `PhotoSessionStore`); trashed photos go to the user's freedesktop.org Trash,
/// `$XDG_DATA_HOME/Trash` (else `~/.local/share/Trash`).
///
/// ```swift
/// let sessions = PhotoSessions.store(root: location.path, environment: environment)
/// let opened = try sessions.openLatest()
/// ```
public enum PhotoSessions {
  /// The name of the sessions' folder inside a store folder.
  public static let folderName = "photo-sessions"

  /// The session store of the workspace at `root`.
  ///
  /// - Parameters:
  ///   - root: The store folder (see ``StoreLocation``).
  ///   - environment: The process environment: `XDG_DATA_HOME` and `HOME` choose the Trash;
  ///     `SOURCE_DATE_EPOCH` (seconds since 1970), when set, fixes the clock so runs are
  ///     reproducible.
  /// - Returns: The store; nothing is created until a session starts.
  public static func store(root: String, environment: [String: String]) -> PhotoSessionStore {
    let folder = root.hasSuffix("/") ? root + folderName : root + "/" + folderName
    let trash = FreedesktopTrash.user(environment: environment)
    if let seconds = SourceDateEpoch.seconds(in: environment) {
      return PhotoSessionStore(folder: folder, trash: trash, clock: { seconds })
    }
    return PhotoSessionStore(folder: folder, trash: trash)
  }

  /// The most recent session over the photo folder `root` (an absolute path), if any.
  ///
  /// - Complexity: O(*s* · *m*) for *s* sessions whose manifests hold *m* photos each.
  public static func latestSession(
    over root: String, in store: PhotoSessionStore
  ) throws(PhotoSessionError) -> String? {
    for id in try store.sessionIDs().reversed() {
      if let manifest = try? store.readManifest(id), manifest.root == root { return id }
    }
    return nil
  }
}
