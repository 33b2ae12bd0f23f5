import Foundation
public import Persistence

/// A folder of image files as a ``PhotoLibrary``: photo ids are paths relative to ``root``;
/// trash goes to the freedesktop.org Trash; a favorite is an XMP sidecar rated 5; keep writes
/// nothing.
///
/// ```swift
/// let scan = try FolderScan.scan("/photos/2024", options: .init(recursive: true))
/// let library = FolderLibrary(root: scan.root, trash: .user())
/// let session = try CullingSession(photos: scan.photos, journal: journal, library: library)
/// ```
public final class FolderLibrary: PhotoLibrary {
  /// The library folder, as an absolute path.
  public let root: String
  /// Where trashed photos go.
  public let trash: FreedesktopTrash
  /// How a new sidecar is named.
  public let sidecarNaming: XMPSidecar.Naming
  /// The rating a favorite gets.
  public let favoriteRating: Int
  /// Each photo's companion files (relative paths) by photo id: trashed with it, and its
  /// images rated with it. A rescan adds the cards and companions it found.
  public internal(set) var companions: [String: [String]]
  /// Each companion's identity given at creation or found by a rescan, by relative path; a
  /// companion with neither this nor a start identity is only checked to be a regular file.
  var companionIdentities: [String: FileIdentity]
  /// Each companion's identity at start, read on first use.
  var startCompanionIdentities: [String: FileIdentity]?
  /// Reads ``startCompanionIdentities`` when a commit first needs them.
  let loadCompanionIdentities: () throws(PhotoSessionError) -> [String: FileIdentity]
  /// The identity of each photo a rescan added, by photo id.
  var addedIdentities: [String: FileIdentity] = [:]
  /// The file operations (injectable for fault tests); the Trash has its own.
  public let fileSystem: any Persistence.FileSystem
  var io: PhotoFiles { PhotoFiles(fileSystem) }
  /// Folders changed since the last ``flush()``.
  var unsynced: Set<String> = []
  /// Each photo's identity at start, read on first use; a photo without one is only checked
  /// to be a regular file.
  var identities: [String: FileIdentity]?
  /// Reads ``identities`` when a commit first needs them.
  let loadIdentities: () throws(PhotoSessionError) -> [String: FileIdentity]

  /// A library over the folder `root`.
  ///
  /// - Parameters:
  ///   - root: The folder; made absolute against the current directory.
  ///   - trash: The Trash to use (``FreedesktopTrash/user(environment:fileSystem:)`` for the user's).
  ///   - sidecarNaming: How a new sidecar is named.
  ///   - favoriteRating: The XMP rating of a favorite (5 by default).
  ///   - identities: Each photo's identity when the session saw it (``FolderScan/identities``
  ///     by photo id): a trash or favorite whose photo no longer matches is refused with
  ///     ``PhotoSessionError/Code/photoChanged``. A photo without one is only checked to be a
  ///     regular file.
  ///   - companions: Each photo's companion files (``FolderScan/companions`` by photo id).
  ///   - companionIdentities: Each companion's identity when the session saw it
  ///     (``FolderScan/companionIdentities`` by relative path): a card any of whose files no
  ///     longer matches is skipped whole. A companion without one is only checked to be a
  ///     regular file.
  ///   - fileSystem: The file operations for the photos and sidecars; the real ones by default.
  public convenience init(
    root: String, trash: FreedesktopTrash, sidecarNaming: XMPSidecar.Naming = .appendExtension,
    favoriteRating: Int = 5, identities: [String: FileIdentity] = [:],
    companions: [String: [String]] = [:], companionIdentities: [String: FileIdentity] = [:],
    fileSystem: any Persistence.FileSystem = POSIXFileSystem()
  ) {
    self.init(
      root: root, trash: trash, sidecarNaming: sidecarNaming, favoriteRating: favoriteRating,
      companions: companions, companionIdentities: companionIdentities, fileSystem: fileSystem,
      loadIdentities: { () throws(PhotoSessionError) in identities },
      loadCompanionIdentities: { () throws(PhotoSessionError) in [:] })
  }

