import Foundation
import Gestures
import Observation
import OffloadTestSupport
import Synchronization
import Testing

/// The examples of Gestures' doc comments and DocC catalog, compiled and run here (the guide's
/// are in `Tests/OffloadTests/GesturesGuideTests.swift`, which needs `OrderedForest`);
/// `everyExampleIsHere` fails when an example is written that neither file holds.
///
/// The catalog's SwiftUI and UIKit examples are compiled on every platform against the
/// stand-ins of `SwiftUIExample` and `UIKitExample` below (the names of the frameworks' types,
/// with what the examples use), and run: their drags, resting fingers and cancelled touches
/// are driven by the tests.
@Suite("Gestures: documentation examples compile and do what they say")
struct DocExampleTests {
  @Test func everyExampleIsHere() {
    let root = DocExamples.packageRoot(from: #filePath)
    let blocks = DocExamples.blocks(
      module: "Gestures", guides: ["Docs/Guides/Gestures.md"], root: root)
    #expect(blocks.count >= 13)
    let missing = DocExamples.missing(
      blocks,
      in: [
        "Tests/GesturesTests/DocExampleTests.swift", "Tests/OffloadTests/GesturesGuideTests.swift",
      ], root: root)
    #expect(missing.isEmpty, "examples not compiled by a test: \(missing)")
  }

  @Test func liftMotion() {
    let lift = MotionSpec.for(.lift, reduceMotion: false)
    lift.scale  // 1.025
    lift.rotationDegrees  // 2
    lift.shadow?.opacity  // 0.25: the lifted row casts a shadow
    #expect(lift.scale == 1.025 && lift.rotationDegrees == 2 && lift.shadow?.opacity == 0.25)
  }

  @Test func configurationFromAPreset() {
    var configuration = GesturePreset.ios.configuration
    configuration.rowSwipeCommitDistance = 120
    configuration.deckContainerWidth = 430
    #expect(configuration != GesturePreset.ios.configuration)
    #expect(configuration.rowSwipeCommitDistance == 120 && configuration.deckContainerWidth == 430)
    #expect(configuration.rowSwipeQuickSpeed == GesturePreset.ios.configuration.rowSwipeQuickSpeed)
  }

  @Test func quickRowSwipe() {
    let ios = GesturePreset.ios.configuration
    ios.isQuickRowSwipe(distance: 140, duration: 0.25)  // true: 560 pt/s
    ios.isQuickRowSwipe(distance: 200, duration: 2)  // false: 100 pt/s
    #expect(ios.isQuickRowSwipe(distance: 140, duration: 0.25))
    #expect(!ios.isQuickRowSwipe(distance: 200, duration: 2))
    #expect(ios.rowSwipeQuickSpeed > 100 && ios.rowSwipeQuickSpeed <= 560)
  }

  @Test func errorNamesTheLine() {
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }
    do {
      _ = try GestureTrace(lines: [.init(type: "sample", phase: "began")])
    } catch {
      print(error)  // trace line 1: missing field "t"
    }
    #expect(printed == ["trace line 1: missing field \"t\""])
  }

  @Test func touchSamples() {
    let down = TouchSample(time: 0, location: TouchPoint(x: 120, y: 300), phase: .began)
    let move = TouchSample(time: 0.016, pixelX: 320, pixelY: 790, phase: .moved, density: 2.625)
    #expect(down.location == TouchPoint(x: 120, y: 300) && down.phase == .began)
    // Device pixels over the density: points.
    #expect(abs(move.location.x - 320 / 2.625) < 1e-9 && abs(move.location.y - 790 / 2.625) < 1e-9)
  }

