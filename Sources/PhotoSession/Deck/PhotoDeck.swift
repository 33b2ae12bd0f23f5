import Persistence

/// The photo sessions of one store kept open in memory, for a surface that lives longer than
/// one command (the web app): each decision is applied to the open session and journaled
/// (synced before it returns), so it costs the same on the 50,000th photo as on the first, and
/// reads (the deck, a card, a photo's file) never replay the journal while it is unchanged.
///
/// ```swift
/// let deck = PhotoDeck(store: PhotoSessionStore(folder: sessionsFolder))
/// if let id = try deck.resolve(nil) {                  // the latest session
///   let cursor = try deck.session(id).state.cursor
///   try deck.decide(id, at: cursor, .trash)            // durable when it returns
///   print(try deck.session(id).current?.photo ?? "")   // from memory
/// }
/// ```
///
/// **Sharing a session with other processes.** The lock is taken per change, as a terminal
/// command takes it: a change resumes the session's journal (the lock, then two `stat` calls
/// that prove no other process wrote since this deck let go), applies and journals the change,
/// and suspends the journal again (the lock released), so a terminal command can use the
/// session between two swipes. When another process did write, resuming says so and the deck
/// opens the session again, replaying what the other process wrote, before it applies the
/// change: a change is never applied to a stale state. A change answers with the session it
/// changed, so a decision costs the lock, two `stat` calls, one append and one fsync, and no
/// listing of the session's folder. Reads of a session the deck changed compare its journal
/// files with where the deck's last change left them (two `stat` calls); reads of another
/// session compare the journal files' names, inodes, sizes and modification times with those
/// of its last read (a listing and a few `stat` calls). Either replays without the lock only
/// when they differ. See
/// `Docs/Decisions/0009-photo-deck-keeps-the-session.md`.
///
/// A deck is not thread-safe: use it from one task or actor at a time.
public final class PhotoDeck {
  /// The store whose sessions this deck opens.
  public let store: PhotoSessionStore
  /// How long a change waits for another process that has the session open.
  public let lockTimeout: Duration

  private var opened: [String: Open] = [:]
  private var viewed: [String: Viewed] = [:]
  private var manifests: [String: PhotoSessionStore.Manifest] = [:]

  /// A session opened for changes, its journal suspended between them (the suspended
  /// journal knows its files as the deck left them).
  private struct Open {
    var opened: PhotoSessionStore.Opened
  }

  /// A session read without the lock, valid while its journal files are as `stamp` says.
  private struct Viewed {
    var session: CullingSession
    var stamp: JournalStamp
  }

  /// How many sessions the deck keeps in memory of each kind at most.
  static let sessionLimit = 4

  /// A deck over `store`.
  ///
  /// - Parameters:
  ///   - store: The sessions' store.
  ///   - lockTimeout: How long a change waits for another process holding the session (a
  ///     terminal command finishing its own change); 1 second by default.
  public init(store: PhotoSessionStore, lockTimeout: Duration = .seconds(1)) {
    self.store = store
    self.lockTimeout = lockTimeout
  }

  // MARK: Finding sessions

  /// The session `id` names (checked to exist), or the latest one; nil when `id` is nil and the
  /// store holds no session.
  ///
  /// A session this deck has in memory is known without a look at the disk.
  ///
  /// - Parameter id: A session id, or nil for the latest session.
  /// - Returns: The id, or nil.
  /// - Throws: ``PhotoSessionError/Code/noSession`` for an id the store does not hold.
  /// - Complexity: O(1) for a session in memory, else O(*s* log *s*) for *s* sessions.
  public func resolve(_ id: String?) throws(PhotoSessionError) -> String? {
    if let id, opened[id] != nil || viewed[id] != nil { return id }
    let ids = try store.sessionIDs()
    guard let id else { return ids.last }
    guard ids.contains(id) else {
      throw PhotoSessionError(
        .noSession, path: id, description: "there is no such photo session in this store")
    }
    return id
  }

  /// The manifest of session `id` (read once: a manifest never changes).
  ///
  /// - Parameter id: The session id.
  /// - Returns: The manifest.
  /// - Throws: The errors of ``PhotoSessionStore/readManifest(_:)``.
  /// - Complexity: O(1) once read, else O(*n*) for *n* photos.
  public func manifest(_ id: String) throws(PhotoSessionError) -> PhotoSessionStore.Manifest {
    if let manifest = manifests[id] ?? opened[id]?.opened.manifest { return manifest }
    let manifest = try store.readManifest(id)
    if manifests.count >= Self.sessionLimit * 2 { manifests.removeAll() }
    manifests[id] = manifest
    return manifest
  }

  // MARK: Reading

