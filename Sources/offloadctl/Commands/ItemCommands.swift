import ArgumentParser
import Offload

/// `offloadctl item`: add, move, nest, complete, edit and remove items.
struct ItemCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "item",
    abstract: "Add, move, indent, outdent, complete, edit and remove items.",
    discussion: "Items are named by id; any unique prefix of an id works, as in git.",
    subcommands: [
      Add.self, Move.self, Nesting<Indent>.self, Nesting<Outdent>.self, Marking<Done>.self,
      Marking<Undone>.self, Edit.self, Remove.self, Deleted.self, Restore.self,
    ])

  /// The one selection rule of move, done, undone and remove, for their help.
  static let selectionRule = """
    A selected item takes everything nested under it along; an excepted item (--except) \
    leaves everything nested under it out: `--all --in Trip --except 1` is every item but row \
    1 and what is in it. Done and undone mark a selected parent's whole subtree, except the \
    excepted items' subtrees; a move or removal of a parent whose descendant is excepted is \
    refused, since the parent would carry it along.
    """

  /// The selection options shared by the bulk forms of move, done, undone and remove.
  struct SelectionOptions: ParsableArguments {
    @Argument(
      help: ArgumentHelp(
        "The items: ids or id prefixes, outline numbers (1.2), ranges of them (3-7, rows 3 to 7 in displayed order); id:PREFIX forces an id.",
        valueName: "selector"), completion: StoreCompletion.items)
    var selectors: [String] = []
    @Option(
      name: .customLong("in"),
      help: ArgumentHelp(
        "The collection the outline numbers, ranges and --all refer to (name or id).",
        valueName: "collection"), completion: StoreCompletion.collections)
    var collection: String?
    @Flag(help: "Select every item of the collection (needs --in).") var all = false
    @Option(
      parsing: .upToNextOption,
      help: ArgumentHelp(
        "Leave these items out (same forms as the selectors).", valueName: "selector"),
      completion: StoreCompletion.items)
    var except: [String] = []

    /// Whether this is the single-id form of earlier versions: ids only, no options.
    var isPlainIDs: Bool {
      collection == nil && !all && except.isEmpty
        && selectors.allSatisfy { word in
          (try? ItemSelection.term(word))?.isPositional != true
        }
    }

    /// The selection the words name.
    func selection() throws -> ItemSelection {
      try failing { () throws(WorkspaceError) in
        try ItemSelection.parse(selectors, all: all, except: except)
      }
    }

    func validate() throws {
      if selectors.isEmpty && !all {
        throw ValidationError(
          except.isEmpty
            ? "name the items: ids, outline numbers (1.2), ranges (3-7) or --all with --in COLLECTION"
            : "--except leaves items out of a selection; name the items or pass --all")
      }
      if all && collection == nil {
        throw ValidationError("--all needs --in COLLECTION")
      }
    }
  }

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add an item to a collection.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The collection's name or id.", completion: StoreCompletion.collections)
    var collection: String
    @Argument(help: "The item's text.") var words: [String]
    @Option(
      help: ArgumentHelp("Nest it under this item (plans only).", valueName: "id"),
      completion: StoreCompletion.items)
    var parent: String?
    @OptionGroup var placement: PlacementOptions<Item>
    @Option(help: ItemCommand.roleHelp) var role: String?

    func validate() throws {
      _ = try ItemCommand.role(role)
      if parent != nil && (placement.before != nil || placement.after != nil) {
        throw ValidationError(
          "--parent goes with --first or --last; --before and --after already name a place")
      }
    }

    func run() throws {
      let parsedRole = try ItemCommand.role(role) ?? nil
      let where_ = placement.resolved(under: parent)
      let text = words.joined(separator: " ")
      let item = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.addItem(to: collection, text: text, at: where_, role: parsedRole)
      }
      try global.report(JSONShapes.ItemShape(item)) {
        "added \(item.id): \(item.text)"
      }
    }
  }

  struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "move",
      abstract: "Move items, with everything nested under them, within or between collections.",
      discussion: """
        Several items move as one change (one undo puts them back): they keep their relative \
        order and stand side by side at the destination; an item whose parent is also \
        selected travels with the parent. A refused move (into its own subtree, too deep, \
        nesting in a list) changes nothing.

        """ + ItemCommand.selectionRule)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SelectionOptions
    @Option(
      name: .customLong("to"),
      help: ArgumentHelp("Move them to this collection (name or id).", valueName: "collection"),
      completion: StoreCompletion.collections)
    var target: String?
    @Option(
      help: ArgumentHelp("Nest them under this item (with --first or --last).", valueName: "id"),
      completion: StoreCompletion.items)
    var into: String?
    @Flag(help: "Make them top-level items.") var root = false
    @OptionGroup var placement: PlacementOptions<Item>

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
      let where_ = placement.resolved(under: into)
      if selection.isPlainIDs && selection.selectors.count == 1 {
        let id = selection.selectors[0]
        try global.changing { (workspace) throws(WorkspaceError) in
          try workspace.moveItem(id, toCollection: target, to: where_)
        }
        return try report(global, "moved", id)
      }
      let chosen = try selection.selection()
      let change = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.moveItems(
          chosen, in: selection.collection, toCollection: target, to: where_)
      }
      try reportBulk(global, "move", change) { count in
        change.collections.count > 1
          ? "moved \(count) from \(quoted(change.collections.dropLast())) to \(quoted(change.collections.suffix(1)))"
          : "moved \(count) within \(quoted(change.collections))"
      }
    }
  }

  /// Which way `item indent` and `item outdent` move an item: its command's words and the
  /// workspace's call.
  protocol NestingWay {
    /// The command's name and abstract, the verb it reports and the workspace's call.
    static var words: NestingWords { get }
  }

  /// The words of a nesting command (its configuration and the verb it reports: `indented`)
  /// and the workspace's call that moves the item a level in or out.
  struct NestingWords {
    var configuration: CommandConfiguration
    var verb: String
    var move: (Workspace) -> (String) throws(WorkspaceError) -> Void

    init(
      _ name: String, _ abstract: String, verb: String,
      move: @escaping (Workspace) -> (String) throws(WorkspaceError) -> Void
    ) {
      configuration = CommandConfiguration(commandName: name, abstract: abstract)
      self.verb = verb
      self.move = move
    }
  }

  enum Indent: NestingWay {
    static var words: NestingWords {
      NestingWords(
        "indent", "Nest an item under the item above it (it becomes that item's last child).",
        verb: "indented", move: Workspace.indent)
    }
  }

  enum Outdent: NestingWay {
    static var words: NestingWords {
      NestingWords(
        "outdent", "Lift an item out of its parent (it goes right after the parent).",
        verb: "outdented", move: Workspace.outdent)
    }
  }

  /// What `item done` and `item undone` set: the command's name, the words it reports and
  /// the state it gives the items.
  protocol DoneState {
    /// The command's name, and what a bulk change's JSON calls its action (`undone`).
    static var name: String { get }
    /// What the items become, in the abstract and the report (`not done`).
    static var state: String { get }
    /// The state the workspace's `setDone` is given.
    static var done: Bool { get }
  }

  enum Done: DoneState {
    static let name = "done"
    static let state = "done"
    static let done = true
  }

  enum Undone: DoneState {
    static let name = "undone"
    static let state = "not done"
    static let done = false
  }

  /// `item indent` or `item outdent`, as `Way` says: one item a level in or out.
  struct Nesting<Way: NestingWay>: ParsableCommand {
    static var configuration: CommandConfiguration { Way.words.configuration }
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The item's id.", completion: StoreCompletion.items) var id: String

    func run() throws {
      try global.changing { (workspace) throws(WorkspaceError) in
        try Way.words.move(workspace)(id)
      }
      try report(global, Way.words.verb, id)
    }
  }

  /// `item done` or `item undone`, as `State` says: one item, or a selection as one change,
  /// marked with what is nested under it.
  struct Marking<State: DoneState>: ParsableCommand {
    static var configuration: CommandConfiguration {
      CommandConfiguration(
        commandName: State.name,
        abstract: "Mark items \(State.state), with what is nested under them (one change).",
        discussion: ItemCommand.selectionRule)
    }
    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SelectionOptions

    func run() throws {
      if selection.isPlainIDs && selection.selectors.count == 1 {
        let id = selection.selectors[0]
        let change = try global.changing { (workspace) throws(WorkspaceError) in
          try workspace.setDone(id, State.done)
        }
        // A parent takes its subtree along: say how many nested items changed with it.
        let nested = change.actedOn.filter { $0 != change.selected.first }.count
        return try report(
          global, State.state, id,
          nested == 0 ? "" : " and \(nested) nested item\(nested == 1 ? "" : "s") under it")
      }
      let chosen = try selection.selection()
      let change = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.setDone(chosen, in: selection.collection, State.done)
      }
      try reportBulk(global, State.name, change) { count in
        "marked \(count) \(State.state) in \(quoted(change.collections))"
          + (change.selected.count > change.actedOn.count
            ? " (\(change.selected.count - change.actedOn.count) already \(change.selected.count - change.actedOn.count == 1 ? "was" : "were"))"
            : "")
      }
    }
  }

  /// The `--role` option's help.
  static let roleHelp = ArgumentHelp(
    "The item's role in a plan: day, day:N, fixed, segment:N-M, free, or none to clear it.",
    valueName: "role")

  /// A `--role` word: nil when the option is absent, `.some(nil)` for `none`.
  static func role(_ word: String?) throws -> PlacementRole?? {
    guard let word else { return nil }
    if word.lowercased() == "none" { return .some(nil) }
    do {
      return .some(try PlacementRole(parsing: word))
    } catch {
      throw ValidationError("--role \(error.message)")
    }
  }

  struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit",
      abstract: "Replace an item's text, its role in a plan, or both (one change).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The item's id.", completion: StoreCompletion.items) var id: String
    @Argument(help: "The new text.") var words: [String] = []
    @Option(help: ItemCommand.roleHelp) var role: String?

    func validate() throws {
      if words.isEmpty && role == nil {
        throw ValidationError(
          "give the new text or a role: offloadctl item edit ID TEXT... [--role ROLE]")
      }
      _ = try ItemCommand.role(role)
    }

    func run() throws {
      let text = words.isEmpty ? nil : words.joined(separator: " ")
      let newRole = try ItemCommand.role(role)
      try global.changing { (workspace) throws(WorkspaceError) in
        if let newRole {
          try workspace.setRole(id, to: newRole, text: text)
        } else if let text {
          try workspace.editText(id, to: text)
        }
      }
      try report(global, "edited", id)
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove items with everything nested under them (one undo brings them back).",
      discussion: ItemCommand.selectionRule)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SelectionOptions

    func run() throws {
      guard selection.isPlainIDs else {
        let chosen = try selection.selection()
        let change = try global.changing { (workspace) throws(WorkspaceError) in
          try workspace.removeItems(chosen, in: selection.collection)
        }
        return try reportBulk(
          global, "remove", change, after: " (offloadctl undo brings them back)"
        ) { "removed \($0) from \(quoted(change.collections))" }
      }
      let ids = selection.selectors
      let count = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.removeItems(ids)
      }
      struct Removed: Encodable { var removed: Int }
      try global.report(Removed(removed: count)) {
        "removed \(count == 1 ? "1 item" : "\(count) items") (offloadctl undo brings them back)"
      }
    }
  }
}

