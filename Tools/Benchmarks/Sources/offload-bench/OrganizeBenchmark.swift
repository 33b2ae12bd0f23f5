import ArgumentParser
import Foundation
import Offload
import OrderingCore
import TerminalUI

/// `offload-bench organize`: the organize screen's redraw on a 10,000-item collection after a
/// cursor move and after a checkmark toggle (state machine, frame of the visible rows, diffed
/// output), against a baseline that rebuilds and formats every row and repaints the screen.
struct OrganizeBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "organize",
    abstract: "The organize screen's redraw after a cursor move and after a toggle.")

  @Option(help: "Items in the collection (a tenth of them roots, each with nine children).")
  var count = 10_000

  @Option(help: "Terminal columns.")
  var columns = 120

  @Option(help: "Terminal rows.")
  var rows = 40

  @Option(help: "Keys timed per case (one redraw each).")
  var keys = 1_000

  @Option(help: "Timed repetitions (the fastest is reported).")
  var repetitions = 5

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  func run() throws {
    let size = TerminalSize(columns: columns, rows: rows)
    let tree = Self.collection(count: count)
    let down = KeyPress(.down)
    let up = KeyPress(.up)
    let space = KeyPress(.space)

    /// Times `keys` key presses, each followed by a frame and a diffed render.
    func time(editing: Bool, _ key: (Int) -> KeyPress) -> (seconds: Double, bytes: Int) {
      var bytes = 0
      let seconds = Stopwatch.best(of: repetitions) {
        var screen = OrganizeScreen(tree: tree)
        if editing { _ = screen.handle(KeyPress(.character("e"))) }
        var renderer = ScreenRenderer()
        _ = renderer.render(screen.frame(size: size))
        bytes = 0
        for index in 0..<keys {
          _ = screen.handle(key(index))
          bytes += renderer.render(screen.frame(size: size)).utf8.count
        }
      }
      return (seconds, bytes)
    }

    let moves = time(editing: false) { $0 % 50 < 25 ? down : up }
    // A toggle, then a move, so every toggle checks a different row and the selection grows.
    let toggles = time(editing: true) { $0 % 2 == 0 ? space : down }
    // Baseline: every row rebuilt from the tree and formatted, the whole screen repainted.
    var baselineBytes = 0
    let baseline = Stopwatch.best(of: repetitions) {
      var renderer = ScreenRenderer()
      var viewport = ListViewport(rowCount: count, height: rows - 3)
      baselineBytes = 0
      for index in 0..<keys {
        viewport.moveCursor(by: index % 50 < 25 ? 1 : -1)
        let all = CollectionTree.lines(tree.rows())
        let lines = [FrameLine("header")] + all[viewport.visibleRange].map { FrameLine($0) }
        renderer.invalidate()
        baselineBytes += renderer.render(Frame(size: size, lines: lines)).utf8.count
      }
    }

    let budget = 1.0 / 60.0
    func row(_ workload: String, _ seconds: Double, _ bytes: Int) -> BenchmarkRow {
      BenchmarkRow(fields: [
        ("workload", .text(workload)), ("n", .integer(count)),
        ("screen", .text(size.description)), ("redraws", .integer(keys)),
        ("msPerRedraw", .number(seconds * 1000 / Double(keys))),
        ("bytesPerRedraw", .integer(bytes / keys)),
        ("framesOf60HzBudget", .number(seconds / Double(keys) / budget)),
      ])
    }
    try Report.print(
      title:
        "OrganizeScreen redraw (n = \(count) items, \(size), best of \(repetitions), 60 Hz budget 16.7 ms)",
      rows: [
        row("cursor move (↑/↓)", moves.seconds, moves.bytes),
        row("toggle in edit mode (space, ↓)", toggles.seconds, toggles.bytes),
        row("baseline: all rows rebuilt + full repaint", baseline, baselineBytes),
      ], json: json)
  }

  /// A plan of `count` items: roots with nine children each, built in memory.
  static func collection(count: Int) -> CollectionTree {
    var forest = OrderedForest<ShortID>()
    var items: [Item] = []
    items.reserveCapacity(count)
    var root: ShortID?
    let created = Date(timeIntervalSince1970: 1_800_000_000)
    for n in 0..<count {
      let id = ShortID(sequence: UInt64(n + 1))
      if n % 10 == 0 {
        _ = try? forest.insert(id, at: .root(at: forest.roots.count))
        root = id
      } else if let root {
        _ = try? forest.insert(id, at: .lastChild(of: root))
      }
      items.append(
        Item(
          id: id, text: "Item \(n + 1): pack the bags for the week", created: created, order: .first
        ))
    }
    for index in items.indices {
      items[index].parent = forest.parent(of: items[index].id)
      items[index].order = forest.key(of: items[index].id)
    }
    let collection = ItemCollection(
      id: ShortID(sequence: UInt64(count + 1)), name: "Big", kind: .plan, created: created,
      items: items)
    return CollectionTree(collection, maximumPlanDepth: 9)
  }
}
