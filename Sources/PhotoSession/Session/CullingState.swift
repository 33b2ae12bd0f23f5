/// The pure state of a culling session: the queue, the cursor, the decisions, the undo stack
/// and each photo's commit state. No I/O: ``CullingSession`` adds the journal and the library.
///
/// The state changes only by applying ``SessionEvent``s, so replaying a journal gives the same
/// state as living through it. Every operation is O(1) except where noted, whatever the library
/// size: decisions and commit states are stored in flat byte arrays indexed by queue position.
///
/// ```swift
/// var state = CullingState(photos: ["a.jpg", "b.jpg"], undoDepth: 5)
/// let event = try state.decisionEvent(.trash, time: 0)
/// try state.apply(event)
/// state.cursor  // 1
/// ```
public struct CullingState: Sendable {
  /// One action the undo stack can take back.
  public enum UndoRecord: Hashable, Sendable, Codable {
    /// A swipe decided the photo at `index`.
    case decided(index: Int)
    /// Review changed the photo at `index`'s decision; `previous` was its decision before.
    case changed(index: Int, previous: PhotoDecision)
    /// The card at `index` got new marks; `previous` were its marks before.
    case marked(index: Int, previous: PhotoMarks)
    /// The card at `index` was skipped to position `to` (the end of the queue then).
    case skipped(index: Int, to: Int)
  }

  /// The photo ids in the order they are shown (``CullingSession/skip()`` moves one to the
  /// end).
  public internal(set) var photos: [String]
  /// How many actions undo can take back at most.
  public let undoDepth: Int
  /// The index of the photo on screen; equal to the number of photos when the library is done.
  public private(set) var cursor: Int = 0
  /// The actions that can be undone, oldest first; at most ``undoDepth`` of them.
  public private(set) var undoStack: [UndoRecord] = []

  /// One byte per photo: 0 for no decision, else ``PhotoDecision/letter``.
  var decisionBytes: [UInt8]
  /// One byte per photo: the raw index of its ``CommitState`` in `commitOrder`.
  var commitBytes: [UInt8]
  /// Photos with each decision, in `PhotoDecision.allCases` order.
  var decisionCounts: [Int] = [0, 0, 0]
  /// Photos in each commit state among decided photos, in `CommitState.allCases` order.
  var commitCounts: [Int] = [0, 0, 0, 0]
  /// Swipes made (undone ones included), for the rate.
  public private(set) var swipeCount = 0
  /// The time of the first and the last swipe, in seconds since 1970.
  public private(set) var firstSwipeTime: Double?
  /// The time of the last swipe, in seconds since 1970.
  public private(set) var lastSwipeTime: Double?
  /// Whether a commit started and has not finished.
  public private(set) var commitRunning = false
  /// The position of each photo id, built on first use by ``index(of:)``.
  private var positions: [String: Int]?
  /// Each card's marks by queue position; only marked cards have an entry.
  var marks: [Int: PhotoMarks] = [:]
  /// Each queue position's position in the manifest (the manifest's photos, then those
  /// rescans added), or nil while no card was skipped.
  var order: [Int]?
  /// What every rescan so far added, joined and found vanished.
  public internal(set) var rescans = RescanLedger()

  static let commitOrder = CommitState.allCases

  /// Creates the state of a new session over `photos`.
  ///
  /// - Parameters:
  ///   - photos: The photo ids in display order; ids must be unique.
  ///   - undoDepth: How many actions can be undone (5 by default); at least 0.
  /// - Complexity: O(*n*), where *n* is the number of photos.
  public init(photos: [String], undoDepth: Int = 5) {
    precondition(undoDepth >= 0, "undo depth must not be negative")
    self.photos = photos
    self.undoDepth = undoDepth
    decisionBytes = [UInt8](repeating: 0, count: photos.count)
    commitBytes = [UInt8](repeating: 0, count: photos.count)
  }

  /// The number of photos in the session.
  public var count: Int { photos.count }

  /// Whether every photo has a decision.
  public var isAtEnd: Bool { cursor == photos.count }

  /// The id of the photo on screen, or nil at the end of the library.
  public var currentPhoto: String? { isAtEnd ? nil : photos[cursor] }

