import ArgumentParser
import Foundation
import Offload

extension ItemCommand {
  /// `offloadctl item deleted`: the removed items that can be restored.
  struct Deleted: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "deleted",
      abstract: "List removed items that can be restored, newest removal first.",
      discussion: """
        One line per removed item: its id, its text, how many items were nested under it, \
        the collection it was in, when it was removed and, in a shared store, by which \
        device. A store never shared remembers the removals of its kept history; a shared \
        store lists every device's. `offloadctl item restore ID` puts one back.
        """)
    @OptionGroup var global: GlobalOptions
    @Option(
      name: .customLong("in"),
      help: ArgumentHelp(
        "Only items removed from this collection (name or id).", valueName: "collection"),
      completion: StoreCompletion.collections)
    var collection: String?

    func run() throws {
      let deleted = try global.reading { (workspace) throws(WorkspaceError) in
        try workspace.deletedItems(in: collection)
      }
      if global.json {
        try Output.document(Listing(deleted: deleted))
        return
      }
      if global.quiet { return }
      if deleted.isEmpty { Output.line("Nothing removed to restore.") }
      let formatter = ISO8601DateFormatter()
      for entry in deleted {
        Output.line(Self.line(entry, date: formatter.string(from: entry.removed)))
      }
    }

    /// One removed item: `12  Pack (+2 nested)  from "Trip"  removed 2026-11-27T10:00:00Z`.
    static func line(_ entry: DeletedItem, date: String) -> String {
      var text = entry.item.id.rawValue + "  " + entry.item.text
      if entry.nestedCount > 0 { text += " (+\(entry.nestedCount) nested)" }
      text += "  from \"\(entry.collectionName)\""
      if !entry.collectionExists { text += " (deleted)" }
      text += "  removed " + date
      if let device = entry.removedBy { text += " by " + device }
      return text
    }

    struct Listing: Encodable { var deleted: [DeletedItem] }
  }

  /// `offloadctl item restore`: puts removed items back.
  struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "restore",
      abstract: "Put removed items back with everything nested under them (one undo).",
      discussion: """
        Each item goes back under its former parent where it stood, when that parent is \
        still there; else at the end of its former collection; else, when the collection \
        was deleted, at the end of the inbox. One line says where each went. \
        `offloadctl item deleted` lists what can be restored.
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The removed items (ids or id prefixes).", valueName: "id"))
    var ids: [String] = []

    func run() throws {
      let result = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.restoreItems(ids)
      }
      if global.json {
        try Output.document(Listing(restored: result.restored))
        return
      }
      if global.quiet { return }
      for item in result.restored { Output.line(Self.line(item)) }
    }

    /// Where one item went: `restored 12 Pack (+2 nested) to "Trip" under 34, where it
    /// stood`.
    static func line(_ item: RestoredItem) -> String {
      var text = "restored \(item.id) \(item.text)"
      if item.nestedCount > 0 { text += " (+\(item.nestedCount) nested)" }
      text += " to \"\(item.collectionName)\""
      if let parent = item.parent { text += " under \(parent)" }
      switch item.place {
      case .formerPlace: text += ", where it stood"
      case .endOfCollection: text += ", at the end: its parent is gone"
      case .inbox: text += ", at the end: its collection is gone"
      }
      return text
    }

    struct Listing: Encodable { var restored: [RestoredItem] }
  }
}
