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
    if device.retired { text += "; retired" }
    if let problem = device.problem { text += "; " + problem }
    return text
  }
}

/// `offloadctl store compact`: rewrites this device's log from a snapshot.
struct CompactCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compact",
    abstract: "Rewrite this device's log as a snapshot and its changes the others may lack.",
    discussion: """
      The log becomes its next generation: first the merged state at what every known, not \
      retired device has seen, then this device's changes past what every other device's \
      latest snapshot holds. Other devices' logs are never written. When no snapshot can move \
      forward yet it says why and changes nothing. Outside a shared store it exits 64.
      """)

  @OptionGroup var global: GlobalOptions

  func run() throws {
    let report = try global.changing { (workspace) throws(WorkspaceError) in
      try workspace.compact()
    }
    try global.report(report) {
      Self.line(report)
    }
  }

  /// The report in one line.
  static func line(_ report: CompactionReport) -> String {
    guard report.compacted else { return report.reason ?? "not compacted" }
    let vector = report.snapshot.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
      .joined(separator: " ")
    return
      "compacted: generation \(report.generation), \(report.bytesBefore) -> "
      + "\(report.bytesAfter) bytes; snapshot at \(vector.isEmpty ? "nothing" : vector), "
      + "\(report.changesKept) change\(report.changesKept == 1 ? "" : "s") kept past it"
  }
}

/// `offloadctl store retire DEVICE`: a device gone for good no longer holds compaction back.
struct RetireCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "retire",
    abstract: "Retire a device gone for good, so compaction no longer waits for it.",
    discussion: """
      Recorded in this device's own folder. The device's operations stay in the merge, and any \
      that still arrive are merged. DEVICE is a name or a replica id (or a unique prefix of \
      one), as `offloadctl store devices` shows them. This device cannot retire itself.
      """)

  @OptionGroup var global: GlobalOptions
  @Argument(help: "The device: its name or replica id.") var device: String

  func run() throws {
    let retired = try global.changing { (workspace) throws(WorkspaceError) in
      try workspace.retire(device)
    }
    try global.report(retired) {
      "retired \(retired.name ?? retired.replica) (\(retired.replica)): compaction no longer "
        + "waits for it; its operations stay in the merge"
    }
  }
}
