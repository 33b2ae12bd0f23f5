import Foundation
import Offload
import PhotoSession

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
    case .otherDevice: status = 403
    default: status = 500
    }
    description = error.description
  }

  init(status: Int, _ description: String) {
    self.status = status
    self.description = description
  }
}

/// The photo sessions of one store as the web app sees them: the library's `PhotoDeck`, which
/// keeps the session in memory and applies each decision incrementally, behind one actor (so
/// changes are serialized), with its answers encoded as `WebShapes`.
///
/// The deck takes the session's lock per change, as one `offloadctl photos` command does, so
/// a terminal command can use the session between two swipes; what it changes is noticed
/// (from the journal files' sizes and times) before the next read or change. See
/// `Docs/Decisions/0009-photo-deck-keeps-the-session.md`.
actor DeckService {
  /// Folders a session may be started from: these and their subfolders only.
  let roots: [String]
  private let deck: PhotoDeck
  /// The store folder and the process environment, to name the device that owns a session
  /// of a shared store this device does not hold (nil: not looked for).
  private let sharing: (root: String, environment: [String: String])?

  /// - Parameters:
  ///   - store: This device's photo sessions.
  ///   - roots: Folders a session may be started from.
  ///   - sharing: The store folder and environment `PhotoSessions.store` was given, so a
  ///     request naming another device's session gets that device's refusal.
  init(
    store: PhotoSessionStore, roots: [String],
    sharing: (root: String, environment: [String: String])? = nil
  ) {
    self.deck = PhotoDeck(store: store)
    self.roots = roots
    self.sharing = sharing
  }

  /// Runs a library call, its error as the page's failure. A session this device does not
  /// hold, that another device of a shared store started, is refused as the command line
  /// refuses it (`otherDevice`, naming that device), not as missing.
  private func library<T>(
    _ body: () throws(PhotoSessionError) -> T
  ) throws(DeckFailure) -> T {
    do {
      return try body()
    } catch {
      guard error.code == .noSession, let id = error.path, let sharing else {
        throw DeckFailure(error)
      }
      do {
        try PhotoSessions.refuseOtherDevice(
          id, root: sharing.root, environment: sharing.environment)
      } catch let refusal {
        throw DeckFailure(refusal)
      }
      throw DeckFailure(error)
    }
  }

  // MARK: Reading

  /// The session `id` names, or the latest one; nil when the store holds none.
  func resolve(_ id: String?) throws(DeckFailure) -> String? {
    try library { () throws(PhotoSessionError) in try deck.resolve(id) }
  }

  /// The deck of session `id` as the page draws it: `session` when a change just answered
  /// with it, else the session as it is now.
  private func shape(
    _ id: String, session: CullingSession? = nil
  ) throws(DeckFailure) -> WebShapes.Deck {
    try library { () throws(PhotoSessionError) in
      let current: CullingSession
      if let session { current = session } else { current = try deck.session(id) }
      return WebShapes.Deck(id: id, manifest: try deck.manifest(id), session: current)
    }
  }

  /// The deck as the page draws it: the session's figures, the card on screen and the next
  /// three.
  ///
  /// - Complexity: O(1) for a session in memory whose journal did not change.
  func state(_ id: String?) throws(DeckFailure) -> WebShapes.Deck {
    guard let id = try resolve(id) else { return WebShapes.Deck(session: nil) }
    return try shape(id)
  }

  /// The decided photos of a session, optionally only those with one decision.
  ///
  /// - Complexity: O(*r*) for *r* decided photos.
  func review(_ id: String?, decision: PhotoDecision?) throws(DeckFailure) -> WebShapes.Review {
    guard let id = try resolve(id) else {
      throw DeckFailure(status: 404, "there is no photo session yet")
    }
    return try library { () throws(PhotoSessionError) in
      let session = try deck.session(id)
      return WebShapes.Review(
        id: id, manifest: try deck.manifest(id), session: session,
        items: session.review(decision))
    }
  }

  /// The bytes of card `index` of session `id` and their media type.
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

  /// The thumbnail of card `index` of session `id`: the EXIF thumbnail of a JPEG, the
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

  /// The format and bytes of card `index` when it may be served: a photo of the session in a
  /// format a page shows, a regular file whose real path lies inside the session's folder.
  private func contained(
    _ id: String, index: Int
  ) throws(DeckFailure) -> (format: ImageFormat, bytes: [UInt8]) {
    guard try resolve(id) != nil else { throw DeckFailure(status: 404, "no such session") }
    // The deck names the card by queue position (a skip reorders, a rescan extends).
    let file = try library { () throws(PhotoSessionError) in try deck.file(id, at: index) }
    guard let format = ImageFormat(fileName: file.photo), WebMedia.isShown(format) else {
      throw DeckFailure(status: 415, "the browser cannot show this photo's format")
    }
    guard
      let bytes = WebFiles.readContained(file.path, root: file.root, limit: WebLimits.photoBytes)
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

  /// Decides the photo on screen, if it is still card `index`.
  ///
  /// - Throws: 409 when another page or command decided it first.
  /// - Complexity: O(1) plus one durable append, for a session in memory: the deck after it
  ///   is drawn from the session the change answered with, without a look at its files.
  func decide(_ id: String, index: Int, _ decision: PhotoDecision) throws(DeckFailure)
    -> WebShapes.Deck
  {
    let session = try library { () throws(PhotoSessionError) in
      try deck.decide(id, at: index, decision)
    }
    return try shape(id, session: session)
  }

  /// Skips the photo on screen, if it is still card `index`: it moves to the end of the queue
  /// without a decision, as `offloadctl photos skip` does, and undo brings it back.
  ///
  /// - Throws: 409 when another card is on screen or every photo has a decision.
  /// - Complexity: O(*n*) for *n* photos (the undecided tail moves up by one).
  func skip(_ id: String, index: Int) throws(DeckFailure) -> WebShapes.Deck {
    let session = try library { () throws(PhotoSessionError) in
      try deck.change(id) { session throws(PhotoSessionError) in
        guard session.state.cursor == index else {
          throw PhotoSessionError(
            .sessionBusy, description: "photo \(index + 1) is no longer on screen")
        }
        try session.skip()
        return session
      }
    }
    return try shape(id, session: session)
  }

  /// Undoes the last decision or change.
  func undo(_ id: String) throws(DeckFailure) -> WebShapes.Deck {
    let session = try library { () throws(PhotoSessionError) in try deck.undo(id) }
    return try shape(id, session: session)
  }

  /// Changes the decision of the decided card at queue position `index`.
  ///
  /// - Complexity: O(*r*) for the review of *r* decided photos it answers with.
  func change(_ id: String, index: Int, _ decision: PhotoDecision) throws(DeckFailure)
    -> WebShapes.Review
  {
    try library { () throws(PhotoSessionError) in try deck.change(id, at: index, to: decision) }
    return try review(id, decision: nil)
  }

  /// Commits the pending decisions (Trash and sidecars; nothing is deleted), reporting progress.
  ///
  /// - Complexity: O(*p*) file operations for *p* pending photos.
  func commit(
    _ id: String, progress: @Sendable (CommitProgress) -> Void
  ) throws(DeckFailure) -> WebShapes.Committed {
    try library { () throws(PhotoSessionError) in
      try deck.change(id) { session throws(PhotoSessionError) in
        let report = try session.commit(batchSize: 50, dryRun: false, progress: progress)
        return WebShapes.committed(report: report, statistics: session.statistics)
      }
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
    let id = try library { () throws(PhotoSessionError) in try deck.start(folder: path).id }
    return try shape(id)
  }

  /// The subfolders of `folder` (relative to root `rootIndex`), names only, sorted.
  func folders(root rootIndex: Int, folder: String) throws(DeckFailure) -> WebShapes.Folders {
    guard rootIndex >= 0 && rootIndex < roots.count,
      let path = WebFiles.containedFolder(folder, in: roots[rootIndex])
    else { throw DeckFailure(status: 404, "no such folder") }
    let folders = WebFiles.subfolders(of: path, limit: 500)
    return WebShapes.Folders(roots: roots, root: rootIndex, folder: folder, folders: folders)
  }
}