  /// The decision of the photo at `index`, or nil when it has none.
  public func decision(at index: Int) -> PhotoDecision? {
    PhotoDecision(letter: decisionBytes[index])
  }

  /// The commit state of the decided photo at `index`, or nil when it has no decision.
  public func commitState(at index: Int) -> CommitState? {
    decisionBytes[index] == 0 ? nil : Self.commitOrder[Int(commitBytes[index])]
  }

  /// The queue position of a photo id, or nil when the id is not in the session.
  ///
  /// - Complexity: O(*n*) on the first call (it builds an index), then O(1) amortized.
  public mutating func index(of photo: String) -> Int? {
    if positions == nil {
      var map = [String: Int](minimumCapacity: photos.count)
      for (index, id) in photos.enumerated() { map[id] = index }
      positions = map
    }
    return positions?[photo]
  }

  /// How many photos have `decision`.
  public func count(of decision: PhotoDecision) -> Int {
    decisionCounts[Self.slot(decision)]
  }

  /// How many decided photos are in commit state `state`.
  public func count(in state: CommitState) -> Int {
    commitCounts[Self.slot(state)]
  }

  static func slot(_ decision: PhotoDecision) -> Int {
    switch decision {
    case .trash: 0
    case .favorite: 1
    case .keep: 2
    }
  }

  static func slot(_ state: CommitState) -> Int {
    switch state {
    case .pending: 0
    case .inProgress: 1
    case .applied: 2
    case .failed: 3
    }
  }
}

// MARK: - Making events (validation without mutation)

extension CullingState {
  /// The event that records `decision` for the photo on screen.
  ///
  /// - Throws: ``PhotoSessionError/Code/endOfLibrary`` when every photo has a decision.
  public func decisionEvent(
    _ decision: PhotoDecision, time: Double
  ) throws(PhotoSessionError) -> SessionEvent {
    guard !isAtEnd else {
      throw PhotoSessionError(
        .endOfLibrary,
        description:
          "the session is at the end of the library: all \(photos.count) photos have a decision; review or commit them"
      )
    }
    return .decided(index: cursor, photo: photos[cursor], decision: decision, time: time)
  }

  /// The event that undoes the last undoable action.
  ///
  /// - Throws: ``PhotoSessionError/Code/nothingToUndo`` when the undo stack is empty, or
  ///   ``PhotoSessionError/Code/alreadyCommitted`` when commit already applied that photo.
  public func undoEvent(time: Double) throws(PhotoSessionError) -> SessionEvent {
    guard let last = undoStack.last else {
      throw PhotoSessionError(
        .nothingToUndo,
        description: undoDepth == 0
          ? "nothing to undo: undo is turned off for this session (depth 0)"
          : "nothing to undo: only the last \(undoDepth) actions since the last commit can be undone"
      )
    }
    let index: Int
    switch last {
    case .decided(let i), .changed(let i, _), .marked(let i, _), .skipped(let i, _): index = i
    }
    if case .decided = last { try requireNotCommitted(index) }
    if case .changed = last { try requireNotCommitted(index) }
    return .undone(time: time)
  }

  /// The event that changes a decided photo's decision during review.
  ///
  /// - Throws: ``PhotoSessionError/Code/unknownPhoto``, ``PhotoSessionError/Code/notDecided``
  ///   or ``PhotoSessionError/Code/alreadyCommitted``.
  /// - Complexity: O(1) amortized (see ``index(of:)``).
  public mutating func changeEvent(
    _ photo: String, to decision: PhotoDecision, time: Double
  ) throws(PhotoSessionError) -> SessionEvent {
    guard let index = index(of: photo) else {
      throw PhotoSessionError(
        .unknownPhoto, path: photo, description: "\"\(photo)\" is not a photo of this session")
    }
    guard decisionBytes[index] != 0 else {
      throw PhotoSessionError(
        .notDecided, path: photo,
        description:
          "\"\(photo)\" has no decision yet, so there is nothing to change; swipe it first"
      )
    }
    try requireNotCommitted(index)
    return .changed(index: index, photo: photo, decision: decision, time: time)
  }

