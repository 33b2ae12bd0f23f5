import Foundation
import Gestures
import Offload
import OrderingCore
import Testing

/// The Swift examples of `Docs/Guides/Gestures.md`, compiled here word for word (between the
/// `guide:begin` and `guide:end` lines) against stand-ins for the app's views, and run.
@Suite("Gestures guide examples")
struct GesturesGuideTests {
  static let guidePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Docs/Guides/Gestures.md").path

  /// The ```swift blocks of a Markdown text, without their `import` lines (this file imports
  /// the same modules at its top, where imports go).
  static func swiftBlocks(of text: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if let lines = current, line == "```" {
        let code = lines.filter { !$0.hasPrefix("import ") }.drop { $0.isEmpty }
        blocks.append(code.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// The regions of this file between `// guide:begin` and `// guide:end`, dedented.
  static func compiledBlocks() throws -> [String] {
    let text = try String(contentsOfFile: #filePath, encoding: .utf8)
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.drop { $0 == " " }
      if trimmed == "// guide:begin" {
        current = []
      } else if trimmed == "// guide:end", let lines = current {
        let indent =
          lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        blocks.append(lines.map { String($0.dropFirst(indent)) }.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  @Test func theGuideShowsExactlyTheCompiledExamples() throws {
    let guide = try String(contentsOfFile: Self.guidePath, encoding: .utf8)
    let shown = Self.swiftBlocks(of: guide)
    #expect(shown.count == 2)
    #expect(shown == (try Self.compiledBlocks()))
  }

  @Test func theRowSwipeExampleDeletesTheRow() {
    let app = ExampleApp()
    app.swipeExample()
    #expect(app.deleted == ["row"])
    #expect(app.played.contains(.commit))
    // Every sample's frame was drawn, not only the last call's events (which hold none).
    #expect(app.row.offset == -60 && app.trash.opacity == 0.3)
  }

  @Test func theDropExampleMovesTheRowInTheForest() throws {
    let app = ExampleApp()
    try app.dropExample()
    #expect(app.forest.roots == ["travel-1", "home-1", "work-1"])
    #expect(app.insertionLine.placed != nil && !app.draggedRow.tinted)
    #expect(app.played == [.drop])
  }
}

/// Rules of the example's outline: every drag and place allowed.
private struct ItineraryRules: DropRules {
  func canDrag(_ id: String) -> DropRefusal? { nil }
  func canPlace(_ dragged: [String], under parent: String?, depth: Int) -> DropRefusal? { nil }
}

/// Stand-ins for what the guide's examples draw on.
private final class ExampleApp {
  final class Row {
    var offset = 0.0
    var tinted = false
  }
  final class Trash { var opacity = 0.0 }
  final class Line {
    var placed: InsertionLine?
    func place(_ line: InsertionLine?) { placed = line }
  }
  final class Scroller { var speed = 0.0 }

  let row = Row()
  let trash = Trash()
  let draggedRow = Row()
  let insertionLine = Line()
  let scroller = Scroller()
  var deleted: [String] = []
  var played: [HapticCue] = []
  var animated: [MotionCue] = []
  let now = 1.0
  var forest = OrderedForest<String>()
  let visibleRows = [
    DropRow(id: "home-1", minY: 0, height: 44),
    DropRow(id: "travel-1", minY: 44, height: 44),
    DropRow(id: "work-1", minY: 88, height: 44),
  ]
  let finger = TouchPoint(x: 100, y: 10)
  let lastInstruction: DropInstruction<String>? = nil

  init() {
    for id in ["home-1", "travel-1", "work-1"] { try? forest.insert(id, at: .lastRoot) }
  }

  func delete(_ row: Row) { deleted.append(row === self.row ? "row" : "other") }
  func play(_ cue: HapticCue) { played.append(cue) }
  func animate(_ cue: MotionCue) { animated.append(cue) }

  // swift-format-ignore
  func swipeExample() {
    // guide:begin
    var arena = GestureArena(surface: .listRow, configuration: GesturePreset.ios.configuration)

    let samples = [
      TouchSample(time: 0.000, x: 300, y: 200, phase: .began),
      TouchSample(time: 0.016, x: 284, y: 201, phase: .moved),   // horizontal: locked
      TouchSample(time: 0.033, x: 240, y: 202, phase: .moved),
      TouchSample(time: 0.050, x: 170, y: 203, phase: .ended),
    ]
    for sample in samples {               // as the touch system delivers them
      for event in arena.feed(sample) {   // the events of this sample (also in arena.events)
        switch event {
        case .rowSwipe(let frame, _):
          row.offset = frame.offset
          trash.opacity = frame.trashOpacity   // 1 exactly when releasing here deletes
        case .rowSwipeFinished(.delete, _): delete(row)           // a quick swipe past -100 pt
        case .rowSwipeFinished(.snapBack, _): animate(.rowSnapBack)
        case .haptic(let cue, _): play(cue)
        default: break
        }
      }
    }
    arena.advance(to: now)   // from the frame clock: lets a resting finger become a long press
    // guide:end
  }

  // swift-format-ignore
  func dropExample() throws {
    // guide:begin
    let resolution = DropTargetResolver.resolve(
      pointer: finger, rows: visibleRows, dragged: ["travel-1"], rules: ItineraryRules(),
      configuration: DropConfiguration(indentationWidth: 24, viewportMaxY: 640),
      previous: lastInstruction)
    insertionLine.place(resolution.line)          // nil when blocked: fade it out (150 ms)
    draggedRow.tinted = resolution.showsInvalidTint
    scroller.speed = resolution.autoScrollSpeed
    // on release (Editing converts a DropMove into the forest's Destination):
    if case .allowed(let instruction)? = resolution.target {
      try forest.move("travel-1", to: .init(instruction.move))   // .before / .after / ...
    }
    play(resolution.hapticOnRelease)              // .drop, or the three-tap .refusedDrop
    // guide:end
  }
}
