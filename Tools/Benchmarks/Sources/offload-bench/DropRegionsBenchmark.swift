import ArgumentParser
import Gestures

/// `offload-bench drop-regions`: what the organize server computes per pointer move, on the
/// rows a browser sends for a 1,000-row plan (80 visible rows of 48 pt, steps of nine tasks):
/// one `resolve`, and the `regions` it sends with each answer so the page draws the next line
/// ahead.
struct DropRegionsBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "drop-regions",
    abstract: "Drop-target resolver per pointer move: resolve, and the regions sent ahead.",
    discussion:
      "Prints the median time per call over a sweep of pointer positions, and the rectangles "
      + "per answer. Run under callgrind with --repetitions 1 for instruction counts.")

  @Option(help: "Pointer positions in the sweep.")
  var moves = 2_000

  @Option(help: "Timed repetitions of the sweep (the best is reported).")
  var repetitions = 5

  @Option(help: "Half the side of the square the regions cover, in points.")
  var radius = 96.0

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  func run() throws {
    // Steps at depth 0 take children; tasks at depth 1 do not. One task is dragged.
    let rows = (0..<80).map { index in
      let step = index % 10 == 0
      return DropRow(
        id: "row-\(index)", minY: Double(index) * 48, height: 48, depth: step ? 0 : 1,
        isExpanded: step, acceptsChildren: step)
    }
    let dragged = ["row-12"]
    let configuration = DropConfiguration(
      originX: 8, indentationWidth: 24, maximumDepth: 3, viewportMinY: 0, viewportMaxY: 3840)
    let rules = OpenDropRules<String>()
    // A sweep up and down the rows with a little sideways drift, as a drag across the plan.
    let points = (0..<moves).map { index in
      let phase = Double(index % 600) / 600
      let y = 40 + 3_700 * (phase < 0.5 ? phase * 2 : 2 - phase * 2)
      return TouchPoint(x: 40 + Double(index % 7) * 6, y: y)
    }
    var previous: [DropInstruction<String>?] = []
    let resolveSeconds = Stopwatch.best(of: repetitions) {
      var last: DropInstruction<String>?
      var answers: [DropInstruction<String>?] = []
      answers.reserveCapacity(points.count)
      for point in points {
        let resolution = DropTargetResolver.resolve(
          pointer: point, rows: rows, dragged: dragged, rules: rules,
          configuration: configuration, previous: last)
        last = resolution.target?.instruction
        answers.append(last)
      }
      previous = answers
    }
    var rectangles = 0
    let regionsSeconds = Stopwatch.best(of: repetitions) {
      rectangles = 0
      for (point, last) in zip(points, previous) {
        let regions = DropTargetResolver.regions(
          around: point, radius: radius, rows: rows, dragged: dragged, rules: rules,
          configuration: configuration, previous: last)
        rectangles += regions.count
        blackHole(regions)
      }
    }
    let perMove = { (seconds: Double) in seconds / Double(points.count) * 1e6 }
    try Report.print(
      title: "Drop-target resolver per pointer move (80 visible rows of a 1,000-row plan)",
      rows: [
        BenchmarkRow(fields: [
          ("case", .text("resolve (one answer)")), ("moves", .integer(points.count)),
          ("microsecondsPerMove", .number(perMove(resolveSeconds))),
        ]),
        BenchmarkRow(fields: [
          ("case", .text("regions \(Int(radius)) pt around the pointer (the next move's cells)")),
          ("moves", .integer(points.count)),
          ("microsecondsPerMove", .number(perMove(regionsSeconds))),
          ("rectanglesPerAnswer", .number(Double(rectangles) / Double(points.count))),
        ]),
      ], json: json)
  }
}
