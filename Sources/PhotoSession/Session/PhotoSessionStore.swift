import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The sessions kept in one folder: start a session over a photo folder, list sessions, open
/// one (or the latest) again.
///
/// Each session is a subfolder named by its id (`20241121-221500-3f2a`, sortable by start
/// time) holding `manifest.json` (the library root, the options and the ordered photo ids,
/// written once at start) and its journal (``JSONLinesSessionJournal``: `journal.<g>.jsonl`,
/// after compaction `journal.snapshot.json`). An open session holds an exclusive lock (`lock`),
/// so two processes never append to one journal; releasing the ``PhotoSessionStore/Opened`` session closes its
/// journal.
///
/// ```swift
/// let store = PhotoSessionStore(folder: "~/.local/share/offload/photo-sessions")
/// let opened = try store.start(folder: "/photos/2024", options: .init(recursive: true))
/// try opened.session.swipe(.left)
/// let again = try store.openLatest()
/// ```
public final class PhotoSessionStore {
  /// The folder holding the sessions.
  public let folder: String
  /// The Trash used by the sessions' libraries.
  public let trash: FreedesktopTrash
  /// The clock for ids, swipe times and the rate.
  public let clock: () -> Double

  /// A store in `folder` (created on first start).
  ///
  /// - Parameters:
  ///   - folder: Where session folders live.
  ///   - trash: The Trash for trashed photos (``FreedesktopTrash/user(environment:)`` by default).
  ///   - clock: Seconds since 1970.
  public init(
    folder: String, trash: FreedesktopTrash = .user(),
    clock: @escaping () -> Double = CullingSession.systemClock
  ) {
    self.folder = FolderLibrary.absolutePath(folder)
    self.trash = trash
    self.clock = clock
  }

  /// What a session folder's `manifest.json` holds.
  public struct Manifest: Hashable, Sendable, Codable {
    /// `offload.photo-session`.
    public var format: String
    /// The manifest version (1).
    public var version: Int
    /// The session id (its folder name).
    public var id: String
    /// The library folder, absolute.
    public var root: String
    /// Whether subfolders were scanned.
    public var recursive: Bool
    /// How the photos were ordered.
    public var ordering: FolderScanOptions.Ordering
    /// The undo depth.
    public var undoDepth: Int
    /// How new sidecars are named.
    public var sidecarNaming: XMPSidecar.Naming
    /// When the session started, seconds since 1970.
    public var createdAt: Double
    /// The photo ids in session order.
    public var photos: [String]
    /// The companion files of the photos that have any (``FolderScan/companions``), by photo
    /// id; absent in sessions started before companions were grouped.
    public var companions: [String: [String]]? = nil
  }

  static let manifestFormat = "offload.photo-session"
  /// The file beside the manifest holding each photo's ``FileIdentity`` at start, one
  /// ``FileIdentity/line`` per photo in manifest order (absent in sessions started before it
  /// existed: their photos are only checked to be regular files).
  static let identitiesFile = "identities"