  @Test func velocity() {
    var tracker = VelocityTracker()
    tracker.add(time: 0.000, location: TouchPoint(x: 0, y: 0))
    tracker.add(time: 0.016, location: TouchPoint(x: 8, y: 0))
    tracker.add(time: 0.032, location: TouchPoint(x: 16, y: 0))
    tracker.velocity()  // (500.0, 0.0) pt/s
    #expect(abs(tracker.velocity().dx - 500) < 1e-6 && tracker.velocity().dy == 0)
    #expect(tracker.velocity().description.hasSuffix(" pt/s"))
  }

  @Test func arenaDecidesARowSwipe() {
    var drawn: [GestureEvent] = []
    func draw(_ event: GestureEvent) { drawn.append(event) }
    var arena = GestureArena(surface: .listRow, configuration: GesturePreset.ios.configuration)
    arena.feed(TouchSample(time: 0, x: 200, y: 300, phase: .began))
    arena.feed(TouchSample(time: 0.05, x: 150, y: 302, phase: .moved))
    arena.winner  // .rowSwipe
    for event in arena.events { draw(event) }
    #expect(arena.winner == .rowSwipe)
    #expect(drawn.contains { if case .rowSwipe = $0 { true } else { false } })
  }

  @Test func customSurface() {
    let surface = GestureSurface(members: [
      .init(.tap),
      .init(.deckSwipe, priority: 2),
      .init(.scroll, priority: 1),
    ])
    #expect(surface.members.map(\.kind) == [.tap, .deckSwipe, .scroll])
    // The deck swipe outbids the scroll: a horizontal drag swipes the card.
    var arena = GestureArena(surface: surface, configuration: GesturePreset.ios.configuration)
    arena.feed(TouchSample(time: 0, x: 200, y: 300, phase: .began))
    arena.feed(TouchSample(time: 0.05, x: 120, y: 302, phase: .moved))
    #expect(arena.winner == .deckSwipe)
  }

  /// Rules that refuse every drop with `refusal`, or allow all when it is nil.
  struct ExampleRules: DropRules {
    var refusal: DropRefusal?
    func canDrag(_ id: String) -> DropRefusal? { nil }
    func canPlace(_ dragged: [String], under parent: String?, depth: Int) -> DropRefusal? {
      refusal
    }
  }

  @Test func dropTarget() {
    final class Forest {
      var moves: [(String, DropMove<String>)] = []
      func move(_ id: String, to move: DropMove<String>) { moves.append((id, move)) }
    }
    let forest = Forest()
    var tints: [String] = []
    func showTint(_ reason: String) { tints.append(reason) }
    let rows = [
      DropRow(id: "home-1", minY: 0, height: 44),
      DropRow(id: "travel-1", minY: 44, height: 44),
      DropRow(id: "work-1", minY: 88, height: 44),
    ]
    let closed = DropRefusal(code: "closed", reason: "the trip is closed")
    for rules in [ExampleRules(refusal: nil), ExampleRules(refusal: closed)] {
      let resolution = DropTargetResolver.resolve(
        pointer: TouchPoint(x: 40, y: 130), rows: rows, dragged: ["travel-1"], rules: rules,
        configuration: DropConfiguration(viewportMaxY: 640))
      switch resolution.target {
      case .allowed(let instruction)?: forest.move("travel-1", to: instruction.move)
      case .blocked(let refusal, _)?: showTint(refusal.reason)
      case nil: break
      }
    }
    // y 130 is the bottom quarter of work-1 (88 to 132): the row goes after it.
    #expect(forest.moves.count == 1 && forest.moves.first?.0 == "travel-1")
    #expect(forest.moves.first?.1 == .after("work-1"))
    #expect(tints == ["the trip is closed"])
  }

