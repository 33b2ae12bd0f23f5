public import Persistence

/// One file of a card as a scan saw it: its path relative to the library root and its
/// identity then.
public struct CardFile: Hashable, Sendable, Codable {
  /// The path relative to the library root.
  public var path: String
  /// The file's identity when it was scanned.
  public var identity: FileIdentity

  private enum CodingKeys: String, CodingKey {
    case path = "p"
    case identity = "id"
  }
}

/// A card a rescan added at the end of the queue: its shown file and its companions, each
/// with its identity.
public struct RescanAddition: Hashable, Sendable, Codable {
  /// The photo id (the shown file's path).
  public var photo: String
  /// The shown file's identity.
  public var identity: FileIdentity
  /// The companion files, sorted by path.
  public var companions: [CardFile] = []

  private enum CodingKeys: String, CodingKey {
    case photo = "p"
    case identity = "id"
    case companions = "c"
  }
}

/// Companion files a rescan found beside an undecided card, which joined it.
public struct RescanJoin: Hashable, Sendable, Codable {
  /// The card's photo id.
  public var photo: String
  /// The files that joined, sorted by path.
  public var files: [CardFile]

  private enum CodingKeys: String, CodingKey {
    case photo = "p"
    case files = "f"
  }
}

/// What one rescan changed in a session (the payload of ``SessionEvent/rescanned(_:time:)``),
/// or, as ``CullingState/rescans``, what every rescan so far changed.
///
/// Added cards go to the end of the queue in the order a start would give them; joined files
/// become companions of their card; a vanished card (its shown file gone at a rescan) is never
/// applied by a commit, even if a file comes back at its path.
public struct RescanLedger: Hashable, Sendable, Codable {
  /// The cards added, in queue order.
  public var added: [RescanAddition] = []
  /// The companions that joined existing cards.
  public var joined: [RescanJoin] = []
  /// The photo ids of the cards whose shown file was gone, sorted.
  public var vanished: [String] = []

  /// Whether the ledger records nothing.
  public var isEmpty: Bool { added.isEmpty && joined.isEmpty && vanished.isEmpty }

  private enum CodingKeys: String, CodingKey {
    case added = "a"
    case joined = "j"
    case vanished = "v"
  }
}

extension CullingState {
  /// Applies a rescan: appends the added cards to the queue (undecided), records the joined
  /// companions and the vanished cards. The undo stack is kept: a rescan is not undone (it
  /// records what is in the folder; an added card can be skipped or decided like any other),
  /// and no undo record points past the old end of the queue.
  ///
  /// - Throws: ``PhotoSessionError/Code/journalCorrupt`` when an added card is already in the
  ///   session, or a joined or vanished card is not, or a joined card already has a decision;
  ///   the state is unchanged.
  /// - Complexity: O(*a* + *j* + *v* log *v*) for the cards added, joined and vanished (plus
  ///   O(*n*) the first time an id lookup is needed).
  mutating func applyRescan(_ change: RescanLedger) throws(PhotoSessionError) {
    var seen = Set<String>()
    for card in change.added {
      guard index(of: card.photo) == nil, seen.insert(card.photo).inserted else {
        throw rescanMismatch("adds \"\(card.photo)\", which is already a card")
      }
    }
    for join in change.joined {
      guard let index = index(of: join.photo) else {
        throw rescanMismatch("joins files to \"\(join.photo)\", which is not a card")
      }
      guard decisionBytes[index] == 0 else {
        throw rescanMismatch("joins files to \"\(join.photo)\", which has a decision")
      }
    }
    for photo in change.vanished where index(of: photo) == nil {
      throw rescanMismatch("reports \"\(photo)\" vanished, which is not a card")
    }
    let before = photos.count
    for card in change.added {
      photos.append(card.photo)
      decisionBytes.append(0)
      commitBytes.append(0)
    }
    if order != nil { order?.append(contentsOf: before..<photos.count) }
    clearPositions()
    rescans.added += change.added
    rescans.joined += change.joined
    rescans.vanished = Set(rescans.vanished + change.vanished).sorted {
      $0.utf8.lexicographicallyPrecedes($1.utf8)
    }
  }

  private func rescanMismatch(_ what: String) -> PhotoSessionError {
    PhotoSessionError(
      .journalCorrupt, description: "the journal does not fit this session: a rescan \(what)")
  }
}
