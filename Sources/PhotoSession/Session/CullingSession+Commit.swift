/// Progress of a running commit, reported after every photo.
public struct CommitProgress: Hashable, Sendable {
  /// Photos handled so far in this commit.
  public var done: Int
  /// Photos this commit handles in all.
  public var total: Int
  /// The batch being applied (1-based).
  public var batch: Int
  /// The number of batches.
  public var batches: Int
  /// The photo just handled.
  public var photo: String
}

/// What a commit did (or, for a dry run, would do).
public struct CommitReport: Hashable, Sendable {
  /// One photo's outcome.
  public struct Entry: Hashable, Sendable {
    /// The photo id.
    public var photo: String
    /// Its decision.
    public var decision: PhotoDecision
    /// What was done (or would be done), or why it failed.
    public var detail: String
    /// The failure, when the photo was skipped.
    public var failure: PhotoSessionError?
  }

  /// Whether this was a dry run (nothing changed).
  public var dryRun: Bool
  /// Photos applied (for a dry run: photos that would be handled).
  public var applied: [Entry] = []
  /// Photos skipped with their failure; the next commit tries them again.
  public var failed: [Entry] = []
  /// The number of batches.
  public var batches: Int = 0
}

extension CullingSession {
  /// Applies every pending (or previously failed) decision, in queue order and in batches.
  ///
  /// For each photo the intent is journaled durably before the library applies the decision,
  /// and the result after, so a commit that crashed resumes at the next commit: a photo whose
  /// intent has no result is applied again, which the library's idempotent ``PhotoLibrary``
  /// apply turns into "already done". A photo that vanished or cannot be changed is reported in
  /// ``CommitReport/failed`` and skipped, never a crash; the next commit tries it again.
  /// Committing twice does nothing the second time. Commit clears the undo stack.
  ///
  /// - Parameters:
  ///   - batchSize: Photos per batch; the journal is synced at least once per batch.
  ///   - dryRun: Report what would be done without journaling or touching any file.
  ///   - progress: Called after every photo.
  /// - Returns: What was applied and what failed.
  /// - Throws: A journal write error (the photos handled so far stay handled).
  /// - Complexity: O(*n*) to find pending photos plus one apply per pending photo.
  @discardableResult
  public func commit(
    batchSize: Int = 100, dryRun: Bool = false, progress: (CommitProgress) -> Void = { _ in }
  ) throws(PhotoSessionError) -> CommitReport {
    guard batchSize > 0 else {
      throw PhotoSessionError(
        .invalidArgument, description: "the commit batch size must be positive, not \(batchSize)")
    }
    var todo: [Int] = []
    for index in 0..<state.cursor where state.commitState(at: index) != .applied {
      todo.append(index)
    }
    let batches = (todo.count + batchSize - 1) / batchSize
    var report = CommitReport(dryRun: dryRun, batches: batches)
    if dryRun {
      for index in todo {
        guard let decision = state.decision(at: index) else { continue }
        let photo = state.photos[index]
        let detail = library?.plan(decision, for: photo) ?? "would record \(decision)"
        report.applied.append(.init(photo: photo, decision: decision, detail: detail))
      }
      return report
    }
    guard !todo.isEmpty || state.commitRunning else { return report }
    var buffered: [SessionEvent] = [.commitStarted(time: clock())]
    func flush() throws(PhotoSessionError) {
      guard !buffered.isEmpty else { return }
      try appendAndApply(buffered)
      buffered.removeAll()
    }
    var done = 0
    for (number, index) in todo.enumerated() {
      guard let decision = state.decision(at: index) else { continue }
      let photo = state.photos[index]
      let resuming = state.commitState(at: index) == .inProgress
      if decision != .keep {
        // The intent must be durable before the file changes.
        buffered.append(.commitIntent(index: index, photo: photo, decision: decision))
        try flush()
      }
      let event: SessionEvent
      do throws(PhotoSessionError) {
        let detail = try library?.apply(decision, to: photo, resuming: resuming) ?? "recorded \(decision)"
        event = .commitResult(index: index, photo: photo, failure: nil, detail: detail)
        report.applied.append(.init(photo: photo, decision: decision, detail: detail))
      } catch {
        event = .commitResult(
          index: index, photo: photo, failure: error.code, detail: error.description)
        report.failed.append(
          .init(photo: photo, decision: decision, detail: error.description, failure: error))
      }
      buffered.append(event)
      done += 1
      if (number + 1) % batchSize == 0 || number + 1 == todo.count { try flush() }
      progress(
        CommitProgress(
          done: done, total: todo.count, batch: number / batchSize + 1, batches: batches,
          photo: photo))
    }
    buffered.append(.commitFinished(time: clock()))
    try flush()
    return report
  }
}
