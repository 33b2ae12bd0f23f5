import Persistence
import Replication

// A change on a shared store without loading the whole merged state (decision 0013): when
// nothing but this device's own operations came past its checkpoint, the change reads the
// checkpoint's header, indexes its node records, and loads only the nodes its own new
// operations and the change name. Anything else (another device's operations, a cache behind
// the logs, a checkpoint due) loads the whole state as before.

/// The merged state a change works on: whole, or loaded from this device's checkpoint one
/// node at a time, with the whole state loaded on first need.
final class MergedSource {
  private var whole: ReplicaState?
  private var partial: PartialReplicaState?
  private let loadWhole: () -> (state: ReplicaState, rebuilt: Bool)
  /// Whether loading the whole state had to merge every log from its start.
  private(set) var rebuilt = false

  /// A source holding the whole state.
  init(whole: ReplicaState) {
    self.whole = whole
    loadWhole = { (whole, false) }
  }

  /// A source holding a partial state, which loads the whole one with `loadWhole`.
  init(partial: PartialReplicaState, loadWhole: @escaping () -> (ReplicaState, rebuilt: Bool)) {
    self.partial = partial
    self.loadWhole = loadWhole
  }

  /// Whether the state is partial (the whole has not been needed).
  var isPartial: Bool { whole == nil }

  /// The version vector merged.
  var seen: VersionVector { partial?.state.seen ?? state.seen }

  /// A node's kind in the merged state.
  func kind(of node: NodeID) -> NodeKind? {
    if let whole { return whole.kind(of: node) }
    return partial?.kind(of: node)
  }

  /// The whole merged state, loaded on first use.
  var state: ReplicaState {
    if let whole { return whole }
    let loaded = loadWhole()
    whole = loaded.state
    rebuilt = loaded.rebuilt
    partial = nil
    return loaded.state
  }

  /// A state holding at least `nodes` (with their ancestors) as the whole state holds them:
  /// the partial state with them loaded, or the whole one.
  ///
  /// - Complexity: O(*k* · *d*) for *k* nodes of depth *d* when partial.
  func state(holding nodes: [NodeID]) -> ReplicaState {
    guard whole == nil, var partial else { return state }
    do throws(ReplicationError) {
      try partial.load(nodes)
    } catch {
      return state
    }
    self.partial = partial
    return partial.state
  }
}

/// The merged state after a committed change, with the operations the change made.
struct CommittedMerge {
  var state: ReplicaState
  var operations: [ReplicaOperation]
  /// Whether `state` holds only the nodes the change needed.
  var partial: Bool
  /// The version vector after the change.
  var seen: VersionVector { state.seen }
}

extension Workspace {
  /// The merge of a change that reads only the nodes it needs, or `nil` when the whole
  /// state is needed: a log no longer matches the checkpoint, another device's operations
  /// arrived past it, or the checkpoint holds waiting operations.
  func partialMerge(_ device: DeviceContext, checkpoint: MergedCheckpoint, own: OwnLogRead)
    -> (source: MergedSource, reading: MergedLogs)?
  {
    guard let tails = tails(device, checkpoint: checkpoint, own: own),
      tails.operations.allSatisfy({ $0.replica == device.replica }),
      var partial = try? PartialReplicaState(checkpoint: checkpoint.stateText),
      (try? partial.mergeOwn(tails.operations)) == true
    else { return nil }
    let source = MergedSource(partial: partial) { [self] in
      if var state = try? ReplicaState(checkpoint: checkpoint.stateText) {
        state.merge(tails.operations)
        if !state.needsRebuild { return (state, false) }
      }
      return (mergeLogsFromStart(device, own: own).state, true)
    }
    let reading = MergedLogs(
      state: ReplicaState(), marks: tails.marks, merged: tails.operations.count,
      fromCheckpoint: true)
    return (source, reading)
  }

  /// The change that brings a cache up to the merged state, or `nil` when it holds it
  /// (known from the version vector alone, without loading the whole state).
  ///
  /// - Complexity: That of ``refreshChange(_:merged:)`` when the cache is behind; O(*r*)
  ///   otherwise.
  func refreshChange(_ state: StoreState, merged: MergedSource) throws(WorkspaceError)
    -> StoreChange?
  {
    guard state.index.covers != Self.vector(merged.seen) else { return nil }
    return try refreshChange(state, merged: merged.state)
  }
}

extension ReplicaBridge {
  /// Every node a change's operations can read in the merged state: its collections, its
  /// items before and after with their parents, the collection order and the fixed nodes.
  ///
  /// - Complexity: O(*c*), *c* items and collections in the change and the order.
  static func nodes(of change: StoreChange, order: [ShortID]) -> [NodeID] {
    var nodes: [NodeID] = [.root, .trash, .inbox]
    for id in order { nodes.append(node(id)) }
    for collectionChange in change.changes {
      nodes.append(node(collectionChange.collection))
      for item in collectionChange.items {
        if let before = item.before { nodes.append(node(before.id)) }
        if let after = item.after {
          nodes.append(node(after.id))
          if let parent = after.parent { nodes.append(node(parent)) }
        }
      }
    }
    return nodes
  }
}
