import ArgumentParser
import Gestures
import Offload

/// Parses `--preset`.
func parsePreset(_ text: String) throws -> GesturePreset {
  guard let preset = GesturePreset(rawValue: text) else {
    throw ValidationError("--preset must be ios, android or flutter, got \"\(text)\"")
  }
  return preset
}

/// `offloadctl gesture`: replay touch traces and evaluate the recognizers on recorded strokes.
struct GestureCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gesture",
    abstract: "Replay touch traces and evaluate gesture decisions on recorded strokes.",
    subcommands: [Replay.self, Eval.self]
  )

  /// Turns a file error into a failure with the right exit code.
  static func failure(_ error: GestureFiles.FileError) -> CommandFailure {
    CommandFailure(
      code: error.isMissing ? .noInput : error.isBadData ? .dataError : .ioError,
      message: error.description)
  }

  /// Reads a report from a gesture file and prints it: its JSON document with `--json`, its
  /// text otherwise, nothing with `--quiet`.
  static func print<Report>(
    _ global: GlobalOptions, json: (Report) -> String, text: (Report) -> String,
    read: () throws(GestureFiles.FileError) -> Report
  ) throws {
    let report: Report
    do {
      report = try read()
    } catch {
      throw failure(error)
    }
    if global.json {
      Output.raw(json(report) + "\n")
    } else if !global.quiet {
      Output.lines(text(report))
    }
  }

  struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "replay",
      abstract: "Print the event timeline and the decision of each stroke of a JSON-lines trace.",
      discussion:
        "Each line is {\"type\":\"sample\",\"t\":SECONDS,\"x\":X,\"y\":Y,\"phase\":\"began|moved|ended|cancelled\"}, "
        + "{\"type\":\"advance\",\"t\":SECONDS}, {\"type\":\"action\",\"t\":SECONDS,\"action\":NAME} or "
        + "{\"type\":\"config\",\"surface\":\"listRow|photoDeck|plainList|reorderHandle\",\"preset\":P,\"density\":D}. "
        + "The same trace always prints the same bytes.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The trace file.", valueName: "file"), completion: .file())
    var file: String

    @Option(
      help: "The thresholds: ios, android or flutter (default: the trace's, else ios).",
      transform: parsePreset)
    var preset: GesturePreset?

    func run() throws {
      try GestureCommand.print(global, json: \.jsonText, text: \.text) {
        () throws(GestureFiles.FileError) in
        try GestureFiles.replay(path: file, preset: preset)
      }
    }
  }

  struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "eval",
      abstract: "Compare gesture decisions with the derived labels of a CSV stroke file.",
      discussion:
        "The CSV needs the columns stroke_id, t_ms, x, y (device pixels), phase and derived_label. "
        + "Prints axis agreement for strokes over 60 px, tap accuracy, median decision distance "
        + "(points) and time, and the confusion matrix.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The CSV file.", valueName: "file"), completion: .file())
    var file: String

    @Option(help: "The thresholds: ios, android or flutter.", transform: parsePreset)
    var preset: GesturePreset = .ios

    @Option(help: "Device pixels per point of the recording phones.")
    var density = 2.625

    func validate() throws {
      guard density > 0, density.isFinite else {
        throw ValidationError("--density must be greater than zero, got \(density)")
      }
    }

    func run() throws {
      try GestureCommand.print(global, json: \.jsonText, text: \.text) {
        () throws(GestureFiles.FileError) in
        try GestureFiles.evaluate(path: file, preset: preset, density: density)
      }
    }
  }
}
