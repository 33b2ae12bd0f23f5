import ArgumentParser
import Offload

/// `offloadctl item`: add, move, nest, complete, edit and remove items.
struct ItemCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "item",
    abstract: "Add, move, indent, outdent, complete, edit and remove items.",
    discussion: "Items are named by id; any unique prefix of an id works, as in git.",
    subcommands: [
      Add.self, Move.self, Indent.self, Outdent.self, Done.self, Undone.self, Edit.self,
      Remove.self,
    ])

  /// The placement options shared by add and move.
  struct PlacementOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Put it right before this item.", valueName: "id")) var before:
      String?
    @Option(help: ArgumentHelp("Put it right after this item.", valueName: "id")) var after: String?
    @Flag(help: "Put it first (among the parent's children, or at the top).") var first = false
    @Flag(help: "Put it last (the default).") var last = false

    func validate() throws {
      let chosen = [before != nil, after != nil, first, last].filter { $0 }.count
      if chosen > 1 { throw ValidationError("choose one of --before, --after, --first, --last") }
    }
  }

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add an item to a collection.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The collection's name or id.") var collection: String
    @Argument(help: "The item's text.") var words: [String]
    @Option(help: ArgumentHelp("Nest it under this item (plans only).", valueName: "id"))
    var parent: String?
    @OptionGroup var placement: PlacementOptions

    func validate() throws {
      if words.isEmpty {
        throw ValidationError("say what to add: offloadctl item add COLLECTION TEXT...")
      }
      if parent != nil && (placement.before != nil || placement.after != nil) {
        throw ValidationError(
          "--parent goes with --first or --last; --before and --after already name a place")
      }
    }

    func run() throws {
      let where_: ItemPlacement
      if let before = placement.before {
        where_ = .before(before)
      } else if let after = placement.after {
        where_ = .after(after)
      } else if let parent {
        where_ = placement.first ? .firstChild(of: parent) : .lastChild(of: parent)
      } else {
        where_ = placement.first ? .firstRoot : .lastRoot
      }
      let text = words.joined(separator: " ")
      let item = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.addItem(to: collection, text: text, at: where_)
      }
      if global.json {
        try Output.document(JSONShapes.ItemShape(item))
      } else if !global.quiet {
        Output.line("added \(item.id): \(item.text)")
      }
    }
  }

  struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Move an item, with everything nested under it, within or between collections.",
      discussion:
        "A refused move (into its own subtree, too deep, nesting in a list) changes nothing.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The item's id.") var id: String
    @Option(
      name: .customLong("to"),
      help: ArgumentHelp("Move it to this collection (name or id).", valueName: "collection"))
    var target: String?
    @Option(
      help: ArgumentHelp("Nest it under this item (with --first or --last).", valueName: "id"))
    var into: String?
    @Flag(help: "Make it a top-level item.") var root = false
    @OptionGroup var placement: PlacementOptions

    func validate() throws {
      let anchors = [placement.before != nil, placement.after != nil, into != nil, root].filter {
        $0
      }.count
      if anchors > 1 { throw ValidationError("choose one of --before, --after, --into, --root") }
      if (placement.before != nil || placement.after != nil) && (placement.first || placement.last)
      {
        throw ValidationError("--first and --last go with --into, --root or --to")
      }
      if anchors == 0 && target == nil && !placement.first && !placement.last {
        throw ValidationError(
          "say where to: --before ID, --after ID, --into ID, --root, --first, --last or --to COLLECTION"
        )
      }
    }

    func run() throws {
      let where_: ItemPlacement
      if let before = placement.before {
        where_ = .before(before)
      } else if let after = placement.after {
        where_ = .after(after)
      } else if let into {
        where_ = placement.first ? .firstChild(of: into) : .lastChild(of: into)
      } else {
        where_ = placement.first ? .firstRoot : .lastRoot
      }
      try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.moveItem(id, toCollection: target, to: where_)
      }
      try report(global, "moved", id)
    }
  }

  struct Indent: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Nest an item under the item above it (it becomes that item's last child).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The item's id.") var id: String

    func run() throws {
      try global.changing { (workspace) throws(WorkspaceError) in try workspace.indent(id) }
      try report(global, "indented", id)
    }
  }

  struct Outdent: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Lift an item out of its parent (it goes right after the parent).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The item's id.") var id: String

    func run() throws {
      try global.changing { (workspace) throws(WorkspaceError) in try workspace.outdent(id) }
      try report(global, "outdented", id)
    }
  }

  struct Done: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mark an item done.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The item's id.") var id: String

    func run() throws {
      try global.changing { (workspace) throws(WorkspaceError) in try workspace.setDone(id, true) }
      try report(global, "done", id)
    }
  }

  struct Undone: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mark an item not done.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The item's id.") var id: String

    func run() throws {
      try global.changing { (workspace) throws(WorkspaceError) in try workspace.setDone(id, false) }
      try report(global, "not done", id)
    }
  }

  struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Replace an item's text.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The item's id.") var id: String
    @Argument(help: "The new text.") var words: [String]

    func validate() throws {
      if words.isEmpty {
        throw ValidationError("give the new text: offloadctl item edit ID TEXT...")
      }
    }

    func run() throws {
      let text = words.joined(separator: " ")
      try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.editText(id, to: text)
      }
      try report(global, "edited", id)
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Remove items with everything nested under them (one undo brings them back).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The items' ids.") var ids: [String]

    func validate() throws {
      if ids.isEmpty { throw ValidationError("name at least one item to remove") }
    }

    func run() throws {
      let count = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.removeItems(ids)
      }
      if global.json {
        struct Removed: Encodable { var removed: Int }
        try Output.document(Removed(removed: count))
      } else if !global.quiet {
        Output.line(
          "removed \(count == 1 ? "1 item" : "\(count) items") (offloadctl undo brings them back)")
      }
    }
  }
}

/// Prints `verb id` for a change, or its JSON form.
private func report(_ global: GlobalOptions, _ verb: String, _ id: String) throws {
  if global.json {
    struct Changed: Encodable { var id: String; var change: String }
    try Output.document(Changed(id: id, change: verb))
  } else if !global.quiet {
    Output.line("\(verb) \(id)")
  }
}
