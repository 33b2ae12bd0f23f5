import ArgumentParser
import Foundation

/// The organize figures of `offload-bench web`, measured at the WebSocket level on the release
/// `offloadctl serve` over loopback (the browser's layout and paint are not included).
///
/// - Pointer move to insertion line: a row of a 1,000-row plan (100 parents with 9 children
///   each, rows 48 pt tall, an 800 pt viewport following the pointer) dragged by its handle
///   across the whole plan in 12 pt steps; the time from sending a `moved` sample to receiving
///   the `target` answer (the server's arena and drop-target resolver with the plan's rules,
///   over the visible rows the page last sent).
/// - Drop to saved: 50 drags of a task (a row without children) two and three quarter rows
///   down, among its siblings; the time from sending the `ended` sample to receiving
///   `dropped`, which the server sends once `Workspace` committed the move (one journaled
///   change) to stable storage; and to the `view` with the new rows that follows it.
enum OrganizeWebFigures {
  static let rowHeight = 48.0
  static let viewport = 800.0

  static func measure(binary: String, scratch: String) throws -> [BenchmarkRow] {
    let store = try WebStore(binary: binary, folder: scratch + "/organize", photos: 1)
    var outline = ""
    for parent in 1...100 {
      outline += "- Step \(parent)\n"
      for child in 1...9 { outline += "  - Task \(parent).\(child)\n" }
    }
    let file = scratch + "/organize/plan.md"
    try outline.write(toFile: file, atomically: true, encoding: .utf8)
    let importer = Process()
    importer.executableURL = URL(fileURLWithPath: binary)
    importer.arguments = ["collection", "import", "Plan", file, "--kind", "plan", "--quiet"]
    importer.environment = store.environment
    try importer.run()
    importer.waitUntilExit()
    guard importer.terminationStatus == 0 else { throw ValidationError("import failed") }
    let server = try store.serve()
    defer { server.stop() }
    let list = try BenchHTTP.get(port: server.port, "/api/collections", cookie: server.cookie)
    guard let planID = Self.id(of: "Plan", in: list) else {
      throw ValidationError("no Plan in \(list.prefix(200))")
    }
    var view = try BenchHTTP.get(
      port: server.port, "/api/collection?id=\(planID)", cookie: server.cookie)
    let rows = Self.rowIDs(view)
    guard rows.count == 1_000, var version = Self.field("version", in: view) else {
      throw ValidationError("the plan has \(rows.count) rows")
    }
    let socket = try BenchSocket(port: server.port, cookie: server.cookie, path: "/ws/organize")
    defer { socket.hangUp() }

    // 1. A drag across the whole plan.
    var moves: [Double] = []
    var top = 0.0
    socket.send(began(planID, version, rows: rows, row: 0))
    var y = rowHeight / 2
    var t = 0.0
    while y < Double(rows.count) * rowHeight - rowHeight {
      y += 12
      t += 8
      if y > top + viewport - 100 {
        top = y - viewport / 2
        socket.send(frames(rows, top: top, x: 300, y: y, type: "rows"))
        guard Self.next("target", socket) != nil else { throw ValidationError("no target") }
      }
      let start = ContinuousClock.now
      socket.send(#"{"type":"sample","phase":"moved","t":\#(t),"x":300,"y":\#(y),"pointer":1}"#)
      guard Self.next("target", socket) != nil else { throw ValidationError("no target at \(y)") }
      moves.append(WebBenchmark.milliseconds(ContinuousClock.now - start))
    }
    socket.send(
      #"{"type":"sample","phase":"cancelled","t":\#(t + 8),"x":300,"y":\#(y),"pointer":1}"#)
    guard Self.next("snapBack", socket) != nil else { throw ValidationError("no snap-back") }

    // 2. Drops: each a few rows down, saved before `dropped` comes back.
    var drops: [Double] = []
    var views: [Double] = []
    for drag in 0..<50 {
      view = try BenchHTTP.get(
        port: server.port, "/api/collection?id=\(planID)", cookie: server.cookie)
      let order = Self.rowIDs(view)
      guard let current = Self.field("version", in: view) else {
        throw ValidationError("no version")
      }
      version = current
      // The first task of step `drag + 1`, dropped between its third and fourth siblings (a
      // parent dragged into its own children would have no target and snap back).
      let row = 1 + drag * 10
      guard order[row].1 == 1, order[row + 3].1 == 1 else {
        throw ValidationError("row \(row) is not a task among tasks")
      }
      socket.send(began(planID, version, rows: order, row: row))
      let target = (Double(row) + 2.75) * rowHeight
      let startY = (Double(row) + 0.5) * rowHeight
      for step in 1...8 {
        let y = startY + (target - startY) * Double(step) / 8
        socket.send(
          #"{"type":"sample","phase":"moved","t":\#(step * 16),"x":300,"y":\#(y),"pointer":1}"#)
        guard Self.next("target", socket) != nil else { throw ValidationError("no target") }
      }
      let start = ContinuousClock.now
      socket.send(#"{"type":"sample","phase":"ended","t":200,"x":300,"y":\#(target),"pointer":1}"#)
      guard Self.next("dropped", socket, failing: ["snapBack"]) != nil else {
        throw ValidationError("drag \(drag) was not dropped")
      }
      drops.append(WebBenchmark.milliseconds(ContinuousClock.now - start))
      guard Self.next("view", socket) != nil else {
        throw ValidationError("drag \(drag) got no view after its drop")
      }
      views.append(WebBenchmark.milliseconds(ContinuousClock.now - start))
    }
    moves.sort()
    drops.sort()
    views.sort()
    func percentile(_ values: [Double], _ p: Int) -> Double {
      values[min(values.count - 1, values.count * p / 100)]
    }
    return [
      BenchmarkRow(fields: [
        (
          "case",
          .text("pointer move → insertion line decided (1,000-row plan, \(moves.count) moves)")
        ),
        ("p50Milliseconds", .number(percentile(moves, 50))),
        ("p99Milliseconds", .number(percentile(moves, 99))),
      ]),
      BenchmarkRow(fields: [
        ("case", .text("drop → saved and answered (1,000-row plan, \(drops.count) drops)")),
        ("p50Milliseconds", .number(percentile(drops, 50))),
        ("p99Milliseconds", .number(percentile(drops, 99))),
      ]),
      BenchmarkRow(fields: [
        ("case", .text("drop → new rows received (1,000-row plan, \(views.count) drops)")),
        ("p50Milliseconds", .number(percentile(views, 50))),
        ("p99Milliseconds", .number(percentile(views, 99))),
      ]),
    ]
  }

  /// The `began` sample on the handle of `rows[row]`, with the visible rows' frames.
  static func began(_ plan: String, _ version: String, rows: [(String, Int)], row: Int) -> String {
    let y = (Double(row) + 0.5) * rowHeight
    let head =
      #"{"type":"sample","phase":"began","t":0,"x":300,"y":\#(y),"pointer":1,"surface":"handle","#
      + #""id":"\#(rows[row].0)","collection":"\#(plan)","version":"\#(version)","#
    return head + frameFields(rows, top: max(0, y - viewport / 2)) + "}"
  }

  static func frames(_ rows: [(String, Int)], top: Double, x: Double, y: Double, type: String)
    -> String
  {
    #"{"type":"\#(type)","x":\#(x),"y":\#(y),"# + frameFields(rows, top: top) + "}"
  }

  /// The rows within 200 pt of an 800 pt viewport at `top`, as the page measures them.
  static func frameFields(_ rows: [(String, Int)], top: Double) -> String {
    let first = max(0, Int((top - 200) / rowHeight))
    let last = min(rows.count - 1, Int((top + viewport + 200) / rowHeight))
    let frames = (first...last).map { index in
      #"{"i":"\#(rows[index].0)","y":\#(Double(index) * rowHeight),"h":48,"d":\#(rows[index].1),"o":\#(rows[index].1 == 0)}"#
    }
    return
      #""rows":[\#(frames.joined(separator: ","))],"top":\#(top),"bottom":\#(top + viewport),"originX":8,"indent":24"#
  }

  /// The next message of `type`, skipping others; nil when the socket closed or an error (or
  /// a message of a `failing` type) came first.
  static func next(_ type: String, _ socket: BenchSocket, failing: [String] = []) -> String? {
    while let message = socket.receiveText() {
      if message.contains(#""type":"\#(type)""#) { return message }
      for failure in ["error"] + failing where message.contains(#""type":"\#(failure)""#) {
        return nil
      }
    }
    return nil
  }

  /// The rows of a collection view: (id, depth) in outline order.
  static func rowIDs(_ view: String) -> [(String, Int)] {
    guard let data = view.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let rows = object["rows"] as? [[String: Any]]
    else { return [] }
    return rows.compactMap { row in
      guard let id = row["id"] as? String, let depth = row["depth"] as? Int else { return nil }
      return (id, depth)
    }
  }

  static func id(of name: String, in list: String) -> String? {
    guard let data = list.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let entries = object["collections"] as? [[String: Any]]
    else { return nil }
    return entries.first { $0["name"] as? String == name }?["id"] as? String
  }

  /// A string field's first value.
  static func field(_ name: String, in text: String) -> String? {
    guard let range = text.range(of: #""\#(name)":""#) else { return nil }
    return String(text[range.upperBound...].prefix { $0 != "\"" })
  }
}
