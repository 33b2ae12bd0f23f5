// The other devices of a shared store: copies of the store at other paths, each with a state
// folder of its own (so an identity of its own), whose changes reach the store the way a sync
// engine carries files: their `replicas/<id>/` folder copied in, file by file, through a
// temporary name, at times while a command of this device runs, at times with the log's last
// line cut (a log copied while it grows).

import Foundation
import OffloadTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The environment of a device: `XDG_STATE_HOME` (where its identity for each store is kept)
/// and `OFFLOAD_DEVICE_NAME`, over this process's environment.
func deviceEnvironment(state: String, name: String) -> [String] {
  var environment = ProcessInfo.processInfo.environment
  environment["XDG_STATE_HOME"] = state
  environment["OFFLOAD_DEVICE_NAME"] = name
  environment["OFFLOAD_REPLICA_ID"] = nil
  return environment.keys.sorted().map { "\($0)=\(environment[$0] ?? "")" }
}

/// The other devices of one shared store, and what of theirs the store shows.
final class Devices: @unchecked Sendable {
  /// The collection the other devices add to and this device's commands never touch, so the
  /// trials know what it must hold whatever this device's command did.
  static let collection = "Devices"

  /// One other device.
  struct Device {
    var name: String
    /// Its copy of the store.
    var copy: String
    /// Its state folder.
    var state: String
    /// Its replica id, once it has written.
    var replica: String?
    /// Item texts its acknowledged adds made, in order.
    var adds: [String] = []
    /// How many of `adds` the store has whole (the rest wait in a cut last line, or were not
    /// carried yet).
    var delivered = 0
  }

  /// The store of this device.
  let store: String
  /// A folder for the copies, state folders and the children's output.
  let scratch: String
  let offloadctl: String
  private(set) var devices: [Device]
  private let lock = NSLock()
  /// Copies of a device's folder carried into the store.
  private(set) var deliveries = 0
  /// Deliveries made while a command of this device ran.
  private(set) var whileRunning = 0
  /// Deliveries whose log ended in a cut line.
  private(set) var cut = 0

  /// - Parameters:
  ///   - count: The number of other devices (the store's devices less this one).
  ///   - label: A word that keeps these devices' copies apart from another run's.
  init(store: String, scratch: String, offloadctl: String, count: Int, label: String) {
    self.store = store
    self.scratch = scratch
    self.offloadctl = offloadctl
    devices = (0..<count).map { index in
      Device(
        name: "device\(index + 2)", copy: scratch + "/\(label)-device\(index + 2)-store",
        state: scratch + "/\(label)-device\(index + 2)-state")
    }
  }

  func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  /// The item keys of ``collection`` the store must show: every add delivered whole.
  var expected: [String] {
    locked {
      devices.flatMap { $0.adds.prefix($0.delivered) }.map { Logical.key($0, false) }.sorted()
    }
  }

  /// Every acknowledged add of the other devices, for the concurrency count.
  var allAdds: [String] { locked { devices.flatMap { $0.adds } } }

