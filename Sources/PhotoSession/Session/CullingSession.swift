import Foundation

/// A durable culling session: a ``CullingState`` whose every change is journaled before it is
/// acknowledged, over a ``PhotoLibrary`` that reads metadata lazily and applies decisions.
///
/// ```swift
/// let scan = try FolderScan.scan("/photos/2024")
/// let library = FolderLibrary(root: scan.root, trash: .user())
/// let journal = JSONLinesSessionJournal(folder: sessionFolder)
/// let session = try CullingSession(photos: scan.photos, journal: journal, library: library)
/// try session.swipe(.left)          // durable before it returns
/// try session.undo()
/// let report = try session.commit { progress in print(progress.done, "/", progress.total) }
/// ```
///
/// Opening a session over a journal that already holds events replays them, so the state is
/// exactly the one before the process ended, however it ended. Decisions, undo and change are
/// O(1) whatever the library size (plus one durable journal append).
public final class CullingSession {
  /// The session's state.
  public private(set) var state: CullingState
  /// Where events are appended.
  public let journal: any SessionJournal
  /// Where photos are read and decisions applied; nil for a session without files (tests).
  public let library: (any PhotoLibrary)?
  /// How many photos after the current one ``preloadWindow`` returns (3 by default: enough to hide a decode behind a swipe).
  public let preloadCount: Int
  /// What replay repaired when the session was opened (a torn journal tail cut off), and a
  /// compaction that could not be done.
  public private(set) var repairs: [String] = []
  /// The clock, in seconds since 1970; tests pass a fixed one.
  public var clock: () -> Double
  /// Journal events since the last snapshot; above ``compactionThreshold`` opening compacts.
  public private(set) var eventsSinceSnapshot = 0
  /// The number of journal events above which opening the session compacts the journal.
  public static let compactionThreshold = 20_000

  /// The system clock, in seconds since 1970.
  public static let systemClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

  private var metadataCache: [Int: Result<CardMetadata, PhotoSessionError>] = [:]

  /// What a card's shown file says: a photo's header or a video's metadata.
  private enum CardMetadata {
    case photo(PhotoMetadata)
    case video(VideoMetadata)
  }

  /// Opens a session over `photos`, replaying whatever `journal` already holds.
  ///
  /// - Parameters:
  ///   - photos: The photo ids in display order (from the session's manifest).
  ///   - journal: The session's journal; its snapshot and events are replayed.
  ///   - library: The photos' library, or nil.
  ///   - undoDepth: Actions undo can take back (5 by default); used when the journal is new.
  ///   - preloadCount: Photos after the current one to preload (3 by default: enough to hide a decode behind a swipe).
  ///   - clock: The time source for swipe times and the rate.
  /// - Throws: ``PhotoSessionError/Code/journalCorrupt`` or
  ///   ``PhotoSessionError/Code/sessionCorrupt`` when the journal does not replay.
  /// - Complexity: O(*n* + *e*), where *n* is the number of photos and *e* the number of
  ///   journal events since the last snapshot.
  public init(
    photos: [String], journal: any SessionJournal, library: (any PhotoLibrary)? = nil,
    undoDepth: Int = 5, preloadCount: Int = 3,
    clock: @escaping () -> Double = CullingSession.systemClock
  ) throws(PhotoSessionError) {
    guard undoDepth >= 0, preloadCount >= 0 else {
      throw PhotoSessionError(
        .invalidArgument,
        description:
          "undo depth (\(undoDepth)) and preload count (\(preloadCount)) must not be negative")
    }
    self.journal = journal
    self.library = library
    self.preloadCount = preloadCount
    self.clock = clock
    let contents = try journal.replay()
    var state: CullingState
    if let snapshot = contents.snapshot {
      state = try CullingState(photos: photos, snapshot: snapshot)
    } else {
      state = CullingState(photos: photos, undoDepth: undoDepth)
    }
    for (number, event) in contents.events.enumerated() {
      do {
        try state.apply(event)
      } catch {
        throw PhotoSessionError(
          .journalCorrupt, offset: number + 1,
          description:
            "event \(number + 1) after the snapshot does not replay: \(error.description)"
        )
      }
    }
    self.state = state
    self.repairs = contents.repairs
    self.eventsSinceSnapshot = contents.events.count
    if eventsSinceSnapshot > Self.compactionThreshold {
      // A session works without compaction; a failure is noted, not fatal.
      do {
        try compact()
      } catch {
        repairs.append("the journal was not compacted: \(error.description)")
      }
    }
  }

  // MARK: Deciding

  /// Records a swipe's decision for the photo on screen and moves to the next photo.
  ///
  /// The decision is durable in the journal when this returns.
  ///
  /// - Returns: The index of the photo decided.
  /// - Throws: ``PhotoSessionError/Code/endOfLibrary`` at the end, or a journal write error
  ///   (and then nothing changed).
  /// - Complexity: O(1) plus one journal append.
  @discardableResult
  public func swipe(_ direction: SwipeDirection) throws(PhotoSessionError) -> Int {
    try decide(PhotoDecision(swipe: direction))
  }

