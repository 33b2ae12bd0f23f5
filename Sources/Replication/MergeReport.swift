/// What a merge brought: how many operations from each replica, what was skipped and why,
/// and what was rescued from a deleted parent.
///
/// ```swift
/// let report = state.merge(operations)
/// print(report.summary { names[$0] ?? $0.rawValue })
/// // 3 changes from laptop; 1 move skipped: it would put Pack inside itself
/// ```
public struct MergeReport: Sendable, Equatable {
  /// One structural operation skipped at its turn, with the names the summary uses.
  public struct Skipped: Sendable, Equatable {
    /// The skipped operation.
    public let operation: ReplicaOperation
    /// Why it was skipped.
    public let reason: SkipReason
    /// The moved node's name (text or title, else id), filled in by the merge.
    public internal(set) var nodeName = ""
    /// The parent's name, filled in by the merge.
    public internal(set) var parentName = ""

    init(operation: ReplicaOperation, reason: SkipReason) {
      self.operation = operation
      self.reason = reason
    }

    /// One clause saying why, such as `it would put Pack inside itself`.
    public var explanation: String {
      switch reason {
      case .intoOwnSubtree:
        "it would put \(nodeName) inside itself (under \(parentName))"
      case .missingNode: "\(nodeName) does not exist (yet)"
      case .missingParent: "its new parent \(parentName) does not exist (yet)"
      case .fixedNode: "\(nodeName) cannot be moved"
      case .misplaced: "\(nodeName) cannot go under \(parentName)"
      case .duplicateCreate: "\(nodeName) already exists"
      }
    }
  }

  /// Operations merged, per replica.
  public internal(set) var arrived: [ReplicaID: Int] = [:]
  /// Operations already merged before (ignored).
  public internal(set) var repeats = 0
  /// Operations held back until an earlier operation of their replica arrives.
  public internal(set) var waiting = 0
  /// Structural operations skipped at their turn (newly, in this merge).
  public internal(set) var skipped: [Skipped] = []
  /// Nodes newly rescued from under a deleted node.
  public internal(set) var rescued: [Rescue] = []
  /// The rescued nodes' names, in the order of ``rescued``.
  public internal(set) var rescuedNames: [String] = []

  mutating func count(_ operation: ReplicaOperation) {
    arrived[operation.replica, default: 0] += 1
  }

  mutating func names(from state: ReplicaState) {
    for index in skipped.indices {
      skipped[index].nodeName = state.name(of: skipped[index].operation.change.node)
      switch skipped[index].reason {
      case .intoOwnSubtree(let parent), .missingParent(let parent), .misplaced(let parent):
        skipped[index].parentName = state.name(of: parent)
      default: break
      }
    }
    rescuedNames = rescued.map { state.name(of: $0.node) }
  }

  /// This report with ``arrived`` counting changes (a log line: one command) instead of
  /// operations, for a summary that speaks of what people did.
  ///
  /// - Parameter changes: Changes merged, per replica; zero counts are left out.
  /// - Returns: The report with those counts.
  /// - Complexity: O(*r*), *r* replicas.
  public func counting(changes: [ReplicaID: Int]) -> MergeReport {
    var report = self
    report.arrived = changes.filter { $0.value > 0 }
    return report
  }

  /// One line for a person: what came from whom, what was skipped, what was rescued.
  ///
  /// - Parameter deviceName: The name to show for a replica (a device's name).
  /// - Returns: For example `3 changes from laptop; 1 move skipped: it would put Pack inside
  ///   itself (under Tent)`, or `nothing new` when nothing arrived.
  /// - Complexity: O(*r* log *r* + *s*), *r* replicas and *s* skips and rescues.
  public func summary(_ deviceName: (ReplicaID) -> String = { $0.rawValue }) -> String {
    var parts = arrived.sorted { $0.key < $1.key }.map { replica, count in
      "\(count) change\(count == 1 ? "" : "s") from \(deviceName(replica))"
    }
    if !skipped.isEmpty {
      let noun = skipped.count == 1 ? "move" : "moves"
      parts.append(
        "\(skipped.count) \(noun) skipped: "
          + skipped.map(\.explanation).joined(separator: ", "))
    }
    for (rescue, name) in zip(rescued, rescuedNames) {
      parts.append(
        "\(name) kept in the inbox: \(deviceName(rescue.deletedBy)) had deleted its parent")
    }
    if waiting > 0 { parts.append("\(waiting) waiting for earlier changes") }
    return parts.isEmpty ? "nothing new" : parts.joined(separator: "; ")
  }
}