  /// Session `id` as it is now, for reading: the one the deck changed last, or read last,
  /// when its journal did not change since, else the journal replayed without the lock.
  ///
  /// Do not change the session returned; change it through the deck.
  ///
  /// - Parameter id: The session id.
  /// - Returns: The session.
  /// - Throws: ``PhotoSessionError/Code/noSession``, or the replay's errors.
  /// - Complexity: Two `stat` calls for a session the deck changed and nothing else did;
  ///   O(*f*) `stat` calls for the *f* files of the session's folder for one it read and
  ///   nothing changed; O(*n* + *e*) when it must be replayed (*n* photos, *e* events).
  public func session(_ id: String) throws(PhotoSessionError) -> CullingSession {
    if let entry = opened[id], try entry.opened.isUnchanged() { return entry.opened.session }
    let stamp = try journalStamp(id)
    if let entry = viewed[id], entry.stamp == stamp { return entry.session }
    let manifest = try manifest(id)
    let folder = sessionFolder(id)
    let journal = JSONLinesSessionJournal(
      folder: folder, readOnly: true, fileSystem: store.fileSystem)
    let library = store.library(manifest: manifest, sessionFolder: folder)
    let session = try CullingSession(
      photos: manifest.photos, journal: journal, library: library,
      undoDepth: manifest.undoDepth, clock: store.clock)
    library.adopt(session.state.rescans)
    // The stamp was taken before the replay: a change made meanwhile replays again next time.
    if viewed[id] == nil && viewed.count >= Self.sessionLimit { viewed.removeAll() }
    viewed[id] = Viewed(session: session, stamp: stamp)
    return session
  }

  /// The file to show for card `index` of session `id` (a queue position: a skip reorders
  /// the queue, a rescan extends it).
  ///
  /// - Parameters:
  ///   - id: The session id.
  ///   - index: The card's queue position.
  /// - Returns: The photo id, its absolute path and the library's root folder.
  /// - Throws: ``PhotoSessionError/Code/unknownPhoto`` for a position outside the queue.
  /// - Complexity: As ``session(_:)``.
  public func file(
    _ id: String, at index: Int
  ) throws(PhotoSessionError) -> (photo: String, path: String, root: String) {
    let session = try session(id)
    let photos = session.state.photos
    guard index >= 0 && index < photos.count else {
      throw PhotoSessionError(
        .unknownPhoto, path: String(index), description: "no photo \(index) in session \(id)")
    }
    let manifest = try manifest(id)
    let path = PathName.join(manifest.root, photos[index])
    return (photos[index], path, manifest.root)
  }

  // MARK: Changing

  /// Runs `body` on session `id` with its lock: the session in memory when no other process
  /// wrote since the deck's last change, else the session opened again (replaying what the
  /// other process wrote); the lock is released before this returns.
  ///
  /// When `body` fails to write the journal, the deck forgets the session, so the next change
  /// opens it again and replays exactly what reached the disk.
  ///
  /// - Parameters:
  ///   - id: The session id.
  ///   - body: The change; the session's own methods journal before they return.
  /// - Returns: What `body` returns.
  /// - Throws: ``PhotoSessionError/Code/sessionBusy`` when another process keeps the session
  ///   open longer than ``lockTimeout``, an open error, or what `body` throws.
  /// - Complexity: O(1) plus `body` for a session in memory; O(*n* + *e*) to open one.
  public func change<T>(
    _ id: String, _ body: (CullingSession) throws(PhotoSessionError) -> T
  ) throws(PhotoSessionError) -> T {
    let current = try acquire(id)
    let result: T
    do throws(PhotoSessionError) {
      result = try body(current.session)
    } catch {
      if error.code == .writeFailed || error.code == .journalCorrupt {
        try? current.close()
        forget(id)
      } else {
        try letGo(id, current)
      }
      throw error
    }
    try letGo(id, current)
    return result
  }

  /// Decides the card on screen, if it is still card `index`.
  ///
  /// - Parameters:
  ///   - id: The session id.
  ///   - index: The queue position of the card the user decided.
  ///   - decision: The decision.
  /// - Returns: The session after the decision (do not change it but through the deck).
  /// - Throws: ``PhotoSessionError/Code/sessionBusy`` when another card is on screen (another
  ///   page or process decided first), ``PhotoSessionError/Code/endOfLibrary``, or a journal
  ///   error (see ``change(_:_:)``).
  /// - Complexity: O(1) plus one durable append, for a session in memory.
  @discardableResult
  public func decide(
    _ id: String, at index: Int, _ decision: PhotoDecision
  ) throws(PhotoSessionError) -> CullingSession {
    try change(id) { session throws(PhotoSessionError) in
      let cursor = session.state.cursor
      guard cursor == index else {
        throw PhotoSessionError(
          .sessionBusy,
          description:
            "photo \(index + 1) is no longer on screen (photo \(cursor + 1) is): it was decided elsewhere"
        )
      }
      try session.decide(decision)
      return session
    }
  }

  /// Decides the card on screen by a swipe, if it is still card `index` (see
  /// ``decide(_:at:_:)``; ``PhotoDecision/init(swipe:)`` maps the direction).
  ///
  /// - Parameters:
  ///   - id: The session id.
  ///   - index: The queue position of the card swiped.
  ///   - direction: The swipe.
  /// - Throws: As ``decide(_:at:_:)``.
  /// - Complexity: O(1) plus one durable append, for a session in memory.
  public func swipe(
    _ id: String, at index: Int, _ direction: SwipeDirection
  ) throws(PhotoSessionError) {
    try decide(id, at: index, PhotoDecision(swipe: direction))
  }

