import Foundation
import Persistence
import Replication

// Compaction of this device's log (decision 0013): the log is rewritten as generation g+1,
// holding first a snapshot of the merged state at a vector S within what every known,
// non-retired device has seen, then this device's own changes past a bound B that every
// other device's latest snapshot holds. A reader without a usable mark starts from a base
// snapshot every log can continue from, and merges each log's operations past it.

/// The snapshot a compacted log begins with: the merged state at a version vector.
struct ReplicaLogSnapshot: Codable, Hashable {
  /// The vector the state is at (by replica id).
  var seen: [String: UInt64]
  /// The log holds every operation of its writer past this sequence number.
  var from: UInt64
  /// The state, as `ReplicaState.checkpointText(keepingFrom:)` writes it.
  var state: String
}

/// What `offloadctl store compact` did to this device's log.
public struct CompactionReport: Sendable, Equatable, Encodable {
  /// Whether the log was rewritten.
  public var compacted: Bool
  /// Why it was not, in one line (`nil` when it was).
  public var reason: String?
  /// The generation of the log now.
  public var generation: Int
  /// The log's size before, in bytes.
  public var bytesBefore: Int
  /// The log's size after, in bytes.
  public var bytesAfter: Int
  /// The vector of the snapshot the log begins with (by replica id).
  public var snapshot: [String: UInt64]
  /// The log holds this device's operations past this sequence number.
  public var keepsFrom: UInt64
  /// The changes (log lines) of this device the log still holds past its snapshot.
  public var changesKept: Int
}

extension Workspace {
  /// The outline of one device's log (its snapshot's vector and where its operations start)
  /// and its snapshot, from its lines as read.
  static func outline<Line: ReplicaLogLine>(_ replica: ReplicaID, _ records: [JournalRecord<Line>])
    -> (outline: ReplicaLogOutline, snapshot: ReplicaLogSnapshot?)
  {
    guard let snapshot = records.first?.entry.snapshot else {
      return (ReplicaLogOutline(replica: replica, snapshot: nil, start: 0), nil)
    }
    let vector = replicaVector(snapshot.seen)
    return (ReplicaLogOutline(replica: replica, snapshot: vector, start: snapshot.from), snapshot)
  }

  /// A vector from the form logs and caches store.
  static func replicaVector(_ counts: [String: UInt64]) -> VersionVector {
    var vector = VersionVector()
    for (replica, count) in counts {
      if let id = try? ReplicaID(replica) { vector[id] = count }
    }
    return vector
  }

  /// The state a base names: empty, or a log's snapshot loaded (`nil` when it does not read).
  static func baseState(
    _ base: ReplicaBase, snapshots: [ReplicaLogSnapshot?]
  ) -> ReplicaState? {
    guard case .snapshot(let index) = base else { return ReplicaState() }
    guard let text = snapshots[index]?.state else { return nil }
    return try? ReplicaState(checkpoint: Substring(text))
  }

  /// The base state of the logs: the largest snapshot within `within` that every log
  /// continues from, loaded; `nil` for none or the empty state.
  static func baseState<Line: ReplicaLogLine>(
    of logs: [(replica: ReplicaID, records: [JournalRecord<Line>])],
    within: VersionVector?
  ) -> ReplicaState? {
    let outlines = logs.map { outline($0.replica, $0.records) }
    guard let base = ReplicaCompaction.base(outlines.map(\.outline), within: within),
      case .snapshot = base
    else { return nil }
    return baseState(base, snapshots: outlines.map(\.snapshot))
  }

  /// Another device's log as read, with its replica id (`nil` for a folder name that is not
  /// one).
  static func logRecords<Line>(_ read: ReplicaLogRead<Line, ReplicaLogBase>)
    -> (replica: ReplicaID, records: [JournalRecord<Line>])?
  {
    (try? ReplicaID(read.replica)).map { ($0, read.contents?.entries ?? []) }
  }