  /// A library whose photos' and companions' identities at start are read by
  /// `loadIdentities` and `loadCompanionIdentities` when a commit first needs them.
  init(
    root: String, trash: FreedesktopTrash, sidecarNaming: XMPSidecar.Naming,
    favoriteRating: Int, companions: [String: [String]],
    companionIdentities: [String: FileIdentity], fileSystem: any Persistence.FileSystem,
    loadIdentities: @escaping () throws(PhotoSessionError) -> [String: FileIdentity],
    loadCompanionIdentities: @escaping () throws(PhotoSessionError) -> [String: FileIdentity]
  ) {
    self.fileSystem = fileSystem
    self.root = Self.absolutePath(root)
    self.trash = trash
    self.sidecarNaming = sidecarNaming
    self.favoriteRating = favoriteRating
    self.companions = companions
    self.companionIdentities = companionIdentities
    self.loadIdentities = loadIdentities
    self.loadCompanionIdentities = loadCompanionIdentities
  }

  /// `path` made absolute against the current directory, without a trailing slash.
  static func absolutePath(_ path: String) -> String {
    var result =
      path.hasPrefix("/") ? path : PathName.join(FileManager.default.currentDirectoryPath, path)
    while result.count > 1 && result.hasSuffix("/") { result.removeLast() }
    return result
  }

  /// Every file of a photo's card, relative to ``root``: the photo, then its companions.
  ///
  /// - Complexity: O(*c*) for *c* companions.
  public func files(of photo: String) -> [String] {
    [photo] + (companions[photo] ?? [])
  }

  /// The bytes of every file of a photo's card that is still a regular file in the folder:
  /// what trashing the card moves to the Trash.
  ///
  /// - Complexity: O(*c*) file status calls for *c* files in the card.
  public func byteCount(of photo: String) -> Int {
    var total = 0
    for file in files(of: photo) {
      if let status = try? io.status(path(of: file)), status.kind == .regular {
        total += Int(status.size)
      }
    }
    return total
  }

  /// The absolute path of a photo id.
  public func path(of photo: String) -> String {
    PathName.join(root, photo)
  }

  /// Reads a photo's header (up to 256 KiB, more only when the header is longer).
  ///
  /// - Throws: ``PhotoSessionError/Code/photoMissing``, ``PhotoSessionError/Code/emptyFile``,
  ///   ``PhotoSessionError/Code/unreadable``, ``PhotoSessionError/Code/truncatedImage``,
  ///   ``PhotoSessionError/Code/corruptImage`` or ``PhotoSessionError/Code/unsupportedFormat``,
  ///   each naming the photo (and the byte offset for damaged headers).
  /// - Complexity: O(*h*), where *h* is the size of the header read (256 KiB at most, unless
  ///   the header is longer).
  public func metadata(of photo: String) throws(PhotoSessionError) -> PhotoMetadata {
    let path = path(of: photo)
    let status = try io.regularFileStatus(path, name: photo)
    var metadata = try Self.readMetadata(
      path: path, id: photo, hint: ImageFormat(fileName: photo),
      modificationTime: status.modified.secondsSince1970, fileSystem: fileSystem)
    (metadata.rating, metadata.label) = sidecarMarks(of: photo)
    return metadata
  }

  /// The `xmp:Rating` and `xmp:Label` of the first sidecar found among the card's images
  /// (the photo first); an unreadable sidecar counts as none.
  ///
  /// - Complexity: O(*c* + *s*) for *c* files in the card and a sidecar of size *s*.
  func sidecarMarks(of photo: String) -> (rating: Int?, label: String?) {
    for image in files(of: photo) where ImageFormat(fileName: image) != nil {
      guard
        let found = try? XMPSidecar.existingSidecar(
          for: path(of: image), naming: sidecarNaming, fileSystem: fileSystem)
      else { continue }
      let (rating, label) = XMPSidecar.read(found.text)
      return (rating, label?.lowercased())
    }
    return (nil, nil)
  }

  /// Reads the metadata of the file at `path`, naming it `id` in errors.
  static func readMetadata(
    path: String, id: String, hint: ImageFormat?, modificationTime: Double,
    fileSystem: any Persistence.FileSystem
  ) throws(PhotoSessionError) -> PhotoMetadata {
    var limit = 256 * 1024
    while true {
      let (bytes, size) = try PhotoFiles(fileSystem).readPrefix(path, limit: limit)
      if size == 0 {
        throw PhotoSessionError(.emptyFile, path: id, description: "\"\(id)\" is an empty file")
      }
      switch ImageHeader.parse(bytes, isComplete: bytes.count == size, hint: hint) {
      case .success(let info):
        return PhotoMetadata(
          format: info.format, byteCount: size, pixelWidth: info.width, pixelHeight: info.height,
          orientation: info.orientation, captureDate: info.captureDate,
          modificationTime: modificationTime)
      case .failure(.needMore(let offset)) where limit < 64 * 1024 * 1024:
        limit = max(limit * 4, offset + 4096)
      case .failure(.needMore(let offset)):
        throw PhotoSessionError(
          .corruptImage, path: id, offset: offset,
          description: "\"\(id)\" has an image header that goes on past 64 MiB (byte \(offset))")
      case .failure(.truncated(let offset, let what)):
        throw PhotoSessionError(
          .truncatedImage, path: id, offset: offset,
          description: "\"\(id)\" is cut short: its \(what) at byte \(offset) is missing")
      case .failure(.corrupt(let offset, let reason)):
        throw PhotoSessionError(
          .corruptImage, path: id, offset: offset,
          description: "\"\(id)\" is damaged at byte \(offset): \(reason)")
      case .failure(.unsupported):
        throw PhotoSessionError(
          .unsupportedFormat, path: id,
          description: "\"\(id)\" is not an image this reader knows (its signature is unknown)")
      }
    }
  }

