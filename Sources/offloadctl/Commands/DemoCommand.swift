import ArgumentParser
import Foundation
import Offload

/// `offloadctl demo`: a walk through the workspace on a throw-away store.
struct DemoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract: "Walk through capture, organize, nest, move, convert and undo on a sample store.",
    discussion:
      "The sample store lives in a temporary folder that is removed afterwards; your own store is never touched."
  )

  @Flag(help: "Keep the sample store and print its path.") var keep = false

  func run() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("offload-demo-\(ProcessInfo.processInfo.processIdentifier)").path
    defer { if !keep { try? FileManager.default.removeItem(atPath: folder) } }
    let steps = try failing { () throws(WorkspaceError) in try WorkspaceDemo.run(in: folder) }
    for (number, step) in steps.enumerated() {
      if number > 0 { Output.line("") }
      Output.line("\(number + 1). \(step.note)")
      step.commands.forEach { Output.line("   $ " + $0) }
      step.lines.forEach { Output.line("   " + $0) }
    }
    if keep { Output.lines("\nThe sample store is in \(folder) (use --store \(folder)).") }
  }
}
