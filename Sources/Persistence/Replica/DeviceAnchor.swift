import Foundation

/// Where a device's identity for a store was made and which folder it made there: recorded in
/// the identity (outside the store), so an identity copied together with the store (a home
/// folder restored on a second machine, a cloned disk, the state folder copied by hand) is told
/// apart from the one that made it (decision 0010, "Two devices claiming one identity").
///
/// A copy of a folder is a new folder with a new inode, and a second machine has another
/// machine id: either differing from what the identity recorded means this identity was copied
/// (or the store restored from a copy), and the device moves to a new replica id before it
/// writes anything.
///
/// ```swift
/// let folders = ReplicaFolders(store: storePath)
/// switch try folders.anchorCheck(of: identity, machine: MachineIdentity.digest()) {
/// case .same: break
/// case .record(let anchor): identity = try identities.record(anchor, in: identity)
/// case .copied(let reason): print("moving to a new replica id: \(reason)")
/// }
/// ```
public struct DeviceAnchor: Codable, Sendable, Hashable {
  /// A digest of the machine's id (``MachineIdentity/digest(fileSystem:hostName:)``), never
  /// the id itself.
  public var machine: String
  /// The inode of the device's folder `replicas/<id>/` as the device made it; `nil` until the
  /// folder exists.
  public var folder: UInt64?

  /// An anchor.
  ///
  /// - Parameters:
  ///   - machine: The digest of the machine's id.
  ///   - folder: The inode of the device's folder, when it exists.
  public init(machine: String, folder: UInt64? = nil) {
    self.machine = machine
    self.folder = folder
  }

  /// Compares a recorded anchor with the machine and the device's folder as they are now.
  ///
  /// The folder's device number is left out on purpose: it changes when a file system is
  /// mounted again (btrfs subvolumes, removable disks, network shares), while a copy of a
  /// folder always gets a new inode.
  ///
  /// - Parameters:
  ///   - recorded: The identity's anchor; `nil` in an identity written before anchors.
  ///   - machine: The digest of this machine's id.
  ///   - replica: The replica id, named in the reason.
  ///   - folder: The status of `replicas/<id>/` now, `nil` when it does not exist.
  /// - Returns: ``DeviceAnchorCheck/same``, the anchor to record when part of it is missing,
  ///   or why the identity is a copy.
  public static func check(
    recorded: DeviceAnchor?, machine: String, replica: String, folder: FileStatus?
  ) -> DeviceAnchorCheck {
    let found = folder?.inode
    guard let recorded else { return .record(DeviceAnchor(machine: machine, folder: found)) }
    // A machine known only by its host name may be renamed (macOS renames a host as it joins
    // networks): there the folder alone tells a copy, and the new name is recorded.
    if recorded.machine != machine,
      MachineIdentity.isHostName(recorded.machine) || MachineIdentity.isHostName(machine)
    {
      guard let was = recorded.folder, let now = found else {
        return .record(DeviceAnchor(machine: machine, folder: found ?? recorded.folder))
      }
      guard was == now else { return copiedFolder(replica) }
      return .record(DeviceAnchor(machine: machine, folder: now))
    }
    guard recorded.machine == machine else {
      return .copied(
        reason: "its identity for this store was made on another machine (a home or state "
          + "folder copied or restored there, or a cloned disk)")
    }
    switch (recorded.folder, found) {
    case (nil, nil): return .same
    case (nil, .some(let inode)): return .record(DeviceAnchor(machine: machine, folder: inode))
    case (.some, nil):
      return .copied(
        reason: "the folder replicas/\(replica)/ it made is gone (the store was restored from an "
          + "earlier copy)")
    case (.some(let was), .some(let now)):
      return was == now ? .same : copiedFolder(replica)
    }
  }

  /// The answer for a folder that is not the one the identity made.
  static func copiedFolder(_ replica: String) -> DeviceAnchorCheck {
    .copied(
      reason: "the folder replicas/\(replica)/ is not the one it made (the store was copied or "
        + "restored together with this device's identity)")
  }
}

