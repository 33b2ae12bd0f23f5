import OrderingCore

// snippet: plan-model
/// The view model of a plan: rows nested under rows, moved by dragging or by the keyboard.
///
/// Every move goes through the forest, which refuses one that would put a row inside its
/// own subtree (or break a rule) and says why; the view shows that sentence and the plan
/// stays as it was. The model throws one error type, `OrderingError`, which wraps a refusal.
@MainActor
final class PlanModel {
  private(set) var forest = OrderedForest<String>()
  /// The message the view shows after a refused move, or `nil`.
  private(set) var alert: String?
  /// The (id, parent, key) rows the app wrote to storage.
  private(set) var writes: [OrderedForest<String>.Change] = []

  /// Adds a row at the end of `parent`'s children, or as the last root.
  func add(_ id: String, under parent: String? = nil) throws(OrderingError) {
    let changes: ForestChangeSet<String>
    do {
      changes = try forest.insert(id, at: parent.map { .lastChild(of: $0) } ?? .lastRoot)
    } catch {
      throw OrderingError(error)  // a refusal, wrapped: `error.refusal(of: String.self)`
    }
    writes += changes.changes
  }

  /// Moves a row with what is nested under it (a drop, or a keyboard move); a refusal
  /// becomes the alert.
  ///
  /// - Returns: Whether the row moved.
  @discardableResult
  func move(_ id: String, to destination: ForestDestination<String>) -> Bool {
    do {
      let changes = try forest.move(id, to: destination)
      writes += changes.changes
      alert = nil
      return true
    } catch {
      alert = error.description
      return false
    }
  }

  /// SwiftUI's `onMove` on one parent's rows: `.onMove { model.reorder($0, $1, in: trip) }`.
  func reorder(_ offsets: some Sequence<Int>, _ toOffset: Int, in parent: String?)
    throws(OrderingError)
  {
    writes += try forest.move(fromOffsets: offsets, toOffset: toOffset, under: parent).changes
  }

  /// The rows as the outline draws them: preorder, with depth for the indentation.
  var outline: [String] {
    forest.flattened().map { String(repeating: "  ", count: $0.depth) + $0.id }
  }
}
// snippet-end
