import Foundation
import Offload
import PhotoSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure the web app reports: an HTTP status and one sentence for the page.
struct DeckFailure: Error, CustomStringConvertible {
  /// The HTTP status (404, 409, 500, ...).
  var status: Int
  /// One sentence naming what was wrong.
  var description: String

  /// A failure for a session library error, with the status that fits its code.
  init(_ error: PhotoSessionError) {
    switch error.code {
    case .noSession, .unknownPhoto, .photoMissing: status = 404
    case .endOfLibrary, .nothingToUndo, .notDecided, .alreadyCommitted, .sessionBusy: status = 409
    case .invalidArgument, .notAFolder, .emptyLibrary: status = 400
    default: status = 500
    }
    description = error.description
  }

  init(status: Int, _ description: String) {
    self.status = status
    self.description = description
  }
}

/// The photo sessions of one store as the web app sees them: reads replay a session read-only
/// (no lock, so a terminal command may hold the session meanwhile); every change opens the
/// session with its lock, journals the change (synced) and releases the lock before it returns,
/// as one `offloadctl photos` command does.
actor DeckService {
  let store: PhotoSessionStore
  /// Folders a session may be started from: these and their subfolders only.
  let roots: [String]
  private var manifests: [String: PhotoSessionStore.Manifest] = [:]

  init(store: PhotoSessionStore, roots: [String]) {
    self.store = store
    self.roots = roots
  }

  // MARK: Resolving

  /// The session `id` names, or the latest one; nil when the store holds none.
  func resolve(_ id: String?) throws(DeckFailure) -> String? {
    let ids: [String]
    do {
      ids = try store.sessionIDs()
    } catch {
      throw DeckFailure(error)
    }
    guard let id else { return ids.last }
    guard ids.contains(id) else {
      throw DeckFailure(status: 404, "there is no such photo session in this store")
    }
    return id
  }

  private func manifest(_ id: String) throws(DeckFailure) -> PhotoSessionStore.Manifest {
    if let cached = manifests[id] { return cached }
    do {
      let manifest = try store.readManifest(id)
      // A manifest never changes once written; keep the few most recent.
      if manifests.count > 4 { manifests.removeAll() }
      manifests[id] = manifest
      return manifest
    } catch {
      throw DeckFailure(error)
    }
  }

  private func library(_ manifest: PhotoSessionStore.Manifest) -> FolderLibrary {
    FolderLibrary(root: manifest.root, trash: store.trash, sidecarNaming: manifest.sidecarNaming)
  }

  /// The session replayed read-only, without its lock.
  private func snapshot(_ id: String) throws(DeckFailure) -> (
    PhotoSessionStore.Manifest, CullingSession
  ) {
    let manifest = try manifest(id)
    do {
      let journal = JSONLinesSessionJournal(folder: store.folder + "/" + id, readOnly: true)
      let session = try CullingSession(
        photos: manifest.photos, journal: journal, library: library(manifest),
        undoDepth: manifest.undoDepth, clock: store.clock)
      return (manifest, session)
    } catch {
      throw DeckFailure(error)
    }
  }

  /// Opens the session with its lock, runs `body`, and releases the lock.
  private func changing<T>(
    _ id: String, _ body: (PhotoSessionStore.Opened) throws(PhotoSessionError) -> T
  ) throws(DeckFailure) -> T {
    do {
      let opened = try store.open(id)
      return try withExtendedLifetime(opened) { () throws(PhotoSessionError) -> T in
        try body(opened)
      }
    } catch {
      throw DeckFailure(error)
    }
  }

  // MARK: Reading

  /// The deck as the page draws it: the session's figures, the card on screen and the next
  /// three.
  ///
  /// - Complexity: O(*n* + *e*) for *n* photos and *e* journal events (one replay).
  func state(_ id: String?) throws(DeckFailure) -> WebShapes.Deck {
    guard let id = try resolve(id) else { return WebShapes.Deck(session: nil) }
    let (manifest, session) = try snapshot(id)
    return WebShapes.Deck(id: id, manifest: manifest, session: session)
  }

  /// The decided photos of a session, optionally only those with one decision.
  func review(_ id: String?, decision: PhotoDecision?) throws(DeckFailure) -> WebShapes.Review {
    guard let id = try resolve(id) else {
      throw DeckFailure(status: 404, "there is no photo session yet")
    }
    let (manifest, session) = try snapshot(id)
    return WebShapes.Review(
      id: id, manifest: manifest, session: session, items: session.review(decision))
  }

  /// The bytes of photo `index` of session `id` and their media type.
  ///
  /// Only a photo of the session is served: the file must be a regular file (not a symbolic
  /// link) whose real path lies inside the session's folder. A raw file is served as the
  /// JPEG preview it embeds.
  ///
  /// - Complexity: O(*b*) for a photo of *b* bytes.
  func photo(_ id: String, index: Int) throws(DeckFailure) -> (bytes: [UInt8], type: String) {
    let (format, bytes) = try contained(id, index: index)
    return try shown(format, bytes)
  }

  /// The thumbnail of photo `index` of session `id`: the EXIF thumbnail of a JPEG, the
  /// thumbnail of a raw file or a JPEG-coded HEIF thumbnail, else the photo as ``photo(_:index:)``
  /// serves it. The same rules as ``photo(_:index:)`` decide which files may be read.
  ///
  /// - Complexity: O(*b*) for a photo of *b* bytes.
  func thumbnail(_ id: String, index: Int) throws(DeckFailure) -> (bytes: [UInt8], type: String) {
    let (format, bytes) = try contained(id, index: index)
    if case .success(let range) = EmbeddedPreview.locate(.thumbnail, in: bytes) {
      return (Array(bytes[range]), "image/jpeg")
    }
    return try shown(format, bytes)
  }

  /// The format and bytes of photo `index` when it may be served: a photo of the session in a
  /// format a page shows, a regular file whose real path lies inside the session's folder.
  private func contained(
    _ id: String, index: Int
  ) throws(DeckFailure) -> (format: ImageFormat, bytes: [UInt8]) {
    guard try resolve(id) != nil else { throw DeckFailure(status: 404, "no such session") }
    // Indexes are queue positions, which a skip reorders and a rescan extends: the replayed
    // state names the card, never the manifest's start order.
    let (manifest, session) = try snapshot(id)
    let photos = session.state.photos
    guard index >= 0 && index < photos.count else {
      throw DeckFailure(status: 404, "no photo \(index) in session \(id)")
    }
    let name = photos[index]
    guard let format = ImageFormat(fileName: name), WebMedia.isShown(format) else {
      throw DeckFailure(status: 415, "the browser cannot show this photo's format")
    }
    let path = library(manifest).path(of: name)
    guard let bytes = WebFiles.readContained(path, root: manifest.root, limit: WebLimits.photoBytes)
    else {
      throw DeckFailure(status: 404, "photo \(index) is not in the session's folder any more")
    }
    return (format, bytes)
  }

  /// The photo as a page shows it: its own bytes, or a raw file's embedded JPEG preview.
  private func shown(
    _ format: ImageFormat, _ bytes: [UInt8]
  ) throws(DeckFailure) -> (bytes: [UInt8], type: String) {
    if let type = WebMedia.type(of: format) { return (bytes, type) }
    guard let range = EmbeddedPreview.jpegRange(in: bytes) else {
      throw DeckFailure(status: 415, "this raw file carries no preview a browser can show")
    }
    return (Array(bytes[range]), "image/jpeg")
  }

  // MARK: Changing

  /// Decides the photo on screen, if it is still photo `index`.
  ///
  /// - Throws: 409 when another page or command decided it first.
  func decide(_ id: String, index: Int, _ decision: PhotoDecision) throws(DeckFailure)
    -> WebShapes.Deck
  {
    let manifest = try manifest(id)
    return try changing(id) { opened throws(PhotoSessionError) in
      let cursor = opened.session.state.cursor
      guard cursor == index else {
        throw PhotoSessionError(
          .sessionBusy,
          description:
            "photo \(index + 1) is no longer on screen (photo \(cursor + 1) is): it was decided elsewhere"
        )
      }
      try opened.session.decide(decision)
      return WebShapes.Deck(id: id, manifest: manifest, session: opened.session)
    }
  }

  /// Undoes the last decision or change.
  func undo(_ id: String) throws(DeckFailure) -> WebShapes.Deck {
    let manifest = try manifest(id)
    return try changing(id) { opened throws(PhotoSessionError) in
      try opened.session.undo()
      return WebShapes.Deck(id: id, manifest: manifest, session: opened.session)
    }
  }

  /// Changes the decision of decided photo `index`.
  func change(_ id: String, index: Int, _ decision: PhotoDecision) throws(DeckFailure)
    -> WebShapes.Review
  {
    let manifest = try manifest(id)
    guard index >= 0 && index < manifest.photos.count else {
      throw DeckFailure(status: 404, "no photo \(index) in session \(id)")
    }
    return try changing(id) { opened throws(PhotoSessionError) in
      try opened.session.change(manifest.photos[index], to: decision)
      return WebShapes.Review(
        id: id, manifest: manifest, session: opened.session, items: opened.session.review(nil))
    }
  }

  /// Commits the pending decisions (Trash and sidecars; nothing is deleted), reporting progress.
  ///
  /// - Complexity: O(*p*) file operations for *p* pending photos.
  func commit(
    _ id: String, progress: @Sendable (CommitProgress) -> Void
  ) throws(DeckFailure) -> WebShapes.Committed {
    try changing(id) { opened throws(PhotoSessionError) in
      let report = try opened.session.commit(batchSize: 50, dryRun: false, progress: progress)
      return WebShapes.Committed(report: report, statistics: opened.session.statistics)
    }
  }

  /// Starts a session over `folder`, a path relative to one of the roots.
  func start(root rootIndex: Int, folder: String) throws(DeckFailure) -> WebShapes.Deck {
    guard rootIndex >= 0 && rootIndex < roots.count else {
      throw DeckFailure(status: 400, "no folder root \(rootIndex)")
    }
    guard let path = WebFiles.containedFolder(folder, in: roots[rootIndex]) else {
      throw DeckFailure(status: 400, "the folder must be inside \(roots[rootIndex])")
    }
    do {
      let opened = try store.start(folder: path)
      let id = opened.id
      return withExtendedLifetime(opened) {
        WebShapes.Deck(id: id, manifest: opened.manifest, session: opened.session)
      }
    } catch {
      throw DeckFailure(error)
    }
  }

  /// The subfolders of `folder` (relative to root `rootIndex`), names only, sorted.
  func folders(root rootIndex: Int, folder: String) throws(DeckFailure) -> WebShapes.Folders {
    guard rootIndex >= 0 && rootIndex < roots.count,
      let path = WebFiles.containedFolder(folder, in: roots[rootIndex])
    else { throw DeckFailure(status: 404, "no such folder") }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    let folders = names.filter { name in
      guard !name.hasPrefix(".") else { return false }
      var status = stat()
      return lstat(path + "/" + name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }.sorted().prefix(500).map { Printable.clean($0) }
    return WebShapes.Folders(roots: roots, root: rootIndex, folder: folder, folders: folders)
  }
}
