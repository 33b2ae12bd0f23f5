/// Resolves the competition between the gestures of a surface, touch sample by touch sample.
///
/// Feed every touch sample with ``feed(_:)`` and call ``advance(to:)`` from your frame clock so
/// the long-press timeout can fire while the finger rests; read ``events`` after each call.
/// The arena follows the first pointer down and ignores others until it lifts.
///
/// Resolution is deterministic: every possible gesture bids on each sample (wait, claim or
/// fail); failures are applied first, then among the claims the highest priority wins, a
/// gesture whose require-to-fail gestures are still possible waits, and equal priorities break
/// by ``GestureKind`` order. The winner takes the touch for the rest of the gesture; every
/// other gesture fails. The direction lock (``DirectionLock``) decides scroll against row
/// swipe and holds for the whole gesture.
///
/// ```swift
/// var arena = GestureArena(surface: .listRow, configuration: GesturePreset.ios.configuration)
/// arena.feed(TouchSample(time: 0, x: 200, y: 300, phase: .began))
/// arena.feed(TouchSample(time: 0.05, x: 150, y: 302, phase: .moved))
/// arena.winner  // .rowSwipe
/// for event in arena.events { draw(event) }
/// ```
///
/// Steady-state feeding allocates nothing: the event buffer and the velocity tracker's
/// storage are allocated once, when the arena is made.
public struct GestureArena: Sendable {
  /// The competing gestures.
  public let surface: GestureSurface
  /// The thresholds.
  public let configuration: GestureConfiguration

  /// The events produced by the last call to ``feed(_:)``, ``advance(to:)`` or
  /// ``perform(_:at:)``.
  public internal(set) var events: [GestureEvent] = []
  /// The gesture that won the current (or last) touch, if any.
  public private(set) var winner: GestureKind?
  /// When and how far into the touch the winner was chosen.
  public private(set) var decision: (kind: GestureKind, time: Double, distance: Double)?
  /// Whether a touch is being followed.
  public private(set) var isTracking = false
  /// The direction lock of the current (or last) touch.
  public private(set) var lock = DirectionLock()

  /// The members in resolution order: priority descending, then kind order.
  let order: [GestureKind]
  /// For each kind (by ``GestureKind/order``): the bit mask of kinds it requires to fail.
  private let requirements: [UInt8]
  /// For each kind: its state, or nil when it is not a member.
  var states: [RecognizerState?]
  private var track = TouchTrack()
  private var tracker: VelocityTracker
  private let tap = TapRecognizer()
  private var longPress = PressRecognizer(kind: .longPress)
  private var reorder = PressRecognizer(kind: .reorder)
  /// Whether a member claims the touch on touch-down (a reorder handle).
  private var startsOnTouchDown = false
  private let scroll = ScrollRecognizer()
  var rowSwipe = RowSwipeRecognizer()
  private var deck: DeckSwipeRecognizer

  /// Creates an arena for a surface.
  ///
  /// - Complexity: O(*m*²), where *m* is the number of members.
  public init(surface: GestureSurface, configuration: GestureConfiguration) {
    self.surface = surface
    self.configuration = configuration
    var states = [RecognizerState?](repeating: nil, count: 6)
    var requirements = [UInt8](repeating: 0, count: 6)
    for member in surface.members {
      states[member.kind.order] = .possible
      if member.startsOnTouchDown && member.kind == .longPress {
        longPress.startsOnTouchDown = true
        startsOnTouchDown = true
      }
      if member.startsOnTouchDown && member.kind == .reorder {
        reorder.startsOnTouchDown = true
        startsOnTouchDown = true
      }
      for required in member.requiresFailureOf where surface.contains(required) {
        requirements[member.kind.order] |= 1 << UInt8(required.order)
      }
    }
    self.states = states
    self.requirements = requirements
    order = surface.members.sorted {
      $0.priority != $1.priority ? $0.priority > $1.priority : $0.kind < $1.kind
    }.map(\.kind)
    tracker = configuration.makeVelocityTracker()
    deck = DeckSwipeRecognizer(configuration: configuration)
    events.reserveCapacity(64)
  }

  /// The state of a member gesture, or nil when the surface does not have it.
  public func state(of kind: GestureKind) -> RecognizerState? {
    states[kind.order]
  }

  /// Whether the row rests open, showing its quick actions (after a row swipe released at
  /// least half the reveal width out; see ``GestureConfiguration/rowSwipeRevealWidth``).
  ///
  /// The next touch starts from there: a row swipe moves the open row, a tap or a scroll
  /// closes it (``GestureEvent/rowRevealClosed(_:time:)``), and so does
  /// ``closeRevealedRow(at:reason:)``.
  public var isRowRevealed: Bool { rowSwipe.isRevealed }

