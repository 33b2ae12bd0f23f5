import Persistence

extension Workspace {
  /// This workspace with the journal's checkpoints left to ``checkpointIfDue()``.
  ///
  /// A change is made when its journal line is on stable storage. Bringing the collection
  /// files, the history files and the index up to date with the journal (a checkpoint, once
  /// the journal holds 32 changes or 4,096 changed items) is bookkeeping, and a change
  /// normally does it before it returns: one change in 32 takes several file writes longer.
  /// A server that answers a person answers first: a change of the returned workspace returns
  /// as soon as its line is durable, and the server calls ``checkpointIfDue()`` once it has
  /// answered.
  ///
  /// Nothing about safety changes. Readers replay the journal's tail either way, and a
  /// checkpoint that never comes (the process ends first) is done by the next change of any
  /// workspace that does not defer them. A store without a checkpoint yet (a new one, or one
  /// of the earlier layout) still takes its first at its first change.
  ///
  /// ```swift
  /// let workspace = Workspace(root: "/home/ada/.local/share/offload").deferringCheckpoints()
  /// try workspace.capture("Call the plumber")  // returns once the change is durable
  /// // … answer the person, then:
  /// try workspace.checkpointIfDue()
  /// ```
  ///
  /// - Returns: A copy of this workspace whose changes do not checkpoint.
  public func deferringCheckpoints() -> Workspace {
    var deferring = self
    deferring.defersCheckpoints = true
    return deferring
  }

  /// Checkpoints the journal when a change would: when its tail holds 32 changes or 4,096
  /// changed items. Runs under the store's exclusive lock, like a change.
  ///
  /// - Returns: Whether it checkpointed.
  /// - Throws: ``WorkspaceError/Code/storeBusy`` when another process holds the lock past the
  ///   timeout, or the error of a file write; the journal then keeps its tail and the next
  ///   checkpoint does it again.
  /// - Complexity: O(*t*) to read the journal's tail of *t* changes; O(*n* + *t*) when it
  ///   checkpoints, where *n* is the size of the collections the tail touched.
  @discardableResult
  public func checkpointIfDue() throws(WorkspaceError) -> Bool {
    guard exists else { return false }
    return try locked(shared: false) { () throws(WorkspaceError) in
      // A workspace that keeps the store in memory checkpoints what it kept, and keeps it
      // (with the new stamp), so its next change still reads nothing.
      var kept = device == nil ? memory?.kept(at: memoryStamp()) : nil
      let journal = try openJournal(resuming: &kept)
      var state: StoreState
      if let kept { state = kept.state } else { state = try cacheState(journal) }
      guard state.needsCheckpoint else {
        try? journal.close()
        return false
      }
      do throws(WorkspaceError) {
        try checkpoint(state, journal: journal)
      } catch {
        memory?.forget()
        try? journal.close()
        throw error
      }
      guard var kept, let memory else {
        try? journal.close()
        return true
      }
      let point = try? journal.suspend()
      guard let stamp = changeStamp() else {
        memory.forget()
        return true
      }
      state.tail = []
      state.stamp = stamp
      (kept.stamp, kept.state, kept.point, kept.hasSnapshot) = (stamp, state, point, true)
      memory.keep(kept)
      return true
    }
  }
}
