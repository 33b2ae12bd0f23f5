extension ReplicaState {
  /// Merges operations from any replicas (this one's too), in any order and with repeats.
  ///
  /// A replica's operations are taken in sequence order: a repeat is ignored, and one that
  /// comes after a gap waits (inside the state) until the gap is filled, as happens when a
  /// sync engine delivers a log that is still growing. Fields are applied as
  /// last-writer-wins registers. Structural operations are sorted by timestamp; the log's
  /// entries newer than the oldest of them are undone once, and the two sorted runs are
  /// applied together, each checked against the tree as it stands at its turn.
  ///
  /// - Parameter operations: Operations from any replicas.
  /// - Returns: What arrived from whom, what was skipped and why, and what was rescued.
  /// - Complexity: O(*k* log *k* + *u* · *d*): *k* operations, *u* log entries newer than
  ///   the oldest of them (undone and redone), *d* the tree's depth (the cycle check), plus
  ///   O(*t*) for the rescue check over the trash's *t* nodes.
  @discardableResult
  public mutating func merge(_ operations: some Sequence<ReplicaOperation>) -> MergeReport {
    merge(operations, checkRescues: true)
  }

  /// Merges, and compares the rescued nodes before and after when `checkRescues` is true
  /// (a replica's own new operations skip that walk of the trash).
  mutating func merge(_ operations: some Sequence<ReplicaOperation>, checkRescues: Bool)
    -> MergeReport
  {
    var report = MergeReport()
    let rescuedBefore = checkRescues ? Set(rescues().map(\.node)) : []
    var accepted: [ReplicaOperation] = []
    for operation in operations {
      let replica = operation.replica
      if operation.sequence <= seen[replica] || waiting[replica]?[operation.sequence] != nil {
        report.repeats += 1
        continue
      }
      waiting[replica, default: [:]][operation.sequence] = operation
    }
    for replica in waiting.keys.sorted() {
      while let next = waiting[replica]?.removeValue(forKey: seen[replica] + 1) {
        seen[replica] += 1
        accepted.append(next)
      }
      if waiting[replica]?.isEmpty == true { waiting[replica] = nil }
    }
    report.waiting = waiting.values.reduce(0) { $0 + $1.count }
    var structural: [ReplicaOperation] = []
    for operation in accepted {
      report.count(operation)
      if latest.map({ $0 < operation.timestamp }) ?? true { latest = operation.timestamp }
      lastTimestamps[operation.replica] = operation.timestamp
      let node = slot(operation.change.node)
      touch(node, by: operation.replica, sequence: operation.sequence)
      switch operation.change {
      case .set(_, let value):
        write(value, at: operation.timestamp, to: node)
      case .create(_, _, _, _, let fields):
        for value in fields { write(value, at: operation.timestamp, to: node) }
        structural.append(operation)
      case .move, .delete:
        structural.append(operation)
      }
    }
    structural.sort { $0.timestamp < $1.timestamp }
    if let floor, let first = structural.first, first.timestamp < floor { needsRebuild = true }
    replay(structural, into: &report)
    if checkRescues {
      report.rescued = rescues().filter { !rescuedBefore.contains($0.node) }
    }
    report.names(from: self)
    return report
  }

  /// Undoes the log entries newer than the first of `incoming` (sorted), then applies both
  /// runs in timestamp order, reporting skips that are new.
  mutating func replay(_ incoming: [ReplicaOperation], into report: inout MergeReport) {
    guard let first = incoming.first else { return }
    // The first entry newer than the oldest arrival: everything from there is undone.
    var low = log.count
    var lower = 0
    while lower < low {
      let middle = (lower + low) / 2
      if log[middle].operation.timestamp < first.timestamp {
        lower = middle + 1
      } else {
        low = middle
      }
    }
    let undone = Array(log[low...])
    for entry in undone.reversed() { undo(entry) }
    log.removeSubrange(low...)
    log.reserveCapacity(log.count + undone.count + incoming.count)
    var old = 0
    var new = 0
    while old < undone.count || new < incoming.count {
      let takeOld =
        new == incoming.count
        || (old < undone.count && undone[old].operation.timestamp < incoming[new].timestamp)
      if takeOld {
        let entry = applyStructural(undone[old].operation)
        if let reason = entry.skip, undone[old].skip == nil {
          report.skipped.append(.init(operation: entry.operation, reason: reason))
        }
        log.append(entry)
        old += 1
      } else {
        let entry = applyStructural(incoming[new])
        if let reason = entry.skip {
          report.skipped.append(.init(operation: entry.operation, reason: reason))
        }
        log.append(entry)
        new += 1
      }
    }
  }
}
