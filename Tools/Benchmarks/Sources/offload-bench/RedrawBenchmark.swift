import ArgumentParser
import TerminalUI

/// `offload-bench redraw`: one redraw of a 10,000-row list screen after a cursor move
/// (frame built from visible rows only, diffed against the screen), against a full redraw that
/// formats every row of the list and repaints the whole screen.
struct RedrawBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "redraw",
    abstract: "A list screen's redraw after a cursor move: visible rows and diffing, or all rows.")

  @Option(help: "Rows in the list.")
  var count = 10_000

  @Option(help: "Terminal columns.")
  var columns = 120

  @Option(help: "Terminal rows.")
  var rows = 40

  @Option(help: "Cursor moves timed (one redraw each).")
  var moves = 1_000

  @Option(help: "Timed repetitions (the fastest is reported).")
  var repetitions = 5

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  func run() throws {
    let size = TerminalSize(columns: columns, rows: rows)
    let titles = (0..<count).map {
      "Item \($0 + 1): pick up the groceries for the week, \($0 % 7 + 1) bags"
    }
    let header = [FrameLine("Groceries · \(count) items · Edit", style: .bold)]
    let footer = [FrameLine("Move  Delete  Export  Rename  Add to Collection", style: .reverse)]
    let height = Frame.listHeight(for: size, header: header.count, footer: footer.count)

    func frame(_ viewport: ListViewport) -> Frame {
      let cursor = viewport.cursor
      return Frame.list(size: size, header: header, footer: footer, viewport: viewport) { index in
        FrameLine(
          "\(index == cursor ? ">" : " ") ○ \(titles[index])",
          style: index == cursor ? .reverse : .plain)
      }
    }

    var bytes = 0
    let seconds = Stopwatch.best(of: repetitions) {
      var viewport = ListViewport(rowCount: count, height: height)
      var renderer = ScreenRenderer()
      _ = renderer.render(frame(viewport))
      bytes = 0
      for move in 0..<moves {
        viewport.moveCursor(by: move % 50 < 25 ? 7 : -3)
        bytes += renderer.render(frame(viewport)).utf8.count
      }
    }

    // Baseline: every row formatted, the visible slice taken, the whole screen repainted.
    var fullBytes = 0
    let fullSeconds = Stopwatch.best(of: repetitions) {
      var full = ScreenRenderer()
      var fullViewport = ListViewport(rowCount: count, height: height)
      fullBytes = 0
      for move in 0..<moves {
        fullViewport.moveCursor(by: move % 50 < 25 ? 7 : -3)
        let cursor = fullViewport.cursor
        let all = (0..<count).map { index in
          FrameLine(
            "\(index == cursor ? ">" : " ") ○ \(titles[index])",
            style: index == cursor ? .reverse : .plain)
        }
        let lines = header + Array(all[fullViewport.visibleRange]) + footer
        full.invalidate()
        fullBytes += full.render(Frame(size: size, lines: lines)).utf8.count
      }
    }

    let budget = 1.0 / 60.0
    let rowsOut = [
      BenchmarkRow(fields: [
        ("renderer", .text("visible rows + diff")), ("n", .integer(count)),
        ("screen", .text(size.description)), ("redraws", .integer(moves)),
        ("msPerRedraw", .number(seconds * 1000 / Double(moves))),
        ("bytesPerRedraw", .integer(bytes / moves)),
        ("framesOf60HzBudget", .number(seconds / Double(moves) / budget)),
      ]),
      BenchmarkRow(fields: [
        ("renderer", .text("baseline: all rows + full repaint")), ("n", .integer(count)),
        ("screen", .text(size.description)), ("redraws", .integer(moves)),
        ("msPerRedraw", .number(fullSeconds * 1000 / Double(moves))),
        ("bytesPerRedraw", .integer(fullBytes / moves)),
        ("framesOf60HzBudget", .number(fullSeconds / Double(moves) / budget)),
      ]),
    ]
    try Report.print(
      title:
        "List screen redraw after a cursor move (n = \(count), \(size), best of \(repetitions), 60 Hz budget 16.7 ms)",
      rows: rowsOut, json: json)
  }
}
