import Foundation
import OffloadTestSupport
import Replication
import Testing

@testable import Offload

/// A device's checkpoint of the merged state is a cache: a command reads it and the lines
/// past its marks, and rebuilds it from the logs when it is missing, damaged, of another
/// version, or no longer matches a log.
@Suite("Replica checkpoints through the workspace")
struct ReplicaCheckpointTests {
  /// Two devices of one store, each with changes of its own, the phone's log carried to the
  /// laptop.
  func twoDevices() throws -> (TemporaryDirectory, laptop: Workspace, phone: Workspace) {
    let folder = try TemporaryDirectory(prefix: "offload-checkpoints")
    let state = folder.appending("state")
    let laptop = try Workspace(root: folder.appending("laptop"), stateDirectory: state).share()
    try laptop.createCollection(named: "Trip", kind: .plan)
    for text in ["Pack", "Tent", "Passport"] { try laptop.addItem(to: "Trip", text: text) }
    try FileManager.default.copyItem(atPath: laptop.root, toPath: folder.appending("phone"))
    let phone = Workspace(root: folder.appending("phone"), stateDirectory: state)
    try phone.addItem(to: "Trip", text: "Sunscreen")
    try laptop.addItem(to: "Trip", text: "Hotel")
    try carry(from: phone, to: laptop)
    return (folder, laptop, phone)
  }

  /// Copies `from`'s own log into `to`'s store, as a sync engine does.
  func carry(from: Workspace, to: Workspace) throws {
    let id = try #require(from.device?.replica.rawValue)
    let source = from.root + "/replicas/" + id
    let target = to.root + "/replicas/" + id
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: source)
    where name.hasPrefix("ops.") {
      try? FileManager.default.removeItem(atPath: target + "/" + name)
      try FileManager.default.copyItem(atPath: source + "/" + name, toPath: target + "/" + name)
    }
  }

  func checkpointPath(_ workspace: Workspace) throws -> String {
    let id = try #require(workspace.device?.replica.rawValue)
    return workspace.root + "/replicas/" + id + "/merged.checkpoint"
  }

  /// The items of Trip as the workspace shows them, and the state merged from every log's
  /// start, as text.
  func shown(_ workspace: Workspace) throws -> (items: [String], fresh: String, read: String) {
    let state = try workspace.readState()
    let entry = try #require(state.index.collections.first { $0.name == "Trip" })
    let items = try workspace.loadCollection(entry, tail: state.tail).items.map(\.text)
    let device = try #require(workspace.device)
    let fresh = workspace.mergeLogsFromStart(device, own: nil).state.canonicalText()
    let checkpoint = workspace.loadMergedCheckpoint(device)
    let read = workspace.mergeLogs(
      device, checkpoint: checkpoint, own: workspace.ownLogRead(device, checkpoint: checkpoint)
    ).state.canonicalText()
    return (items, fresh, read)
  }

  @Test("A change writes the checkpoint; a read goes on from it to the same state")
  func readsFromTheCheckpoint() throws {
    let (folder, laptop, phone) = try twoDevices()
    defer { _ = folder }
    #expect(FileManager.default.fileExists(atPath: try checkpointPath(laptop)))
    let before = try shown(laptop)
    #expect(before.items.sorted() == ["Hotel", "Pack", "Passport", "Sunscreen", "Tent"])
    #expect(before.read == before.fresh)
    // New lines on the phone: the laptop merges only them, and shows the same as a full merge.
    try phone.addItem(to: "Trip", text: "Towel")
    try carry(from: phone, to: laptop)
    let device = try #require(laptop.device)
    let checkpoint = try #require(laptop.loadMergedCheckpoint(device))
    let own = laptop.ownLogRead(device, checkpoint: checkpoint)
    let tails = try #require(laptop.tails(device, checkpoint: checkpoint, own: own))
    #expect(tails.operations.count < 12)
    let after = try shown(laptop)
    #expect(after.items.contains("Towel"))
    #expect(after.read == after.fresh)
  }

  @Test(
    "A missing, cut, damaged, newer or stale checkpoint is rebuilt from the logs",
    arguments: ["missing", "cut", "damaged", "newer", "stale"])
  func rebuilds(damage: String) throws {
    let (folder, laptop, _) = try twoDevices()
    defer { _ = folder }
    let path = try checkpointPath(laptop)
    let expected = try shown(laptop)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    switch damage {
    case "missing": try FileManager.default.removeItem(atPath: path)
    case "cut":
      try String(text.prefix(text.count / 2)).write(toFile: path, atomically: true, encoding: .utf8)
    case "damaged":
      try text.replacingOccurrences(of: "\nn\t", with: "\nn\tx\t").write(
        toFile: path, atomically: true, encoding: .utf8)
    case "newer":
      try text.replacingOccurrences(
        of: "offload.replica-checkpoint\t1", with: "offload.replica-checkpoint\t9"
      )
      .write(toFile: path, atomically: true, encoding: .utf8)
    default:
      // Marks whose boundary no longer matches: the log is not the file that was read.
      var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      for index in lines.indices where lines[index].hasPrefix("mark\t") {
        lines[index] = String(lines[index].dropLast()) + (lines[index].hasSuffix("7") ? "8" : "7")
      }
      try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
    let device = try #require(laptop.device)
    if damage != "missing" && damage != "stale" {
      let checkpoint = laptop.loadMergedCheckpoint(device)
      #expect(checkpoint == nil || (try? ReplicaStateLoader.load(checkpoint!)) == nil)
    }
    let after = try shown(laptop)
    #expect(after.items == expected.items)
    #expect(after.read == expected.fresh)
    // The read wrote a checkpoint that reads again.
    let rebuilt = try #require(laptop.loadMergedCheckpoint(device))
    #expect((try? ReplicaStateLoader.load(rebuilt)) != nil)
    try laptop.addItem(to: "Trip", text: "Map")
    #expect(try shown(laptop).items.contains("Map"))
  }
}

enum ReplicaStateLoader {
  static func load(_ checkpoint: MergedCheckpoint) throws -> ReplicaState {
    try ReplicaState(checkpoint: checkpoint.stateText)
  }
}
