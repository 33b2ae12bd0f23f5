import Persistence

/// What ``PhotoSessionStore/Opened/rescan()`` found and did.
public struct RescanReport: Hashable, Sendable, Codable {
  /// A file and the card it concerns, with why it was left alone when it was.
  public struct File: Hashable, Sendable, Codable {
    /// The card's photo id.
    public var photo: String
    /// The file, relative to the library root.
    public var file: String
    /// Why the file did not join the card, when it did not.
    public var reason: String?
  }

  /// What the rescan journaled: the cards added at the end of the queue, the companions that
  /// joined undecided cards, the cards newly found vanished. Empty when nothing changed (then
  /// nothing was journaled).
  public var change: RescanLedger
  /// Every card whose shown file is gone now, in queue order (those found at earlier rescans
  /// too); a commit never applies them.
  public var vanished: [String]
  /// Companion files gone from their card, in queue order; a commit skips such a card.
  public var vanishedCompanions: [File]
  /// New files beside a card that already has a decision (or vanished): they did not join it
  /// and are not cards; they stay where they are.
  public var notJoined: [File]
  /// What the scan skipped or could not read, as at start.
  public var skipped: [ScanIssue]
}

extension PhotoSessionStore.Opened {
  /// Scans the session's folder again (with the options of its start) and journals, as one
  /// event, what appeared: new cards (grouped with their companions as at start) go to the
  /// end of the queue in start order; new files beside an undecided card join it as
  /// companions. New files beside a decided card do not join it (its decision was made
  /// without them) and are reported in ``RescanReport/notJoined``. Cards whose shown file is
  /// gone are recorded as vanished (a commit never applies them) and reported, as are
  /// companions gone from their card (a commit skips their card by the identity check).
  ///
  /// The rescan is not undoable: it records what is in the folder, and an added card can be
  /// skipped or decided like any other. Replaying the journal gives the same queue. Cards a
  /// commit moved to the Trash, or is moving (an interrupted commit), are not reported
  /// vanished.
  ///
  /// - Returns: What changed and what was found.
  /// - Throws: ``PhotoSessionError/Code/notAFolder`` or
  ///   ``PhotoSessionError/Code/unreadable`` for the folder, or a journal write error (then
  ///   nothing changed).
  /// - Complexity: O(*f* log *f*) for *f* files in the folder (the scan), plus O(*n*) for *n*
  ///   cards and one file status call per session file the scan did not see.
  public func rescan() throws(PhotoSessionError) -> RescanReport {
    let options = FolderScanOptions(recursive: manifest.recursive, ordering: manifest.ordering)
    let scan: FolderScan
    do {
      scan = try FolderScan.scan(manifest.root, options: options, fileSystem: fileSystem)
    } catch  where error.code == .emptyLibrary {
      scan = FolderScan(root: library.root, photos: [], issues: [])
    }
    let state = session.state
    var owner: [String: Int] = [:]
    owner.reserveCapacity(state.count)
    for (index, photo) in state.photos.enumerated() {
      for file in library.files(of: photo) { owner[file] = index }
    }
    let knownVanished = Set(state.rescans.vanished)
    var change = RescanLedger()
    var joinIndex: [String: Int] = [:]
    var notJoined: [RescanReport.File] = []
    var scanned = Set<String>()
    for index in scan.photos.indices {
      let group =
        [CardFile(path: scan.photos[index], identity: scan.identities[index])]
        + zip(scan.companions[index], scan.companionIdentities[index]).map(CardFile.init)
      scanned.formUnion(group.map(\.path))
      let new = group.filter { owner[$0.path] == nil }
      guard !new.isEmpty else { continue }
      guard let card = owner[group[0].path] ?? group.compactMap({ owner[$0.path] }).min() else {
        change.added.append(
          RescanAddition(
            photo: group[0].path, identity: group[0].identity, companions: Array(group.dropFirst())
          ))
        continue
      }
      let photo = state.photos[card]
      let reason =
        state.decision(at: card) != nil
        ? "the card already has a decision"
        : knownVanished.contains(photo) ? "the card vanished" : nil
      if let reason {
        notJoined += new.map { RescanReport.File(photo: photo, file: $0.path, reason: reason) }
      } else if let at = joinIndex[photo] {
        change.joined[at].files += new
      } else {
        joinIndex[photo] = change.joined.count
        change.joined.append(RescanJoin(photo: photo, files: new))
      }
    }
    for index in change.joined.indices {
      change.joined[index].files.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
    var vanished: [String] = []
    var vanishedCompanions: [RescanReport.File] = []
    let io = PhotoFiles(fileSystem)
    func gone(_ file: String) -> Bool {
      guard !scanned.contains(file) else { return false }
      do throws(PhotoSessionError) {
        return try io.status(library.path(of: file)) == nil
      } catch {
        return false  // There but not inspectable: not gone; a commit's check reports it.
      }
    }
    for (index, photo) in state.photos.enumerated() {
      // A card committed to the Trash (or being moved there) is gone on purpose.
      let commit = state.commitState(at: index)
      if commit == .inProgress || (commit == .applied && state.decision(at: index) == .trash) {
        continue
      }
      if gone(photo) {
        vanished.append(photo)
        if !knownVanished.contains(photo) { change.vanished.append(photo) }
        continue
      }
      for file in library.companions[photo] ?? [] where gone(file) {
        vanishedCompanions.append(RescanReport.File(photo: photo, file: file, reason: nil))
      }
    }
    change.vanished.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    if !change.isEmpty {
      try session.appendAndApply([.rescanned(change, time: session.clock())])
      library.adopt(change)
      session.refreshMetadata()
    }
    return RescanReport(
      change: change, vanished: vanished, vanishedCompanions: vanishedCompanions,
      notJoined: notJoined, skipped: scan.issues)
  }
}
