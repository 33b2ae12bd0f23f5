import Persistence

// The identity of every file of a card, the cards a rescan adds, video cards, and restore.
extension FolderLibrary {
  /// Throws unless the file at `path` is the regular file the session saw at start.
  ///
  /// - Complexity: O(1) once the identities are loaded (O(*n*) the first time).
  func checkIdentity(of photo: String, path: String, doing action: String)
    throws(PhotoSessionError)
  {
    guard let status = try io.status(path) else {
      throw PhotoSessionError(
        .photoMissing, path: photo,
        description:
          "cannot \(action) \"\(photo)\": it is no longer in the folder (moved or deleted)")
    }
    guard status.kind == .regular else {
      let what = status.kind == .directory ? "a folder" : "no longer a regular file"
      throw PhotoSessionError(
        .photoChanged, path: photo,
        description:
          "skipped \"\(photo)\": it is now \(what), not the photo shown; nothing was changed")
    }
    if identities == nil { identities = try loadIdentities() }
    if let expected = identities?[photo] ?? addedIdentities[photo],
      let difference = FileIdentity(status).difference(from: expected)
    {
      throw PhotoSessionError(
        .photoChanged, path: photo,
        description: "skipped \"\(photo)\": \(difference); nothing was changed")
    }
  }

  /// Throws unless every file of the card is the regular file the session saw: the photo
  /// (``checkIdentity(of:path:doing:)``), then each companion, whose identity (device, inode,
  /// size, modification time) must match the one recorded at start or at the rescan that
  /// found it. A companion that vanished, became a folder or a symbolic link, or changed is
  /// reported with its path and the reason, and the whole card is skipped.
  ///
  /// - Parameters:
  ///   - resuming: An interrupted commit may have moved some companions to the Trash already:
  ///     a companion gone from the folder but found in the Trash passes.
  ///   - sidecarsToo: Whether XMP sidecars are compared too. A rating rewrites them (and a
  ///     resumed rating would find its own write), so only their presence is checked then.
  /// - Throws: ``PhotoSessionError/Code/photoMissing`` or
  ///   ``PhotoSessionError/Code/photoChanged`` naming the file.
  /// - Complexity: O(*c*) file status calls for *c* files in the card (plus O(*t*) for a
  ///   companion gone while resuming, *t* items in the Trash).
  func checkCard(of photo: String, doing action: String, resuming: Bool, sidecarsToo: Bool)
    throws(PhotoSessionError)
  {
    try checkIdentity(of: photo, path: path(of: photo), doing: action)
    if startCompanionIdentities == nil, companions[photo] != nil {
      startCompanionIdentities = try loadCompanionIdentities()
    }
    for companion in companions[photo] ?? [] {
      let path = path(of: companion)
      func skipped(_ reason: String) -> PhotoSessionError {
        PhotoSessionError(
          .photoChanged, path: companion,
          description:
            "skipped \"\(photo)\": its companion \"\(companion)\" \(reason); nothing was changed")
      }
      guard let status = try io.status(path) else {
        if resuming && trash.locate(original: path) != nil { continue }
        throw skipped("is no longer in the folder (moved or deleted)")
      }
      switch status.kind {
      case .regular: break
      case .directory: throw skipped("is now a folder")
      case .symbolicLink: throw skipped("is now a symbolic link")
      default: throw skipped("is no longer a regular file")
      }
      guard sidecarsToo || !Companion.isSidecar(companion),
        let expected = companionIdentities[companion] ?? startCompanionIdentities?[companion],
        let difference = FileIdentity(status).difference(from: expected)
      else { continue }
      throw skipped("changed: \(difference)")
    }
  }

  /// Takes in the cards and companions rescans found (``CullingState/rescans``): each added
  /// card's companions and every file's identity, each joined companion with its identity.
  /// Idempotent: adopting the same ledger again changes nothing.
  ///
  /// - Complexity: O(*a* + *j* · *c*) for *a* files added, *j* joined and *c* companions per
  ///   card.
  func adopt(_ ledger: RescanLedger) {
    for card in ledger.added {
      addedIdentities[card.photo] = card.identity
      if !card.companions.isEmpty { companions[card.photo] = card.companions.map(\.path) }
      for file in card.companions { companionIdentities[file.path] = file.identity }
    }
    for join in ledger.joined {
      var files = companions[join.photo] ?? []
      for file in join.files where !files.contains(file.path) { files.append(file.path) }
      companions[join.photo] = files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      for file in join.files { companionIdentities[file.path] = file.identity }
    }
  }