  /// Closes a revealed row for a reason the arena cannot see (a touch on another row or on
  /// the list's background, a quick action performed) and replaces ``events`` with
  /// ``GestureEvent/rowRevealClosed(_:time:)`` and the row spring, or with nothing when no row
  /// is revealed or a touch is being followed (its own gesture decides then).
  ///
  /// - Parameters:
  ///   - time: When, in the samples' clock.
  ///   - reason: Why; ``RowRevealCloseReason/request`` unless you know better (a scroll of
  ///     the list seen by another arena is ``RowRevealCloseReason/scroll``).
  /// - Returns: The events.
  @discardableResult
  public mutating func closeRevealedRow(
    at time: Double, reason: RowRevealCloseReason = .request
  ) -> [GestureEvent] {
    events.removeAll(keepingCapacity: true)
    if !isTracking { rowSwipe.close(reason, at: time, events: &events) }
    return events
  }

  /// The displacement of the followed touch from where it went down.
  public var translation: TouchPoint { track.translation }

  /// The current velocity estimate of the followed touch.
  ///
  /// - Complexity: O(*h*), where *h* is the velocity history size.
  public var velocity: Velocity {
    tracker.velocity().clamped(to: configuration.maximumFlingVelocity)
  }

  // MARK: Feeding

  /// Processes one touch sample and replaces ``events`` with what it caused.
  ///
  /// A `began` sample while a touch is followed cancels that touch first (a lost `ended`).
  /// Samples of other pointers are ignored while a touch is followed, as are samples that
  /// arrive with no touch followed and are not `began`.
  ///
  /// - Complexity: O(*m* + *h*), where *m* is the number of members and *h* the velocity
  ///   history size.
  @discardableResult
  public mutating func feed(_ sample: TouchSample) -> [GestureEvent] {
    defer { assert(invariantsHold(), "GestureArena invariants broken") }
    events.removeAll(keepingCapacity: true)
    if sample.phase == .began {
      if isTracking {
        if sample.pointer != track.pointer { return events }
        endTouch(cancelled: true)
      }
      startTouch(sample)
      return events
    }
    guard isTracking, sample.pointer == track.pointer else { return events }
    fireTimeouts(upTo: sample.time)
    track.move(sample)
    tracker.add(time: track.time, location: sample.location)
    switch sample.phase {
    case .began, .moved:
      if let winner {
        update(winner)
      } else {
        updateLock(final: false)
        resolve(phase: .moved, time: track.time)
      }
    case .ended:
      endTouch(cancelled: false)
    case .cancelled:
      endTouch(cancelled: true)
    }
    return events
  }

  /// Lets time pass without a sample, so timeouts (the long press) fire at their moment.
  ///
  /// Call it from the display's frame clock with the samples' clock. Replaces ``events``.
  ///
  /// - Complexity: O(*m*), where *m* is the number of members.
  @discardableResult
  public mutating func advance(to time: Double) -> [GestureEvent] {
    defer { assert(invariantsHold(), "GestureArena invariants broken") }
    events.removeAll(keepingCapacity: true)
    fireTimeouts(upTo: time)
    return events
  }

  /// The pointer being followed, if any.
  public var trackedPointer: Int? { isTracking ? track.pointer : nil }

  /// Cancels the followed touch (the system took it away) and replaces ``events`` with what
  /// that caused: the winner is cancelled, every possible gesture fails.
  ///
  /// - Complexity: O(*m* + *h*).
  @discardableResult
  public mutating func cancel(at time: Double) -> [GestureEvent] {
    defer { assert(invariantsHold(), "GestureArena invariants broken") }
    events.removeAll(keepingCapacity: true)
    guard isTracking else { return events }
    track.time = max(track.time, time)
    endTouch(cancelled: true)
    return events
  }

  // MARK: Internals

  /// Clears the events and cancels a followed touch before an accessibility action.
  mutating func cancelForAccessibility(at time: Double) {
    events.removeAll(keepingCapacity: true)
    if isTracking {
      track.time = max(track.time, time)
      endTouch(cancelled: true)
    }
    for member in order { states[member.order] = .possible }
  }

  /// Records an accessibility action's gesture as the decision, ended.
  mutating func record(_ kind: GestureKind, at time: Double) {
    winner = kind
    decision = (kind, time, 0)
    for member in order where member != kind { states[member.order] = .failed }
    states[kind.order] = .ended
    // A deleted row is gone; a moved one closes its actions.
    if rowSwipe.isRevealed { rowSwipe.isRevealed = false }
  }

  private mutating func startTouch(_ sample: TouchSample) {
    track.begin(sample)
    tracker.reset()
    tracker.add(time: sample.time, location: sample.location)
    lock.reset()
    deck.reset()
    winner = nil
    decision = nil
    isTracking = true
    for member in order { states[member.order] = .possible }
    if startsOnTouchDown { resolve(phase: .began, time: sample.time) }
  }

  /// Fires the long-press timeout if it falls at or before `time`.
  private mutating func fireTimeouts(upTo time: Double) {
    guard isTracking, winner == nil else { return }
    let deadline = track.startTime + configuration.longPressDuration
    guard time >= deadline, track.maximumDistance <= configuration.longPressSlop else { return }
    let pressPossible =
      states[GestureKind.longPress.order] == .possible
      || states[GestureKind.reorder.order] == .possible
    guard pressPossible else { return }
    let saved = track.time
    track.time = max(track.time, deadline)
    resolve(phase: .moved, time: deadline)
    if winner == nil { track.time = saved }
  }