  /// Undoes the last action of session `id`.
  ///
  /// - Parameter id: The session id.
  /// - Returns: The session after the undo (do not change it but through the deck).
  /// - Throws: ``PhotoSessionError/Code/nothingToUndo`` or a journal error.
  /// - Complexity: O(*u*) for undo depth *u*, plus one durable append, for a session in memory.
  @discardableResult
  public func undo(_ id: String) throws(PhotoSessionError) -> CullingSession {
    try change(id) { session throws(PhotoSessionError) in
      _ = try session.undo()
      return session
    }
  }

  /// Changes the decision of the decided, uncommitted card at queue position `index`.
  ///
  /// - Parameters:
  ///   - id: The session id.
  ///   - index: The card's queue position (as the review lists it).
  ///   - decision: The new decision.
  /// - Throws: ``PhotoSessionError/Code/unknownPhoto`` for a position outside the queue,
  ///   ``PhotoSessionError/Code/notDecided``, ``PhotoSessionError/Code/alreadyCommitted`` or a
  ///   journal error.
  /// - Complexity: O(1) amortized plus one durable append, for a session in memory.
  public func change(
    _ id: String, at index: Int, to decision: PhotoDecision
  ) throws(PhotoSessionError) {
    try change(id) { session throws(PhotoSessionError) in
      guard index >= 0 && index < session.state.count else {
        throw PhotoSessionError(
          .unknownPhoto, path: String(index), description: "no photo \(index) in session \(id)")
      }
      try session.change(session.state.photos[index], to: decision)
    }
  }

  /// Starts a session over `folder` (see ``PhotoSessionStore/start(folder:options:undoDepth:sidecarNaming:)``)
  /// and holds it.
  ///
  /// - Parameters:
  ///   - folder: The photo folder.
  ///   - options: Scan options.
  /// - Returns: The new session's id and what the scan skipped.
  /// - Throws: The start's errors.
  /// - Complexity: As the start: O(*n* log *n*) for *n* photos.
  public func start(
    folder: String, options: FolderScanOptions = FolderScanOptions()
  ) throws(PhotoSessionError) -> (id: String, issues: [ScanIssue]) {
    let started = try store.start(folder: folder, options: options)
    try letGo(started.id, started)
    return (started.id, started.issues)
  }

  /// Forgets session `id`: the next read or change reads it from disk again.
  ///
  /// - Parameter id: The session id.
  public func forget(_ id: String) {
    if let entry = opened.removeValue(forKey: id) { try? entry.opened.close() }
    viewed[id] = nil
  }

  // MARK: Internals

  /// The session with its lock taken: resumed when unchanged, else opened again.
  private func acquire(_ id: String) throws(PhotoSessionError) -> PhotoSessionStore.Opened {
    if let entry = opened[id] {
      if try entry.opened.resume() { return entry.opened }
      opened[id] = nil  // another process wrote: its journal is closed, open it again
    }
    let fresh = try store.open(id, lockTimeout: lockTimeout)
    viewed[id] = nil
    return fresh
  }

  /// Releases the lock of a session the deck just changed, keeping it in memory.
  private func letGo(_ id: String, _ session: PhotoSessionStore.Opened) throws(PhotoSessionError) {
    // Suspending notes the journal's files under the lock: a change another process makes
    // later differs (``PhotoSessionStore/Opened/isUnchanged()``).
    do throws(PhotoSessionError) {
      try session.suspend()
    } catch {
      try? session.close()
      forget(id)
      throw error
    }
    if opened[id] == nil && opened.count >= Self.sessionLimit {
      for entry in opened.values { try? entry.opened.close() }
      opened.removeAll()
    }
    opened[id] = Open(opened: session)
  }

  private func sessionFolder(_ id: String) -> String { PathName.join(store.folder, id) }

  /// The journal files of session `id` as they are now: any append, cut, compaction or new
  /// generation changes it.
  private func journalStamp(_ id: String) throws(PhotoSessionError) -> JournalStamp {
    let folder = sessionFolder(id)
    let files = PhotoFiles(store.fileSystem)
    let prefix = JSONLinesSessionJournal.name + "."
    let lock = JSONLinesSessionJournal.name + ".lock"
    var stamp = JournalStamp()
    for name in try files.names(in: folder).sorted()
    where name.hasPrefix(prefix) && name != lock {
      guard let status = try files.status(PathName.join(folder, name)) else { continue }
      stamp.files.append(
        JournalStamp.File(
          name: name, inode: status.inode, size: status.size,
          modified: status.modified.nanosecondsSince1970))
    }
    return stamp
  }
}

/// What a session's journal files look like on disk: compared to notice another process's
/// change without reading them.
struct JournalStamp: Equatable {
  struct File: Equatable {
    var name: String
    var inode: UInt64
    var size: Int64
    var modified: Int64
  }
  var files: [File] = []
}
