import Selection

// snippet: selection-model
/// The view model of a list's edit mode: checkmarks, select all, and the toolbar.
///
/// Select all is stored as "every row except": one flag, whatever the list's size, and
/// deselecting a row afterwards stores that one id.
@MainActor
final class EditModeModel {
  private(set) var selection = SelectionState<String>(mode: .multiple)
  private(set) var rows: RowSnapshot<String>
  /// The row a tap in normal mode opened, if any.
  private(set) var opened: String?

  init(ids: [String]) throws(SelectionError) {
    rows = try RowSnapshot(visible: ids)
  }

  func edit() { selection.beginEditing() }
  func done() { selection.endEditing() }

  /// A tap on a row: opens it in normal mode, toggles its checkmark in edit mode.
  func tap(_ id: String) {
    if case .navigate(let id) = selection.tap(id) { opened = id }
  }

  /// The Select All / Deselect All button.
  func toggleSelectAll() { _ = selection.toggleSelectAll(in: rows) }

  /// The bottom toolbar: rename needs exactly one row, delete any.
  var toolbar: Toolbar {
    selection.toolbar(for: [.rename(), .delete()], in: rows)
  }
}
// snippet-end