  private func requireNotCommitted(_ index: Int) throws(PhotoSessionError) {
    let state = Self.commitOrder[Int(commitBytes[index])]
    if state == .applied || state == .inProgress {
      throw PhotoSessionError(
        .alreadyCommitted, path: photos[index],
        description:
          "\"\(photos[index])\" was already committed as \(decisionBytes[index] == 0 ? "decided" : String(describing: decision(at: index) ?? .keep)); restore it from the Trash or edit its sidecar instead"
      )
    }
  }
}

// MARK: - Applying events

extension CullingState {
  /// Applies one event, checking that it fits the state (the right index, the right photo).
  ///
  /// Events made by ``decisionEvent(_:time:)``, ``undoEvent(time:)`` and
  /// ``changeEvent(_:to:time:)`` on this state always fit.
  ///
  /// - Throws: ``PhotoSessionError/Code/journalCorrupt`` when the event does not fit (a
  ///   journal from another session, or edited by hand), and the state is unchanged.
  /// - Complexity: O(*u*) for an undo stack of depth *u* (the oldest record is dropped when
  ///   the stack is full), O(1) otherwise.
  public mutating func apply(_ event: SessionEvent) throws(PhotoSessionError) {
    switch event {
    case .decided(let index, let photo, let decision, let time):
      try check(
        index == cursor && !isAtEnd, "decides photo \(index) while the cursor is at \(cursor)")
      try check(photos[index] == photo, "names \"\(photo)\" at \(index), not \"\(photos[index])\"")
      setDecision(index, decision)
      cursor += 1
      push(.decided(index: index))
      swipeCount += 1
      if firstSwipeTime == nil { firstSwipeTime = time }
      lastSwipeTime = time
    case .undone:
      guard let last = undoStack.last else { throw mismatch("undoes with an empty undo stack") }
      switch last {
      case .decided(let index):
        try check(index == cursor - 1, "undoes photo \(index) while the cursor is at \(cursor)")
        try check(!isCommitted(index), "undoes committed photo \(index)")
        setDecision(index, nil)
        cursor = index
      case .changed(let index, let previous):
        try check(!isCommitted(index), "undoes a change of committed photo \(index)")
        setDecision(index, previous)
      case .marked(let index, let previous):
        try check(
          index == cursor, "undoes marks of photo \(index) while the cursor is at \(cursor)")
        marks[index] = previous.isEmpty ? nil : previous
      case .skipped(let index, let to):
        try check(
          index == cursor && to < photos.count && to >= index,
          "undoes a skip of photo \(index) while the cursor is at \(cursor)")
        movePhoto(from: to, to: index)
      }
      undoStack.removeLast()
    case .changed(let index, let photo, let decision, _):
      try check(index >= 0 && index < photos.count, "changes photo \(index) out of range")
      try check(photos[index] == photo, "names \"\(photo)\" at \(index), not \"\(photos[index])\"")
      guard let previous = self.decision(at: index) else {
        throw mismatch("changes undecided photo \(index)")
      }
      try check(!isCommitted(index), "changes committed photo \(index)")
      setDecision(index, decision)
      push(.changed(index: index, previous: previous))
    case .marked(let index, let photo, let new, _):
      try check(
        index == cursor && !isAtEnd, "marks photo \(index) while the cursor is at \(cursor)")
      try check(photos[index] == photo, "names \"\(photo)\" at \(index), not \"\(photos[index])\"")
      try check(new.rating.map { (0...5).contains($0) } ?? true, "rates \(photo) out of 0...5")
      push(.marked(index: index, previous: self.marks(at: index)))
      marks[index] = new.isEmpty ? nil : new
    case .skipped(let index, let photo, _):
      try check(
        index == cursor && !isAtEnd, "skips photo \(index) while the cursor is at \(cursor)")
      try check(photos[index] == photo, "names \"\(photo)\" at \(index), not \"\(photos[index])\"")
      movePhoto(from: index, to: photos.count - 1)
      push(.skipped(index: index, to: photos.count - 1))
    case .commitStarted:
      undoStack.removeAll()
      commitRunning = true
    case .commitIntent(let index, let photo, let decision):
      try check(index >= 0 && index < photos.count, "commits photo \(index) out of range")
      try check(photos[index] == photo, "names \"\(photo)\" at \(index), not \"\(photos[index])\"")
      try check(self.decision(at: index) == decision, "commits \(photo) with another decision")
      setCommitState(index, .inProgress)
    case .commitResult(let index, let photo, let failure, _):
      try check(index >= 0 && index < photos.count, "commits photo \(index) out of range")
      try check(photos[index] == photo, "names \"\(photo)\" at \(index), not \"\(photos[index])\"")
      try check(decisionBytes[index] != 0, "commits undecided photo \(index)")
      setCommitState(index, failure == nil ? .applied : .failed)
    case .commitFinished:
      commitRunning = false
    case .rescanned(let change, _):
      try applyRescan(change)
    }
  }

