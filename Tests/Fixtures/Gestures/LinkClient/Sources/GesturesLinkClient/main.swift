import Gestures

// Every part that calls libm: the arena (velocity, distances), the drop resolver (rounding),
// the replay (rounded figures).
var arena = GestureArena(surface: .listRow, configuration: GesturePreset.ios.configuration)
arena.feed(TouchSample(time: 0, x: 300, y: 200, phase: .began))
arena.feed(TouchSample(time: 0.02, x: 260, y: 201, phase: .moved))
arena.feed(TouchSample(time: 0.05, x: 170, y: 203, phase: .ended))
let rows = [DropRow(id: "a", minY: 0, height: 44), DropRow(id: "b", minY: 44, height: 44)]
let resolution = DropTargetResolver.resolve(
  pointer: TouchPoint(x: 40, y: 70), rows: rows, dragged: ["a"], rules: OpenDropRules<String>(),
  configuration: DropConfiguration(viewportMaxY: 640))
let trace = try GestureTrace(lines: [
  .init(type: "sample", t: 0, x: 10, y: 10, phase: "began"),
  .init(type: "sample", t: 0.05, x: 11, y: 10, phase: "ended"),
])
let replay = GestureReplay(trace: trace)
let deleted = arena.events.contains { $0 == .rowSwipeFinished(.delete, time: 0.05) }
print("winner \(arena.winner.map(\.rawValue) ?? "none") deleted \(deleted)")
print("line \(resolution.line != nil) replay \(replay.strokes.map(\.outcome))")