  /// The scan's non-empty companion lists by photo id, or nil when there are none.
  static func companionTable(_ scan: FolderScan) -> [String: [String]]? {
    var table: [String: [String]] = [:]
    for (photo, files) in zip(scan.photos, scan.companions) where !files.isEmpty {
      table[photo] = files
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
    folder sessionFolder: String, photos: [String]
  ) throws(PhotoSessionError) -> [String: FileIdentity] {
    let path = FileSystem.join(sessionFolder, identitiesFile)
    guard try FileSystem.status(path) != nil else { return [:] }
    let text = String(decoding: try FileSystem.readAll(path), as: UTF8.self)
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

  /// A session opened from the store, holding its lock until it is released.
  public final class Opened {
    /// The session's manifest.
    public let manifest: Manifest
    /// The session.
    public let session: CullingSession
    /// The folder library the session applies decisions to.
    public let library: FolderLibrary
    /// What the scan skipped or could not read (only for a session just started).
    public let issues: [ScanIssue]
    private let lock: Int32

    init(
      manifest: Manifest, session: CullingSession, library: FolderLibrary, issues: [ScanIssue],
      lock: Int32
    ) {
      self.manifest = manifest
      self.session = session
      self.library = library
      self.issues = issues
      self.lock = lock
    }

    deinit {
      // The journal's lock first, then the session's: no other process gets in between.
      try? (session.journal as? JSONLinesSessionJournal)?.close()
      close(lock)
    }

    /// The session id.
    public var id: String { manifest.id }
  }

  /// One line of ``sessions()``.
  public struct Summary: Hashable, Sendable, Codable {
    /// The session id.
    public var id: String
    /// The library folder.
    public var root: String
    /// When the session started, seconds since 1970.
    public var createdAt: Double
    /// The session's statistics, or nil when it could not be read (see ``problem``).
    public var statistics: SessionStatistics?
    /// Why the session could not be read, or nil.
    public var problem: String?
  }

  // MARK: Starting

  /// Scans `folder`, writes a new session's manifest and opens the session.
  ///
  /// - Parameters:
  ///   - photoFolder: The photo folder.
  ///   - options: Scan options (recursive, ordering).
  ///   - undoDepth: How many actions undo can take back (5 by default).
  ///   - sidecarNaming: How new XMP sidecars are named.
  /// - Throws: The scan's errors (``PhotoSessionError/Code/notAFolder``,
  ///   ``PhotoSessionError/Code/emptyLibrary``, ...) or a write error.
  /// - Complexity: O(*n* log *n*) for *n* photos (see ``FolderScan/scan(_:options:)``).
  public func start(
    folder photoFolder: String, options: FolderScanOptions = FolderScanOptions(),
    undoDepth: Int = 5, sidecarNaming: XMPSidecar.Naming = .appendExtension
  ) throws(PhotoSessionError) -> Opened {
    guard undoDepth >= 0 else {
      throw PhotoSessionError(
        .invalidArgument, description: "the undo depth must not be negative, not \(undoDepth)")
    }
    let scan = try FolderScan.scan(photoFolder, options: options)
    let now = clock()
    try FileSystem.makeDirectories(folder, mode: 0o700)
    var id = Self.makeID(now)
    var sessionFolder = FileSystem.join(folder, id)
    var attempt = 1
    while mkdir(sessionFolder, 0o700) != 0 {
      guard errno == EEXIST, attempt < 100 else {
        throw FileSystem.failure(.writeFailed, "create session folder", sessionFolder)
      }
      attempt += 1
      id = Self.makeID(now) + "-\(attempt)"
      sessionFolder = FileSystem.join(folder, id)
    }
    let manifest = Manifest(
      format: Self.manifestFormat, version: 1, id: id, root: scan.root,
      recursive: options.recursive, ordering: options.ordering, undoDepth: undoDepth,
      sidecarNaming: sidecarNaming, createdAt: now, photos: scan.photos,
      companions: Self.companionTable(scan))
    // The identities first: the manifest, written last, is what makes the session exist.
    var identities: [UInt8] = []
    identities.reserveCapacity(scan.identities.count * 48)
    for identity in scan.identities {
      identities.append(contentsOf: identity.line.utf8)
      identities.append(UInt8(ascii: "\n"))
    }
    try FileSystem.writeAtomically(
      identities, to: FileSystem.join(sessionFolder, Self.identitiesFile))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data: Data
    do {
      data = try encoder.encode(manifest)
    } catch {
      throw PhotoSessionError(.writeFailed, description: "cannot encode the manifest: \(error)")
    }
    try FileSystem.writeAtomically(
      Array(data) + [UInt8(ascii: "\n")], to: FileSystem.join(sessionFolder, "manifest.json"))
    try FileSystem.syncDirectory(folder)
    return try open(manifest: manifest, folder: sessionFolder, issues: scan.issues)
  }

  /// `YYYYMMDD-hhmmss` in UTC.
  static func makeID(_ time: Double) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    let c = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: time))
    func pad(_ value: Int?, _ width: Int) -> String {
      let text = String(value ?? 0)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return
      "\(pad(c.year, 4))\(pad(c.month, 2))\(pad(c.day, 2))-\(pad(c.hour, 2))\(pad(c.minute, 2))\(pad(c.second, 2))"
  }

  // MARK: Opening and listing

  /// The ids of the sessions in the store, oldest first.
  ///
  /// - Complexity: O(*s* log *s*) for *s* sessions.
  public func sessionIDs() throws(PhotoSessionError) -> [String] {
    guard try FileSystem.status(folder) != nil else { return [] }
    return try FileSystem.names(in: folder).filter { name in
      !name.hasPrefix(".")
        && (try? FileSystem.status(FileSystem.join(FileSystem.join(folder, name), "manifest.json")))
          != nil
    }.sorted()
  }

