import Foundation
import Gestures
import Observation
import OffloadTestSupport
import Synchronization
import Testing

#if canImport(UIKit) && !os(watchOS)
  import UIKit
#endif

/// The examples of Gestures' doc comments and DocC catalog, compiled and run here (the guide's
/// are in `Tests/OffloadTests/GesturesGuideTests.swift`, which needs `OrderedForest`);
/// `everyExampleIsHere` fails when an example is written that neither file holds.
///
/// The catalog's SwiftUI example is compiled against the stand-ins of `SwiftUIExample` below
/// and its drag is driven by the test; its UIKit example needs UIKit and the Objective-C
/// runtime (`#selector`, `@objc`), so it is compiled only where UIKit exists and never run.
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

  @Test func swiftUICardCommitsALeftSwipe() throws {
    let view = SwiftUIExample.CardView()
    SwiftUIExample.log.forget(view.model)
    let drawn = try #require(view.body as? SwiftUIExample.Drawn)
    let drag = try #require(drawn.gesture)
    #expect(drag.minimumDistance == 0 && drag.coordinateSpace == .global)
    let start = Date(timeIntervalSinceReferenceDate: 1_000)
    // A quick drag to the left, well past the commit threshold, then the lift.
    for step in 0...10 {
      let value = SwiftUIExample.DragGesture.Value(
        time: start.addingTimeInterval(Double(step) * 0.016),
        location: CGPoint(x: 300 - Double(step) * 30, y: 400))
      drag.changed(value)
      if step == 5 {
        #expect(view.model.offset.width < 0 && view.model.rotation != 0)
        #expect(view.model.overlay > 0)
      }
    }
    drag.ended(.init(time: start.addingTimeInterval(0.18), location: CGPoint(x: 0, y: 400)))
    #expect(SwiftUIExample.log.decisions(of: view.model) == [.left])
    #expect(SwiftUIExample.log.cues(of: view.model).contains(.commit))
    #expect(!view.model.began)
  }

  @Test func swiftUICardSnapsBackAndHasTheTrashAction() throws {
    let view = SwiftUIExample.CardView()
    SwiftUIExample.log.forget(view.model)
    let drawn = try #require(view.body as? SwiftUIExample.Drawn)
    let drag = try #require(drawn.gesture)
    let start = Date(timeIntervalSinceReferenceDate: 2_000)
    drag.changed(.init(time: start, location: CGPoint(x: 200, y: 400)))
    drag.changed(.init(time: start.addingTimeInterval(0.2), location: CGPoint(x: 180, y: 400)))
    drag.ended(.init(time: start.addingTimeInterval(0.6), location: CGPoint(x: 180, y: 400)))
    // A short slow drag: the card snaps back and nothing is decided.
    #expect(SwiftUIExample.log.decisions(of: view.model).isEmpty)
    #expect(view.model.offset == .zero && view.model.rotation == 0 && view.model.scale == 1)
    // The accessibility action reaches the same outcome without a gesture.
    #expect(drawn.actions.map(\.name) == ["Trash"])
    drawn.actions.first?.perform()
    #expect(SwiftUIExample.log.decisions(of: view.model) == [.left])
  }
}

/// Stand-ins for the parts of SwiftUI the catalog's example uses: enough to compile it here and
/// to drive its drag. `Drawn` keeps what the modifiers were given. Not formatted, so the
/// example keeps the catalog's line breaks and its lines match.
// swift-format-ignore
enum SwiftUIExample {
  /// What each model's `decide` and `play` were called with.
  final class Log: Sendable {
    private let decided = Mutex<[ObjectIdentifier: [SwipeDirection]]>([:])
    private let played = Mutex<[ObjectIdentifier: [HapticCue]]>([:])
    func decisions(of model: CardModel) -> [SwipeDirection] {
      decided.withLock { $0[ObjectIdentifier(model)] ?? [] }
    }
    func cues(of model: CardModel) -> [HapticCue] {
      played.withLock { $0[ObjectIdentifier(model)] ?? [] }
    }
    func decide(_ direction: SwipeDirection, by model: CardModel) {
      decided.withLock { $0[ObjectIdentifier(model), default: []].append(direction) }
    }
    func play(_ cue: HapticCue, by model: CardModel) {
      played.withLock { $0[ObjectIdentifier(model), default: []].append(cue) }
    }
    /// Forgets what a model that lived at `model`'s address before it was called with.
    func forget(_ model: CardModel) {
      decided.withLock { $0[ObjectIdentifier(model)] = nil }
      played.withLock { $0[ObjectIdentifier(model)] = nil }
    }
  }
  static let log = Log()

  protocol View {}

  /// The photo a card shows.
  struct Photo: View {}

  /// A view with its modifiers applied.
  struct Drawn: View {
    var offset = CGSize.zero
    var rotation = Angle.degrees(0)
    var scale = 1.0
    var gesture: DragGesture?
    var actions: [(name: String, perform: () -> Void)] = []
  }

  struct Angle {
    var degrees: Double
    static func degrees(_ degrees: Double) -> Angle { Angle(degrees: degrees) }
  }

  @propertyWrapper struct State<Value> {
    var wrappedValue: Value
  }

  struct DragGesture {
    enum CoordinateSpace { case local, global }
    struct Value {
      var time: Date
      var location: CGPoint
    }
    var minimumDistance: Double
    var coordinateSpace: CoordinateSpace
    var changed: (Value) -> Void = { _ in }
    var ended: (Value) -> Void = { _ in }

