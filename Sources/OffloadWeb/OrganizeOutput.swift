import Gestures
import Persistence

/// One message from the server to an organize page over its WebSocket, tagged by its `type`
/// member; the other members are those of its case (keys sorted, as every web answer). The
/// input side is ``OrganizeInput``.
///
/// ```json
/// {"type":"changed","version":"v7","done":"2 changes from phone"}
/// {"haptic":"grab","motion":{"duration":0.2,"rotation":2,"scale":1.03},"next":{…},"type":"lift"}
/// {"autoScroll":0,"blocked":false,"line":{"depth":1,"x":32,"y":88},"next":{…},"type":"target"}
/// {"done":"Moved","haptic":"drop","id":"k3","type":"dropped"}
/// ```
///
/// A stroke's answers carry the stroke's and the sample's numbers too (``Stamped``). The enum
/// is `Codable`: it reads back what it writes (`OrganizeOutput+Decoding.swift`).
enum OrganizeOutput: Encodable, Equatable {
  /// The watched view changed elsewhere: its new version, and what arrived from other devices
  /// (`done`) when some did.
  case changed(version: String, arrivals: String?)
  /// A message that was not taken.
  case error(String)
  /// The row follows the finger sideways; `past` once letting go deletes it.
  case swipe(offset: Double, opacity: Double, past: Bool)
  /// The row rests open, its quick actions shown (`offset` is negative).
  case reveal(id: String, offset: Double, motion: Motion)
  /// The revealed row closed, and why (`tap`, `request`, ...).
  case closed(id: String, reason: String, motion: Motion)
  /// A swipe that neither deletes nor reveals goes back.
  case swipeBack(motion: Motion)
  /// The stroke is a scroll: the page scrolls, the server says nothing more.
  case scroll
  /// The row cannot lift, and why (haptic `refusedDrop`).
  case liftRefused(reason: String)
  /// The row lifted (haptic `grab`), with the answers for the first move.
  case lift(motion: Motion, next: Next)
  /// Where the row would land: the line or the tint and its reason, the auto-scroll speed
  /// (points per second, signed), and the answers for the next move.
  case target(Answer, autoScroll: Double, next: Next)
  /// The stroke ended with nothing to settle but the row.
  case ended(motion: Motion)
  /// The row goes back where it was (see ``SnapBack``).
  case snapBack(SnapBack)
  /// The row was deleted (haptic `commit`); `done` names the change for undo, `made` is its
  /// history sequence (the page keeps it for its undo, `Workspace.undo(madeHere:)`).
  case deleted(id: String, done: String, view: OrganizeShapes.Collection, made: UInt64?)
  /// The drop is on stable storage (haptic `drop`); the rows that show it come in `view`;
  /// `made` is the change's history sequence.
  case dropped(id: String, made: UInt64?)
  /// The collection after a drop, `id` the row to focus.
  case view(id: String, view: OrganizeShapes.Collection)

  /// Why a row goes back where it was.
  enum SnapBack: Equatable {
    /// Let go with no target (or the stroke was cancelled).
    case released(Motion)
    /// Dropped where the rules refuse it (`blocked`, the reason, haptic `refusedDrop`).
    case blocked(id: String, reason: String, motion: Motion)
    /// The change failed (the reason is also the `error`, haptic `refusedDrop`).
    case failed(id: String, error: String, motion: Motion)
    /// The stroke could not begin (no row, no motion: the `error` only).
    case notBegun(error: String)
  }

  /// The insertion line: where it starts and at which depth.
  struct Line: Codable, Hashable {
    var x: Double
    var y: Double
    var depth: Int
  }

  /// How the row moves (`MotionSpec`): seconds, scale and degrees.
  struct Motion: Codable, Equatable {
    var duration: Double
    var scale: Double
    var rotation: Double
  }

  /// One answer the next sample may get: the line, or the tint and its reason.
  struct Answer: Codable, Hashable {
    var line: Line?
    var blocked: Bool?
    var reason: String?
  }

  /// The answers for the next sample near this one (`DropTargetResolver.regions`, resolved
  /// with this answer as `previous`): `cells` are `[minX, maxX, minY, maxY, answer]`, edges
  /// included, with `answer` an index into `answers`. The page draws the next line at once
  /// when its next sample, sent right after this answer, lands in a cell.
  struct Next: Codable, Equatable {
    var answers: [Answer]
    var cells: [[Double]]
  }

  /// A stroke's answer with the page's numbers: the stroke it belongs to and the sample it
  /// answers (when the page numbered them), as `stroke` and `sample` beside the message's own.
  struct Stamped: Encodable, WebJSONWritable {
    var output: OrganizeOutput
    var stroke: Int?
    var sample: Int?

    func encode(to encoder: any Encoder) throws {
      try Member.encode(members, to: encoder)
    }

    func writeJSON(to writer: inout CanonicalJSONWriter) -> Bool {
      Member.write(members, to: &writer)
    }

    private var members: [(String, Member)] {
      var members = output.members
      if let stroke { members.append(("stroke", .whole(stroke))) }
      if let sample { members.append(("sample", .whole(sample))) }
      return members
    }
  }

  /// The `type` member.
  var type: String {
    switch self {
    case .changed: "changed"
    case .error: "error"
    case .swipe: "swipe"
    case .reveal: "reveal"
    case .closed: "closed"
    case .swipeBack: "swipeBack"
    case .scroll: "scroll"
    case .liftRefused: "liftRefused"
    case .lift: "lift"
    case .target: "target"
    case .ended: "ended"
    case .snapBack: "snapBack"
    case .deleted: "deleted"
    case .dropped: "dropped"
    case .view: "view"
    }
  }

