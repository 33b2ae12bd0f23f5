import Foundation
import Persistence
import Replication

/// How far this device has reported other devices' changes to its user: the version vector
/// of what it reported, and the other devices' log files (name and size) as they were then,
/// so that when no log changed the next look costs a listing and a comparison.
public struct ArrivalMark: Codable, Sendable, Equatable {
  /// Operations of each other device reported, by replica id.
  public internal(set) var seen: [String: UInt64]
  /// Each other device's log files as `name:size`, by replica id.
  public internal(set) var logs: [String: String]
}

/// What arrived from other devices since a mark, in one line, and the mark to keep.
public struct Arrivals: Sendable, Equatable {
  /// One line for a person, such as `3 changes from laptop; 1 move skipped: it would put Pack
  /// inside itself (under Tent)`; `nil` when nothing arrived (or on the first look, which
  /// only sets the mark).
  public var summary: String?
  /// The mark after this look.
  public var mark: ArrivalMark
}

extension Workspace {
  /// The format of `reported.json`, where this device keeps its ``ArrivalMark``.
  static let arrivalFormat = DocumentFormat<ArrivalMark>(name: "offload.reported")

  /// This device's mark, in its own folder (written by this device only).
  var reportedDocument: DocumentStore<ArrivalMark> {
    DocumentStore(
      path: cacheRoot + "/reported.json", format: Self.arrivalFormat, fileSystem: fileSystem)
  }

  /// Each other device's log files as `name:size`, by replica id: they only grow or start a
  /// new generation, so an equal listing means nothing arrived.
  ///
  /// - Complexity: O(*d* + *f*): one listing per device folder and one status per log file.
  func otherLogFiles(except own: String) -> [String: String] {
    var result: [String: String] = [:]
    for replica in (try? replicaFolders.replicaIDs()) ?? [] where replica != own {
      let folder = replicaFolders.folder(of: replica)
      let names = ((try? fileSystem.listDirectory(folder)) ?? []).filter {
        $0.hasPrefix(ReplicaFolders.logName + ".") && !ReplicaFolders.isSyncEngineFile($0)
          && !$0.hasSuffix(".lock")
      }.sorted()
      result[replica] = names.map { name in
        let size = (try? fileSystem.status(folder + "/" + name, followingLinks: true))?.size
        return name + ":" + String(size ?? -1)
      }.joined(separator: " ")
    }
    return result
  }

  /// What arrived from other devices since `mark`: their operations beyond it are merged
  /// over the state made of this device's log and everything within the mark, and the
  /// report of that merge is summed up with the devices' names, counting changes (log lines).
  ///
  /// Without a mark, the first look, the mark is what this device had seen when it wrote its
  /// last change (nothing when that change came before any other device), and nothing is
  /// reported when this device has written nothing yet (a new device does not report the
  /// history it joins).
  ///
  /// ```swift
  /// var mark: ArrivalMark?
  /// if let arrivals = workspace.arrivals(since: mark) {
  ///   if let line = arrivals.summary { print(line) }
  ///   mark = arrivals.mark
  /// }
  /// ```
  ///
  /// - Parameter mark: What was reported last, or `nil` for the first look.
  /// - Returns: The summary and the new mark; `nil` when the store is not shared.
  /// - Complexity: O(*d* + *f*) when no other device's log changed (see the mark); else
  ///   O(*o* log *o*) for *o* operations in the logs.
  public func arrivals(since mark: ArrivalMark?) -> Arrivals? {
    guard let device else { return nil }
    let own = device.replica.rawValue
    let files = otherLogFiles(except: own)
    if let mark, mark.logs == files { return Arrivals(summary: nil, mark: mark) }
    // From the checkpoint when it holds nothing past the mark: the cost follows what arrived.
    if let mark, let merged = arrivalsFromCheckpoint(device, baseline: mark.seen) {
      return arrivals(merged, baseline: mark.seen, files: files, own: own)
    }
    let ownRecords = ownLogRecords(device)
    var baseline = mark?.seen
    if baseline == nil, !ownRecords.isEmpty {
      baseline = ownRecords.last { $0.entry.record?.covers != nil }?.entry.record?.covers ?? [:]
    }
    let reads: [ReplicaLogRead<ReplicaLogOperations, ReplicaLogBase>] = replicaFolders.readLogs(
      except: own, format: Self.replicaLogFormat)
    let records = reads.flatMap { $0.contents?.entries ?? [] }
    var known = ownRecords.flatMap(\.entry.operations)
    var new: [ReplicaOperation] = []
    for record in records {
      for operation in record.entry.operations {
        if let baseline, operation.sequence > baseline[operation.replica.rawValue] ?? 0 {
          new.append(operation)
        } else {
          known.append(operation)
        }
      }
    }
    // From a base snapshot within what was known, when a log was compacted.
    var within = baseline.map(Self.replicaVector)
    within?[device.replica] = .max
    var state =
      Self.baseState(
        of: [(device.replica, Self.operationLines(ownRecords))] + reads.compactMap(Self.logRecords),
        within: within)
      ?? ReplicaState()
    state.merge(ReplicaState.operations(known, past: state.seen))
    let report = state.merge(new)
    return arrivals((state, report, records), baseline: baseline, files: files, own: own)
  }

  /// The summary and the mark of a merge of what arrived.
  func arrivals(
    _ merged: ArrivalMerge, baseline: [String: UInt64]?, files: [String: String], own: String
  ) -> Arrivals {
    let (state, report) = (merged.state, merged.report)
    var seen = Self.vector(state.seen)
    seen[own] = nil
    let next = ArrivalMark(seen: seen, logs: files)
    guard let baseline,
      !report.arrived.isEmpty || !report.skipped.isEmpty || !report.rescued.isEmpty
    else { return Arrivals(summary: nil, mark: next) }
    var changes: [ReplicaID: Int] = [:]
    for record in merged.records {
      guard let first = record.entry.operations.first,
        first.sequence > baseline[first.replica.rawValue] ?? 0,
        state.seen.includes(first.replica, first.sequence)
      else { continue }
      changes[first.replica, default: 0] += 1
    }
    let summary = report.counting(changes: changes).summary { replica in
      deviceName(of: replica.rawValue) ?? replica.rawValue
    }
    return Arrivals(summary: summary, mark: next)
  }

  /// What arrived from other devices since this device last reported, once: the mark is
  /// kept in this device's own folder (`reported.json`, saved atomically under this
  /// device's lock), so the next call says nothing until more arrives.
  ///
  /// - Returns: One line to show, or `nil` when nothing arrived, the store is not shared,
  ///   this device has no folder yet, or the lock is busy (the line waits for the next call).
  /// - Complexity: As ``arrivals(since:)``.
  public func reportArrivals() -> String? {
    guard device != nil, ownFolderExists else { return nil }
    let document = reportedDocument
    let mark = (try? document.read()) ?? nil
    // Nothing arrived: a listing and a comparison, without the lock.
    if let mark, mark.logs == otherLogFiles(except: device?.replica.rawValue ?? "") {
      return nil
    }
    let shown = try? locked(shared: false) { () throws(WorkspaceError) -> String? in
      let mark = (try? document.read()) ?? nil
      guard let arrivals = arrivals(since: mark) else { return nil }
      if arrivals.mark != mark {
        try Self.persisting { () throws(PersistenceError) in try document.save(arrivals.mark) }
      }
      return arrivals.summary
    }
    return shown ?? nil
  }
}