    init(minimumDistance: Double = 10, coordinateSpace: CoordinateSpace = .local) {
      self.minimumDistance = minimumDistance
      self.coordinateSpace = coordinateSpace
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
  @Observable final class CardModel {
    var arena = GestureArena(surface: .photoDeck, configuration: GesturePreset.ios.configuration)
    var offset = CGSize.zero
    var rotation = 0.0
    var scale = 1.0
    var overlay = 0.0
    var began = false

    func feed(_ value: DragGesture.Value, ended: Bool) {
      let phase: TouchPhase = ended ? .ended : began ? .moved : .began
      began = !ended
      let time = value.time.timeIntervalSinceReferenceDate
      arena.feed(TouchSample(time: time, x: value.location.x, y: value.location.y, phase: phase))
      draw(arena.events)
    }

    func perform(_ action: AccessibilityAction) {  // VoiceOver: the outcome without a drag
      _ = try? arena.perform(action, at: Date.now.timeIntervalSinceReferenceDate)
      draw(arena.events)
    }

    private func draw(_ events: [GestureEvent]) {
      for event in events {
        switch event {
        case .deck(let frame, _):
          offset = CGSize(width: frame.offset.x, height: frame.offset.y)
          rotation = frame.rotation
          scale = frame.scale  // an up swipe (keep) shrinks the card slightly
          overlay = frame.overlayOpacity
        case .deckFinished(.commit(let direction, _), _): decide(direction)
        case .deckFinished(.snapBack, _): offset = .zero; rotation = 0; scale = 1; overlay = 0
        case .haptic(let cue, _): play(cue)
        default: break
        }
      }
    }
  }

  struct CardView: View {
    @State var model = CardModel()
    var body: some View {
      Photo()
        .offset(model.offset)
        .rotationEffect(.degrees(model.rotation))
        .scaleEffect(model.scale)
        .gesture(
          DragGesture(minimumDistance: 0, coordinateSpace: .global)
            .onChanged { model.feed($0, ended: false) }
            .onEnded { model.feed($0, ended: true) })
        .accessibilityAction(named: AccessibilityAction.trash.name) { model.perform(.trash) }
    }
  }
}

extension SwiftUIExample.CardModel {
  /// The app's decision for the photo: recorded.
  func decide(_ direction: SwipeDirection) { SwiftUIExample.log.decide(direction, by: self) }
  /// The app's haptic: recorded.
  func play(_ cue: HapticCue) { SwiftUIExample.log.play(cue, by: self) }
}

extension SwiftUIExample.View {
  private var drawn: SwiftUIExample.Drawn { self as? SwiftUIExample.Drawn ?? .init() }

  func offset(_ offset: CGSize) -> SwiftUIExample.Drawn {
    var drawn = self.drawn
    drawn.offset = offset
    return drawn
  }
  func rotationEffect(_ angle: SwiftUIExample.Angle) -> SwiftUIExample.Drawn {
    var drawn = self.drawn
    drawn.rotation = angle
    return drawn
  }
  func scaleEffect(_ scale: Double) -> SwiftUIExample.Drawn {
    var drawn = self.drawn
    drawn.scale = scale
    return drawn
  }
  func gesture(_ gesture: SwiftUIExample.DragGesture) -> SwiftUIExample.Drawn {
    var drawn = self.drawn
    drawn.gesture = gesture
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

#if canImport(UIKit) && !os(watchOS)
  // The catalog's UIKit example, as written there: compiled where UIKit exists, never run
  // (it needs a window, touches and a display link).
  // The catalog's line breaks, kept so the lines match:
  // swift-format-ignore
  final class RowView: UIView {
    private var arena = GestureArena(
      surface: .listRow, configuration: GesturePreset.ios.configuration)
    private lazy var link = CADisplayLink(target: self, selector: #selector(tick))

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
      feed(touches, .began)
      link.add(to: .main, forMode: .common)
    }
    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
      feed(touches, .moved)
    }
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
      feed(touches, .ended)
      link.remove(from: .main, forMode: .common)
    }
    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
      feed(touches, .cancelled)
    }

    private func feed(_ touches: Set<UITouch>, _ phase: TouchPhase) {
      for touch in touches {
        let point = touch.location(in: superview)
        arena.feed(
          TouchSample(
            time: touch.timestamp, x: point.x, y: point.y, phase: phase,
            pointer: touch.hash))
        draw(arena.events)
      }
    }

    @objc private func tick() {
      arena.advance(to: CACurrentMediaTime())  // the same clock as UITouch.timestamp
      draw(arena.events)
    }

    private func draw(_ events: [GestureEvent]) {
      for event in events {
        switch event {
        case .rowSwipe(let frame, _):
          transform = CGAffineTransform(translationX: frame.offset, y: 0)
          trashIcon.alpha = frame.trashOpacity
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

  /// What the example's row takes as given from the app.
  extension RowView {
    var trashIcon: UIView { subviews.first ?? self }
    func onDelete() { removeFromSuperview() }
    func animate(_ spec: MotionSpec, _ changes: @escaping () -> Void) {
      UIView.animate(withDuration: spec.duration, animations: changes)
    }
    func beginReorder() { superview?.bringSubviewToFront(self) }
    func play(_ cue: HapticCue) { accessibilityHint = "\(cue)" }
  }
#endif