  @Test func regionsPredictTheNextSample() {
    let rows = [
      DropRow(id: "home-1", minY: 88, height: 44),
      DropRow(id: "travel-1", minY: 132, height: 44),
      DropRow(id: "work-1", minY: 176, height: 44),
    ]
    let rules = ExampleRules(refusal: nil)
    let configuration = DropConfiguration(viewportMaxY: 640)
    let resolution = DropTargetResolver.resolve(
      pointer: TouchPoint(x: 40, y: 130), rows: rows, dragged: ["travel-1"], rules: rules,
      configuration: configuration)
    var drawn: [InsertionLine?] = []
    func draw(_ line: InsertionLine?) { drawn.append(line) }
    let regions = DropTargetResolver.regions(
      around: TouchPoint(x: 40, y: 130), radius: 96, rows: rows, dragged: ["travel-1"],
      rules: rules, configuration: configuration, previous: resolution.target?.instruction)
    if let next = regions.first(where: { $0.contains(TouchPoint(x: 42, y: 151)) }) {
      draw(next.answer.line)
    }
    // The prediction is what the resolver answers when that sample comes.
    let next = DropTargetResolver.resolve(
      pointer: TouchPoint(x: 42, y: 151), rows: rows, dragged: ["travel-1"], rules: rules,
      configuration: configuration, previous: resolution.target?.instruction)
    #expect(drawn == [next.line])
  }

  // MARK: The catalog's SwiftUI example

  @MainActor @Test func swiftUIRowDeletesOnAQuickSwipe() throws {
    let view = SwiftUIExample.RowView()
    SwiftUIExample.log.forget(view.model)
    let drawn = try #require(view.body as? SwiftUIExample.Drawn)
    let drag = try #require(drawn.gesture)
    #expect(drag.minimumDistance == 0 && drag.coordinateSpace == .global)
    let start = Date.now
    var opacities: [Double] = []
    for step in 0...8 {
      drawn.drive(
        .init(
          time: start.addingTimeInterval(Double(step) * 0.016),
          location: CGPoint(x: 300 - Double(step) * 20, y: 400)))
      opacities.append(view.model.trash)
    }
    #expect(view.model.offset == -160)
    // Armed (full strength) from the frame past 100 pt on, half strength at most before.
    #expect(opacities.filter { $0 == 1 }.count == 4)
    #expect(opacities.allSatisfy { $0 <= 0.5 || $0 == 1 })
    drawn.lift(.init(time: start.addingTimeInterval(0.15), location: CGPoint(x: 140, y: 400)))
    #expect(SwiftUIExample.log.deletions(of: view.model) == 1)
    #expect(SwiftUIExample.log.cues(of: view.model) == [.commit])
  }

