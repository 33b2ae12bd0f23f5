import Foundation
import Testing

@testable import Offload

/// Copies `from`'s own device folder (its log generations and `device.json`) into `to`'s
/// store, replacing what was there, as a sync engine carries the files of one device to
/// another.
func carryOwnFolder(from: Workspace, to: Workspace) throws {
  let id = try #require(from.device?.replica.rawValue)
  let source = from.root + "/replicas/" + id
  let target = to.root + "/replicas/" + id
  try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
  for name in try FileManager.default.contentsOfDirectory(atPath: source)
  where name.hasPrefix("ops.") || name == "device.json" {
    try? FileManager.default.removeItem(atPath: target + "/" + name)
    try FileManager.default.copyItem(atPath: source + "/" + name, toPath: target + "/" + name)
  }
}