  /// Every device's log merged from the logs alone: from the base snapshot with the most
  /// operations that every log can continue from (the empty state when no log was compacted),
  /// then each log's operations past it. When no base fits (a log's sync is not complete),
  /// the empty state and every operation the logs hold.
  ///
  /// - Parameter logs: Each device's lines as read, its own first or not.
  /// - Returns: The merged state.
  /// - Complexity: O(*s* + *o* log *o*): the base's size and the operations past it.
  static func mergeFromBase<Line: ReplicaLogLine>(
    _ logs: [(replica: ReplicaID, records: [JournalRecord<Line>])]
  ) -> ReplicaState {
    let outlines = logs.map { outline($0.replica, $0.records) }
    var state = ReplicaState()
    if let base = ReplicaCompaction.base(outlines.map(\.outline)),
      let loaded = baseState(base, snapshots: outlines.map(\.snapshot))
    {
      state = loaded
    }
    var operations: [ReplicaOperation] = []
    for log in logs {
      for record in log.records { operations += record.entry.operations }
    }
    state.merge(ReplicaState.operations(operations, past: state.seen))
    return state
  }

  /// What each known device has seen, by device: this device's merged state; for another,
  /// the most any of its claims says (its last log record's `covers`, its checkpoint's
  /// `seen`, its log's snapshot, its own operations).
  func seenClaims(
    own: ReplicaID, merged: ReplicaState,
    logs: [(replica: ReplicaID, records: [JournalRecord<ReplicaLogEntry>])], known: [ReplicaID]
  ) -> [ReplicaID: VersionVector] {
    var claims: [ReplicaID: VersionVector] = [:]
    for replica in known { claims[replica] = VersionVector() }
    func raise(_ replica: ReplicaID, _ counts: [String: UInt64]) {
      var vector = claims[replica] ?? VersionVector()
      for (other, count) in Self.replicaVector(counts).counts {
        vector[other] = max(vector[other], count)
      }
      claims[replica] = vector
    }
    for log in logs where log.replica != own {
      if let covers = log.records.last(where: { $0.entry.record?.covers != nil })?.entry.record?
        .covers
      {
        raise(log.replica, covers)
      }
      if let snapshot = log.records.first?.entry.snapshot { raise(log.replica, snapshot.seen) }
      if let last = log.records.last(where: { !$0.entry.operations.isEmpty })?.entry.operations
        .last
      {
        raise(log.replica, [log.replica.rawValue: last.sequence])
      }
      if let checkpoint = replicaFolders.readCheckpoint(of: log.replica.rawValue).flatMap(
        MergedCheckpoint.init)
      {
        raise(log.replica, checkpoint.covers)
      }
    }
    claims[own] = merged.seen
    return claims
  }

  /// Rewrites this device's own log as a new generation: a snapshot of the merged state at
  /// the stable vector (what every known, non-retired device has seen), then this device's
  /// changes past a bound that every other device's latest snapshot holds. Other devices'
  /// logs are never written. Nothing is rewritten when no snapshot can move forward (a
  /// device has not seen this device's last snapshot yet); the report says why.
  ///
  /// ```swift
  /// let report = try workspace.compact()
  /// print(report.bytesBefore, report.bytesAfter)
  /// ```
  ///
  /// - Returns: What was done.
  /// - Throws: ``WorkspaceError/Code/invalidRequest`` when the store is not shared;
  ///   ``WorkspaceError/Code/ioFailure`` when the new
  ///   generation cannot be written (the old one is then untouched).
  /// - Complexity: O(*o* log *o*), *o* operations in the logs.
  public func compact() throws(WorkspaceError) -> CompactionReport {
    guard let device else {
      throw WorkspaceError(
        .invalidRequest,
        "the store at \(root) is not shared between devices; `offloadctl store share` shares it")
    }
    guard ownFolderExists,
      ((try? replicaFolders.replicaIDs()) ?? []).contains(device.replica.rawValue)
    else {
      return CompactionReport(
        compacted: false, reason: "not compacted: this device has written nothing to the store yet",
        generation: 0, bytesBefore: 0, bytesAfter: 0, snapshot: [:], keepsFrom: 0, changesKept: 0)
    }
    return try locked(shared: false) { () throws(WorkspaceError) in
      let own = device.replica
      let log = try Self.persisting { () throws(PersistenceError) in
        try replicaFolders.openOwnLog(replica: own.rawValue, format: Self.replicaLogFormat)
          as JSONLinesJournal<ReplicaLogEntry, ReplicaLogBase>
      }
      defer { try? log.close() }
      return try compact(own: own, log: log)
    }
  }

