import OrderingCore

/// A check a change runs over the committed state before it changes anything; a throw refuses
/// the change (see ``Workspace/changing(expecting:)``).
public typealias ChangeExpectation = @Sendable (inout ChangeBase) throws(WorkspaceError) -> Void

/// The committed state a change starts from, as a ``ChangeExpectation`` sees it: read under
/// the change's exclusive lock, so nothing another process commits can come between the check
/// and the change.
public struct ChangeBase {
  var transaction: Transaction

  /// The collections, the inbox first, in the order ``Workspace/collections()`` lists them.
  public var collections: [StoreIndex.Entry] { transaction.index.collections }

  /// A collection by its exact id, as the change will find it (loaded once, shared with the
  /// change).
  ///
  /// - Throws: ``WorkspaceError/Code/notFound`` when no collection has that id, or an error
  ///   reading the store.
  /// - Complexity: O(*n*) the first time, where *n* is the size of the collection's file and
  ///   the journal's tail; O(1) after.
  public mutating func collection(_ id: ShortID) throws(WorkspaceError) -> ItemCollection {
    try transaction.collection(id)
  }
}

extension Workspace {
  /// This workspace with a check that every change it makes runs first, under the store's
  /// exclusive lock and over the state the change starts from.
  ///
  /// A page or another client that shows the store changes it "against what it showed": it
  /// names a version of the view, and a change from another process in the meantime must refuse
  /// the change rather than apply it to rows the user no longer sees. Comparing before the
  /// change takes the lock leaves a gap another writer can commit in; a check given here runs
  /// inside the lock, so the change is refused (nothing written, no history entry) or made on
  /// exactly the state the check saw.
  ///
  /// ```swift
  /// let workspace = Workspace(root: "/home/ada/.local/share/offload")
  /// let shown = try workspace.collections().count
  /// let checked = workspace.changing { base throws(WorkspaceError) in
  ///   guard base.collections.count == shown else {
  ///     throw WorkspaceError(.conflict, "the collections changed since they were shown")
  ///   }
  /// }
  /// try checked.createCollection(named: "Books", kind: .list)
  /// ```
  ///
  /// - Parameter check: Runs before each change's own work; what it throws, the change throws.
  ///   Every change of the returned workspace runs it, undo included.
  /// - Returns: A copy of this workspace that runs `check` (after any check it had).
  public func changing(expecting check: @escaping ChangeExpectation) -> Workspace {
    var checked = self
    let earlier = expectation
    checked.expectation = { (base: inout ChangeBase) throws(WorkspaceError) in
      try earlier?(&base)
      try check(&base)
    }
    return checked
  }
}