  /// Applies a decision: trash moves the photo to the Trash, favorite rates its sidecar, keep
  /// does nothing.
  ///
  /// Idempotent: a favorite already rated is not rewritten; a trash resumed after a crash finds
  /// the photo already in the Trash and says so.
  ///
  /// - Complexity: O(1) file operations; O(*t*) for a resumed trash, *t* items in the Trash.
  public func apply(
    _ decision: PhotoDecision, to photo: String, resuming: Bool
  ) throws(PhotoSessionError) -> String {
    try apply(decision, marks: PhotoMarks(), to: photo, resuming: resuming)
  }

  /// Applies a decision with the card's marks: trash moves every file of the card to the
  /// Trash (the marks are not written); favorite and keep write the rating
  /// (``PhotoMarks/xmpRating(for:favoriteRating:)``) and label into the XMP of every image of
  /// the card; a keep with nothing to write changes nothing.
  ///
  /// - Complexity: O(*c*) file operations for *c* files in the card; O(*t*) for a resumed
  ///   trash, *t* items in the Trash.
  public func apply(
    _ decision: PhotoDecision, marks: PhotoMarks, to photo: String, resuming: Bool
  ) throws(PhotoSessionError) -> String {
    let path = path(of: photo)
    let rating = marks.xmpRating(for: decision, favoriteRating: favoriteRating)
    let label = marks.label?.xmpValue
    switch decision {
    case .keep where rating == nil && label == nil:
      return "kept \"\(photo)\""
    case .trash:
      if resuming {
        // A crash may have left the move done, or only its info file written.
        if try io.status(path) == nil, let item = trash.locate(original: path) {
          return "\"\(photo)\" was already in the Trash as \"\(item.file)\""
            + companionNote(photo)
        }
        trash.removeOrphanedInfo(original: path)
      }
      try checkCard(of: photo, doing: "trash", resuming: resuming, sidecarsToo: true)
      // The companions first: the photo, moved last, is what marks the card done.
      for companion in companions[photo] ?? [] {
        try trashCompanion(companion, of: photo)
      }
      do {
        let item = try trash.trash(path, syncFolders: false)
        unsynced.formUnion(item.changedFolders)
        return "moved \"\(photo)\" to the Trash as \"\(item.file)\"" + companionNote(photo)
      } catch {
        throw Self.naming(error, photo)
      }
    case .favorite, .keep:
      try checkCard(
        of: photo, doing: decision == .favorite ? "mark as a favorite" : "rate",
        resuming: resuming, sidecarsToo: false)
      var sidecars: [String] = []
      var allWritten = false
      for image in [photo] + (companions[photo] ?? []) where ImageFormat(fileName: image) != nil {
        let imagePath = self.path(of: image)
        if image != photo {
          guard let status = try io.status(imagePath), status.kind == .regular
          else { continue }
        }
        let (sidecar, written) = try XMPSidecar.set(
          rating: rating, label: label, forPhoto: imagePath, naming: sidecarNaming,
          cleanUp: resuming, syncFolder: false, fileSystem: fileSystem)
        if written { unsynced.insert(PathName.directory(of: sidecar)) }
        if !sidecars.contains(sidecar) { sidecars.append(sidecar) }
        allWritten = allWritten || written
      }
      let list = sidecars.map { "\"\($0)\"" }.joined(separator: ", ")
      let what = Self.describe(rating: rating, label: label)
      return allWritten
        ? "rated \"\(photo)\" \(what) in \(list)"
        : "\"\(photo)\" was already rated \(what) in \(list)"
    }
  }

