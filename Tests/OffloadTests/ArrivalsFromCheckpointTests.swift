import Foundation
import OffloadTestSupport
import Replication
import Testing

@testable import Offload

/// The report of what arrived from other devices, merged over this device's checkpoint from
/// its marks, is the report merged from every log's start.
@Suite("Arrivals merged from the checkpoint")
struct ArrivalsFromCheckpointTests {
  let devices = ReplicaCheckpointTests()

  @Test("The report from the checkpoint equals the report from the logs' start", arguments: 0..<6)
  func sameReport(seed: Int) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(UInt64(seed)))
    let (folder, laptop, phone) = try devices.twoDevices()
    defer { _ = folder }
    let device = try #require(laptop.device)
    // The first look sets the mark; the laptop's change writes its checkpoint past it.
    let mark = try #require(laptop.arrivals(since: nil)).mark
    try laptop.addItem(to: "Trip", text: "Map")
    for index in 0..<(1 + rng.index(below: 6)) {
      try phone.addItem(to: "Trip", text: "phone \(index)")
    }
    if rng.chance(0.5) { _ = try phone.removeItems([try firstID(phone)]) }
    try devices.carry(from: phone, to: laptop)
    #expect(laptop.arrivalsFromCheckpoint(device, baseline: mark.seen) != nil)
    let fromCheckpoint = try #require(laptop.arrivals(since: mark))
    try FileManager.default.removeItem(atPath: try devices.checkpointPath(laptop))
    #expect(laptop.arrivalsFromCheckpoint(device, baseline: mark.seen) == nil)
    let fromStart = try #require(laptop.arrivals(since: mark))
    #expect(fromCheckpoint == fromStart)
    #expect(fromCheckpoint.summary?.contains("from") == true)
  }

  /// The id of Trip's first item.
  func firstID(_ workspace: Workspace) throws -> String {
    let state = try workspace.readState()
    let entry = try #require(state.index.collections.first { $0.name == "Trip" })
    let items = try workspace.loadCollection(entry, tail: state.tail).items
    return try #require(items.first).id.rawValue
  }
}
