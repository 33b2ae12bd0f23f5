import Foundation
import Persistence
import Replication

// The device's checkpoint of the merged state (decision 0013): the marks where it stopped
// reading each log, the version vector it covers, then the merged state's own text. A command
// loads it and merges only the operations past the marks; a checkpoint that is missing,
// damaged, of another version, or whose marks no longer match the logs is rebuilt from them.

/// A device's checkpoint as loaded: the marks and the vector, the state parsed on demand.
struct MergedCheckpoint {
  /// Where the checkpoint stopped reading each device's log.
  var marks: [String: ReplicaLogMark]
  /// The version vector the state covers.
  var covers: [String: UInt64]
  /// The merged state's text (parsed by ``state()``).
  var stateText: Substring

  static let header = "offload.device-checkpoint\t1"

  /// Reads the header; `nil` for another format or a damaged header.
  init?(text: String) {
    guard let split = text.range(of: "\nstate\n") else { return nil }
    let lines = text[..<split.lowerBound].split(separator: "\n")
    guard lines.first == Substring(Self.header) else { return nil }
    var marks: [String: ReplicaLogMark] = [:]
    var covers: [String: UInt64] = [:]
    for line in lines.dropFirst() {
      let fields = line.split(separator: "\t")
      guard fields.count == 3 else { return nil }
      switch fields[0] {
      case "mark":
        guard let mark = ReplicaLogMark(fields[2]) else { return nil }
        marks[String(fields[1])] = mark
      case "seen":
        guard let count = UInt64(fields[2]) else { return nil }
        covers[String(fields[1])] = count
      default: return nil
      }
    }
    self.marks = marks
    self.covers = covers
    stateText = text[split.upperBound...]
  }

  /// The text of a checkpoint.
  static func text(state: ReplicaState, marks: [String: ReplicaLogMark], floor: HybridTimestamp?)
    -> String
  {
    var out = header + "\n"
    for (replica, mark) in marks.sorted(by: { $0.key < $1.key }) {
      out += "mark\t\(replica)\t\(mark)\n"
    }
    for (replica, count) in state.seen.counts.sorted(by: { $0.key < $1.key }) {
      out += "seen\t\(replica.rawValue)\t\(count)\n"
    }
    return out + "state\n" + state.checkpointText(keepingFrom: floor)
  }
}

/// A log read from a mark: the read, whether it went on from the mark, where it stopped.
typealias LogTailRead = (
  read: ReplicaLogRead<ReplicaLogEntry, ReplicaLogBase>, continued: Bool, end: ReplicaLogMark?
)

/// Another device's log read from a mark, operations only.
typealias OtherLogTailRead = (
  read: ReplicaLogRead<ReplicaLogOperations, ReplicaLogBase>, continued: Bool,
  end: ReplicaLogMark?
)

/// This device's log as read: the lines past the checkpoint's mark when `continued`, else
/// every line, and where the read stopped.
struct OwnLogRead {
  var entries: [JournalRecord<ReplicaLogEntry>]
  var continued: Bool
  var end: ReplicaLogMark?
}

/// Every device's operations merged, with where each log was read up to.
struct MergedLogs {
  var state: ReplicaState
  /// Where each log was read up to (a log without a whole line has none).
  var marks: [String: ReplicaLogMark]
  /// Operations merged past the checkpoint (all of them when it was rebuilt).
  var merged = 0
  /// Whether the state was loaded from the checkpoint (not rebuilt from the logs).
  var fromCheckpoint = false

  /// Whether a command should write a new checkpoint after this merge.
  var wantsCheckpoint: Bool { !fromCheckpoint || merged >= Workspace.checkpointEvery }
}

extension Workspace {
  /// Operations past the checkpoint after which a command writes a new one.
  static let checkpointEvery = 256

  /// This device's log read without writing, from the checkpoint's mark when it matches.
  func ownLogRead(_ device: DeviceContext, checkpoint: MergedCheckpoint?) -> OwnLogRead {
    let read: LogTailRead = replicaFolders.readLog(
      of: device.replica.rawValue, format: Self.replicaLogFormat,
      after: checkpoint?.marks[device.replica.rawValue])
    return OwnLogRead(
      entries: read.read.contents?.entries ?? [], continued: read.continued, end: read.end)
  }

