import ArgumentParser
import Foundation
import Offload

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).",
      valueName: "path"),
    completion: .directory)
  var store: String?

  @Flag(
    name: .long,
    help: "Print one JSON document (sorted keys, with a schemaVersion) instead of text.")
  var json = false

  @Flag(name: .long, help: "Print nothing but errors.")
  var quiet = false

  /// The store folder these options and the environment choose.
  func storeLocation() throws -> StoreLocation {
    do {
      return try StoreLocation.resolve(
        explicit: store, environment: ProcessInfo.processInfo.environment)
    } catch {
      throw CommandFailure(code: .usage, message: error.description)
    }
  }
}

extension GlobalOptions {
  /// Prints a command's result the one way every command does: with `--json` the one JSON
  /// document (`shape` in the envelope with `schemaVersion`), else the one line `text` gives,
  /// its control characters escaped, unless `--quiet`.
  ///
  /// Neither `shape` nor `text` is evaluated when its output is not wanted.
  func report<Shape: Encodable>(_ shape: @autoclosure () -> Shape, text: () -> String) throws {
    if json {
      try Output.document(shape())
    } else if !quiet {
      Output.line(text())
    }
  }
}