  private func isCommitted(_ index: Int) -> Bool {
    let state = Self.commitOrder[Int(commitBytes[index])]
    return state == .applied || state == .inProgress
  }

  private func check(_ condition: Bool, _ what: @autoclosure () -> String)
    throws(PhotoSessionError)
  {
    if !condition { throw mismatch(what()) }
  }

  private func mismatch(_ what: String) -> PhotoSessionError {
    PhotoSessionError(
      .journalCorrupt,
      description: "the journal does not fit this session: an entry \(what)")
  }

  private mutating func push(_ record: UndoRecord) {
    guard undoDepth > 0 else { return }
    if undoStack.count == undoDepth { undoStack.removeFirst() }
    undoStack.append(record)
  }

  private mutating func setDecision(_ index: Int, _ decision: PhotoDecision?) {
    if let old = self.decision(at: index) {
      decisionCounts[Self.slot(old)] -= 1
      commitCounts[Int(commitBytes[index])] -= 1
    }
    if let decision {
      decisionCounts[Self.slot(decision)] += 1
      decisionBytes[index] = decision.letter
      // A new or changed decision is pending again (a failed one is retried).
      commitBytes[index] = 0
      commitCounts[0] += 1
    } else {
      decisionBytes[index] = 0
      commitBytes[index] = 0
    }
  }

  private mutating func setCommitState(_ index: Int, _ state: CommitState) {
    commitCounts[Int(commitBytes[index])] -= 1
    commitBytes[index] = UInt8(Self.slot(state))
    commitCounts[Self.slot(state)] += 1
  }
}

extension CullingState {
  /// Forgets the id index after the queue changed order.
  mutating func clearPositions() { positions = nil }

  /// Sets the scalar fields of a restored state.
  mutating func restore(
    cursor: Int, undo: [UndoRecord], swipes: Int, first: Double?, last: Double?, running: Bool
  ) {
    self.cursor = cursor
    self.undoStack = undo
    self.swipeCount = swipes
    self.firstSwipeTime = first
    self.lastSwipeTime = last
    self.commitRunning = running
  }
}

extension CullingState: Hashable {
  /// Whether two states are the same session state (the lazily built id index is ignored).
  ///
  /// - Complexity: O(*n*), where *n* is the number of photos.
  public static func == (lhs: CullingState, rhs: CullingState) -> Bool {
    lhs.photos == rhs.photos && lhs.undoDepth == rhs.undoDepth && lhs.cursor == rhs.cursor
      && lhs.undoStack == rhs.undoStack && lhs.decisionBytes == rhs.decisionBytes
      && lhs.commitBytes == rhs.commitBytes && lhs.decisionCounts == rhs.decisionCounts
      && lhs.commitCounts == rhs.commitCounts && lhs.swipeCount == rhs.swipeCount
      && lhs.firstSwipeTime == rhs.firstSwipeTime && lhs.lastSwipeTime == rhs.lastSwipeTime
      && lhs.commitRunning == rhs.commitRunning && lhs.marks == rhs.marks
      && lhs.order == rhs.order && lhs.rescans == rhs.rescans
  }

  /// Hashes the cursor, the decisions and the commit states.
  ///
  /// - Complexity: O(*n*), where *n* is the number of photos.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(cursor)
    hasher.combine(decisionBytes)
    hasher.combine(commitBytes)
    hasher.combine(undoStack)
    hasher.combine(marks)
  }
}