  /// This device's checkpoint, when it has one that reads.
  func loadMergedCheckpoint(_ device: DeviceContext) -> MergedCheckpoint? {
    replicaFolders.readCheckpoint(of: device.replica.rawValue).flatMap(MergedCheckpoint.init)
  }

  /// The marks of this device's checkpoint, read from its first bytes (the header) without
  /// the state; none when there is no checkpoint or its header does not fit them (then the
  /// logs are read from their start, which is slower, not different).
  func checkpointMarks(_ device: DeviceContext) -> [String: ReplicaLogMark] {
    let folder = replicaFolders.folder(of: device.replica.rawValue)
    let path = folder + "/" + ReplicaFolders.checkpointName
    guard let prefix = try? fileSystem.readPrefix(path, limit: 16_384) else { return [:] }
    return MergedCheckpoint(text: String(decoding: prefix.bytes, as: UTF8.self))?.marks ?? [:]
  }

  /// The operations past the checkpoint's marks, or `nil` when a log no longer starts with
  /// what the checkpoint read (then every log is merged from its start).
  func tails(
    _ device: DeviceContext, checkpoint: MergedCheckpoint, own: OwnLogRead
  ) -> (operations: [ReplicaOperation], marks: [String: ReplicaLogMark])? {
    var operations: [ReplicaOperation] = []
    var marks: [String: ReplicaLogMark] = [:]
    for id in (try? replicaFolders.replicaIDs()) ?? [] {
      if id == device.replica.rawValue {
        guard own.continued || checkpoint.marks[id] == nil else { return nil }
        for record in own.entries { operations += record.entry.operations }
        marks[id] = own.end
      } else {
        let read: OtherLogTailRead = replicaFolders.readLog(
          of: id, format: Self.replicaLogFormat, after: checkpoint.marks[id])
        guard read.continued || checkpoint.marks[id] == nil else { return nil }
        let records = read.read.contents?.entries ?? []
        if !read.continued && records.first?.entry.snapshot != nil { return nil }
        for record in records { operations += record.entry.operations }
        marks[id] = read.end ?? checkpoint.marks[id]
      }
    }
    return (operations, marks)
  }

  /// Merges every device's log: from the checkpoint and the lines past its marks when they
  /// still match, else from the logs' start.
  func mergeLogs(_ device: DeviceContext, checkpoint: MergedCheckpoint?, own: OwnLogRead)
    -> MergedLogs
  {
    if let checkpoint, let tails = tails(device, checkpoint: checkpoint, own: own),
      var state = try? ReplicaState(checkpoint: checkpoint.stateText)
    {
      state.merge(tails.operations)
      if !state.needsRebuild {
        return MergedLogs(
          state: state, marks: tails.marks, merged: tails.operations.count, fromCheckpoint: true)
      }
    }
    return mergeLogsFromStart(device, own: own)
  }

  /// Merges every device's log from its start.
  func mergeLogsFromStart(_ device: DeviceContext, own: OwnLogRead?) -> MergedLogs {
    let ownID = device.replica.rawValue
    var result = MergedLogs(state: ReplicaState(), marks: [:])
    var logs: [(replica: ReplicaID, records: [JournalRecord<ReplicaLogOperations>])] = []
    for id in (try? replicaFolders.replicaIDs()) ?? [] {
      if id == ownID, let own, !own.continued {
        // The open log's own reading (it cut a torn tail the read-only look still shows).
        if let replica = try? ReplicaID(id) {
          logs.append((replica, Self.operationLines(own.entries)))
        }
        result.marks[id] = own.end
        continue
      }
      let read: OtherLogTailRead = replicaFolders.readLog(
        of: id, format: Self.replicaLogFormat, after: nil)
      result.marks[id] = read.end
      if let replica = try? ReplicaID(id) {
        logs.append((replica, read.read.contents?.entries ?? []))
      }
    }
    result.state = Self.mergeFromBase(logs)
    result.merged = logs.reduce(0) { $0 + $1.records.reduce(0) { $0 + $1.entry.operations.count } }
    return result
  }

  /// Writes this device's checkpoint of `state`, read up to `marks`; a failure is ignored
  /// (the checkpoint is a cache).
  func saveMergedCheckpoint(
    _ device: DeviceContext, state: ReplicaState, marks: [String: ReplicaLogMark]
  ) {
    let known = ((try? replicaFolders.replicaIDs()) ?? []).compactMap { try? ReplicaID($0) }
    let floor = state.stableTimestamp(among: known)
    let text = MergedCheckpoint.text(state: state, marks: marks, floor: floor)
    try? replicaFolders.writeCheckpoint(text, of: device.replica.rawValue)
  }
}