  @MainActor @Test func swiftUIRowLiftsAfterARestingFinger() async throws {
    let view = SwiftUIExample.RowView()
    SwiftUIExample.log.forget(view.model)
    let drawn = try #require(view.body as? SwiftUIExample.Drawn)
    // One sample, then the finger rests: only the model's clock can fire the long press.
    drawn.drive(.init(time: .now, location: CGPoint(x: 200, y: 400)))
    for _ in 0..<300 where !view.model.lifted {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(view.model.lifted)
    #expect(SwiftUIExample.log.cues(of: view.model) == [.grab])
    drawn.lift(.init(time: .now, location: CGPoint(x: 200, y: 400)))
    #expect(!view.model.lifted && !view.model.arena.isTracking)
  }

  @MainActor @Test func swiftUIRowCancelsATouchTakenAway() throws {
    let view = SwiftUIExample.RowView()
    SwiftUIExample.log.forget(view.model)
    let drawn = try #require(view.body as? SwiftUIExample.Drawn)
    let start = Date.now
    drawn.drive(.init(time: start, location: CGPoint(x: 300, y: 400)))
    drawn.drive(.init(time: start.addingTimeInterval(0.02), location: CGPoint(x: 260, y: 401)))
    #expect(view.model.offset < 0 && view.model.arena.isTracking)
    drawn.takeAway()  // no onEnded: the @GestureState reset cancels the touch
    #expect(!view.model.arena.isTracking && view.model.offset == 0)
    // The clock stopped with it, so the next drag begins a new touch, which deletes.
    let next = start.addingTimeInterval(1)
    for step in 0...6 {
      drawn.drive(
        .init(
          time: next.addingTimeInterval(Double(step) * 0.016),
          location: CGPoint(x: 300 - Double(step) * 25, y: 400)))
    }
    drawn.lift(.init(time: next.addingTimeInterval(0.12), location: CGPoint(x: 150, y: 400)))
    #expect(SwiftUIExample.log.deletions(of: view.model) == 1)
    // The accessibility action reaches the same outcome without a gesture.
    #expect(drawn.actions.map(\.name) == ["Delete"])
    drawn.actions.first?.perform()
    #expect(SwiftUIExample.log.deletions(of: view.model) == 2)
  }

  // MARK: The catalog's UIKit example

  @MainActor @Test func uiKitRowLiftsOnTheClockAndStopsItWhenCancelled() {
    let row = UIKitExample.RowView()
    UIKitExample.calls[ObjectIdentifier(row)] = nil
    let finger = UIKitExample.UITouch(timestamp: 10, location: CGPoint(x: 200, y: 300))
    row.touchesBegan([finger], with: nil)
    let clock = row.updateLink
    #expect(clock.isEnabled && clock.requiresContinuousUpdates)
    clock.tick(at: 10.2)
    #expect(row.reordering == false)
    clock.tick(at: 10.6)  // the resting finger became a long press: the row lifts
    #expect(row.reordering == true && row.cues == [.grab])
    row.touchesCancelled([finger], with: nil)
    #expect(!clock.isEnabled)  // no clock left running after a cancel
    // A quick swipe: frames move the row and arm the trash icon; the release deletes it.
    let swipe = UIKitExample.UITouch(timestamp: 20, location: CGPoint(x: 300, y: 300))
    row.touchesBegan([swipe], with: nil)
    for step in 1...6 {
      swipe.move(to: CGPoint(x: 300 - Double(step) * 25, y: 300), at: 20 + Double(step) * 0.016)
      row.touchesMoved([swipe], with: nil)
    }
    #expect(row.transform.tx == -150 && row.trashIcon.alpha == 1)
    row.touchesEnded([swipe], with: nil)
    #expect(row.deleted && !clock.isEnabled)
  }
}

/// Stand-ins for the parts of SwiftUI the catalog's example uses: enough to compile it here and
/// to drive its drag. `Drawn` keeps what the modifiers were given. Not formatted, so the
/// example keeps the catalog's line breaks and its lines match.
// swift-format-ignore
enum SwiftUIExample {
  /// What each model's `delete` and `play` were called with.
  final class Log: Sendable {
    private let deleted = Mutex<[ObjectIdentifier: Int]>([:])
    private let played = Mutex<[ObjectIdentifier: [HapticCue]]>([:])
    func deletions(of model: RowModel) -> Int {
      deleted.withLock { $0[ObjectIdentifier(model)] ?? 0 }
    }
    func cues(of model: RowModel) -> [HapticCue] {
      played.withLock { $0[ObjectIdentifier(model)] ?? [] }
    }
    func delete(by model: RowModel) {
      deleted.withLock { $0[ObjectIdentifier(model), default: 0] += 1 }
    }
    func play(_ cue: HapticCue, by model: RowModel) {
      played.withLock { $0[ObjectIdentifier(model), default: []].append(cue) }
    }
    /// Forgets what a model that lived at `model`'s address before it was called with.
    func forget(_ model: RowModel) {
      deleted.withLock { $0[ObjectIdentifier(model)] = nil }
      played.withLock { $0[ObjectIdentifier(model)] = nil }
    }
  }
  static let log = Log()

  @MainActor protocol View {}

  /// A line of text.
  struct Text: View {
    var text: String
    init(_ text: String) { self.text = text }
  }

