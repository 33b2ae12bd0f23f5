import ArgumentParser
import Foundation
import Offload

/// `offloadctl store devices`: the devices of a shared store and what each has seen.
struct DevicesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "devices",
    abstract: "List the devices sharing this store: what each has written and seen.",
    discussion: """
      One line per device folder in the store: its name and replica id (this device is \
      marked), how many changes and operations it has written, what it had seen of every \
      device's log when it wrote its last change, and when that was. Outside a shared store \
      it exits 64 (see `offloadctl store share`).
      """)

  @OptionGroup var global: GlobalOptions

  func run() throws {
    let devices = try global.reading { (workspace) throws(WorkspaceError) in
      try workspace.devices()
    }
    if global.json {
      struct Listing: Encodable { var devices: [StoreDevice] }
      try Output.document(Listing(devices: devices))
      return
    }
    let names = Dictionary(
      devices.map { ($0.replica, $0.name ?? $0.replica) }, uniquingKeysWith: { first, _ in first })
    for device in devices { Output.line(Self.line(device, names: names)) }
  }

  /// One device in one line: `k7q  laptop (this device)  5 changes, 12 operations; seen
  /// laptop 12, phone 4; last wrote 2026-11-27T10:00:00Z`.
  static func line(_ device: StoreDevice, names: [String: String]) -> String {
    var text = device.replica + "  " + (device.name ?? "(no name yet)")
    if device.isThisDevice { text += " (this device)" }
    text +=
      "  \(device.changes) change\(device.changes == 1 ? "" : "s"), "
      + "\(device.operations) operation\(device.operations == 1 ? "" : "s")"
    if !device.seen.isEmpty {
      text +=
        "; seen "
        + device.seen.sorted { $0.key < $1.key }.map { "\(names[$0.key] ?? $0.key) \($0.value)" }
        .joined(separator: ", ")
    }
    if let last = device.lastWrite {
      text += "; last wrote " + ISO8601DateFormatter().string(from: last)
    }
    if let problem = device.problem { text += "; " + problem }
    return text
  }
}