  /// ` with "a.dng", "a.xmp"` naming a photo's companions, or nothing.
  private func companionNote(_ photo: String) -> String {
    guard let files = companions[photo], !files.isEmpty else { return "" }
    return " with " + files.map { "\"\($0)\"" }.joined(separator: ", ")
  }

  /// Moves one companion file to the Trash; one already there (an earlier, interrupted
  /// attempt) or gone is left alone.
  ///
  /// - Complexity: O(*t*) for *t* items in the Trash when the companion is gone.
  private func trashCompanion(_ companion: String, of photo: String) throws(PhotoSessionError) {
    let path = path(of: companion)
    guard let status = try io.status(path) else { return }
    guard status.kind == .regular else {
      throw PhotoSessionError(
        .photoChanged, path: companion,
        description:
          "skipped \"\(photo)\": its companion \"\(companion)\" is no longer a regular file; nothing more was changed"
      )
    }
    trash.removeOrphanedInfo(original: path)
    do {
      let item = try trash.trash(path, syncFolders: false)
      unsynced.formUnion(item.changedFolders)
    } catch {
      throw Self.naming(error, companion)
    }
  }

  /// Syncs every folder changed since the last flush (the Trash's `files/`, photo folders,
  /// sidecar folders).
  ///
  /// - Complexity: O(*f*) folder syncs, for *f* folders changed.
  public func flush() throws(PhotoSessionError) {
    for folder in unsynced.sorted() { try io.syncDirectory(folder) }
    unsynced.removeAll()
  }

  /// Uses the photo id instead of the absolute path in a missing-photo error.
  private static func naming(_ error: PhotoSessionError, _ photo: String) -> PhotoSessionError {
    guard error.code == .photoMissing else { return error }
    return PhotoSessionError(
      .photoMissing, path: photo, errno: error.errno,
      description: "cannot trash \"\(photo)\": it is no longer in the folder (moved or deleted)")
  }

  /// `5`, `-1 (reject)`, `5 with label Red`, `label Red`: what a sidecar write sets.
  static func describe(rating: Int?, label: String?) -> String {
    let stars = rating.map { $0 == -1 ? "-1 (reject)" : String($0) }
    switch (stars, label) {
    case (let stars?, let label?): return "\(stars) with label \(label)"
    case (let stars?, nil): return stars
    case (nil, let label?): return "label \(label)"
    case (nil, nil): return "unchanged"
    }
  }

  /// What ``apply(_:to:resuming:)`` would do.
  public func plan(_ decision: PhotoDecision, for photo: String) -> String {
    plan(decision, marks: PhotoMarks(), for: photo)
  }

  /// Throws what ``apply(_:marks:to:resuming:)`` would refuse with: a trash, favorite or
  /// rated keep any file of whose card is no longer the file the session saw (the identity
  /// check of `checkCard(of:doing:resuming:sidecarsToo:)`).
  ///
  /// - Throws: ``PhotoSessionError/Code/photoMissing`` or
  ///   ``PhotoSessionError/Code/photoChanged``.
  /// - Complexity: O(*c*) file status calls for *c* files in the card, once the identities
  ///   are loaded.
  public func check(
    _ decision: PhotoDecision, marks: PhotoMarks, for photo: String
  ) throws(PhotoSessionError) {
    let writes =
      decision != .keep || marks.label != nil
      || marks.xmpRating(for: decision, favoriteRating: favoriteRating) != nil
    guard writes else { return }
    let action =
      decision == .trash ? "trash" : decision == .favorite ? "mark as a favorite" : "rate"
    try checkCard(of: photo, doing: action, resuming: false, sidecarsToo: decision == .trash)
  }

  /// What ``apply(_:marks:to:resuming:)`` would do.
  ///
  /// - Complexity: O(*c*) file status calls for *c* files in the card.
  public func plan(_ decision: PhotoDecision, marks: PhotoMarks, for photo: String) -> String {
    let rating = marks.xmpRating(for: decision, favoriteRating: favoriteRating)
    let label = marks.label?.xmpValue
    return switch decision {
    case .keep where rating == nil && label == nil: "keep \"\(photo)\""
    case .trash:
      "move \"\(photo)\" to the Trash in \"\((try? trash.trashFolder(for: path(of: photo)).folder) ?? trash.homeTrash)\""
        + companionNote(photo)
    case .favorite, .keep:
      "rate \"\(photo)\" \(Self.describe(rating: rating, label: label)) in \"\((try? XMPSidecar.existingSidecar(for: path(of: photo), naming: sidecarNaming)?.path) ?? XMPSidecar.candidates(for: path(of: photo), naming: sidecarNaming)[0])\""
    }
  }
}