  /// A view with its modifiers applied, and the driver of its drag.
  struct Drawn: View {
    var offset = 0.0
    var gesture: DragGesture?
    var changes: [(Bool, Bool) -> Void] = []
    var actions: [(name: String, perform: () -> Void)] = []

    /// A finger at `value`: the gesture's state is updated, then `onChanged` runs.
    func drive(_ value: DragGesture.Value) {
      guard let gesture, let state = gesture.state else { return }
      var new = state.box.value
      gesture.update(value, &new)
      set(state, new)
      gesture.changed(value)
    }
    /// The finger lifts: `onEnded`, then the gesture's state resets.
    func lift(_ value: DragGesture.Value) {
      gesture?.ended(value)
      takeAway()
    }
    /// SwiftUI takes the gesture away: the state resets, and no `onEnded` comes.
    func takeAway() {
      guard let state = gesture?.state else { return }
      set(state, state.initial)
    }
    private func set(_ state: GestureState<Bool>, _ new: Bool) {
      let old = state.box.value
      state.box.value = new
      if old != new { for change in changes { change(old, new) } }
    }
  }

  @propertyWrapper struct State<Value> {
    var wrappedValue: Value
  }

  /// A gesture's state: reset to its initial value when the gesture ends or is taken away.
  @propertyWrapper struct GestureState<Value> {
    final class Box { var value: Value; init(_ value: Value) { self.value = value } }
    let initial: Value
    let box: Box
    init(wrappedValue: Value) {
      initial = wrappedValue
      box = Box(wrappedValue)
    }
    var wrappedValue: Value { box.value }
    var projectedValue: GestureState<Value> { self }
  }

  struct Transaction {}

  @MainActor struct DragGesture {
    enum CoordinateSpace { case local, global }
    struct Value {
      var time: Date
      var location: CGPoint
    }
    var minimumDistance: Double
    var coordinateSpace: CoordinateSpace
    var state: GestureState<Bool>?
    var update: (Value, inout Bool) -> Void = { _, _ in }
    var changed: (Value) -> Void = { _ in }
    var ended: (Value) -> Void = { _ in }

    init(minimumDistance: Double = 10, coordinateSpace: CoordinateSpace = .local) {
      self.minimumDistance = minimumDistance
      self.coordinateSpace = coordinateSpace
    }
    func updating(
      _ state: GestureState<Bool>, body: @escaping (Value, inout Bool, inout Transaction) -> Void
    ) -> DragGesture {
      var gesture = self
      gesture.state = state
      gesture.update = { value, current in
        var transaction = Transaction()
        body(value, &current, &transaction)
      }
      return gesture
    }
    func onChanged(_ action: @escaping (Value) -> Void) -> DragGesture {
      var gesture = self
      gesture.changed = action
      return gesture
    }
    func onEnded(_ action: @escaping (Value) -> Void) -> DragGesture {
      var gesture = self
      gesture.ended = action
      return gesture
    }
  }

  // The catalog's example, as written there.
  @MainActor @Observable final class RowModel {
    var arena = GestureArena(surface: .listRow, configuration: GesturePreset.ios.configuration)
    var offset = 0.0
    var trash = 0.0
    var lifted = false
    private var clock: Task<Void, Never>?

    func feed(_ value: DragGesture.Value, ended: Bool) {
      let phase: TouchPhase = ended ? .ended : clock == nil ? .began : .moved
      let time = value.time.timeIntervalSinceReferenceDate
      draw(arena.feed(TouchSample(time: time, x: value.location.x, y: value.location.y, phase: phase)))
      if phase == .began { startClock() }
      if ended { stopClock() }
    }

    func perform(_ action: AccessibilityAction) {  // VoiceOver: the outcome without a drag
      draw((try? arena.perform(action, at: Date.now.timeIntervalSinceReferenceDate)) ?? [])
    }

    func cancel() {  // the gesture was taken away: no onEnded comes
      guard clock != nil else { return }
      draw(arena.cancel(at: Date.now.timeIntervalSinceReferenceDate))
      stopClock()
    }

