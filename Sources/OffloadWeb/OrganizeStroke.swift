import Foundation
import Gestures
import Offload

/// One stroke on a row: the Gestures arena (the `listRow` surface for a touch on the row, the
/// `reorderHandle` surface for the handle) fed with the page's samples, and, once the row
/// lifts, the drop-target resolver run over the visible rows at every move.
struct OrganizeStroke {
  /// What the stroke asks the channel to do once a sample is fed.
  enum Effect: Equatable {
    /// Delete the row (a quick swipe past the commit distance).
    case delete
    /// Drop the row on the target (allowed or blocked).
    case drop(DropTarget<ShortID>)
  }

  let collection: String
  let version: String
  let id: ShortID
  /// The page's number for the stroke (a revealed row's next stroke takes the new number).
  var number: Int?
  let rules: PlacementRules<ShortID>
  /// The collection as the page showed it when the stroke began (at `version`).
  var shown: CollectionTree?
  let reduceMotion: Bool
  var arena: GestureArena
  var rows: [DropRow<ShortID>] = []
  var configuration: DropConfiguration
  /// The last target, for the resolver's hysteresis.
  var previous: DropInstruction<ShortID>?
  var lifted = false
  /// Why the row cannot lift, once it tried.
  var liftRefusal: DropRefusal?
  /// The time of the first stroke the arena saw, in seconds of the page's clock: the arena's
  /// clock starts there, and a revealed row's next stroke keeps it.
  private let origin: Double

  /// The width of a row's quick actions (Move and Delete, 72 pt each), in points: a swipe
  /// released at least half this far out (and not a delete) leaves them open.
  static let actionsWidth = 144.0

  init(
    collection: String, version: String, id: ShortID, rules: PlacementRules<ShortID>, handle: Bool,
    begin: OrganizeInput.Begin, geometry: OrganizeInput.Geometry, time: Double
  ) {
    self.collection = collection
    self.version = version
    self.id = id
    self.rules = rules
    number = begin.stroke
    reduceMotion = begin.reduceMotion ?? false
    var gestures = GesturePreset.ios.configuration
    gestures.reduceMotion = reduceMotion
    // A row's quick actions are for a touch on the row; the handle only reorders.
    gestures.rowSwipeRevealWidth = handle ? 0 : Self.actionsWidth
    arena = GestureArena(surface: handle ? .reorderHandle : .listRow, configuration: gestures)
    origin = time
    configuration = rules.dropConfiguration
    update(geometry)
  }

  /// Whether a stroke the page begins continues this one's arena: on the same row of the same
  /// collection at the same version, touched on the row (the arena keeps the row revealed
  /// between strokes, so its next touch starts from the open row).
  func continues(_ begin: OrganizeInput.Begin) -> Bool {
    begin.collection == collection && begin.version == version && begin.id == id.rawValue
      && begin.surface != "handle"
  }

  /// Starts the page's next stroke on this arena (after ``continues(_:)``).
  mutating func resume(_ begin: OrganizeInput.Begin, geometry: OrganizeInput.Geometry) {
    number = begin.stroke
    previous = nil
    lifted = false
    liftRefusal = nil
    update(geometry)
  }

  /// Closes the revealed row for a reason the arena cannot see (a touch elsewhere, a quick
  /// action performed): the page's `closed` answer, or none when the row is not revealed.
  mutating func close(milliseconds: Double) -> [OrganizeOutput] {
    let time = max(0, milliseconds / 1000 - origin)
    return arena.closeRevealedRow(at: time).compactMap { event in
      if case .rowRevealClosed(let reason, _) = event { closed(reason) } else { nil }
    }
  }

  private func closed(_ reason: RowRevealCloseReason) -> OrganizeOutput {
    .closed(id: id.rawValue, reason: reason.rawValue, motion: motion(.rowSnapBack))
  }

  /// Takes the page's geometry: rows, viewport and indentation.
  mutating func update(_ input: OrganizeInput.Geometry) {
    if let frames = input.rows {
      rows = frames.prefix(OrganizeChannel.visibleRows).compactMap { frame in
        guard let id = ShortID(frame.i), frame.y.isFinite, frame.h.isFinite, frame.h > 0 else {
          return nil
        }
        return DropRow(
          id: id, minY: frame.y, height: frame.h, depth: max(0, min(frame.d, 64)),
          isExpanded: frame.o ?? false,
          acceptsChildren: rules.acceptsChildren(id, depth: frame.d))
      }
    }
    if let top = input.top, let bottom = input.bottom, top.isFinite, bottom.isFinite, top < bottom {
      configuration.viewportMinY = top
      configuration.viewportMaxY = bottom
    }
    if let x = input.originX, x.isFinite { configuration.originX = x }
    if let width = input.indent, width.isFinite, width > 0 {
      configuration.indentationWidth = width
    }
  }