/// What an identity's anchor says against the machine and the folder found now.
public enum DeviceAnchorCheck: Sendable, Equatable {
  /// The machine and the folder are the ones recorded.
  case same
  /// Part of the anchor was not recorded yet (an identity older than anchors, or a folder made
  /// since): record this one; the identity is this device's.
  case record(DeviceAnchor)
  /// The identity was copied with the store, or the store restored from a copy: another copy
  /// may write as this replica id, so this device takes a new one.
  case copied(reason: String)
}

extension ReplicaFolders {
  /// Compares an identity's anchor with this machine and the identity's folder: one status
  /// call, nothing read or written.
  ///
  /// - Parameters:
  ///   - identity: This device's identity.
  ///   - machine: The digest of this machine's id.
  /// - Returns: What ``DeviceAnchor/check(recorded:machine:replica:folder:)`` says.
  /// - Throws: ``PersistenceError`` when the folder's status cannot be read.
  public func anchorCheck(of identity: DeviceIdentity, machine: String)
    throws(PersistenceError) -> DeviceAnchorCheck
  {
    let status = try fileSystem.statusIfPresent(folder(of: identity.replica), followingLinks: true)
    return DeviceAnchor.check(
      recorded: identity.anchor, machine: machine, replica: identity.replica, folder: status)
  }
}

extension DeviceIdentityStore {
  /// Saves the identity with its anchor recorded.
  ///
  /// - Parameters:
  ///   - anchor: The anchor to record.
  ///   - identity: The identity in use.
  /// - Returns: The identity, saved.
  /// - Throws: ``PersistenceError`` from saving.
  public func record(_ anchor: DeviceAnchor, in identity: DeviceIdentity)
    throws(PersistenceError) -> DeviceIdentity
  {
    var next = identity
    next.anchor = anchor
    try makeFolder()
    try document.save(next)
    return next
  }
}

/// The machine a process runs on, as a digest of its id: the anchor of a device's identity.
///
/// On Linux the id is `/etc/machine-id` (else `/var/lib/dbus/machine-id`), which systemd
/// makes once per installation; elsewhere, and when neither file holds one, the host name.
/// Only a digest is kept, since the machine id is meant to stay private to the machine.
public enum MachineIdentity {
  /// The files that may hold the machine id, in order.
  public static let idFiles = ["/etc/machine-id", "/var/lib/dbus/machine-id"]

  /// The digest of this machine's id.
  ///
  /// - Parameters:
  ///   - fileSystem: The file operations; the real ones by default.
  ///   - hostName: The host name, used when no machine id file holds an id; the system's by
  ///     default.
  /// - Returns: The digest of `machine-id:<id>` (16 hex digits), or `host-` and the digest of
  ///   `host:<name>`.
  public static func digest(
    fileSystem: any FileSystem = POSIXFileSystem(), hostName: (() -> String)? = nil
  ) -> String {
    for path in idFiles {
      guard let (bytes, _) = try? fileSystem.readPrefix(path, limit: 128) else { continue }
      // The id's bytes without the spaces and newline around them.
      let id = bytes.filter { $0 > 0x20 }
      if !id.isEmpty { return hex(fnv1a(id, after: fnv1a(Array("machine-id:".utf8)))) }
    }
    let name = hostName?() ?? ProcessInfo.processInfo.hostName
    return hostPrefix + hex(fnv1a(Array(("host:" + name).utf8)))
  }

  /// What a digest made from the host name starts with.
  static let hostPrefix = "host-"

  /// Whether a digest was made from the host name (which can change) rather than a machine id.
  ///
  /// - Parameter digest: A digest from ``digest(fileSystem:hostName:)``.
  /// - Returns: Whether it starts with `host-`.
  public static func isHostName(_ digest: String) -> Bool { digest.hasPrefix(hostPrefix) }

  /// FNV-1a 64 of a text's UTF-8 bytes.
  static func fnv1a(_ text: String) -> UInt64 { fnv1a(Array(text.utf8)) }

  /// FNV-1a 64 of bytes, going on from `hash` (the offset basis by default).
  static func fnv1a(_ bytes: [UInt8], after hash: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
    var hash = hash
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }

  /// A hash as 16 hex digits.
  static func hex(_ hash: UInt64) -> String {
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
