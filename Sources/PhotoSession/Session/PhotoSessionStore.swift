import Foundation
public import Persistence

/// The sessions kept in one folder: start a session over a photo folder, list sessions, open
/// one (or the latest) again.
///
/// Each session is a subfolder named by its id (`20241121-221500`, the UTC second it started,
/// then `-2`, `-3`, ... for more sessions started in the same second) holding `manifest.json`
/// (a `DocumentStore` document: the library root, the options and the ordered photo ids,
/// written once at start) and its journal (``JSONLinesSessionJournal``: `journal.<g>.jsonl`,
/// after compaction `journal.snapshot.json`). An open session holds one exclusive lock, its
/// journal's (`journal.lock`), so two processes never append to one journal; closing the
/// ``PhotoSessionStore/Opened`` session, or releasing it, closes the journal. Every file
/// operation goes through ``fileSystem`` (and the Trash's own), so a test can fail any of them.
///
/// ```swift
/// let store = PhotoSessionStore(folder: "/home/me/.local/share/offload/photo-sessions")
/// let opened = try store.start(folder: "/photos/2024", options: .init(recursive: true))
/// try opened.session.swipe(.left)
/// try opened.close()                  // releases the session's lock
/// let again = try store.openLatest()  // the same session, the swipe replayed
/// ```
public final class PhotoSessionStore {
  /// The folder holding the sessions.
  public let folder: String
  /// The Trash used by the sessions' libraries.
  public let trash: FreedesktopTrash
  /// The clock for ids, swipe times and the rate.
  public let clock: () -> Double
  /// The file operations for the store, the journals, the scans and the sidecars (the Trash
  /// has its own, ``FreedesktopTrash/fileSystem``).
  public let fileSystem: any Persistence.FileSystem
  private var io: PhotoFiles { PhotoFiles(fileSystem) }

  /// A store in `folder` (created on first start).
  ///
  /// - Parameters:
  ///   - folder: Where session folders live.
  ///   - trash: The Trash for trashed photos (``FreedesktopTrash/user(environment:fileSystem:)`` by default).
  ///   - clock: Seconds since 1970.
  ///   - fileSystem: The file operations; the real ones by default.
  public init(
    folder: String, trash: FreedesktopTrash = .user(),
    clock: @escaping () -> Double = CullingSession.systemClock,
    fileSystem: any Persistence.FileSystem = POSIXFileSystem()
  ) {
    self.folder = FolderLibrary.absolutePath(folder)
    self.trash = trash
    self.clock = clock
    self.fileSystem = fileSystem
  }

  /// What a session folder's `manifest.json` holds.
  public struct Manifest: Hashable, Sendable, Codable {
    /// `offload.photo-session`.
    public var format: String
    /// The manifest version: 3 (a `DocumentStore` document, the envelope naming the same
    /// version, with the companions' identities in a file beside it); 2 in documents written
    /// before companions' identities were recorded, and 1 in the bare JSON files of earlier
    /// builds, which both still open.
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
  /// The manifest's document format: version 2 is the first written as a `DocumentStore`
  /// document (version 1 was bare JSON, read by ``readLegacyManifest(_:path:)``); version 3
  /// adds the companions' identities (in the `companion-identities` file beside it, so that
  /// opening a session, which needs none of them, does not decode them). A version 2 document
  /// migrates as it is (no identities:
  /// its companions are only checked to be regular files); the version is bumped so that an
  /// earlier build refuses a version 3 session rather than commit it without checking its
  /// companions.
  static let manifestDocument = DocumentFormat<Manifest>(
    name: manifestFormat, version: 3,
    migrations: [Migration(from: 2) { data in data }], prettyPrinted: false)
  /// The manifest's file name in a session folder.
  static let manifestFile = "manifest.json"
  /// The file beside the manifest holding each photo's `FileIdentity` at start, one
  /// `FileIdentity.line` per photo in manifest order (absent in sessions started before it
  /// existed: their photos are only checked to be regular files).
  static let identitiesFile = "identities"
  /// The file beside the manifest holding each companion's `FileIdentity` at start, one
  /// `FileIdentity.line` per companion in manifest order (the photos in order, each photo's
  /// ``Manifest/companions`` in order); absent when no photo has companions and in sessions
  /// started before version 3, whose companions are only checked to be regular files.
  static let companionIdentitiesFile = "companion-identities"

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
  /// - Complexity: O(*n* log *n*) for *n* photos (see ``FolderScan/scan(_:options:fileSystem:)``).
  public func start(
    folder photoFolder: String, options: FolderScanOptions = FolderScanOptions(),
    undoDepth: Int = 5, sidecarNaming: XMPSidecar.Naming = .appendExtension
  ) throws(PhotoSessionError) -> Opened {
    guard undoDepth >= 0 else {
      throw PhotoSessionError(
        .invalidArgument, description: "the undo depth must not be negative, not \(undoDepth)")
    }
    let scan = try FolderScan.scan(photoFolder, options: options, fileSystem: fileSystem)
    let now = clock()
    try io.makeDirectories(folder, permissions: 0o700)
    var id = Self.makeID(now)
    var sessionFolder = PathName.join(folder, id)
    var attempt = 1
    while true {
      do throws(PersistenceError) {
        try fileSystem.createDirectory(sessionFolder, permissions: 0o700)
        break
      } catch  where error.errorNumber == EEXIST && attempt < 100 {
        attempt += 1
        id = Self.makeID(now) + "-\(attempt)"
        sessionFolder = PathName.join(folder, id)
      } catch {
        throw PhotoFiles.failure(.writeFailed, error, action: "create session folder")
      }
    }
    let manifest = Manifest(
      format: Self.manifestFormat, version: Self.manifestDocument.version, id: id,
      root: scan.root, recursive: options.recursive, ordering: options.ordering,
      undoDepth: undoDepth, sidecarNaming: sidecarNaming, createdAt: now, photos: scan.photos,
      companions: Self.companionTable(scan))
    // The identities first: the manifest, written last, is what makes the session exist.
    try io.writeAtomically(
      Self.identityLines(scan.identities), to: PathName.join(sessionFolder, Self.identitiesFile))
    let companionIdentities = scan.companionIdentities.flatMap { $0 }
    if !companionIdentities.isEmpty {
      try io.writeAtomically(
        Self.identityLines(companionIdentities),
        to: PathName.join(sessionFolder, Self.companionIdentitiesFile))
    }
    let path = PathName.join(sessionFolder, Self.manifestFile)
    do throws(PersistenceError) {
      try manifestStore(path).save(manifest)
    } catch {
      throw PhotoSessionError(
        .writeFailed, path: path, errno: error.errorNumber,
        description:
          "cannot write the session manifest \"\(path)\": \(error.errorNumber.map(PhotoFiles.reason) ?? error.description)"
      )
    }
    try io.syncDirectory(folder)
    return try open(manifest: manifest, folder: sessionFolder, issues: scan.issues)
  }

