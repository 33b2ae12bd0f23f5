import ArgumentParser
import Foundation
import Offload

/// `offload-bench outline`: reading large Markdown outlines, alone and as a whole import
/// into a fresh store (parse, validate, write the collection and the history).
struct OutlineBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "outline",
    abstract: "MarkdownOutline parse and Workspace import of large Markdown files.")

  @Option(help: "The size of each generated file in megabytes.")
  var megabytes = 10

  @Option(help: "Timed repetitions (the fastest is reported).")
  var repetitions = 3

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  func run() throws {
    let size = megabytes * 1_000_000
    let word = "pack the blue bag "
    let long = String(repeating: word, count: size / word.utf8.count)
    let workloads: [(String, String)] = [
      ("single line", "- [ ] " + long),
      ("single line, CRLF file with a BOM", "\u{FEFF}# Title\r\n- " + long + "\r\n"),
      (
        "100-byte lines, nested",
        (0..<(size / 100)).map { index in
          String(repeating: "  ", count: index % 4) + "- [x] step \(index) "
            + String(repeating: "x", count: 80)
        }.joined(separator: "\n")
      ),
    ]
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "offload-bench-outline-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: scratch) }

    var rows: [BenchmarkRow] = []
    var store = 0
    for (name, text) in workloads {
      let bytes = text.utf8.count
      let parse = try Stopwatch.best(of: repetitions) {
        blackHole(try MarkdownOutline(parsing: text))
      }
      let importing = try Stopwatch.best(of: repetitions) {
        store += 1
        let workspace = Workspace(root: scratch.appendingPathComponent("s\(store)").path)
        blackHole(try workspace.importOutline(named: "Big", from: text, source: "generated"))
      }
      for (operation, seconds) in [
        ("MarkdownOutline parse", parse), ("Workspace importOutline", importing),
      ] {
        rows.append(
          BenchmarkRow(fields: [
            ("case", .text("\(operation) (\(name), \(bytes) bytes)")),
            ("bytes", .integer(bytes)),
            ("milliseconds", .number(seconds * 1000)),
            ("megabytesPerSecond", .number(Double(bytes) / seconds / 1e6)),
          ]))
      }
    }
    try Report.print(title: "Markdown outlines, best of \(repetitions)", rows: rows, json: json)
  }
}
