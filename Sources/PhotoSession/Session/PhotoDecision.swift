/// What the user decided for one photo.
///
/// The deck's swipe directions map to decisions with ``init(swipe:)``: left trashes, right
/// favorites, up keeps.
public enum PhotoDecision: String, Hashable, Sendable, CaseIterable, Codable {
  /// Move the photo to the Trash when the session is committed (swipe left).
  case trash
  /// Mark the photo as a favorite (an XMP rating of 5) when committed (swipe right).
  case favorite
  /// Keep the photo as it is; commit writes nothing (swipe up).
  case keep

  /// The decision a swipe direction stands for.
  public init(swipe: SwipeDirection) {
    switch swipe {
    case .left: self = .trash
    case .right: self = .favorite
    case .up: self = .keep
    }
  }

  /// The one-letter code used in snapshots (`t`, `f`, `k`).
  var letter: UInt8 {
    switch self {
    case .trash: UInt8(ascii: "t")
    case .favorite: UInt8(ascii: "f")
    case .keep: UInt8(ascii: "k")
    }
  }

  /// The decision for a snapshot letter, or nil for any other byte.
  init?(letter: UInt8) {
    switch letter {
    case UInt8(ascii: "t"): self = .trash
    case UInt8(ascii: "f"): self = .favorite
    case UInt8(ascii: "k"): self = .keep
    default: return nil
    }
  }
}

/// A swipe on a photo card: the three cardinal directions the seed defines.
public enum SwipeDirection: String, Hashable, Sendable, CaseIterable, Codable {
  /// Trash.
  case left
  /// Favorite.
  case right
  /// Keep.
  case up
}

/// Where a decided photo stands with respect to commit.
public enum CommitState: String, Hashable, Sendable, CaseIterable, Codable {
  /// Decided, not yet applied.
  case pending
  /// Commit journaled the intent to apply the decision and has not yet journaled the result.
  case inProgress
  /// The decision was applied (the photo is in the Trash, its sidecar is rated, or it was kept).
  case applied
  /// Commit could not apply the decision (the photo vanished, a folder is read-only, ...); the
  /// next commit tries again.
  case failed
}
