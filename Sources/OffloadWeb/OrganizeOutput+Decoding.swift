import Foundation

extension OrganizeOutput: Decodable {
  private enum Key: String, CodingKey {
    case type, version, done, error, offset, opacity, past, id, reason, motion, next, blocked
    case autoScroll, line, view, made
  }

  /// Reads a message as ``encode(to:)`` writes it (what a page receives): the members its
  /// `type` needs. A `snapBack` is read by what it holds: `blocked` (blocked), a motion and an
  /// `error` (failed), a motion alone (let go), an `error` alone (not begun).
  ///
  /// - Throws: `DecodingError` naming the member that is missing or of the wrong kind, or the
  ///   unknown `type`.
  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Key.self)
    func text(_ key: Key) throws -> String { try c.decode(String.self, forKey: key) }
    func number(_ key: Key) throws -> Double { try c.decode(Double.self, forKey: key) }
    func motion() throws -> Motion { try c.decode(Motion.self, forKey: .motion) }
    func next() throws -> Next { try c.decode(Next.self, forKey: .next) }
    func view() throws -> OrganizeShapes.Collection {
      try c.decode(OrganizeShapes.Collection.self, forKey: .view)
    }
    switch try text(.type) {
    case "changed":
      self = .changed(
        version: try text(.version), arrivals: try c.decodeIfPresent(String.self, forKey: .done))
    case "error": self = .error(try text(.error))
    case "swipe":
      self = .swipe(
        offset: try number(.offset), opacity: try number(.opacity),
        past: try c.decode(Bool.self, forKey: .past))
    case "reveal":
      self = .reveal(id: try text(.id), offset: try number(.offset), motion: try motion())
    case "closed":
      self = .closed(id: try text(.id), reason: try text(.reason), motion: try motion())
    case "swipeBack": self = .swipeBack(motion: try motion())
    case "scroll": self = .scroll
    case "liftRefused": self = .liftRefused(reason: try text(.reason))
    case "lift": self = .lift(motion: try motion(), next: try next())
    case "target":
      let answer = Answer(
        line: try c.decodeIfPresent(Line.self, forKey: .line),
        blocked: try c.decode(Bool.self, forKey: .blocked) ? true : nil,
        reason: try c.decodeIfPresent(String.self, forKey: .reason))
      self = .target(answer, autoScroll: try number(.autoScroll), next: try next())
    case "ended": self = .ended(motion: try motion())
    case "snapBack":
      if c.contains(.blocked) {
        self = .snapBack(
          .blocked(id: try text(.id), reason: try text(.reason), motion: try motion()))
      } else if c.contains(.motion) && c.contains(.error) {
        self = .snapBack(.failed(id: try text(.id), error: try text(.error), motion: try motion()))
      } else if c.contains(.motion) {
        self = .snapBack(.released(try motion()))
      } else {
        self = .snapBack(.notBegun(error: try text(.error)))
      }
    case "deleted":
      self = .deleted(
        id: try text(.id), done: try text(.done), view: try view(),
        made: try c.decodeIfPresent(UInt64.self, forKey: .made))
    case "dropped":
      self = .dropped(id: try text(.id), made: try c.decodeIfPresent(UInt64.self, forKey: .made))
    case "view": self = .view(id: try text(.id), view: try view())
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: c, debugDescription: "not an organize message type")
    }
  }
}