extension Workspace {
  /// Writes this device's checkpoint after a committed change when the merge was rebuilt or
  /// went far enough past the last checkpoint, its own log marked at its new end.
  /// A partial state is completed first: the whole state before the change with the
  /// change's operations merged.
  func saveCheckpointAfterCommit(_ devices: DeviceLog, state committed: CommittedMerge) {
    guard let device else { return }
    let past =
      devices.reading.merged
      + Int(committed.seen[devices.replica] - devices.merged.seen[devices.replica])
    let due = !devices.reading.fromCheckpoint || devices.merged.rebuilt
    guard due || past >= Self.checkpointEvery else { return }
    var state = committed.state
    if committed.partial {
      state = devices.merged.state
      state.merge(committed.operations)
    }
    var marks = devices.reading.marks
    marks[device.replica.rawValue] = replicaFolders.ownMark(
      replica: device.replica.rawValue, generation: devices.log.generation,
      lastSequence: devices.log.lastSequence)
    saveMergedCheckpoint(device, state: state, marks: marks)
  }
}

extension Workspace {
  /// One line for each other device's log that cannot be read at all, each read from this
  /// device's checkpoint's mark when the log still matches it (the lines before it were
  /// read when the checkpoint was made), so a caught-up log costs no decoding.
  ///
  /// - Parameter device: This device.
  /// - Returns: The problems, sorted by replica id.
  /// - Complexity: O(*b* + *t*): *b* bytes of the logs read, *t* lines past the marks decoded.
  func unreadableLogs(_ device: DeviceContext) -> [String] {
    let marks = checkpointMarks(device)
    let ids = ((try? replicaFolders.replicaIDs()) ?? []).filter { $0 != device.replica.rawValue }
    return ids.compactMap { id in
      let read: LogTailRead = replicaFolders.readLog(
        of: id, format: Self.replicaLogFormat, after: marks[id])
      return read.read.contents == nil ? read.read.problem : nil
    }
  }
}

/// A merge of what arrived: the state after it, its report, and the other devices' log
/// records it read.
typealias ArrivalMerge = (
  state: ReplicaState, report: MergeReport, records: [JournalRecord<ReplicaLogOperations>]
)

extension Workspace {
  /// What arrived since `baseline`, merged over this device's checkpoint: the state holds
  /// everything within the baseline, then the operations beyond it are merged with their
  /// report; the logs are read from the checkpoint's marks. `nil` when the checkpoint holds
  /// an operation beyond the baseline, a log no longer matches it, or an operation is older
  /// than its floor (then every log is read from its start).
  ///
  /// - Parameters:
  ///   - device: This device.
  ///   - baseline: Each other device's operations already reported.
  /// - Returns: The merge, or `nil`.
  /// - Complexity: O(*n*) to load the state, *n* nodes, plus O(*k* log *k*) for *k*
  ///   operations past the marks: not the length of the history.
  func arrivalsFromCheckpoint(_ device: DeviceContext, baseline: [String: UInt64])
    -> ArrivalMerge?
  {
    let own = device.replica.rawValue
    guard let checkpoint = loadMergedCheckpoint(device),
      checkpoint.covers.allSatisfy({ $0.key == own || $0.value <= baseline[$0.key] ?? 0 })
    else { return nil }
    var known: [ReplicaOperation] = []
    var new: [ReplicaOperation] = []
    var records: [JournalRecord<ReplicaLogOperations>] = []
    for id in (try? replicaFolders.replicaIDs()) ?? [] {
      let read: OtherLogTailRead = replicaFolders.readLog(
        of: id, format: Self.replicaLogFormat, after: checkpoint.marks[id])
      guard read.continued || checkpoint.marks[id] == nil else { return nil }
      for record in read.read.contents?.entries ?? [] {
        if id != own { records.append(record) }
        for operation in record.entry.operations {
          let replica = operation.replica.rawValue
          if id != own, operation.sequence > baseline[replica] ?? 0 {
            new.append(operation)
          } else {
            known.append(operation)
          }
        }
      }
    }
    guard var state = try? ReplicaState(checkpoint: checkpoint.stateText) else { return nil }
    state.merge(known)
    let report = state.merge(new)
    guard !state.needsRebuild else { return nil }
    return (state, report, records)
  }
}