  /// The compaction itself, under the store lock and this device's log lock.
  private func compact(
    own: ReplicaID, log: JSONLinesJournal<ReplicaLogEntry, ReplicaLogBase>
  ) throws(WorkspaceError) -> CompactionReport {
    let ids = ((try? replicaFolders.replicaIDs()) ?? []).compactMap { try? ReplicaID($0) }
    var logs: [(replica: ReplicaID, records: [JournalRecord<ReplicaLogEntry>])] = [
      (own, log.recovered.entries)
    ]
    for id in ids where id != own {
      let read: ReplicaLogRead<ReplicaLogEntry, ReplicaLogBase> = replicaFolders.readLog(
        of: id.rawValue, format: Self.replicaLogFormat)
      logs.append((id, read.contents?.entries ?? []))
    }
    let merged = Self.mergeFromBase(logs)
    let retired = retiredReplicas()
    let known = ids.contains(own) ? ids : ids + [own]
    let claims = seenClaims(own: own, merged: merged, logs: logs, known: known)
    let stable = ReplicaCompaction.stableVector(seen: claims, retired: retired.subtracting([own]))
    let outlines = logs.map { Self.outline($0.replica, $0.records) }
    let size = (try? fileSystem.readAll(log.journalPath).count) ?? 0
    var report = CompactionReport(
      compacted: false, reason: nil, generation: log.generation, bytesBefore: size,
      bytesAfter: size, snapshot: Self.vector(outlines[0].outline.snapshot ?? VersionVector()),
      keepsFrom: outlines[0].outline.start, changesKept: 0)
    if let previous = outlines[0].outline.snapshot, !previous.isCovered(by: stable) {
      report.reason =
        "not compacted: not every device has seen this device's last snapshot yet (seen by all: "
        + "\(stable.description.isEmpty ? "nothing" : stable.description))"
      return report
    }
    guard let base = ReplicaCompaction.base(outlines.map(\.outline), within: stable),
      let start = Self.baseState(base, snapshots: outlines.map(\.snapshot))
    else {
      report.reason =
        "not compacted: the logs here do not yet hold every operation up to "
        + "what every device has seen; compact again once the sync is complete"
      return report
    }
    var operations: [ReplicaOperation] = []
    for log in logs {
      for record in log.records { operations += record.entry.operations }
    }
    let state = ReplicaState.at(stable, base: start, operations: operations)
    let text = state.checkpointText(keepingFrom: state.stableTimestamp(among: known))
    var others: [ReplicaID: VersionVector?] = [:]
    for id in known where id != own && !retired.contains(id) { others[id] = .some(nil) }
    for outline in outlines.dropFirst() where !retired.contains(outline.outline.replica) {
      others[outline.outline.replica] = outline.outline.snapshot
    }
    let bound = ReplicaCompaction.bound(own: own, snapshot: state.seen, others: others)
    // This device's lines past the bound, each whole (a line is one change).
    var kept: [ReplicaLogEntry] = []
    var from = outlines[0].outline.start
    for record in log.recovered.entries where record.entry.snapshot == nil {
      guard let last = record.entry.operations.last else { continue }
      if last.sequence <= bound {
        from = max(from, last.sequence)
      } else {
        kept.append(record.entry)
      }
    }
    let snapshot = ReplicaLogSnapshot(seen: Self.vector(state.seen), from: from, state: text)
    try Self.persisting { () throws(PersistenceError) in
      try replicaFolders.writeGeneration(
        [ReplicaLogEntry(operations: [], record: nil, snapshot: snapshot)] + kept,
        replica: own.rawValue, generation: log.generation + 1, format: Self.replicaLogFormat)
    }
    let after = replicaFolders.currentGeneration(of: own.rawValue)
    let path = replicaFolders.folder(of: own.rawValue) + "/\(ReplicaFolders.logName).\(after).jsonl"
    report.compacted = true
    report.generation = after
    report.bytesAfter = (try? fileSystem.readAll(path).count) ?? 0
    report.snapshot = snapshot.seen
    report.keepsFrom = from
    report.changesKept = kept.count
    return report
  }
}
