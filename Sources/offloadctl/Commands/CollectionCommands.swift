public import ArgumentParser
import Foundation
public import Offload
import TerminalUI

extension CollectionKind: ExpressibleByArgument {}
extension OutlineFormat: ExpressibleByArgument {}

/// `offloadctl collection`: lists and plans.
struct CollectionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "collection",
    abstract: "Create, show, rename, reorder, delete, convert, import and export lists and plans.",
    subcommands: [
      Create.self, List.self, Show.self, Rename.self, Move.self, Delete.self, Convert.self,
      Import.self, Export.self,
    ])

  struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "create", abstract: "Create an empty list or plan.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The collection's name (unique, any case).") var name: String
    @Option(help: "list (flat) or plan (nested).") var kind: CollectionKind = .list

    func run() throws {
      let collection = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.createCollection(named: name, kind: kind)
      }
      try global.report(StoreIndex.Entry(collection)) {
        "created \(collection.kind.rawValue) \"\(collection.name)\" (\(collection.id))"
      }
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the collections.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
      let entries = try global.reading { (workspace) throws(WorkspaceError) in
        try workspace.collections()
      }
      if global.json {
        struct Collections: Encodable { var collections: [StoreIndex.Entry] }
        try Output.document(Collections(collections: entries))
        return
      }
      let names = entries.map { TerminalText.escaped($0.name) }
      let width = names.map(\.count).max() ?? 0
      for (entry, name) in zip(entries, names) {
        let count = entry.itemCount == 1 ? "1 item" : "\(entry.itemCount) items"
        Output.line(
          "\(entry.id.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0))  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(entry.kind.rawValue.padding(toLength: 4, withPad: " ", startingAt: 0))  \(count)"
        )
      }
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show a collection as an indented tree with ids and outline numbers.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The collection's name or id.", completion: StoreCompletion.collections)
    var name: String
    @Option(
      parsing: .upToNextOption, help: "Ids of items whose nested items are hidden.",
      completion: StoreCompletion.items)
    var collapsed: [String] = []
    @Option(help: "Hide items deeper than this many levels (1 shows top-level items only).")
    var depth: Int?

    func validate() throws {
      if let depth, depth < 1 { throw ValidationError("--depth must be at least 1, got \(depth)") }
    }

    func run() throws {
      let tree = try global.reading { (workspace) throws(WorkspaceError) in
        try workspace.tree(of: name)
      }
      var hidden = Set<ShortID>()
      for prefix in collapsed {
        switch ShortID.match(prefix, in: tree.items.keys) {
        case .unique(let id): hidden.insert(id)
        case .none:
          throw CommandFailure(
            code: .noInput,
            message:
              "--collapsed: no item of \"\(tree.collection.name)\" has an id starting with \"\(prefix)\""
          )
        case .ambiguous:
          throw CommandFailure(
            code: .usage,
            message: "--collapsed: \"\(prefix)\" matches several items; type more of the id")
        }
      }
      let rows = tree.rows(collapsed: hidden, maximumDepth: depth.map { $0 - 1 })
      if global.json {
        struct Shown: Encodable {
          var collection: StoreIndex.Entry
          var items: [JSONShapes.ItemShape]
          var repairs: [String]
        }
        try Output.document(
          Shown(
            collection: StoreIndex.Entry(tree.collection),
            items: rows.map { JSONShapes.ItemShape($0.item, depth: $0.depth, number: $0.number) },
            repairs: tree.repairs.repairs.map(\.description)))
        return
      }
      let count = tree.collection.items.count
      Output.line(
        "\(tree.collection.name) (\(tree.collection.kind.rawValue), \(count == 1 ? "1 item" : "\(count) items"))"
      )
      CollectionTree.lines(rows).forEach(Output.line)
      if !tree.repairs.isClean {
        Output.error(
          "offloadctl: warning: this collection needs repair; run `offloadctl store verify`")
      }
    }
  }

  struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rename", abstract: "Rename a collection.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The collection's name or id.", completion: StoreCompletion.collections)
    var name: String
    @Argument(help: "The new name.") var newName: String

    func run() throws {
      try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.renameCollection(name, to: newName)
      }
      struct Renamed: Encodable { var name: String }
      try global.report(Renamed(name: newName)) {
        "renamed \"\(name)\" to \"\(newName)\""
      }
    }
  }

  struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "move",
      abstract: "Put a collection elsewhere in the order `collection list` shows.",
      discussion: """
        The inbox stays first: --first puts the collection right after it, and nothing goes \
        before it. One undo puts the order back.
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The collection's name or id.", completion: StoreCompletion.collections)
    var name: String
    @OptionGroup var placement: PlacementOptions<ItemCollection>

    func run() throws {
      let position = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.moveCollection(name, to: placement.resolved)
      }
      struct Moved: Encodable { var name: String; var position: Int }
      try global.report(Moved(name: name, position: position)) {
        "moved \"\(name)\" to position \(position + 1) of the collections"
      }
    }
  }

  struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete",
      abstract:
        "Delete collections (non-empty ones only with --force; one undo brings them all back).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The collections' names or ids.", completion: StoreCompletion.collections)
    var names: [String]
    @Flag(help: "Delete them even though they still have items.") var force = false

    func run() throws {
      let removed = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.deleteCollections(names, force: force)
      }
      struct Deleted: Encodable { var names: [String]; var itemsRemoved: Int }
      try global.report(Deleted(names: names, itemsRemoved: removed)) {
        let count = removed == 1 ? "1 item" : "\(removed) items"
        return "deleted " + names.map { "\"\($0)\"" }.joined(separator: ", ")
          + (removed > 0 ? " with \(count) (offloadctl undo brings them back)" : "")
      }
    }
  }

  struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "convert",
      abstract: "Turn a plan into a list (flattened in outline order) or a list into a plan.",
      discussion: """
        Flattening a plan whose items nest loses the nesting: on a terminal the command asks \
        first; otherwise it needs --yes. One undo brings the nesting back.
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The collection's name or id.", completion: StoreCompletion.collections)
    var name: String
    @Option(name: .customLong("to"), help: "list or plan.") var kind: CollectionKind
    @Flag(help: "Flatten a nested plan without asking.") var yes = false

    func run() throws {
      var nested = 0
      if kind == .list {
        let tree = try global.reading { (workspace) throws(WorkspaceError) in
          try workspace.tree(of: name)
        }
        if tree.collection.kind == .plan {
          nested = tree.collection.items.filter { $0.parent != nil }.count
        }
      }
      if nested > 0 && !yes {
        let what = "\"\(name)\" has \(nested) nested item\(nested == 1 ? "" : "s")"
        guard isatty(STDIN_FILENO) == 1 else {
          throw CommandFailure(
            code: .usage,
            message:
              "\(what); a list cannot nest, so converting flattens them and standard input is not a terminal to confirm: pass --yes (undo brings the nesting back)"
          )
        }
        Output.write(
          TerminalText.escaped(
            "\(what); a list cannot nest, so they will be flattened in outline order (offloadctl undo brings the nesting back). Convert? [y/N] "
          ), to: STDERR_FILENO)
        let answer = readLine(strippingNewline: true) ?? ""
        guard ["y", "yes"].contains(answer.lowercased()) else {
          throw CommandFailure(code: .failure, message: "convert cancelled; nothing was changed")
        }
      }
      let moved = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.convertCollection(name, to: kind)
      }
      struct Converted: Encodable { var name: String; var kind: String; var itemsMoved: Int }
      try global.report(Converted(name: name, kind: kind.rawValue, itemsMoved: moved)) {
        "\"\(name)\" is now a \(kind.rawValue)"
          + (nested > 0 ? " (offloadctl undo brings the nesting back)" : "")
      }
    }
  }

  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Create a collection from a Markdown outline or an exported JSON file.",
      discussion: """
        Markdown: one item per line, marked '- ', '* ', '+ ', '1. ' or '1) ', nesting by \
        indentation (a tab counts four columns). A checkbox may follow the marker: '[ ]' open, \
        '[x]' done, '[~]' started (imported as not done). In a plan a '#' heading becomes a \
        parent item of what follows it; a list leaves headings out. Paragraphs and '>' quotes \
        under an item become its note. Text outside any item, code blocks, rules and empty \
        items are skipped, each named with its lines on stderr.
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The new collection's name.") var name: String
    @Argument(help: "The file to read ('-' for standard input).", completion: .file())
    var file: String
    @Option(help: "list or plan (default: plan when the outline nests, else list).")
    var kind: CollectionKind?

    func run() throws {
      let text: String
      if file == "-" {
        text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
      } else {
        guard FileManager.default.fileExists(atPath: file) else {
          throw CommandFailure(code: .noInput, message: "no such file: \(file)")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
          throw CommandFailure(code: .ioError, message: "cannot read \(file)")
        }
        text = String(decoding: data, as: UTF8.self)
      }
      let imported = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.importOutline(
          named: name, from: text, source: file == "-" ? "standard input" : file, kind: kind)
      }
      let collection = imported.collection
      if !global.quiet {
        imported.warnings.forEach { Output.error("offloadctl: warning: \($0)") }
      }
      try global.report(StoreIndex.Entry(collection)) {
        "imported \(collection.items.count == 1 ? "1 item" : "\(collection.items.count) items") into \(collection.kind.rawValue) \"\(collection.name)\""
      }
    }
  }

  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Print a collection as a Markdown outline or JSON (import reads both back).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The collection's name or id.", completion: StoreCompletion.collections)
    var name: String
    @Option(help: "markdown or json.") var format: OutlineFormat = .markdown

    func run() throws {
      let format = global.json ? .json : format
      let text = try global.reading { (workspace) throws(WorkspaceError) in
        try workspace.export(name, format: format)
      }
      switch format {
      case .json: Output.raw(text)
      case .markdown: Output.lines(String(text.dropLast()))
      }
    }
  }
}