  /// The document store of a manifest file.
  private func manifestStore(_ path: String) -> DocumentStore<Manifest> {
    DocumentStore(path: path, format: Self.manifestDocument, fileSystem: fileSystem)
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

  /// The ids of the sessions in the store, oldest first (see ``startsBefore(_:_:)``).
  ///
  /// - Complexity: O(*s* log *s*) for *s* sessions.
  public func sessionIDs() throws(PhotoSessionError) -> [String] {
    guard try io.status(folder, followingLinks: true) != nil else { return [] }
    return try io.names(in: folder).filter { name in
      !name.hasPrefix(".")
        && (try? io.status(
          PathName.join(PathName.join(folder, name), Self.manifestFile), followingLinks: true))
          != nil
    }.sorted(by: Self.startsBefore)
  }

  /// Whether the session `a` started before the session `b`, by their ids.
  ///
  /// An id is the UTC second the session started (`YYYYMMDD-hhmmss`), then `-2`, `-3`, ...
  /// for the second, third, ... session started in that second; the second is compared as
  /// text and the count as a number, so `-10` comes after `-9`. Ids of another shape sort
  /// after those of the same second, as text.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the ids.
  public static func startsBefore(_ a: String, _ b: String) -> Bool {
    let (x, y) = (startKey(a), startKey(b))
    if x.second != y.second { return x.second.utf8.lexicographicallyPrecedes(y.second.utf8) }
    if x.count != y.count { return x.count < y.count }
    return a.utf8.lexicographicallyPrecedes(b.utf8)
  }

  /// An id's start second and its count within that second (1 for the first session; the
  /// whole id and `Int.max` for an id of another shape).
  private static func startKey(_ id: String) -> (second: String, count: Int) {
    let bytes = Array(id.utf8)
    func digits(_ range: Range<Int>) -> Bool {
      range.allSatisfy { bytes[$0] >= UInt8(ascii: "0") && bytes[$0] <= UInt8(ascii: "9") }
    }
    guard bytes.count >= 15, digits(0..<8), bytes[8] == UInt8(ascii: "-"), digits(9..<15) else {
      return (id, Int.max)
    }
    let second = String(decoding: bytes[0..<15], as: UTF8.self)
    if bytes.count == 15 { return (second, 1) }
    guard bytes.count > 16, bytes.count <= 24, bytes[15] == UInt8(ascii: "-"),
      digits(16..<bytes.count), let count = Int(String(decoding: bytes[16...], as: UTF8.self))
    else { return (id, Int.max) }
    return (second, count)
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
        let journal = JSONLinesSessionJournal(
          folder: PathName.join(folder, id), readOnly: true, fileSystem: fileSystem)
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
  /// - Parameters:
  ///   - id: The session id.
  ///   - lockTimeout: How long to wait for another process that has the session open; none
  ///     by default.
  /// - Throws: ``PhotoSessionError/Code/noSession`` when there is no such session,
  ///   ``PhotoSessionError/Code/sessionBusy`` when another process has it open, or a replay
  ///   error.
  /// - Complexity: O(*n* + *e*) for *n* photos and *e* journal events since the snapshot.
  public func open(_ id: String, lockTimeout: Duration = .zero) throws(PhotoSessionError)
    -> Opened
  {
    let manifest = try readManifest(id)
    return try open(
      manifest: manifest, folder: PathName.join(folder, id), issues: [], lockTimeout: lockTimeout)
  }

  /// Opens the most recently started session.
  ///
  /// - Throws: ``PhotoSessionError/Code/noSession`` when the store holds none.
  /// - Complexity: O(*s* log *s* + *n* + *e*) for *s* sessions (see ``open(_:lockTimeout:)``).
  public func openLatest() throws(PhotoSessionError) -> Opened {
    guard let id = try sessionIDs().last else {
      throw PhotoSessionError(
        .noSession, path: folder,
        description: "there is no photo session in \"\(folder)\"; start one with a photo folder")
    }
    return try open(id)
  }

  /// Reads and checks a session's manifest (a `DocumentStore` document, or the bare JSON of
  /// earlier builds); changes nothing.
  ///
  /// - Complexity: O(*n*), where *n* is the number of photos it lists.
  public func readManifest(_ id: String) throws(PhotoSessionError) -> Manifest {
    let path = PathName.join(PathName.join(folder, id), Self.manifestFile)
    guard !id.contains("/"), try io.status(path, followingLinks: true) != nil else {
      throw PhotoSessionError(
        .noSession, path: id, description: "there is no photo session \"\(id)\" in \"\(folder)\"")
    }
    let manifest: Manifest?
    do throws(PersistenceError) {
      manifest = try manifestStore(path).read()
    } catch  where error.code == .damaged || error.code == .missingMigration {
      // Perhaps a manifest of an earlier build: bare JSON, no envelope.
      if let legacy = try Self.readLegacyManifest(io.readAll(path), path: path) {
        return legacy
      }
      throw PhotoSessionError(
        .sessionCorrupt, path: path, offset: error.line, errno: error.errorNumber,
        description: "the session manifest \"\(path)\" is damaged: \(error.description)")
    } catch  where error.code == .notFound || error.code == .ioFailure {
      throw PhotoFiles.failure(.unreadable, error)
    } catch {
      throw PhotoSessionError(
        .sessionCorrupt, path: path,
        description: "the session manifest \"\(path)\" cannot be read: \(error.description)")
    }
    guard let manifest else {
      throw PhotoSessionError(
        .noSession, path: id, description: "there is no photo session \"\(id)\" in \"\(folder)\"")
    }
    return manifest
  }

  /// A manifest in the bare JSON of earlier builds (format `offload.photo-session`, version 1
  /// as members of the manifest itself), or nil when the bytes are not one.
  ///
  /// - Throws: ``PhotoSessionError/Code/sessionCorrupt`` for a bare manifest of another
  ///   version.
  static func readLegacyManifest(_ bytes: [UInt8], path: String) throws(PhotoSessionError)
    -> Manifest?
  {
    guard let manifest = try? JSONDecoder().decode(Manifest.self, from: Data(bytes)),
      manifest.format == manifestFormat
    else { return nil }
    guard manifest.version == 1 else {
      throw PhotoSessionError(
        .sessionCorrupt, path: path,
        description:
          "the session manifest \"\(path)\" is \(manifest.format) version \(manifest.version) without an envelope; this build reads such files in version 1 only"
      )
    }
    return manifest
  }

  /// The folder library of a session: its root, naming and companions, with the identities
  /// recorded at start read when a commit first needs them.
  func library(manifest: Manifest, sessionFolder: String) -> FolderLibrary {
    let photos = manifest.photos
    let io = self.io
    return FolderLibrary(
      root: manifest.root, trash: trash, sidecarNaming: manifest.sidecarNaming,
      favoriteRating: 5, companions: manifest.companions ?? [:],
      companionIdentities: [:], fileSystem: fileSystem,
      loadIdentities: { () throws(PhotoSessionError) in
        try Self.readIdentities(folder: sessionFolder, photos: photos, io: io)
      },
      loadCompanionIdentities: { () throws(PhotoSessionError) in
        try Self.readCompanionIdentities(folder: sessionFolder, manifest: manifest, io: io)
      })
  }

  private func open(
    manifest: Manifest, folder sessionFolder: String, issues: [ScanIssue],
    lockTimeout: Duration = .zero
  ) throws(PhotoSessionError) -> Opened {
    // The journal's lock is the session's: replaying (in the session's init) takes it, and
    // another process holding it makes the open fail as busy.
    let journal = JSONLinesSessionJournal(
      folder: sessionFolder, lockTimeout: lockTimeout, fileSystem: fileSystem)
    do throws(PhotoSessionError) {
      let library = library(manifest: manifest, sessionFolder: sessionFolder)
      let session = try CullingSession(
        photos: manifest.photos, journal: journal, library: library,
        undoDepth: manifest.undoDepth, clock: clock)
      library.adopt(session.state.rescans)
      return Opened(
        manifest: manifest, session: session, library: library, issues: issues,
        journal: journal, fileSystem: fileSystem)
    } catch {
      try? journal.close()
      guard error.code == .sessionBusy else { throw error }
      throw PhotoSessionError(
        .sessionBusy, path: manifest.id,
        description:
          "the photo session \"\(manifest.id)\" is open in another process; close it there first")
    }
  }
}