  /// Every session with its statistics (each is replayed to count), oldest first.
  ///
  /// A session that cannot be read is listed with its ``Summary/problem``.
  ///
  /// - Complexity: O(Σ (*n* + *e*)) over the sessions' photos and journal events.
  public func sessions() throws(PhotoSessionError) -> [Summary] {
    try sessionIDs().map { id in
      do throws(PhotoSessionError) {
        let manifest = try readManifest(id)
        // Read-only: another process may have the session open and be appending.
        let journal = JSONLinesSessionJournal(folder: FileSystem.join(folder, id), readOnly: true)
        let session = try CullingSession(
          photos: manifest.photos, journal: journal, undoDepth: manifest.undoDepth, clock: clock)
        return Summary(
          id: id, root: manifest.root, createdAt: manifest.createdAt,
          statistics: session.statistics, problem: nil)
      } catch {
        return Summary(id: id, root: "", createdAt: 0, statistics: nil, problem: error.description)
      }
    }
  }

  /// Opens the session `id`.
  ///
  /// - Throws: ``PhotoSessionError/Code/noSession`` when there is no such session,
  ///   ``PhotoSessionError/Code/sessionBusy`` when another process has it open, or a replay
  ///   error.
  /// - Complexity: O(*n* + *e*) for *n* photos and *e* journal events since the snapshot.
  public func open(_ id: String) throws(PhotoSessionError) -> Opened {
    let manifest = try readManifest(id)
    return try open(manifest: manifest, folder: FileSystem.join(folder, id), issues: [])
  }

  /// Opens the most recently started session.
  ///
  /// - Throws: ``PhotoSessionError/Code/noSession`` when the store holds none.
  /// - Complexity: O(*s* log *s* + *n* + *e*) for *s* sessions (see ``open(_:)``).
  public func openLatest() throws(PhotoSessionError) -> Opened {
    guard let id = try sessionIDs().last else {
      throw PhotoSessionError(
        .noSession, path: folder,
        description: "there is no photo session in \"\(folder)\"; start one with a photo folder")
    }
    return try open(id)
  }

  /// Reads and checks a session's manifest.
  ///
  /// - Complexity: O(*n*), where *n* is the number of photos it lists.
  public func readManifest(_ id: String) throws(PhotoSessionError) -> Manifest {
    let path = FileSystem.join(FileSystem.join(folder, id), "manifest.json")
    guard !id.contains("/"), try FileSystem.status(path) != nil else {
      throw PhotoSessionError(
        .noSession, path: id, description: "there is no photo session \"\(id)\" in \"\(folder)\"")
    }
    let bytes = try FileSystem.readAll(path)
    let manifest: Manifest
    do {
      manifest = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
    } catch {
      throw PhotoSessionError(
        .sessionCorrupt, path: path,
        description: "the session manifest \"\(path)\" is damaged: \(error)")
    }
    guard manifest.format == Self.manifestFormat, manifest.version == 1 else {
      throw PhotoSessionError(
        .sessionCorrupt, path: path,
        description:
          "the session manifest \"\(path)\" is \(manifest.format) version \(manifest.version); this build reads version 1"
      )
    }
    return manifest
  }

  private func open(
    manifest: Manifest, folder sessionFolder: String, issues: [ScanIssue]
  ) throws(PhotoSessionError) -> Opened {
    let lockPath = FileSystem.join(sessionFolder, "lock")
    let lock = openLockFile(lockPath)
    if lock < 0 { throw FileSystem.failure(.writeFailed, "open the session lock", lockPath) }
    if flock(lock, LOCK_EX | LOCK_NB) != 0 {
      close(lock)
      throw PhotoSessionError(
        .sessionBusy, path: manifest.id,
        description:
          "the photo session \"\(manifest.id)\" is open in another process; close it there first")
    }
    do {
      let photos = manifest.photos
      let library = FolderLibrary(
        root: manifest.root, trash: trash, sidecarNaming: manifest.sidecarNaming,
        favoriteRating: 5, companions: manifest.companions ?? [:],
        loadIdentities: { () throws(PhotoSessionError) in
          try Self.readIdentities(folder: sessionFolder, photos: photos)
        })
      let session = try CullingSession(
        photos: manifest.photos, journal: JSONLinesSessionJournal(folder: sessionFolder),
        library: library, undoDepth: manifest.undoDepth, clock: clock)
      return Opened(
        manifest: manifest, session: session, library: library, issues: issues, lock: lock)
    } catch {
      close(lock)
      throw error
    }
  }
}

private func openLockFile(_ path: String) -> Int32 {
  open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
}