  /// Records `decision` for the photo on screen and moves to the next photo.
  ///
  /// - Returns: The index of the photo decided.
  /// - Throws: ``PhotoSessionError/Code/endOfLibrary`` or a journal write error.
  /// - Complexity: O(1) plus one journal append.
  @discardableResult
  public func decide(_ decision: PhotoDecision) throws(PhotoSessionError) -> Int {
    let index = state.cursor
    try record(state.decisionEvent(decision, time: clock()))
    evictMetadata()
    return index
  }

  /// Undoes the last decision or change (up to the undo depth, since the last commit).
  ///
  /// Undoing a decision takes the photo off every list and puts it back on screen.
  ///
  /// - Returns: The index of the photo the undo concerned.
  /// - Throws: ``PhotoSessionError/Code/nothingToUndo`` or a journal write error.
  /// - Complexity: O(*u*) for undo depth *u*, plus one journal append.
  @discardableResult
  public func undo() throws(PhotoSessionError) -> Int {
    let event = try state.undoEvent(time: clock())
    let index: Int
    switch state.undoStack.last {
    case .decided(let i), .changed(let i, _), .marked(let i, _), .skipped(let i, _): index = i
    case nil: index = state.cursor
    }
    let skipped = if case .skipped = state.undoStack.last { true } else { false }
    try record(event)
    if skipped { refreshMetadata() }
    return index
  }

  /// Changes the decision of an already decided, not yet committed photo (review).
  ///
  /// - Throws: ``PhotoSessionError/Code/unknownPhoto``, ``PhotoSessionError/Code/notDecided``,
  ///   ``PhotoSessionError/Code/alreadyCommitted`` or a journal write error.
  /// - Complexity: O(1) amortized plus one journal append (the first call builds an id index
  ///   in O(*n*)).
  public func change(_ photo: String, to decision: PhotoDecision) throws(PhotoSessionError) {
    try record(state.changeEvent(photo, to: decision, time: clock()))
  }

  private func record(_ event: SessionEvent) throws(PhotoSessionError) {
    try appendAndApply([event])
  }

  /// Appends events durably, then applies them to the state.
  func appendAndApply(_ events: [SessionEvent]) throws(PhotoSessionError) {
    try journal.append(events)
    for event in events { try state.apply(event) }
    eventsSinceSnapshot += events.count
  }

  /// Writes a snapshot of the state and empties the journal.
  ///
  /// - Complexity: O(*n*), where *n* is the number of photos.
  public func compact() throws(PhotoSessionError) {
    try journal.compact(into: state.snapshot)
    eventsSinceSnapshot = 0
  }

  // MARK: Reading

  /// The photo on screen with its metadata, or nil at the end of the library.
  ///
  /// - Complexity: O(1) when cached, else one header read.
  public var current: PhotoCard? {
    state.isAtEnd ? nil : card(at: state.cursor)
  }

  /// The photos after the current one that a viewer should preload (``preloadCount`` of them,
  /// fewer near the end), with their metadata.
  ///
  /// Metadata is read from the library the first time a photo enters the window and cached
  /// while it stays near the cursor.
  ///
  /// - Complexity: O(*p*) header reads for *p* = ``preloadCount``, the first time.
  public var preloadWindow: [PhotoCard] {
    let start = state.cursor + 1
    let end = min(state.count, start + preloadCount)
    return start < end ? (start..<end).map { card(at: $0) } : []
  }

  /// A photo's card: its id, decision, commit state and metadata (read lazily, cached); a
  /// video card (``CardKind/video``) carries ``PhotoCard/video`` instead of
  /// ``PhotoCard/metadata``.
  ///
  /// - Precondition: `index` is a valid queue position.
  /// - Complexity: O(1) when cached, else one header read.
  public func card(at index: Int) -> PhotoCard {
    precondition(index >= 0 && index < state.count, "photo index \(index) is out of range")
    let photo = state.photos[index]
    let kind = CardKind(path: photo)
    var result = metadataCache[index]
    if result == nil, let library {
      do throws(PhotoSessionError) {
        result = .success(
          kind == .video
            ? .video(try library.videoMetadata(of: photo))
            : .photo(try library.metadata(of: photo)))
      } catch {
        result = .failure(error)
      }
      metadataCache[index] = result
    }
    var metadata: PhotoMetadata?
    var video: VideoMetadata?
    var problem: PhotoSessionError?
    switch result {
    case .success(.photo(let value)): metadata = value
    case .success(.video(let value)): video = value
    case .failure(let error): problem = error
    case nil: break
    }
    let marks = state.marks(at: index)
    var card = PhotoCard(
      index: index, photo: photo, decision: state.decision(at: index),
      commitState: state.commitState(at: index), metadata: metadata, problem: problem,
      marks: marks.isEmpty ? nil : marks)
    card.video = video
    return card
  }

