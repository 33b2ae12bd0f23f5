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
    func index() throws -> Int { try c.decode(Int.self, forKey: .i) }
    func photo() throws -> String { try c.decode(String.self, forKey: .id) }
    func decision() throws -> PhotoDecision { try c.decode(PhotoDecision.self, forKey: .d) }
    func time() throws -> Double { try c.decode(Double.self, forKey: .t) }
    switch try c.decode(Operation.self, forKey: .op) {
    case .decide:
      self = .decided(
        index: try index(), photo: try photo(), decision: try decision(), time: try time())
    case .undo: self = .undone(time: try time())
    case .change:
      self = .changed(
        index: try index(), photo: try photo(), decision: try decision(), time: try time())
    case .commit: self = .commitStarted(time: try time())
    case .intent:
      self = .commitIntent(index: try index(), photo: try photo(), decision: try decision())
    case .result:
      self = .commitResult(
        index: try index(), photo: try photo(),
        failure: try c.decodeIfPresent(PhotoSessionError.Code.self, forKey: .fail),
        detail: try c.decode(String.self, forKey: .detail))
    case .committed: self = .commitFinished(time: try time())
    case .mark:
      self = .marked(
        index: try index(), photo: try photo(), marks: try c.decode(PhotoMarks.self, forKey: .m),
        time: try time())
    case .skip: self = .skipped(index: try index(), photo: try photo(), time: try time())
    case .rescan:
      self = .rescanned(try c.decode(RescanLedger.self, forKey: .r), time: try time())
    }
  }

  /// An event's fields in its journal form: each case fills the ones it has, and the rest are
  /// left out of the line.
  private struct Fields {
    var op: Operation
    var index: Int? = nil
    var photo: String? = nil
    var decision: PhotoDecision? = nil
    var failure: PhotoSessionError.Code? = nil
    var detail: String? = nil
    var marks: PhotoMarks? = nil
    var ledger: RescanLedger? = nil
    var time: Double? = nil
  }

  /// The event's fields.
  private var fields: Fields {
    switch self {
    case .decided(let index, let photo, let decision, let time):
      Fields(op: .decide, index: index, photo: photo, decision: decision, time: time)
    case .undone(let time): Fields(op: .undo, time: time)
    case .changed(let index, let photo, let decision, let time):
      Fields(op: .change, index: index, photo: photo, decision: decision, time: time)
    case .commitStarted(let time): Fields(op: .commit, time: time)
    case .commitIntent(let index, let photo, let decision):
      Fields(op: .intent, index: index, photo: photo, decision: decision)
    case .commitResult(let index, let photo, let failure, let detail):
      Fields(op: .result, index: index, photo: photo, failure: failure, detail: detail)
    case .commitFinished(let time): Fields(op: .committed, time: time)
    case .marked(let index, let photo, let marks, let time):
      Fields(op: .mark, index: index, photo: photo, marks: marks, time: time)
    case .skipped(let index, let photo, let time):
      Fields(op: .skip, index: index, photo: photo, time: time)
    case .rescanned(let change, let time): Fields(op: .rescan, ledger: change, time: time)
    }
  }

  /// Encodes the event in its compact journal form (`op`, `i`, `id`, `d`, `m`, `t`, ...).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    let fields = fields
    try c.encode(fields.op, forKey: .op)
    try c.encodeIfPresent(fields.index, forKey: .i)
    try c.encodeIfPresent(fields.photo, forKey: .id)
    try c.encodeIfPresent(fields.decision, forKey: .d)
    try c.encodeIfPresent(fields.failure, forKey: .fail)
    try c.encodeIfPresent(fields.detail, forKey: .detail)
    try c.encodeIfPresent(fields.marks, forKey: .m)
    try c.encodeIfPresent(fields.ledger, forKey: .r)
    try c.encodeIfPresent(fields.time, forKey: .t)
  }
}
