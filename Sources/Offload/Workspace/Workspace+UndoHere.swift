import Foundation
import Persistence

/// The history sequences of the changes one screen or page made, oldest first: what its undo
/// may take back (see ``Workspace/recording(in:)`` and ``Workspace/undo(madeHere:)``).
///
/// A reference shared by the copies of a workspace that record into it; safe to use from any
/// thread.
public final class ChangesMadeHere: @unchecked Sendable {
  private let lock = NSLock()
  private var made: [UInt64] = []

  /// An empty record.
  public init() {}

  /// The sequences recorded so far, oldest first.
  public var sequences: [UInt64] { lock.withLock { made } }

  /// Notes a change's history sequence.
  func record(_ sequence: UInt64) { lock.withLock { made.append(sequence) } }

  /// Replaces the record (after an undo took one back).
  func replace(with sequences: [UInt64]) { lock.withLock { made = sequences } }
}

extension Workspace {
  /// This workspace, noting in `made` the history sequence of every change it makes that can
  /// be undone: a screen or page keeps one record for its life and passes the sequences to
  /// ``undo(madeHere:)``.
  ///
  /// ```swift
  /// let made = ChangesMadeHere()
  /// let here = Workspace(root: "/home/ada/.local/share/offload").recording(in: made)
  /// try here.capture("Call the plumber")
  /// try here.undo(madeHere: made.sequences)
  /// ```
  ///
  /// - Parameter made: Where the sequences go.
  /// - Returns: A copy of this workspace that records into `made`.
  public func recording(in made: ChangesMadeHere) -> Workspace {
    var recording = self
    recording.madeHere = made
    return recording
  }

  /// Takes back the newest of the changes a screen or page made, when it is still this
  /// device's newest change; every surface's undo button or key calls this, so the refusals
  /// read the same everywhere.
  ///
  /// Sequences no longer in the history (undone elsewhere, or beyond its limit) are passed
  /// over. The check runs under the change's lock, so no change from another process can come
  /// between it and the undo. When this workspace records (``recording(in:)``), its record is
  /// left holding the sequences that remain.
  ///
  /// - Parameter made: The history sequences of the changes made here, oldest first.
  /// - Returns: The entry that was undone.
  /// - Throws: ``WorkspaceError/Code/nothingToUndo`` when none of `made` is in the history:
  ///   `nothing is left to undo here: undo here takes back only the changes made here`;
  ///   ``WorkspaceError/Code/conflict`` when the history's newest change is not the newest of
  ///   `made`: `the store's last change (SUMMARY) was made elsewhere: undo here takes back
  ///   only the changes made here, and offloadctl undo takes it back`; and the errors of
  ///   ``undo()``.
  /// - Complexity: That of ``undo()``, plus O(*m* + *h*) for *m* sequences and a history of *h*.
  @discardableResult
  public func undo(madeHere made: [UInt64]) throws(WorkspaceError) -> HistoryEntry {
    let checked = changing { (base: inout ChangeBase) throws(WorkspaceError) in
      let history = base.transaction.index.history
      let kept = Set(history)
      guard let last = made.last(where: kept.contains) else {
        throw WorkspaceError(
          .nothingToUndo,
          "nothing is left to undo here: undo here takes back only the changes made here")
      }
      guard let newest = history.last, newest != last else { return }
      let transaction = base.transaction
      let summary = try transaction.workspace.historyEntry(newest, tail: transaction.tail)?.summary
      throw WorkspaceError(
        .conflict,
        "the store's last change\(summary.map { " (\($0))" } ?? "") was made elsewhere: undo here takes back only the changes made here, and offloadctl undo takes it back"
      )
    }
    let undone = try checked.undo()
    madeHere?.replace(with: Array(made.prefix { $0 != undone.sequence }))
    return undone
  }
}