  /// Forgets cached metadata far from the cursor, so the cache stays small.
  private func evictMetadata() {
    guard metadataCache.count > 4 * (preloadCount + state.undoDepth + 2) else { return }
    let low = state.cursor - state.undoDepth - 1
    let high = state.cursor + preloadCount
    metadataCache = metadataCache.filter { $0.key >= low && $0.key <= high }
  }

  /// Forgets cached metadata, so the next read sees the files as they are now.
  ///
  /// - Complexity: O(*c*), where *c* is the number of cached entries (a few).
  public func refreshMetadata() {
    metadataCache.removeAll()
  }

  /// The session's counts and rate.
  public var statistics: SessionStatistics {
    var rate: Double?
    if let first = state.firstSwipeTime, let last = state.lastSwipeTime, last > first,
      state.swipeCount > 1
    {
      rate = Double(state.swipeCount - 1) / (last - first) * 60
    }
    return SessionStatistics(
      total: state.count, reviewed: state.cursor, remaining: state.count - state.cursor,
      trash: state.count(of: .trash), favorite: state.count(of: .favorite),
      keep: state.count(of: .keep), pending: state.count(in: .pending) + state.count(in: .failed),
      committed: state.count(in: .applied), failed: state.count(in: .failed),
      swipesPerMinute: rate, isAtEnd: state.isAtEnd)
  }

  /// The decided photos, in queue order, optionally only those with one decision.
  ///
  /// - Parameter decision: Only photos with this decision, or nil for all decided photos.
  /// - Complexity: O(*r*), where *r* is the number of decided photos.
  public func review(_ decision: PhotoDecision? = nil) -> [ReviewItem] {
    var items: [ReviewItem] = []
    for index in 0..<state.cursor {
      guard let current = state.decision(at: index), decision == nil || current == decision,
        let commit = state.commitState(at: index)
      else { continue }
      items.append(
        ReviewItem(index: index, photo: state.photos[index], decision: current, commitState: commit)
      )
    }
    return items
  }
}

/// A photo as a viewer shows it: id, decision, and metadata or the problem reading it.
public struct PhotoCard: Hashable, Sendable, Codable {
  /// The queue position.
  public var index: Int
  /// The photo id (a path relative to the library root for a folder).
  public var photo: String
  /// The decision, if the photo has one.
  public var decision: PhotoDecision?
  /// The commit state, if the photo has a decision.
  public var commitState: CommitState?
  /// The metadata, when it could be read.
  public var metadata: PhotoMetadata?
  /// Why the metadata could not be read (missing, unreadable, corrupt, ...); the session goes
  /// on and the photo can still be decided.
  public var problem: PhotoSessionError?
  /// The rating, flag and label set in this session, if any.
  public var marks: PhotoMarks?
  /// A video card's metadata (its ``kind`` is ``CardKind/video``), when it could be read.
  public var video: VideoMetadata? = nil

  /// Whether the card shows a photo or is a video alone (by its shown file's name).
  public var kind: CardKind { CardKind(path: photo) }

  /// The `xmp:Rating` shown for the card: -1 when rejected, else the rating set in this
  /// session, else the one its sidecar had at start (``PhotoMetadata/rating``).
  public var rating: Int? {
    if marks?.flag == .reject { return -1 }
    return marks?.rating ?? metadata?.rating
  }

  /// The colour label shown for the card: the one set in this session, else the sidecar's.
  public var label: String? {
    marks?.label?.rawValue ?? metadata?.label
  }
}

/// A decided photo in a review list.
public struct ReviewItem: Hashable, Sendable, Codable {
  /// The queue position.
  public var index: Int
  /// The photo id.
  public var photo: String
  /// Its decision.
  public var decision: PhotoDecision
  /// Whether commit applied it.
  public var commitState: CommitState
}

/// A session's progress figures.
public struct SessionStatistics: Hashable, Sendable, Codable {
  /// Photos in the session.
  public var total: Int
  /// Photos with a decision (the cursor).
  public var reviewed: Int
  /// Photos still to decide.
  public var remaining: Int
  /// Photos marked for the Trash.
  public var trash: Int
  /// Photos marked as favorites.
  public var favorite: Int
  /// Photos kept.
  public var keep: Int
  /// Decided photos that commit has not applied yet (failed ones included).
  public var pending: Int
  /// Decided photos that commit applied.
  public var committed: Int
  /// Decided photos whose last commit attempt failed.
  public var failed: Int
  /// Swipes per minute between the first and the last swipe, once there are two.
  public var swipesPerMinute: Double?
  /// Whether every photo has a decision.
  public var isAtEnd: Bool
}