  /// The message's members, `type` among them, in no particular order: the one shape both
  /// ``encode(to:)`` and the JSON writer write.
  fileprivate var members: [(String, Member)] {
    var members: [(String, Member)] = [("type", .text(type))]
    switch self {
    case .scroll:
      break
    case .changed(let version, let arrivals):
      members.append(("version", .text(version)))
      if let arrivals { members.append(("done", .text(arrivals))) }
    case .error(let error):
      members.append(("error", .text(error)))
    case .swipe(let offset, let opacity, let past):
      members += [
        ("offset", .number(offset)), ("opacity", .number(opacity)), ("past", .flag(past)),
      ]
    case .reveal(let id, let offset, let motion):
      members += [("id", .text(id)), ("offset", .number(offset)), ("motion", .other(motion))]
    case .closed(let id, let reason, let motion):
      members += [("id", .text(id)), ("reason", .text(reason)), ("motion", .other(motion))]
    case .swipeBack(let motion), .ended(let motion), .snapBack(.released(let motion)):
      members.append(("motion", .other(motion)))
    case .liftRefused(let reason):
      members += [("reason", .text(reason)), ("haptic", .text("refusedDrop"))]
    case .lift(let motion, let next):
      members += [("haptic", .text("grab")), ("motion", .other(motion)), ("next", .other(next))]
    case .target(let answer, let autoScroll, let next):
      members += [("blocked", .flag(answer.blocked ?? false)), ("autoScroll", .number(autoScroll))]
      if let line = answer.line { members.append(("line", .other(line))) }
      if let reason = answer.reason { members.append(("reason", .text(reason))) }
      members.append(("next", .other(next)))
    case .snapBack(.blocked(let id, let reason, let motion)):
      members += [
        ("id", .text(id)), ("blocked", .flag(true)), ("reason", .text(reason)),
        ("haptic", .text("refusedDrop")), ("motion", .other(motion)),
      ]
    case .snapBack(.failed(let id, let error, let motion)):
      members += [
        ("id", .text(id)), ("reason", .text(error)), ("error", .text(error)),
        ("haptic", .text("refusedDrop")), ("motion", .other(motion)),
      ]
    case .snapBack(.notBegun(let error)):
      members.append(("error", .text(error)))
    case .deleted(let id, let done, let view, let made):
      members += [
        ("version", .text(view.version)), ("id", .text(id)), ("haptic", .text("commit")),
        ("done", .text(done)), ("view", .view(view)),
      ]
      if let made { members.append(("made", .whole(Int(clamping: made)))) }
    case .dropped(let id, let made):
      members += [("id", .text(id)), ("haptic", .text("drop")), ("done", .text("Moved"))]
      if let made { members.append(("made", .whole(Int(clamping: made)))) }
    case .view(let id, let view):
      members += [("version", .text(view.version)), ("id", .text(id)), ("view", .view(view))]
    }
    return members
  }

  func encode(to encoder: any Encoder) throws {
    try Member.encode(members, to: encoder)
  }
}

extension OrganizeOutput.Motion {
  /// The motion a cue's spec gives.
  init(_ spec: MotionSpec) {
    self.init(duration: spec.duration, scale: spec.scale, rotation: spec.rotationDegrees)
  }
}

extension OrganizeOutput: WebJSONWritable {
  /// Messages with numbers other than integers (a line, a motion, offsets) go through
  /// `JSONEncoder`, whose shortest number text this does not repeat; the rest, the view
  /// messages among them, are written here.
  func writeJSON(to writer: inout CanonicalJSONWriter) -> Bool {
    Member.write(members, to: &writer)
  }
}

/// One member's value of an ``OrganizeOutput``.
private enum Member {
  case text(String)
  case whole(Int)
  case flag(Bool)
  case number(Double)
  case view(OrganizeShapes.Collection)
  /// A value with numbers other than integers: through `JSONEncoder` only.
  case other(any Encodable)

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  static func encode(_ members: [(String, Member)], to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Key.self)
    for (name, value) in members {
      let key = Key(stringValue: name)
      switch value {
      case .text(let text): try c.encode(text, forKey: key)
      case .whole(let number): try c.encode(number, forKey: key)
      case .flag(let flag): try c.encode(flag, forKey: key)
      case .number(let number): try c.encode(number, forKey: key)
      case .view(let view): try c.encode(view, forKey: key)
      case .other(let value): try c.encode(value, forKey: key)
      }
    }
  }

  /// Writes the members in key order, or returns false (having written nothing) when one of
  /// them holds a number other than an integer.
  static func write(_ members: [(String, Member)], to writer: inout CanonicalJSONWriter) -> Bool {
    for (_, value) in members {
      switch value {
      case .number, .other: return false
      default: continue
      }
    }
    writer.beginObject()
    for (name, value) in members.sorted(by: { $0.0 < $1.0 }) {
      writer.key(string: name)
      switch value {
      case .text(let text): writer.string(text)
      case .whole(let number): writer.integer(number)
      case .flag(let flag): writer.bool(flag)
      case .view(let view): _ = view.writeJSON(to: &writer)
      case .number, .other: break
      }
    }
    writer.endObject()
    return true
  }
}