    private func startClock() {
      clock = Task { [weak self] in
        while !Task.isCancelled {
          try? await Task.sleep(for: .milliseconds(16))
          guard let self else { return }
          self.draw(self.arena.advance(to: Date.now.timeIntervalSinceReferenceDate))
        }
      }
    }

    private func stopClock() {
      clock?.cancel()
      clock = nil
    }

    private func draw(_ events: [GestureEvent]) {
      for event in events {
        switch event {
        case .rowSwipe(let frame, _):
          offset = frame.offset
          trash = frame.trashOpacity  // 1 exactly when lifting here deletes
        case .rowSwipeFinished(.delete, _): delete()
        case .rowSwipeFinished(.snapBack, _), .reorder(.cancel, _, _): offset = 0; trash = 0
        case .reorder(.lift, _, _): lifted = true
        case .reorder(.drop, _, _): lifted = false
        case .haptic(let cue, _): play(cue)
        default: break
        }
      }
    }
  }

  struct RowView: View {
    @State var model = RowModel()
    @GestureState private var dragging = false
    var body: some View {
      Text("Pack the passports")
        .offset(x: model.offset)
        .gesture(
          DragGesture(minimumDistance: 0, coordinateSpace: .global)
            .updating($dragging) { _, dragging, _ in dragging = true }
            .onChanged { model.feed($0, ended: false) }
            .onEnded { model.feed($0, ended: true) })
        .onChange(of: dragging) { _, dragging in
          if !dragging { model.cancel() }  // after onEnded this does nothing
        }
        .accessibilityAction(named: AccessibilityAction.delete.name) { model.perform(.delete) }
    }
  }
}

extension SwiftUIExample.RowModel {
  /// The app's delete of the row: recorded.
  func delete() { SwiftUIExample.log.delete(by: self) }
  /// The app's haptic: recorded.
  func play(_ cue: HapticCue) { SwiftUIExample.log.play(cue, by: self) }
}

@MainActor extension SwiftUIExample.View {
  private var drawn: SwiftUIExample.Drawn { self as? SwiftUIExample.Drawn ?? .init() }

  func offset(x: Double) -> SwiftUIExample.Drawn {
    var drawn = self.drawn
    drawn.offset = x
    return drawn
  }
  func gesture(_ gesture: SwiftUIExample.DragGesture) -> SwiftUIExample.Drawn {
    var drawn = self.drawn
    drawn.gesture = gesture
    return drawn
  }
  func onChange(of value: Bool, _ action: @escaping (Bool, Bool) -> Void) -> SwiftUIExample.Drawn {
    var drawn = self.drawn
    drawn.changes.append(action)
    return drawn
  }
  func accessibilityAction(named name: String, _ action: @escaping () -> Void)
    -> SwiftUIExample.Drawn
  {
    var drawn = self.drawn
    drawn.actions.append((name, action))
    return drawn
  }
}

/// Stand-ins for the parts of UIKit the catalog's example uses, with what the tests need to
/// drive it: touches that move, and an update link the test ticks.
// swift-format-ignore
enum UIKitExample {
  typealias TimeInterval = Double

  struct CGAffineTransform {
    var tx = 0.0
    init(translationX: Double, y: Double) { tx = translationX }
    static let identity = CGAffineTransform(translationX: 0, y: 0)
  }

  enum UIAccessibility { static let isReduceMotionEnabled = false }

  final class UIEvent {}

  final class UITouch: Hashable {
    private(set) var timestamp: TimeInterval
    private var location: CGPoint
    init(timestamp: TimeInterval, location: CGPoint) {
      self.timestamp = timestamp
      self.location = location
    }
    func move(to location: CGPoint, at timestamp: TimeInterval) {
      self.location = location
      self.timestamp = timestamp
    }
    func location(in view: UIView?) -> CGPoint { location }
    static func == (lhs: UITouch, rhs: UITouch) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
  }

