/// A compact, complete copy of a ``CullingState`` (without the photo ids, which live in the
/// session's manifest): what compaction writes so replay need not start from the first event.
///
/// Decisions and commit states are strings with one letter per photo (`t`, `f`, `k` or `.`;
/// `p`, `i`, `a`, `f` or `.`), so a 100,000-photo session's snapshot is about 200 KB.
public struct SessionSnapshot: Hashable, Sendable, Codable {
  /// The number of photos the state covers.
  public var photoCount: Int
  /// The cursor.
  public var cursor: Int
  /// One letter per photo: its decision, or `.`.
  public var decisions: String
  /// One letter per photo: its commit state, or `.` when it has no decision.
  public var commits: String
  /// The undo stack, oldest first.
  public var undo: [CullingState.UndoRecord]
  /// The undo depth the session was created with.
  public var undoDepth: Int
  /// Swipes made, for the rate.
  public var swipeCount: Int
  /// The time of the first swipe.
  public var firstSwipeTime: Double?
  /// The time of the last swipe.
  public var lastSwipeTime: Double?
  /// Whether a commit was running.
  public var commitRunning: Bool
  /// Each marked card's marks, by queue position in decimal (absent in older snapshots).
  public var marks: [String: PhotoMarks]?
  /// Each queue position's position in the manifest, when cards were skipped (absent when
  /// the queue is in manifest order).
  public var order: [Int]?
  /// What rescans added, joined and found vanished (absent when the session was never
  /// rescanned): the added cards follow the manifest's photos.
  public var rescans: RescanLedger?
}

extension CullingState {
  private static let commitLetters: [UInt8] = Array("piaf".utf8)

  /// The state as a snapshot.
  ///
  /// - Complexity: O(*n*), where *n* is the number of photos.
  public var snapshot: SessionSnapshot {
    let dot = UInt8(ascii: ".")
    let decisions = decisionBytes.map { $0 == 0 ? dot : $0 }
    var commits = [UInt8](repeating: dot, count: photos.count)
    for index in 0..<photos.count where decisionBytes[index] != 0 {
      commits[index] = Self.commitLetters[Int(commitBytes[index])]
    }
    return SessionSnapshot(
      photoCount: photos.count, cursor: cursor,
      decisions: String(decoding: decisions, as: UTF8.self),
      commits: String(decoding: commits, as: UTF8.self), undo: undoStack, undoDepth: undoDepth,
      swipeCount: swipeCount, firstSwipeTime: firstSwipeTime, lastSwipeTime: lastSwipeTime,
      commitRunning: commitRunning,
      marks: marks.isEmpty
        ? nil : Dictionary(uniqueKeysWithValues: marks.map { (String($0.key), $0.value) }),
      order: order, rescans: rescans.isEmpty ? nil : rescans)
  }

  /// Restores a state from the manifest's photos and a snapshot, checking that they fit
  /// together; the cards rescans added (``SessionSnapshot/rescans``) follow the manifest's.
  ///
  /// - Throws: ``PhotoSessionError/Code/sessionCorrupt`` naming what does not fit.
  /// - Complexity: O(*n*), where *n* is the number of photos.
  public init(photos manifestPhotos: [String], snapshot: SessionSnapshot)
    throws(PhotoSessionError)
  {
    let photos = manifestPhotos + (snapshot.rescans?.added.map(\.photo) ?? [])
    func corrupt(_ what: String) -> PhotoSessionError {
      PhotoSessionError(.sessionCorrupt, description: "the session snapshot is damaged: \(what)")
    }
    guard snapshot.photoCount == photos.count else {
      throw corrupt("it covers \(snapshot.photoCount) photos, the manifest lists \(photos.count)")
    }
    let decisions = Array(snapshot.decisions.utf8)
    let commits = Array(snapshot.commits.utf8)
    guard decisions.count == photos.count, commits.count == photos.count else {
      throw corrupt("its decision or commit strings do not have one letter per photo")
    }
    guard snapshot.cursor >= 0, snapshot.cursor <= photos.count, snapshot.undoDepth >= 0,
      snapshot.undo.count <= snapshot.undoDepth
    else {
      throw corrupt("the cursor \(snapshot.cursor) or the undo stack is out of range")
    }
    var queue = photos
    if let order = snapshot.order {
      guard order.count == photos.count, Set(order) == Set(0..<photos.count) else {
        throw corrupt("its queue order is not an order of the \(photos.count) photos")
      }
      queue = order.map { photos[$0] }
    }
    self.init(photos: queue, undoDepth: snapshot.undoDepth)
    self.order = snapshot.order
    self.rescans = snapshot.rescans ?? RescanLedger()
    for (key, value) in snapshot.marks ?? [:] {
      guard let index = Int(key), index >= 0, index < photos.count,
        value.rating.map({ (0...5).contains($0) }) ?? true
      else {
        throw corrupt("marks name photo \"\(key)\" out of range or a rating out of 0...5")
      }
      marks[index] = value
    }
    for index in 0..<photos.count {
      let letter = decisions[index]
      if letter == UInt8(ascii: ".") {
        guard index >= snapshot.cursor else {
          throw corrupt("photo \(index) is before the cursor but has no decision")
        }
        continue
      }
      guard let decision = PhotoDecision(letter: letter), index < snapshot.cursor else {
        throw corrupt("photo \(index) has decision byte \(letter) at or after the cursor")
      }
      guard let state = Self.commitLetters.firstIndex(of: commits[index]) else {
        throw corrupt("photo \(index) has an unknown commit letter")
      }
      decisionBytes[index] = decision.letter
      commitBytes[index] = UInt8(state)
      decisionCounts[Self.slot(decision)] += 1
      commitCounts[state] += 1
    }
    for record in snapshot.undo {
      switch record {
      case .decided(let index), .changed(let index, _):
        guard index >= 0, index < snapshot.cursor else {
          throw corrupt("an undo record names photo \(index) out of range")
        }
      case .marked(let index, _), .skipped(let index, _):
        guard index >= 0, index < photos.count else {
          throw corrupt("an undo record names photo \(index) out of range")
        }
      }
    }
    restore(
      cursor: snapshot.cursor, undo: snapshot.undo, swipes: snapshot.swipeCount,
      first: snapshot.firstSwipeTime, last: snapshot.lastSwipeTime,
      running: snapshot.commitRunning)
  }
}
