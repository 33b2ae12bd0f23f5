import Foundation
public import PhotoSession

/// Where a workspace keeps its photo sessions, and the Trash they use.
///
/// Sessions live in `<store>/photo-sessions` (one folder per session, see
/// `PhotoSessionStore`). In a store shared between devices (decision 0010) each device keeps
/// its sessions in its own folder, `<store>/replicas/<replica-id>/photo-sessions`, which no
/// other device writes: a session culls photos on the disk of the device that started it.
/// Another device's sessions are listed (``otherDevices(root:environment:)``), never opened
/// for writing (``refuseOtherDevice(_:root:environment:)``). Trashed photos go to the user's
/// freedesktop.org Trash, `$XDG_DATA_HOME/Trash` (else `~/.local/share/Trash`).
///
/// ```swift
/// let sessions = PhotoSessions.store(root: location.path, environment: environment)
/// let opened = try sessions.openLatest()
/// ```
public enum PhotoSessions {
  /// The name of the sessions' folder inside a store folder (or a device's folder).
  public static let folderName = "photo-sessions"
  /// The file naming the device that owns a shared store's sessions folder.
  static let ownerFile = "device.json"

  /// The session store of this device for the workspace at `root`.
  ///
  /// In a shared store this is this device's own sessions folder; its owner file, which names
  /// the device for other devices' refusals, is written once.
  ///
  /// - Parameters:
  ///   - root: The store folder (see ``StoreLocation``).
  ///   - environment: The process environment: `XDG_DATA_HOME` and `HOME` choose the Trash;
  ///     `XDG_STATE_HOME` (else `HOME`) holds this device's identity for a shared store;
  ///     `SOURCE_DATE_EPOCH` (seconds since 1970), when set, fixes the clock so runs are
  ///     reproducible.
  /// - Returns: The store; nothing but the owner file is created until a session starts.
  public static func store(root: String, environment: [String: String]) -> PhotoSessionStore {
    let place = Place(root: root, environment: environment)
    place.writeOwner()
    let trash = FreedesktopTrash.user(environment: environment)
    if let seconds = SourceDateEpoch.seconds(in: environment) {
      return PhotoSessionStore(folder: place.folder, trash: trash, clock: { seconds })
    }
    return PhotoSessionStore(folder: place.folder, trash: trash)
  }

  /// The folder this device's sessions of the workspace at `root` live in.
  ///
  /// - Parameters:
  ///   - root: The store folder.
  ///   - environment: The process environment (see ``store(root:environment:)``).
  /// - Returns: `<root>/photo-sessions`, or this device's folder in a shared store.
  public static func folder(root: String, environment: [String: String]) -> String {
    Place(root: root, environment: environment).folder
  }

  /// The most recent session over the photo folder `root` (an absolute path), if any.
  ///
  /// - Complexity: O(*s* · *m*) for *s* sessions whose manifests hold *m* photos each.
  public static func latestSession(
    over root: String, in store: PhotoSessionStore
  ) throws(PhotoSessionError) -> String? {
    for id in try store.sessionIDs().reversed() {
      if let manifest = try? store.readManifest(id), manifest.root == root { return id }
    }
    return nil
  }
}

extension PhotoSessionError.Code {
  /// The session was started by another device of a shared store, which alone writes it.
  public static let otherDevice = PhotoSessionError.Code(rawValue: "otherDevice")
}

extension PhotoSessions {
  /// Another device's photo sessions in a shared store: listed here, written only there.
  public struct OtherDevice {
    /// The device's name (its replica id when it has not named itself yet).
    public var name: String
    /// Its replica id; empty for the sessions kept from before the store was shared.
    public var replica: String
    /// Its sessions, oldest first, read without writing.
    public var sessions: [PhotoSessionStore.Summary]
  }

  /// The other devices' sessions of a shared store, by replica id, and any sessions left in
  /// `<root>/photo-sessions` from before the store was shared (named "before sharing").
  /// Empty for a store that is not shared.
  ///
  /// - Parameters:
  ///   - root: The store folder.
  ///   - environment: The process environment (see ``store(root:environment:)``).
  /// - Returns: One entry per device holding sessions.
  /// - Complexity: O(Σ (*n* + *e*)) over those sessions' photos and journal events.
  public static func otherDevices(root: String, environment: [String: String]) -> [OtherDevice] {
    let place = Place(root: root, environment: environment)
    guard let replica = place.replica else { return [] }
    var devices: [OtherDevice] = []
    let legacy = PhotoSessionStore(folder: place.root + "/" + folderName)
    if let sessions = try? legacy.sessions(), !sessions.isEmpty {
      devices.append(OtherDevice(name: "before sharing", replica: "", sessions: sessions))
    }
    let replicas = place.root + "/" + Workspace.replicasFolder
    let names = (try? FileManager.default.contentsOfDirectory(atPath: replicas)) ?? []
    for other in names.sorted() where other != replica && !other.hasPrefix(".") {
      let folder = replicas + "/" + other + "/" + folderName
      guard let sessions = try? PhotoSessionStore(folder: folder).sessions(), !sessions.isEmpty
      else { continue }
      devices.append(
        OtherDevice(
          name: Place.owner(of: folder) ?? other, replica: other,
          sessions: sessions))
    }
    return devices
  }

