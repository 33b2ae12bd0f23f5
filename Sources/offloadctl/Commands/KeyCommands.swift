import ArgumentParser
import Offload
import OrderingCore

/// `offloadctl key`: make and check order keys.
struct KeyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "key",
    abstract: "Make and check order keys (fractional indexing, base 62).",
    subcommands: [Between.self, Spread.self, Check.self]
  )

  /// Parses an optional bound given on the command line.
  static func bound(_ text: String?, option: String) throws -> OrderKey? {
    guard let text else { return nil }
    do {
      return try OrderKey(validating: text)
    } catch {
      throw CommandFailure(code: .dataError, message: "\(option): \(error.description)")
    }
  }

  struct Between: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "between",
      abstract: "Print one key strictly between two keys.",
      discussion: "With no bounds it prints the first key, a0.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The key to sort after (default: the start).", valueName: "key"))
    var after: String?

    @Option(help: ArgumentHelp("The key to sort before (default: the end).", valueName: "key"))
    var before: String?

    func run() throws {
      let lower = try KeyCommand.bound(after, option: "--after")
      let upper = try KeyCommand.bound(before, option: "--before")
      let key = try failing { () throws(OrderingError) in
        try OrderKey.between(lower, upper)
      }
      if global.json {
        try Output.document(KeyDocument(key: key.rawValue))
      } else {
        Output.line(key.rawValue)
      }
    }
  }

  struct Spread: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "spread",
      abstract: "Print N strictly increasing keys spread evenly between two keys.",
      discussion:
        "Keys print one per line; between two bounds the gap is bisected, so keys stay short.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "How many keys to print (0 to 10,000,000).")
    var count: Int

    @Option(
      help: ArgumentHelp("The key all results sort after (default: the start).", valueName: "key"))
    var after: String?

    @Option(
      help: ArgumentHelp("The key all results sort before (default: the end).", valueName: "key"))
    var before: String?

    func validate() throws {
      guard (0...10_000_000).contains(count) else {
        throw ValidationError("--count must be between 0 and 10,000,000, got \(count)")
      }
    }

    func run() throws {
      let lower = try KeyCommand.bound(after, option: "--after")
      let upper = try KeyCommand.bound(before, option: "--before")
      let keys = try failing { () throws(OrderingError) in
        try OrderKey.spread(count, between: lower, and: upper)
      }
      if global.json {
        try Output.document(KeysDocument(keys: keys.map(\.rawValue)))
      } else if !keys.isEmpty {
        Output.lines(keys.map(\.rawValue).joined(separator: "\n"))
      }
    }
  }

  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Check that every key is valid.",
      discussion:
        "Exits 0 when every key is valid; otherwise prints one line per invalid key on stderr and exits 65."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The keys to check.")
    var keys: [String]

    func run() throws {
      let results = keys.map { text -> CheckDocument.Result in
        do throws(OrderingError) {
          _ = try OrderKey(validating: text)
          return .init(key: text, valid: true, error: nil, code: nil)
        } catch {
          return .init(key: text, valid: false, error: error.description, code: error.code.rawValue)
        }
      }
      let invalid = results.filter { !$0.valid }
      if global.json {
        try Output.document(CheckDocument(results: results, valid: invalid.isEmpty))
      } else {
        for result in invalid { Output.error("offloadctl: \(result.error ?? "")") }
        if invalid.isEmpty && !global.quiet {
          Output.line(results.count == 1 ? "1 key is valid" : "all \(results.count) keys are valid")
        }
      }
      if !invalid.isEmpty { throw OffloadExitCode.dataError.exitCode }
    }
  }
}

private struct KeyDocument: Encodable {
  var key: String
}

private struct KeysDocument: Encodable {
  var keys: [String]
}

private struct CheckDocument: Encodable {
  struct Result: Encodable {
    var key: String
    var valid: Bool
    var error: String?
    var code: String?
  }
  var results: [Result]
  var valid: Bool
}