  /// Reads a video card's metadata: its size and modification time, and for an ISO base
  /// media file (QuickTime, MP4) the duration and creation time of its movie header when the
  /// header lies within the first ``VideoMetadata/headerProbeBytes`` (else they are nil).
  ///
  /// - Throws: ``PhotoSessionError/Code/photoMissing``, ``PhotoSessionError/Code/unreadable``
  ///   or ``PhotoSessionError/Code/unsupportedFormat`` (not a video by its name, not a
  ///   regular file).
  /// - Complexity: O(*h*) for *h* = ``VideoMetadata/headerProbeBytes`` read at most.
  public func videoMetadata(of video: String) throws(PhotoSessionError) -> VideoMetadata {
    guard let format = VideoFormat(fileName: video) else {
      throw PhotoSessionError(
        .unsupportedFormat, path: video, description: "\"\(video)\" is not a video by its name")
    }
    let path = path(of: video)
    let status = try io.regularFileStatus(path, name: video)
    var metadata = VideoMetadata(
      format: format, byteCount: Int(status.size),
      modificationTime: status.modified.secondsSince1970)
    if format.isISOMedia {
      let bytes = try io.readPrefix(path, limit: VideoMetadata.headerProbeBytes).bytes
      (metadata.durationSeconds, metadata.creationTime) = VideoMetadata.movieHeader(bytes)
    }
    return metadata
  }

  /// Moves every file of a trashed photo's card back from the Trash to where it was (the
  /// photo first, then its companions) and removes each one's `.trashinfo`; call ``flush()``
  /// afterwards to make it durable.
  ///
  /// Refuses, moving nothing, when any original path is taken or no file of the card is in
  /// the Trash. Resumable: after a crash part way (the photo back, a companion still in the
  /// Trash), restoring again moves the rest back; an info file a crash left without its file
  /// (between a move and the removal of the info file) is removed.
  ///
  /// - Throws: ``PhotoSessionError/Code/restoreRefused`` or
  ///   ``PhotoSessionError/Code/trashFailed`` naming the file.
  /// - Complexity: O(*c* · *t*) for *c* files in the card and *t* items in the Trash.
  public func restore(_ photo: String) throws(PhotoSessionError) -> String {
    var moves: [(String, FreedesktopTrash.Item)] = []
    var back: [String] = []
    for file in files(of: photo) {
      let path = path(of: file)
      guard let item = trash.locate(original: path) else {
        back.append(path)
        continue
      }
      guard try io.status(path) == nil else {
        throw PhotoSessionError(
          .restoreRefused, path: file,
          description:
            "cannot restore \"\(photo)\": \"\(file)\" is taken by another file; nothing was moved")
      }
      moves.append((path, item))
    }
    // Files an interrupted restore already moved back: their info files go.
    for path in back where (try? io.status(path)) != nil {
      trash.removeOrphanedInfo(original: path)
    }
    guard !moves.isEmpty else {
      throw PhotoSessionError(
        .restoreRefused, path: photo, description: "\"\(photo)\" is not in the Trash")
    }
    for (path, item) in moves {
      do throws(PersistenceError) {
        try fileSystem.rename(item.file, to: path)
      } catch {
        throw PhotoFiles.failure(.trashFailed, error, action: "move back from the Trash")
      }
      io.removeQuietly(item.info)
      unsynced.formUnion([
        PathName.directory(of: path), PathName.directory(of: item.file),
        PathName.directory(of: item.info),
      ])
    }
    return moves.count == 1
      ? "restored from the Trash"
      : "restored from the Trash with \(moves.count - 1) companion file\(moves.count == 2 ? "" : "s")"
  }

}

extension FileIdentity {
  /// How `self` (what is at the path now) differs from `expected`, in a few words, or nil
  /// when it is the same file.
  ///
  /// A commit compares the identity of every file of a card (the photo and its companions) with
  /// the one recorded at start (or at the rescan that added it) and skips the whole card
  /// (``PhotoSessionError/Code/photoChanged``) when one differs, so a file replaced by another
  /// file or by a folder is never trashed.
  func difference(from expected: FileIdentity) -> String? {
    if device != expected.device || inode != expected.inode {
      return "it is another file than the one the session saw (its inode changed)"
    }
    if size != expected.size {
      return "its size changed from \(expected.size) to \(size) bytes"
    }
    if modificationNanoseconds != expected.modificationNanoseconds {
      return "it was modified since the session started"
    }
    return nil
  }
}