  /// Refuses a session id that another device of a shared store started: that device alone
  /// writes it. Does nothing for this device's sessions, unknown ids (opening them says so)
  /// and stores that are not shared.
  ///
  /// - Parameters:
  ///   - id: The session id asked for.
  ///   - root: The store folder.
  ///   - environment: The process environment (see ``store(root:environment:)``).
  /// - Throws: `PhotoSessionError` with code `otherDevice`, naming the device.
  /// - Complexity: O(*s*) for *s* sessions of the other devices.
  public static func refuseOtherDevice(
    _ id: String, root: String, environment: [String: String]
  ) throws(PhotoSessionError) {
    let place = Place(root: root, environment: environment)
    guard place.replica != nil, !id.contains("/"), !id.hasPrefix("."),
      !FileManager.default.fileExists(atPath: place.folder + "/" + id)
    else { return }
    for device in otherDevices(root: root, environment: environment)
    where device.sessions.contains(where: { $0.id == id }) {
      let who =
        device.replica.isEmpty
        ? "before this store was shared, by a device that has not taken it since"
        : device.name == device.replica
          ? "on device \(device.replica)" : "on device \"\(device.name)\" (\(device.replica))"
      throw PhotoSessionError(
        .otherDevice, path: id,
        description: "photo session \(id) was started \(who); only that device changes it")
    }
  }

  /// Moves the sessions a store kept before it was shared into this device's folder, when
  /// they are there and the folder holds none yet (the device that shares the store takes
  /// them; nothing is moved over a session).
  ///
  /// - Parameters:
  ///   - root: The store folder.
  ///   - environment: The process environment (see ``store(root:environment:)``).
  /// - Throws: `PhotoSessionError` with code `writeFailed` when the move fails.
  public static func adoptUnsharedSessions(
    root: String, environment: [String: String]
  ) throws(PhotoSessionError) {
    let place = Place(root: root, environment: environment)
    let legacy = place.root + "/" + folderName
    let manager = FileManager.default
    guard place.replica != nil, manager.fileExists(atPath: legacy),
      (try? PhotoSessionStore(folder: place.folder).sessionIDs().isEmpty) ?? true
    else { return }
    do {
      try manager.createDirectory(
        atPath: (place.folder as NSString).deletingLastPathComponent,
        withIntermediateDirectories: true)
      if manager.fileExists(atPath: place.folder) { try manager.removeItem(atPath: place.folder) }
      try manager.moveItem(atPath: legacy, toPath: place.folder)
    } catch {
      throw PhotoSessionError(
        .writeFailed, path: legacy,
        description: "cannot move the photo sessions \(legacy) into \(place.folder): \(error)")
    }
    place.writeOwner()
  }

  /// Where one device's sessions of one store live.
  struct Place {
    /// The store folder, without a trailing slash.
    let root: String
    /// This device's replica id in a shared store, else nil.
    let replica: String?
    /// This device's name in a shared store.
    let name: String
    /// This device's sessions folder.
    var folder: String {
      guard let replica else { return root + "/" + PhotoSessions.folderName }
      return root + "/" + Workspace.replicasFolder + "/" + replica + "/" + PhotoSessions.folderName
    }

    init(root: String, environment: [String: String]) {
      let root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
      self.root = root
      var isFolder: ObjCBool = false
      let shared =
        FileManager.default.fileExists(
          atPath: root + "/" + Workspace.replicasFolder, isDirectory: &isFolder)
        && isFolder.boolValue
      let state = shared ? Self.stateDirectory(environment) : nil
      let device = state.flatMap { DeviceContext.resolve(store: root, state: $0) }
      replica = device?.replica.rawValue
      name = device?.name ?? ""
    }

    /// `$XDG_STATE_HOME`, else `$HOME/.local/state`, as the workspace resolves it.
    static func stateDirectory(_ environment: [String: String]) -> String? {
      if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state }
      if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state" }
      return DeviceContext.defaultStateDirectory()
    }

    /// The name an owner file in `folder` gives, if any.
    static func owner(of folder: String) -> String? {
      struct Owner: Decodable { var name: String }
      guard let data = FileManager.default.contents(atPath: folder + "/" + PhotoSessions.ownerFile)
      else { return nil }
      return try? JSONDecoder().decode(Owner.self, from: data).name
    }

    /// Writes this device's owner file when the store is shared and the file does not name
    /// this device yet (atomically; a failure only leaves other devices naming it by id).
    func writeOwner() {
      // Only once this device keeps sessions: a device that never started one stays out.
      guard let replica, FileManager.default.fileExists(atPath: folder),
        Self.owner(of: folder) != name
      else { return }
      let text = "{\"name\":\(Self.quoted(name)),\"replica\":\"\(replica)\"}\n"
      try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try? Data(text.utf8).write(
        to: URL(fileURLWithPath: folder + "/" + PhotoSessions.ownerFile), options: .atomic)
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
      let data = (try? JSONEncoder().encode([text])) ?? Data("[\"\"]".utf8)
      return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
  }
}
