import Synchronization

/// Runs an organize page's store checkpoints when the page is still, never while a stroke is
/// under way.
///
/// A checkpoint writes the collection files, the history files and the index, and takes the
/// store's exclusive lock (130–250 ms for a 1,000-row plan on this machine, more when a sync
/// is slow). Run right after a
/// drop, it held up the next stroke's lift, moves and drop for that long whenever the person
/// dragged again at once. So a stroke's end schedules it after a quiet spell, a stroke's
/// beginning puts it off, and only a long run of changes without a pause (the cap) checkpoints
/// at once, after the answer, so that readers never replay a long journal tail.
final class QuietCheckpoint: Sendable {
  /// How long the page must be still before the checkpoint runs.
  static let quiet = Duration.milliseconds(750)
  /// How many changes may wait for a pause before one checkpoints at once.
  static let cap = 64

  let service: OrganizeService
  let quiet: Duration
  private let state = Mutex<(waiting: Task<Void, Never>?, unsettled: Int)>((nil, 0))

  init(service: OrganizeService, quiet: Duration = QuietCheckpoint.quiet) {
    self.service = service
    self.quiet = quiet
  }

  /// A stroke begins: a checkpoint waiting for quiet waits for the next pause instead.
  func strokeBegan() {
    state.withLock { state in
      state.waiting?.cancel()
      state.waiting = nil
    }
  }

  /// A stroke saved a change and answered: checkpoints now when the cap is reached.
  func changed() async {
    let due = state.withLock { state in
      state.unsettled += 1
      return state.unsettled >= Self.cap
    }
    guard due else { return }
    await service.checkpointIfDue()
    state.withLock { $0.unsettled = 0 }
  }

  /// A stroke ended: the checkpoint runs once the page has been still for `quiet`.
  func strokeEnded() {
    state.withLock { state in
      state.waiting?.cancel()
      state.waiting = Task { [service, quiet, weak self] in
        try? await Task.sleep(for: quiet)
        guard !Task.isCancelled else { return }
        await service.checkpointIfDue()
        self?.state.withLock { $0.unsettled = 0 }
      }
    }
  }

  /// The page left: a checkpoint still waiting runs now.
  func close() async {
    let waiting = state.withLock { state in
      let waiting = state.waiting
      state.waiting = nil
      return waiting
    }
    guard let waiting else { return }
    waiting.cancel()
    await service.checkpointIfDue()
  }
}
