/// One change to a session, as appended to its journal.
///
/// Replaying a session's events in order from its snapshot rebuilds the exact state: the
/// cursor, every decision, the undo stack, and each photo's commit state.
public enum SessionEvent: Hashable, Sendable, Codable {
  /// The photo at `index` (whose id is `photo`) got `decision`; the cursor moved past it.
  case decided(index: Int, photo: String, decision: PhotoDecision, time: Double)
  /// The last undoable action was undone.
  case undone(time: Double)
  /// The decision of an already decided photo was changed during review.
  case changed(index: Int, photo: String, decision: PhotoDecision, time: Double)
  /// The card at `index` (on screen) got `marks` (its rating, flag and label as a whole).
  case marked(index: Int, photo: String, marks: PhotoMarks, time: Double)
  /// The card at `index` (on screen) moved to the end of the queue without a decision.
  case skipped(index: Int, photo: String, time: Double)
  /// A commit started: the undo stack is cleared.
  case commitStarted(time: Double)
  /// Commit is about to apply the photo's decision.
  case commitIntent(index: Int, photo: String, decision: PhotoDecision)
  /// Commit applied the photo's decision, or failed with `failure` (retried next commit).
  ///
  /// `detail` says where the photo went (its path in the Trash, the sidecar written), or why
  /// applying it failed.
  case commitResult(index: Int, photo: String, failure: PhotoSessionError.Code?, detail: String)
  /// A commit finished every pending photo.
  case commitFinished(time: Double)
  /// A rescan of the folder added cards at the end of the queue, joined companions to
  /// undecided cards and found cards vanished (``RescanLedger``).
  case rescanned(RescanLedger, time: Double)

  private enum CodingKeys: String, CodingKey {
    case op, i, id, d, t, fail, detail, m, r
  }

  private enum Operation: String, Codable {
    case decide, undo, change, commit, intent, result, committed, mark, skip, rescan
  }

  /// Decodes an event from its compact journal form.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    switch try c.decode(Operation.self, forKey: .op) {
    case .decide:
      self = .decided(
        index: try c.decode(Int.self, forKey: .i), photo: try c.decode(String.self, forKey: .id),
        decision: try c.decode(PhotoDecision.self, forKey: .d),
        time: try c.decode(Double.self, forKey: .t))
    case .undo: self = .undone(time: try c.decode(Double.self, forKey: .t))
    case .change:
      self = .changed(
        index: try c.decode(Int.self, forKey: .i), photo: try c.decode(String.self, forKey: .id),
        decision: try c.decode(PhotoDecision.self, forKey: .d),
        time: try c.decode(Double.self, forKey: .t))
    case .commit: self = .commitStarted(time: try c.decode(Double.self, forKey: .t))
    case .intent:
      self = .commitIntent(
        index: try c.decode(Int.self, forKey: .i), photo: try c.decode(String.self, forKey: .id),
        decision: try c.decode(PhotoDecision.self, forKey: .d))
    case .result:
      self = .commitResult(
        index: try c.decode(Int.self, forKey: .i), photo: try c.decode(String.self, forKey: .id),
        failure: try c.decodeIfPresent(PhotoSessionError.Code.self, forKey: .fail),
        detail: try c.decode(String.self, forKey: .detail))
    case .committed: self = .commitFinished(time: try c.decode(Double.self, forKey: .t))
    case .mark:
      self = .marked(
        index: try c.decode(Int.self, forKey: .i), photo: try c.decode(String.self, forKey: .id),
        marks: try c.decode(PhotoMarks.self, forKey: .m),
        time: try c.decode(Double.self, forKey: .t))
    case .skip:
      self = .skipped(
        index: try c.decode(Int.self, forKey: .i), photo: try c.decode(String.self, forKey: .id),
        time: try c.decode(Double.self, forKey: .t))
    case .rescan:
      self = .rescanned(
        try c.decode(RescanLedger.self, forKey: .r), time: try c.decode(Double.self, forKey: .t))
    }
  }

  /// Encodes the event in its compact journal form (`op`, `i`, `id`, `d`, `m`, `t`, ...).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .decided(let index, let photo, let decision, let time):
      try c.encode(Operation.decide, forKey: .op)
      try c.encode(index, forKey: .i)
      try c.encode(photo, forKey: .id)
      try c.encode(decision, forKey: .d)
      try c.encode(time, forKey: .t)
    case .undone(let time):
      try c.encode(Operation.undo, forKey: .op)
      try c.encode(time, forKey: .t)
    case .changed(let index, let photo, let decision, let time):
      try c.encode(Operation.change, forKey: .op)
      try c.encode(index, forKey: .i)
      try c.encode(photo, forKey: .id)
      try c.encode(decision, forKey: .d)
      try c.encode(time, forKey: .t)
    case .commitStarted(let time):
      try c.encode(Operation.commit, forKey: .op)
      try c.encode(time, forKey: .t)
    case .commitIntent(let index, let photo, let decision):
      try c.encode(Operation.intent, forKey: .op)
      try c.encode(index, forKey: .i)
      try c.encode(photo, forKey: .id)
      try c.encode(decision, forKey: .d)
    case .commitResult(let index, let photo, let failure, let detail):
      try c.encode(Operation.result, forKey: .op)
      try c.encode(index, forKey: .i)
      try c.encode(photo, forKey: .id)
      try c.encodeIfPresent(failure, forKey: .fail)
      try c.encode(detail, forKey: .detail)
    case .commitFinished(let time):
      try c.encode(Operation.committed, forKey: .op)
      try c.encode(time, forKey: .t)
    case .marked(let index, let photo, let marks, let time):
      try c.encode(Operation.mark, forKey: .op)
      try c.encode(index, forKey: .i)
      try c.encode(photo, forKey: .id)
      try c.encode(marks, forKey: .m)
      try c.encode(time, forKey: .t)
    case .skipped(let index, let photo, let time):
      try c.encode(Operation.skip, forKey: .op)
      try c.encode(index, forKey: .i)
      try c.encode(photo, forKey: .id)
      try c.encode(time, forKey: .t)
    case .rescanned(let change, let time):
      try c.encode(Operation.rescan, forKey: .op)
      try c.encode(change, forKey: .r)
      try c.encode(time, forKey: .t)
    }
  }
}