  /// Feeds a sample (or, with `phase` nil, lets time pass); returns the page's messages and
  /// what the channel must do.
  ///
  /// - Complexity: O(*n*) per move once lifted, where *n* is the number of visible rows.
  mutating func feed(phase: TouchPhase?, milliseconds: Double, x: Double, y: Double, pointer: Int)
    -> (messages: [OrganizeOutput], effect: Effect?)
  {
    let time = max(0, milliseconds / 1000 - origin)
    let events: [GestureEvent]
    if let phase {
      events = arena.feed(TouchSample(time: time, x: x, y: y, phase: phase, pointer: pointer))
    } else {
      events = arena.advance(to: time)
    }
    var messages: [OrganizeOutput] = []
    var effect: Effect?
    for event in events {
      switch event {
      case .rowSwipe(let frame, _):
        messages.append(
          .swipe(offset: frame.offset, opacity: frame.trashOpacity, past: frame.pastCommit))
      case .rowSwipeFinished(.delete, _):
        effect = .delete
      case .rowSwipeFinished(.reveal, _):
        messages.append(
          .reveal(
            id: id.rawValue, offset: -arena.configuration.rowSwipeRevealWidth,
            motion: motion(.rowSnapBack)))
      case .rowRevealClosed(let reason, _):
        messages.append(closed(reason))
      case .rowSwipeFinished(.snapBack, _):
        messages.append(.swipeBack(motion: motion(.rowSnapBack)))
      case .decided(.scroll, _, _):
        messages.append(.scroll)
      case .reorder(.lift, let point, _):
        if let refusal = DropTargetResolver.canLift([id], rules: rules.policy) {
          liftRefusal = refusal
          messages.append(.liftRefused(reason: refusal.reason))
        } else {
          lifted = true
          // With the answers for the first move, so its line is drawn ahead too.
          messages.append(.lift(motion: motion(.lift), next: next(around: point)))
        }
      case .reorder(.move, let point, _):
        if lifted { messages.append(target(at: point)) }
      case .reorder(.drop, let point, _):
        guard lifted else { break }
        let resolution = resolve(point)
        if let target = resolution.target {
          effect = .drop(target)
        } else {
          messages.append(.snapBack(.released(motion(.snapBack))))
        }
      case .reorder(.cancel, _, _):
        if lifted { messages.append(.snapBack(.released(motion(.snapBack)))) }
      default:
        break
      }
    }
    // Every stroke ends with one answer the page can settle on.
    let terminal: Set<String> = ["swipeBack", "snapBack", "reveal", "closed"]
    if phase == .ended || phase == .cancelled, effect == nil,
      !messages.contains(where: { terminal.contains($0.type) })
    {
      messages.append(.ended(motion: motion(.rowSnapBack)))
    }
    return (messages, effect)
  }

  /// Re-resolves at the last point (after a scroll changed the rows or the viewport).
  mutating func retarget(x: Double, y: Double) -> OrganizeOutput? {
    lifted ? target(at: TouchPoint(x: x, y: y)) : nil
  }

  private mutating func resolve(_ point: TouchPoint) -> DropResolution<ShortID> {
    let resolution = DropTargetResolver.resolve(
      pointer: point, rows: rows, dragged: [id], rules: rules.policy,
      configuration: configuration, previous: previous)
    previous = resolution.target?.instruction
    return resolution
  }

  /// How far from the pointer the next sample's answers are sent, in points: more than a
  /// fast drag moves in one sample.
  static let predictionRadius = 96.0

  private mutating func target(at point: TouchPoint) -> OrganizeOutput {
    let resolution = resolve(point)
    let here = Self.answer(
      DropAnswer(
        target: resolution.target, line: resolution.line,
        showsInvalidTint: resolution.showsInvalidTint))
    return .target(here, autoScroll: resolution.autoScrollSpeed, next: next(around: point))
  }

  /// The answers near a point for the sample after it, with the current target as `previous`.
  ///
  /// - Complexity: that of `DropTargetResolver.regions`.
  private func next(around point: TouchPoint) -> OrganizeOutput.Next {
    let regions = DropTargetResolver.regions(
      around: point, radius: Self.predictionRadius, rows: rows, dragged: [id],
      rules: rules.policy, configuration: configuration, previous: previous)
    var answers: [OrganizeOutput.Answer] = []
    var numbers: [OrganizeOutput.Answer: Int] = [:]
    var cells: [[Double]] = []
    cells.reserveCapacity(regions.count)
    for region in regions {
      let answer = Self.answer(region.answer)
      let number: Int
      if let known = numbers[answer] {
        number = known
      } else {
        number = answers.count
        numbers[answer] = number
        answers.append(answer)
      }
      cells.append([region.minX, region.maxX, region.minY, region.maxY, Double(number)])
    }
    return OrganizeOutput.Next(answers: answers, cells: cells)
  }

  /// What the page draws for an answer: the line, or the tint and the refusal's reason.
  private static func answer(_ answer: DropAnswer<ShortID>) -> OrganizeOutput.Answer {
    var reason: String?
    if case .blocked(let refusal, _)? = answer.target { reason = refusal.reason }
    return OrganizeOutput.Answer(
      line: answer.line.map { OrganizeOutput.Line(x: $0.x, y: $0.y, depth: $0.depth) },
      blocked: answer.showsInvalidTint ? true : nil, reason: reason)
  }

  func motion(_ cue: MotionCue) -> OrganizeOutput.Motion {
    OrganizeOutput.Motion(MotionSpec.for(cue, reduceMotion: reduceMotion))
  }
}