/// Prints `verb id` for a change, or its JSON form.
private func report(
  _ global: GlobalOptions, _ verb: String, _ id: String, _ more: String = ""
) throws {
  struct Changed: Encodable { var id: String; var change: String }
  try global.report(Changed(id: id, change: verb)) {
    "\(verb) \(id)\(more)"
  }
}

/// Prints what a bulk change did: a sentence naming the rows acted on, or its JSON form.
private func reportBulk(
  _ global: GlobalOptions, _ action: String, _ change: BulkChange, after: String = "",
  sentence: (String) -> String
) throws {
  if global.json {
    struct Shape: Encodable {
      var action: String
      var selected: [String]
      var actedOn: [String]
      var affected: Int
      var collections: [String]
    }
    try Output.document(
      Shape(
        action: action, selected: change.selected.map(\.rawValue),
        actedOn: change.actedOn.map(\.rawValue), affected: change.affected,
        collections: change.collections))
  } else if !global.quiet {
    let count = change.affected == 1 ? "1 item" : "\(change.affected) items"
    let shown = change.actedOn.prefix(8).map(\.rawValue).joined(separator: " ")
    let more = change.actedOn.count > 8 ? " and \(change.actedOn.count - 8) more" : ""
    Output.line(sentence(count) + (change.actedOn.isEmpty ? "" : ": \(shown)\(more)") + after)
  }
}

/// Collection names in quotes, joined by commas.
private func quoted(_ names: some Sequence<String>) -> String {
  names.map { "\"\($0)\"" }.joined(separator: ", ")
}