  private mutating func updateLock(final: Bool) {
    if let axis = lock.update(track.translation, final: final, configuration: configuration) {
      events.append(.axisLocked(axis, time: track.time, distance: lock.distance))
    }
  }

  private func bid(_ kind: GestureKind, phase: TouchPhase) -> Bid {
    switch kind {
    case .tap: tap.bid(track, phase: phase, configuration: configuration)
    case .longPress: longPress.bid(track, phase: phase, configuration: configuration)
    case .reorder: reorder.bid(track, phase: phase, configuration: configuration)
    case .scroll: scroll.bid(lock: lock.axis, phase: phase)
    case .rowSwipe: rowSwipe.bid(lock: lock.axis, phase: phase)
    case .deckSwipe: deck.bid(track, phase: phase, configuration: configuration)
    }
  }

  /// One round of the arena: failures first, then the best eligible claim wins.
  private mutating func resolve(phase: TouchPhase, time: Double) {
    var claims: UInt8 = 0
    for kind in order where states[kind.order] == .possible {
      switch bid(kind, phase: phase) {
      case .fail:
        states[kind.order] = .failed
        events.append(.state(kind, .failed, time: time))
      case .claim: claims |= 1 << UInt8(kind.order)
      case .wait: break
      }
    }
    guard claims != 0 else { return }
    var possible: UInt8 = 0
    for kind in order where states[kind.order] == .possible {
      possible |= 1 << UInt8(kind.order)
    }
    for kind in order where claims & (1 << UInt8(kind.order)) != 0 {
      if requirements[kind.order] & possible != 0 { continue }
      win(kind, time: time)
      return
    }
  }

  private mutating func win(_ kind: GestureKind, time: Double) {
    winner = kind
    decision = (kind, time, track.distance)
    events.append(.decided(kind, time: time, distance: track.distance))
    for other in order where other != kind && states[other.order] == .possible {
      states[other.order] = .failed
      events.append(.state(other, .failed, time: time))
    }
    switch kind {
    case .tap:
      states[kind.order] = .ended
      // A tap on a revealed row closes its quick actions and does nothing else.
      if rowSwipe.isRevealed {
        rowSwipe.close(.tap, at: time, events: &events)
      } else {
        tap.recognize(track, events: &events)
      }
    case .longPress:
      states[kind.order] = .began
      rowSwipe.close(.press, at: time, events: &events)
      longPress.begin(track, at: time, events: &events)
    case .reorder:
      states[kind.order] = .began
      rowSwipe.close(.press, at: time, events: &events)
      reorder.begin(track, at: time, events: &events)
    case .scroll:
      states[kind.order] = .began
      rowSwipe.close(.scroll, at: time, events: &events)
      scroll.report(.began, track, velocity: velocity, events: &events)
    case .rowSwipe:
      states[kind.order] = .began
      rowSwipe.report(
        .began, track, tracker: tracker, configuration: configuration, events: &events)
    case .deckSwipe:
      states[kind.order] = .began
      deck.report(.began, track, configuration: configuration, events: &events)
    }
  }

  private mutating func update(_ kind: GestureKind) {
    guard states[kind.order] == .began || states[kind.order] == .changed else { return }
    states[kind.order] = .changed
    switch kind {
    case .tap: break
    case .longPress: longPress.update(track, events: &events)
    case .reorder: reorder.update(track, events: &events)
    case .scroll: scroll.report(.changed, track, velocity: velocity, events: &events)
    case .rowSwipe:
      rowSwipe.report(
        .changed, track, tracker: tracker, configuration: configuration, events: &events)
    case .deckSwipe:
      deck.report(.changed, track, configuration: configuration, events: &events)
    }
  }

  private mutating func endTouch(cancelled: Bool) {
    defer { isTracking = false }
    if winner == nil {
      // A cancelled touch decides nothing; a lifted one gets a last round (a tap, or a pan
      // whose axis the whole displacement decides).
      if !cancelled {
        updateLock(final: true)
        resolve(phase: .ended, time: track.time)
      }
      // Whatever is still possible cannot be recognized any more.
      for kind in order where states[kind.order] == .possible {
        states[kind.order] = .failed
        events.append(.state(kind, .failed, time: track.time))
      }
    }
    guard let winner, states[winner.order] != .ended else { return }
    let final: RecognizerState = cancelled ? .cancelled : .ended
    states[winner.order] = final
    switch winner {
    case .tap: break
    case .longPress: longPress.finish(track, cancelled: cancelled, events: &events)
    case .reorder: reorder.finish(track, cancelled: cancelled, events: &events)
    case .scroll: scroll.report(final, track, velocity: velocity, events: &events)
    case .rowSwipe:
      rowSwipe.finish(
        track, tracker: tracker, cancelled: cancelled, configuration: configuration,
        events: &events)
    case .deckSwipe:
      deck.finish(
        track, velocity: velocity, cancelled: cancelled, configuration: configuration,
        events: &events)
    }
  }
}
