/// Progress of a running commit, reported after every photo.
public struct CommitProgress: Hashable, Sendable, Codable {
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
public struct CommitReport: Hashable, Sendable, Codable {
  /// One photo's outcome.
  public struct Entry: Hashable, Sendable, Codable {
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
  /// For each batch, the intents of its photos are journaled durably (one append) before the
  /// library touches any file; then each photo's decision is applied; then the library
  /// ``PhotoLibrary/flush()``es (syncs the folders it changed) and the results are journaled
  /// (one append). A commit that crashed therefore resumes at the next commit: photos whose
  /// intent has no result are applied again with `resuming`, which the library's idempotent
  /// apply turns into "already done". A photo that vanished or cannot be changed is reported in
  /// ``CommitReport/failed`` and skipped, never a crash; the next commit tries it again. A
  /// card a rescan found vanished (``CullingState/rescans``) is never applied: it is reported
  /// in ``CommitReport/failed`` with ``PhotoSessionError/Code/photoMissing``.
  /// Committing twice does nothing the second time. Commit clears the undo stack.
  ///
  /// - Parameters:
  ///   - batchSize: Photos per batch: two journal appends and one library flush per batch.
  ///   - dryRun: Report what would be done without journaling or touching any file; a photo
  ///     that commit would skip (``PhotoLibrary/check(_:marks:for:)``) is in ``CommitReport/failed``.
  ///   - progress: Called after every photo.
  /// - Returns: What was applied and what failed.
  /// - Throws: A journal or flush error; photos of the batch in progress stay in progress and
  ///   the next commit resumes them.
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
    let vanished = Set(state.rescans.vanished)
    if dryRun {
      for index in todo {
        guard let decision = state.decision(at: index) else { continue }
        let photo = state.photos[index]
        let marks = state.marks(at: index)
        do throws(PhotoSessionError) {
          if vanished.contains(photo) && state.commitState(at: index) != .inProgress {
            throw Self.vanishedError(photo)
          }
          try library?.check(decision, marks: marks, for: photo)
          let detail =
            library?.plan(decision, marks: marks, for: photo) ?? "would record \(decision)"
          report.applied.append(.init(photo: photo, decision: decision, detail: detail))
        } catch {
          report.failed.append(
            .init(photo: photo, decision: decision, detail: error.description, failure: error))
        }
      }
      return report
    }
    guard !todo.isEmpty || state.commitRunning else { return report }
    var start: [SessionEvent] = [.commitStarted(time: clock())]
    var done = 0
    for batch in 0..<batches {
      let indices = todo[(batch * batchSize)..<min(todo.count, (batch + 1) * batchSize)]
      // Which photos an earlier, interrupted commit had started: decided before the intents.
      let resuming = indices.map { state.commitState(at: $0) == .inProgress }
      var intents = start
      start = []
      for index in indices {
        // A keep with no marks changes no file: it needs no intent.
        guard let decision = state.decision(at: index),
          decision != .keep || !state.marks(at: index).isEmpty,
          !vanished.contains(state.photos[index]) || state.commitState(at: index) == .inProgress
        else { continue }
        intents.append(.commitIntent(index: index, photo: state.photos[index], decision: decision))
      }
      // The intents are durable before any file changes.
      try appendAndApply(intents)
      var results: [SessionEvent] = []
      for (offset, index) in indices.enumerated() {
        guard let decision = state.decision(at: index) else { continue }
        let photo = state.photos[index]
        do throws(PhotoSessionError) {
          if vanished.contains(photo) && !resuming[offset] { throw Self.vanishedError(photo) }
          let detail =
            try library?.apply(
              decision, marks: state.marks(at: index), to: photo, resuming: resuming[offset])
            ?? "recorded \(decision)"
          results.append(.commitResult(index: index, photo: photo, failure: nil, detail: detail))
          report.applied.append(.init(photo: photo, decision: decision, detail: detail))
        } catch {
          results.append(
            .commitResult(
              index: index, photo: photo, failure: error.code, detail: error.description))
          report.failed.append(
            .init(photo: photo, decision: decision, detail: error.description, failure: error))
        }
        done += 1
        progress(
          CommitProgress(
            done: done, total: todo.count, batch: batch + 1, batches: batches, photo: photo))
      }
      // The changes are durable before the results that record them.
      try library?.flush()
      try appendAndApply(results)
    }
    try appendAndApply(start + [.commitFinished(time: clock())])
    return report
  }

  /// The failure of a card a rescan found vanished: a commit never applies it.
  static func vanishedError(_ photo: String) -> PhotoSessionError {
    PhotoSessionError(
      .photoMissing, path: photo,
      description:
        "skipped \"\(photo)\": it was gone from the folder at a rescan; a vanished card is never committed"
    )
  }
}