  @MainActor class UIView {
    var transform = CGAffineTransform.identity
    var alpha = 1.0
    var superview: UIView?
    init() {}
    func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {}
    func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {}
    func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {}
    func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {}
  }

  struct UIUpdateInfo { var modelTime: TimeInterval }

  @MainActor final class UIUpdateLink {
    var isEnabled = false
    var requiresContinuousUpdates = false
    private let action: (UIUpdateLink, UIUpdateInfo) -> Void
    init(view: UIView, actionHandler: @escaping (UIUpdateLink, UIUpdateInfo) -> Void) {
      action = actionHandler
    }
    /// A display frame at `time`, delivered only while the link is enabled.
    func tick(at time: TimeInterval) {
      if isEnabled { action(self, UIUpdateInfo(modelTime: time)) }
    }
  }

  // The catalog's example, as written there.
  final class RowView: UIView {
    private var arena = GestureArena(
      surface: .listRow, configuration: GesturePreset.ios.configuration)
    private lazy var clock = UIUpdateLink(view: self) { [weak self] _, info in
      self?.advance(to: info.modelTime)  // the same clock as UITouch.timestamp
    }
    let trashIcon = UIView()

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
      feed(touches, .began)
      clock.requiresContinuousUpdates = true
      clock.isEnabled = arena.isTracking
    }
    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
      feed(touches, .moved)
    }
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
      feed(touches, .ended)
      clock.isEnabled = arena.isTracking
    }
    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
      feed(touches, .cancelled)
      clock.isEnabled = arena.isTracking  // no frames once the system took the touch
    }

    private func feed(_ touches: Set<UITouch>, _ phase: TouchPhase) {
      for touch in touches {
        let point = touch.location(in: superview)
        let sample = TouchSample(
          time: touch.timestamp, x: point.x, y: point.y, phase: phase,
          pointer: ObjectIdentifier(touch).hashValue)
        draw(arena.feed(sample))
      }
    }

    private func advance(to time: TimeInterval) {
      draw(arena.advance(to: time))
    }

    private func draw(_ events: [GestureEvent]) {
      for event in events {
        switch event {
        case .rowSwipe(let frame, _):
          transform = CGAffineTransform(translationX: frame.offset, y: 0)
          trashIcon.alpha = frame.trashOpacity  // 1 exactly when lifting here deletes
        case .rowSwipeFinished(.delete, _): onDelete()
        case .rowSwipeFinished(.snapBack, _):
          let spec = MotionSpec.for(.rowSnapBack, reduceMotion: UIAccessibility.isReduceMotionEnabled)
          animate(spec) { self.transform = .identity }
        case .reorder(.lift, _, _): beginReorder()
        case .haptic(let cue, _): play(cue)
        default: break
        }
      }
    }

  }

  /// What each row's app calls recorded: `delete`, `reorder` and the haptic cues' names.
  @MainActor static var calls: [ObjectIdentifier: [String]] = [:]
}

/// What the example's row takes as given from the app, recorded for the test.
extension UIKitExample.RowView {
  /// The update link, for the test to tick.
  var updateLink: UIKitExample.UIUpdateLink { clock }
  var deleted: Bool { calls.contains("delete") }
  var reordering: Bool { calls.contains("reorder") }
  var cues: [HapticCue] { calls.compactMap(HapticCue.init(rawValue:)) }
  private var calls: [String] { UIKitExample.calls[ObjectIdentifier(self)] ?? [] }
  private func record(_ call: String) {
    UIKitExample.calls[ObjectIdentifier(self), default: []].append(call)
  }

  func onDelete() { record("delete") }
  func animate(_ spec: MotionSpec, _ changes: @escaping () -> Void) { changes() }
  func beginReorder() { record("reorder") }
  func play(_ cue: HapticCue) { record(cue.rawValue) }
}
