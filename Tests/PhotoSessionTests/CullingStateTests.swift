import OffloadTestSupport
import Testing

@testable import PhotoSession

/// The state's invariants, checked after every operation of the property tests.
func checkInvariants(_ state: CullingState, _ context: @autoclosure () -> String) {
  var counts = [PhotoDecision: Int]()
  var commitCounts = [CommitState: Int]()
  for index in 0..<state.count {
    let decision = state.decision(at: index)
    // A photo has a decision exactly when it is before the cursor.
    #expect((decision != nil) == (index < state.cursor), "\(context()) photo \(index)")
    if let decision {
      counts[decision, default: 0] += 1
      if let commit = state.commitState(at: index) { commitCounts[commit, default: 0] += 1 }
    }
  }
  for decision in PhotoDecision.allCases {
    #expect(state.count(of: decision) == counts[decision, default: 0], "\(context()) \(decision)")
  }
  for commit in CommitState.allCases {
    #expect(state.count(in: commit) == commitCounts[commit, default: 0], "\(context()) \(commit)")
  }
  #expect(state.undoStack.count <= state.undoDepth, "\(context())")
}

private func photos(_ count: Int) -> [String] {
  (0..<count).map { "IMG_\($0).jpg" }
}

@Suite("CullingState: decisions, undo, change, snapshots")
struct CullingStateTests {
  @Test func swipesMoveTheCursorAndCount() throws {
    var state = CullingState(photos: photos(4))
    for decision in [PhotoDecision.trash, .favorite, .keep] {
      try state.apply(try state.decisionEvent(decision, time: 1))
    }
    #expect(state.cursor == 3 && state.currentPhoto == "IMG_3.jpg")
    #expect(state.count(of: .trash) == 1 && state.count(of: .favorite) == 1)
    #expect(state.count(in: .pending) == 3)
    try state.apply(try state.decisionEvent(.keep, time: 2))
    #expect(state.isAtEnd && state.currentPhoto == nil)
    let error = #expect(throws: PhotoSessionError.self) { try state.decisionEvent(.keep, time: 3) }
    #expect(error?.code == .endOfLibrary)
    #expect(
      error?.description
        == "the session is at the end of the library: all 4 photos have a decision; review or commit them"
    )
  }

  @Test func undoTakesADecisionOffEveryList() throws {
    var state = CullingState(photos: photos(3))
    try state.apply(try state.decisionEvent(.trash, time: 0))
    try state.apply(try state.undoEvent(time: 1))
    #expect(state.cursor == 0 && state.decision(at: 0) == nil && state.count(of: .trash) == 0)
    #expect(state.count(in: .pending) == 0)
    let error = #expect(throws: PhotoSessionError.self) { try state.undoEvent(time: 2) }
    #expect(error?.code == .nothingToUndo)
    #expect(
      error?.description
        == "nothing to undo: only the last 5 actions since the last commit can be undone")
  }

  @Test(arguments: [0, 1, 5, 9])
  func undoDepthIsRespected(depth: Int) throws {
    var state = CullingState(photos: photos(20), undoDepth: depth)
    for _ in 0..<12 { try state.apply(try state.decisionEvent(.keep, time: 0)) }
    var undone = 0
    while let event = try? state.undoEvent(time: 0) {
      try state.apply(event)
      undone += 1
    }
    #expect(undone == min(depth, 12))
    #expect(state.cursor == 12 - undone)
    if depth == 0 {
      let error = #expect(throws: PhotoSessionError.self) { try state.undoEvent(time: 0) }
      #expect(
        error?.description == "nothing to undo: undo is turned off for this session (depth 0)")
    }
  }

  @Test func changeAndItsUndo() throws {
    var state = CullingState(photos: photos(3))
    try state.apply(try state.decisionEvent(.trash, time: 0))
    try state.apply(try state.decisionEvent(.keep, time: 0))
    try state.apply(try state.changeEvent("IMG_0.jpg", to: .favorite, time: 0))
    #expect(state.decision(at: 0) == .favorite && state.count(of: .trash) == 0)
    #expect(state.cursor == 2)
    try state.apply(try state.undoEvent(time: 0))
    #expect(state.decision(at: 0) == .trash && state.cursor == 2)
    let unknown = #expect(throws: PhotoSessionError.self) {
      try state.changeEvent("nope.jpg", to: .keep, time: 0)
    }
    #expect(unknown?.code == .unknownPhoto)
    #expect(unknown?.description == "\"nope.jpg\" is not a photo of this session")
    let undecided = #expect(throws: PhotoSessionError.self) {
      try state.changeEvent("IMG_2.jpg", to: .keep, time: 0)
    }
    #expect(undecided?.code == .notDecided)
    #expect(
      undecided?.description
        == "\"IMG_2.jpg\" has no decision yet, so there is nothing to change; swipe it first")
  }

  @Test func committedPhotosCannotChangeOrBeUndone() throws {
    var state = CullingState(photos: photos(3))
    try state.apply(try state.decisionEvent(.trash, time: 0))
    try state.apply(.commitIntent(index: 0, photo: "IMG_0.jpg", decision: .trash))
    #expect(state.commitState(at: 0) == .inProgress)
    let inProgress = #expect(throws: PhotoSessionError.self) { try state.undoEvent(time: 0) }
    #expect(inProgress?.code == .alreadyCommitted)
    try state.apply(.commitResult(index: 0, photo: "IMG_0.jpg", failure: nil, detail: "moved"))
    let change = #expect(throws: PhotoSessionError.self) {
      try state.changeEvent("IMG_0.jpg", to: .keep, time: 0)
    }
    #expect(change?.code == .alreadyCommitted)
    #expect(
      change?.description
        == "\"IMG_0.jpg\" was already committed as trash; restore it from the Trash or edit its sidecar instead"
    )
    #expect(state.count(in: .applied) == 1 && state.count(in: .pending) == 0)
  }

  @Test func aFailedPhotoBecomesPendingWhenChanged() throws {
    var state = CullingState(photos: photos(2))
    try state.apply(try state.decisionEvent(.favorite, time: 0))
    try state.apply(.commitStarted(time: 0))
    try state.apply(.commitIntent(index: 0, photo: "IMG_0.jpg", decision: .favorite))
    try state.apply(
      .commitResult(index: 0, photo: "IMG_0.jpg", failure: .sidecarFailed, detail: "read-only"))
    #expect(state.commitState(at: 0) == .failed && state.undoStack.isEmpty)
    try state.apply(try state.changeEvent("IMG_0.jpg", to: .keep, time: 0))
    #expect(state.commitState(at: 0) == .pending)
  }

  @Test(arguments: [
    SessionEvent.decided(index: 1, photo: "IMG_1.jpg", decision: .keep, time: 0),
    .decided(index: 0, photo: "other.jpg", decision: .keep, time: 0),
    .undone(time: 0),
    .changed(index: 2, photo: "IMG_2.jpg", decision: .keep, time: 0),
    .changed(index: 7, photo: "IMG_7.jpg", decision: .keep, time: 0),
    .commitIntent(index: 0, photo: "IMG_0.jpg", decision: .trash),
    .commitResult(index: 0, photo: "IMG_0.jpg", failure: nil, detail: ""),
  ])
  func eventsThatDoNotFitAreRefused(event: SessionEvent) throws {
    var state = CullingState(photos: photos(3))
    let before = state
    let error = #expect(throws: PhotoSessionError.self) { try state.apply(event) }
    #expect(error?.code == .journalCorrupt)
    #expect(
      error?.description.hasPrefix("the journal does not fit this session: an entry ") == true)
    #expect(state == before)
  }

  /// Random sessions: the invariants hold after every step; snapshot and replay give the
  /// live state back.
  @Test func seededRandomSessionsKeepInvariantsAndReplay() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(9))
    for round in 0..<300 {
      let count = rng.index(below: 30) + 1
      var state = CullingState(photos: photos(count), undoDepth: rng.index(below: 7))
      var events: [SessionEvent] = []
      for step in 0..<rng.index(below: 80) {
        var event: SessionEvent?
        switch rng.index(below: 10) {
        case 0..<6:
          event = try? state.decisionEvent(
            PhotoDecision.allCases[rng.index(below: 3)], time: Double(step))
        case 6..<8:
          event = try? state.undoEvent(time: Double(step))
        case 8:
          event = try? state.changeEvent(
            "IMG_\(rng.index(below: count)).jpg", to: PhotoDecision.allCases[rng.index(below: 3)],
            time: Double(step))
        default:
          if state.cursor > 0 {
            let index = rng.index(below: state.cursor)
            if state.commitState(at: index) == .pending, let decision = state.decision(at: index) {
              events.append(.commitStarted(time: 0))
              try state.apply(.commitStarted(time: 0))
              let intent = SessionEvent.commitIntent(
                index: index, photo: "IMG_\(index).jpg", decision: decision)
              try state.apply(intent)
              events.append(intent)
              event = .commitResult(
                index: index, photo: "IMG_\(index).jpg",
                failure: rng.chance(0.3) ? .photoMissing : nil,
                detail: "")
            }
          }
        }
        guard let event else { continue }
        try state.apply(event)
        events.append(event)
        checkInvariants(state, "\(rng) round \(round) step \(step)")
      }
      var replayed = CullingState(photos: state.photos, undoDepth: state.undoDepth)
      for event in events { try replayed.apply(event) }
      #expect(replayed == state, "\(rng) round \(round)")
      let restored = try CullingState(photos: state.photos, snapshot: state.snapshot)
      #expect(restored == state, "\(rng) round \(round)")
      #expect(restored.snapshot == state.snapshot)
    }
  }

  @Test func damagedSnapshotsAreRefusedWithAReason() throws {
    var state = CullingState(photos: photos(3))
    try state.apply(try state.decisionEvent(.trash, time: 0))
    let good = state.snapshot
    var cases: [(SessionSnapshot, String)] = []
    var s = good
    s.photoCount = 4
    cases.append((s, "it covers 4 photos, the manifest lists 3"))
    s = good
    s.decisions = "t."
    cases.append((s, "its decision or commit strings do not have one letter per photo"))
    s = good
    s.cursor = 9
    cases.append((s, "the cursor 9 or the undo stack is out of range"))
    s = good
    s.decisions = "tt."
    cases.append((s, "photo 1 has decision byte 116 at or after the cursor"))
    s = good
    s.decisions = "..."
    cases.append((s, "photo 0 is before the cursor but has no decision"))
    s = good
    s.commits = "x.."
    cases.append((s, "photo 0 has an unknown commit letter"))
    s = good
    s.undo = [.decided(index: 2)]
    cases.append((s, "an undo record names photo 2 out of range"))
    for (snapshot, reason) in cases {
      let error = #expect(throws: PhotoSessionError.self) {
        try CullingState(photos: photos(3), snapshot: snapshot)
      }
      #expect(error?.code == .sessionCorrupt)
      #expect(error?.description == "the session snapshot is damaged: \(reason)")
    }
  }

  @Test func eventsRoundTripThroughJSON() throws {
    let events: [SessionEvent] = [
      .decided(index: 3, photo: "a/b \"c\".jpg", decision: .favorite, time: 1.5),
      .undone(time: 2), .changed(index: 1, photo: "x", decision: .keep, time: 3),
      .commitStarted(time: 4), .commitIntent(index: 1, photo: "x", decision: .keep),
      .commitResult(index: 1, photo: "x", failure: .photoMissing, detail: "gone"),
      .commitResult(index: 2, photo: "y", failure: nil, detail: "ok"), .commitFinished(time: 5),
    ]
    for event in events {
      let text = try JSONRoundTrip.encode(event)
      #expect(try JSONRoundTrip.decode(SessionEvent.self, from: text) == event, "\(text)")
    }
    #expect(
      try JSONRoundTrip.encode(events[0])
        == #"{"d":"favorite","i":3,"id":"a/b \"c\".jpg","op":"decide","t":1.5}"#)
  }
}
