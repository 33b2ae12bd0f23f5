import Offload

// The changes a page makes, noted for its undo (`Workspace.undo(madeHere:)`), and that undo.
extension OrganizeService {
  /// Runs one intent of the collection's editor as one change, refused when the collection
  /// is no longer at the version the page showed (checked under the change's lock), and notes
  /// the change's history sequence for the page's undo.
  func edit(
    _ tree: CollectionTree, shownAt version: String, verb: String,
    _ intent: (inout Editor<ShortID>) throws(EditRefusal) -> EditChange<ShortID>
  ) throws(DeckFailure) -> (change: EditChange<ShortID>, saved: Saved) {
    let sequences = ChangesMadeHere()
    let workspace = workspace.recording(in: sequences).changing(
      expecting: Self.expecting(version, of: tree.collection.id))
    let made = try run { () throws(WorkspaceError) in
      try workspace.editStamped(tree.collection.id, verb: verb, intent)
    }
    changes.changed()
    let saved = Saved(
      collection: made.collection, stamp: made.stamp, made: sequences.sequences.last)
    return (made.change, saved)
  }

  /// Takes back the newest change the page made (`made`: the history sequences of its
  /// changes, oldest first) through the library's one rule for undo here
  /// (`Workspace.undo(madeHere:)`: the terminal screen's `u` refuses the same way).
  ///
  /// - Returns: What the page says, and the history sequence taken back.
  func undo(madeHere made: [UInt64]) throws(DeckFailure) -> (String, UInt64) {
    let entry = try run { () throws(WorkspaceError) in try workspace.undo(madeHere: made) }
    return ("Undid \u{201C}\(Printable.clean(entry.summary))\u{201D}", entry.sequence)
  }
}
