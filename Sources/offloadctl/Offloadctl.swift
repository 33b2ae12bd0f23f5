import ArgumentParser
import Foundation

/// The root command.
struct Offloadctl: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "offloadctl",
    abstract: "Organize lists and plans, and cull photos, from the terminal.",
    discussion: OffloadExitCode.helpTable,
    version: "0.1.0",
    subcommands: [
      DemoCommand.self, CaptureCommand.self, InboxCommand.self, CollectionCommand.self,
      ItemCommand.self, OrganizeCommand.self, UndoCommand.self, HistoryCommand.self,
      StoreCommand.self, PhotosCommand.self, ServeCommand.self, GestureCommand.self,
      KeyCommand.self,
      TerminalSelfTestCommand.self,
    ]
  )
}

/// The entry point: runs the command (awaiting an `AsyncParsableCommand` such as `serve`), and
/// turns failures into one line on stderr and an exit code from the table in `ExitCodes.swift`.
@main
enum OffloadctlMain {
  static func main() async {
    do {
      var command = try Offloadctl.parseAsRoot()
      if var asynchronous = command as? any AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try command.run()
      }
    } catch let failure as CommandFailure {
      Output.error("offloadctl: error: \(failure.message)")
      exit(failure.code.rawValue)
    } catch {
      // ArgumentParser's own output: help, version and completion scripts on stdout as they
      // are; usage errors (which echo what was typed) escaped on stderr like every message.
      let message = Offloadctl.fullMessage(for: error)
      let code = Offloadctl.exitCode(for: error)
      if code == .success {
        if !message.isEmpty { Output.raw(message + "\n") }
      } else {
        Output.errorLines(message)
      }
      exit(code.rawValue)
    }
  }
}
