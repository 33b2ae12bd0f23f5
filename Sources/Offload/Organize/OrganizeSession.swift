public import TerminalUI

/// The organize screen joined to a workspace: keys in, frames out, and every change saved as
/// it happens through the same ``Workspace`` calls as the commands.
///
/// ```swift
/// var session = try OrganizeSession(workspace: workspace, collection: "Trip")
/// _ = session.handle(KeyPress(.character("e")))
/// _ = session.handle(KeyPress(.space))
/// _ = session.handle(KeyPress(.character("x")))   // saved: one change, one undo
/// ```
public struct OrganizeSession {
  /// The store.
  public let workspace: Workspace
  /// The collection's id.
  public let collectionID: ShortID
  /// The screen.
  public private(set) var screen: OrganizeScreen
  /// The history sequences of the changes made on this screen, oldest first: `u` undoes only
  /// these (``Workspace/undo(madeHere:)``).
  public var changesMade: [UInt64] { made.sequences }
  /// Where this screen's workspace notes the changes it makes.
  private let made = ChangesMadeHere()

  /// Opens a collection.
  ///
  /// A surface that clears the terminal to draw the screen passes what opening the store had
  /// to say (the merge report of what arrived from other devices, that the store became
  /// shared) as `notices`: they take the status line of the first frame, where the user sees
  /// them, instead of a line on stderr the screen would draw over.
  ///
  /// - Parameters:
  ///   - workspace: The store.
  ///   - collection: The collection's name or id prefix.
  ///   - notices: Lines to show on the first frame's status line, joined by " · "; none
  ///     leaves the collection's summary there.
  /// - Throws: ``WorkspaceError/Code/notFound`` and the errors of reading the store.
  /// - Complexity: O(*n* log *n*), where *n* is the number of items.
  public init(workspace: Workspace, collection: String, notices: [String] = [])
    throws(WorkspaceError)
  {
    self.workspace = workspace.recording(in: made)
    let tree = try workspace.tree(of: collection)
    self.collectionID = tree.collection.id
    self.screen = OrganizeScreen(tree: tree)
    if !notices.isEmpty { screen.status = notices.joined(separator: " · ") }
  }

  /// Handles one key, making the change it asks for.
  ///
  /// A refused or failed change leaves the store as it was and shows the reason on the
  /// status line.
  ///
  /// - Parameter key: The key.
  /// - Returns: Whether the screen should close.
  /// - Complexity: That of ``OrganizeScreen/handle(_:)``, plus a change and a reload of the
  ///   collection (O(*n* log *n*) and the file writes) when the key changes data.
  public mutating func handle(_ key: KeyPress) -> Bool {
    switch screen.handle(key) {
    case .quit: return true
    case .redraw: return false
    case .change(let change):
      perform(change)
      return false
    }
  }

  /// The frame for the current state.
  ///
  /// - Complexity: That of ``OrganizeScreen/frame(size:)``.
  public mutating func frame(size: TerminalSize) -> Frame { screen.frame(size: size) }

  /// Makes a change through the workspace and reloads the collection.
  mutating func perform(_ change: OrganizeChange) {
    let reference = collectionID.rawValue
    func selection(_ ids: [ShortID]) -> ItemSelection {
      ItemSelection(terms: ids.map { .id($0.rawValue) })
    }
    func label(_ ids: [ShortID]) -> String {
      if ids.count == 1, let item = screen.tree.items[ids[0]] { return "\"\(item.text)\"" }
      return OrganizeScreen.count(ids.count)
    }
    let message: String
    var focus: ShortID?
    do {
      switch change {
      case .remove(let ids):
        let result = try workspace.removeItems(selection(ids), in: reference)
        let nested = result.affected - result.actedOn.count
        message =
          "Deleted \(label(ids))"
          + (nested > 0 ? " and \(OrganizeScreen.count(nested)) nested" : "")
          + " · u undoes"
      case .setDone(let ids, let done):
        let result = try workspace.setDone(selection(ids), in: reference, done)
        message = "Marked \(OrganizeScreen.count(result.affected)) \(done ? "done" : "not done")"
      case .move(let ids, let placement):
        try workspace.moveItems(selection(ids), in: reference, to: placement)
        message = "Moved \(label(ids))"
      case .indent(let id):
        try workspace.indent(id.rawValue)
        message = "Indented \(label([id]))"
      case .outdent(let id):
        try workspace.outdent(id.rawValue)
        message = "Outdented \(label([id]))"
      case .rename(let id, let text):
        try workspace.editText(id, to: text)
        message = "Renamed to \"\(text)\""
      case .moveToCollection(let ids, let target):
        let result = try workspace.moveItems(
          selection(ids), in: reference, toCollection: target, to: .lastRoot)
        message =
          "Moved \(label(ids)) (\(OrganizeScreen.count(result.affected)) in all) to \"\(target)\""
      case .add(let text, let placement):
        let item = try workspace.addItem(to: reference, text: text, at: placement)
        focus = item.id
        message = "Added \"\(item.text)\" · a adds another"
      case .undo:
        let undone = try workspace.undo(madeHere: changesMade)
        message =
          "Undid: \(undone.summary)" + (changesMade.isEmpty ? " · nothing left to undo" : "")
      }
    } catch {
      screen.status = "Cannot: \(error.description)"
      return
    }
    do {
      screen.reload(try workspace.tree(of: reference), status: message, focus: focus)
    } catch {
      screen.status = "Cannot reload \(reference): \(error.description)"
    }
  }
}
