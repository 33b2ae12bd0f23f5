import ArgumentParser
import Offload

/// `offloadctl capture`: add a thought to the inbox.
struct CaptureCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "capture",
    abstract: "Add a thought to the inbox.",
    discussion: "The words are joined with spaces: offloadctl capture call the plumber")

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The text to capture.")
  var words: [String]

  func run() throws {
    let text = words.joined(separator: " ")
    let item = try global.changing { (workspace) throws(WorkspaceError) in
      try workspace.capture(text)
    }
    try global.report(JSONShapes.ItemShape(item, collection: Workspace.inboxName)) {
      "captured \(item.id): \(item.text)"
    }
  }
}

/// `offloadctl inbox`: list the inbox.
struct InboxCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inbox", abstract: "List what is in the inbox.")

  @OptionGroup var global: GlobalOptions

  func run() throws {
    let tree = try global.reading { (workspace) throws(WorkspaceError) in
      try workspace.tree(of: Workspace.inboxName)
    }
    let rows = tree.rows()
    if global.json {
      struct Inbox: Encodable { var items: [JSONShapes.ItemShape] }
      try Output.document(
        Inbox(items: rows.map { JSONShapes.ItemShape($0.item, number: $0.number) }))
    } else if rows.isEmpty {
      if !global.quiet { Output.line("The inbox is empty.") }
    } else {
      CollectionTree.lines(rows).forEach(Output.line)
    }
  }
}