  /// The replica folders of a store.
  static func replicas(of store: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: store + "/replicas")) ?? [])
      .filter { !$0.hasPrefix(".") }.sorted()
  }

  /// Gives device `index` a copy of the store (the first time) or this device's newest folders
  /// (later; only between commands), then runs `count` adds on it.
  ///
  /// - Parameter refresh: Whether to carry this device's folders to the copy first.
  func change(_ index: Int, adds count: Int, serial: inout Int, refresh: Bool = true) {
    var device = locked { devices[index] }
    let manager = FileManager.default
    if !manager.fileExists(atPath: device.copy) {
      do {
        try manager.copyItem(atPath: store, toPath: device.copy)
      } catch {
        fail("cannot copy \(store) to \(device.copy): \(error)")
      }
    } else if refresh {
      for replica in Self.replicas(of: store) where replica != device.replica {
        copyFolder(store + "/replicas/" + replica, to: device.copy + "/replicas/" + replica)
      }
    }
    let runner = Runner(
      executable: offloadctl, store: device.copy, scratch: scratch,
      environment: deviceEnvironment(state: device.state, name: device.name))
    var made: [String] = []
    for _ in 0..<max(count, 1) {
      serial += 1
      let text = "\(device.name) add \(serial)"
      let result = runner.run(["item", "add", Self.collection, text], tag: device.name)
      guard result.acknowledged else {
        fail("\(device.name): `item add \(Self.collection) \(text)` \(result.summary)")
      }
      made.append(text)
    }
    if device.replica == nil {
      let before = Set(Self.replicas(of: store))
      device.replica = Self.replicas(of: device.copy).first { !before.contains($0) }
      guard device.replica != nil else { fail("\(device.name) made no replica folder") }
    }
    let replica = device.replica
    locked {
      devices[index].replica = replica
      devices[index].adds += made
    }
  }

  /// Carries device `index`'s folder into the store: every file through a temporary name a
  /// sync engine uses, renamed over the old one; with `cutting`, the log lacks the end of
  /// its last line (the last add waits for the next delivery).
  ///
  /// - Parameter running: Whether a command of this device runs meanwhile (counted).
  func deliver(_ index: Int, cutting: Bool, rng: inout SplitMix64, running: Bool = false) {
    let device = locked { devices[index] }
    guard let replica = device.replica else { return }
    let source = device.copy + "/replicas/" + replica
    let target = store + "/replicas/" + replica
    var cutLine = false
    copyFolder(source, to: target) { name, data in
      guard cutting, name.hasPrefix("ops."), name.hasSuffix(".jsonl"), data.count > 2 else {
        return data
      }
      // Keep 1 byte of the last line up to all of it but its newline.
      let body = data.dropLast()
      let start = (body.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
      let length = body.endIndex - start
      guard length > 1 else { return data }
      cutLine = true
      return Data(data.prefix(start + 1 + rng.below(length - 1)))
    }
    locked {
      deliveries += 1
      if running { whileRunning += 1 }
      if cutLine { cut += 1 }
      devices[index].delivered = devices[index].adds.count - (cutLine ? 1 : 0)
    }
  }

  /// Copies every file under `source` to the same place under `target`, each written to
  /// `.syncthing.<name>.tmp` beside it and renamed (files `transform` may change on the way).
  func copyFolder(
    _ source: String, to target: String, transform: (String, Data) -> Data = { $1 }
  ) {
    let manager = FileManager.default
    guard let enumerator = manager.enumerator(atPath: source) else { return }
    try? manager.createDirectory(atPath: target, withIntermediateDirectories: true)
    var files: [String] = []
    while let relative = enumerator.nextObject() as? String {
      var isFolder: ObjCBool = false
      guard manager.fileExists(atPath: source + "/" + relative, isDirectory: &isFolder) else {
        continue
      }
      if isFolder.boolValue {
        try? manager.createDirectory(
          atPath: target + "/" + relative, withIntermediateDirectories: true)
      } else {
        files.append(relative)
      }
    }
    for relative in files.sorted() {
      guard let data = manager.contents(atPath: source + "/" + relative) else { continue }
      let name = (relative as NSString).lastPathComponent
      let folder = (target + "/" + relative as NSString).deletingLastPathComponent
      let temporary = folder + "/.syncthing.\(name).tmp"
      guard manager.createFile(atPath: temporary, contents: transform(name, data)),
        rename(temporary, target + "/" + relative) == 0
      else {
        fail("cannot carry \(relative) into \(target): \(String(cString: strerror(errno)))")
      }
    }
  }

  /// A one-phrase account for the summary lines.
  var summary: String {
    locked {
      "shared store, \(devices.count + 1) devices: \(deliveries) deliveries, \(whileRunning) while a command ran, \(cut) with the log's last line cut"
    }
  }
}

/// The layout the trials run in: single-writer, or shared by `deviceCount` devices.
struct Layout {
  /// Whether `store share` runs in the set-up.
  var shared = false
  /// The devices of a shared store, this one included.
  var deviceCount = 1
  /// A folder for state folders and copies.
  var scratch = ""
  /// Whether to keep a copy of the store at each problem (`--keep`).
  var keep = false

  /// This device's environment (its own state folder) when the store is shared.
  var environment: [String]? {
    shared ? deviceEnvironment(state: scratch + "/this-state", name: "this") : nil
  }

  /// The other devices of `store`, when there are any.
  func devices(store: String, offloadctl: String, label: String) -> Devices? {
    guard shared, deviceCount > 1 else { return nil }
    return Devices(
      store: store, scratch: scratch, offloadctl: offloadctl, count: deviceCount - 1,
      label: label)
  }

  /// The layout for the summary lines.
  func describe(_ devices: Devices?) -> String {
    devices?.summary ?? (shared ? "shared store, 1 device" : "single-writer store")
  }
}
