import Persistence
import Synchronization

/// The store's changes, pushed to every organize page of one server.
///
/// A change the server makes itself is announced by the service once it is saved
/// (``changed()``); a change another process makes (the command line, a second server)
/// arrives through one ``FolderWatch`` of the store folder, shared by all pages and held only
/// while a page listens. Each listener then learns the version (from the service's memory
/// when the store's change stamp has not moved, else by one read) and tells its page when the
/// version it shows is no longer current, so a server whose pages are idle does no periodic
/// disk I/O.
///
/// The watch covers `replicas/` and every device's folder in it, those a sync engine creates
/// later included, so another device's change shows once its log arrives (decision 0010).
/// Lock files are ignored (readers open them for writing without changing anything), and so
/// are the files a sync engine leaves: a transfer's temporary file (`.syncthing.*.tmp`; the
/// rename to the real name that ends the transfer is the change), a conflict copy, a marker.
final class StoreChanges: Sendable {
  /// One page's wake-ups: the store changed, or the page asked to be told (``poke()``).
  /// Wake-ups that arrive while the page is reading coalesce into one.
  struct Listener: Sendable {
    let id: Int
    let stream: AsyncStream<Void>
    let continuation: AsyncStream<Void>.Continuation

    /// Wakes this listener alone.
    func poke() { continuation.yield() }
  }

  private struct State {
    var next = 0
    var listeners: [Int: AsyncStream<Void>.Continuation] = [:]
    var watch: FolderWatch?
  }

  /// The store folder.
  let folder: String
  private let state = Mutex(State())

  init(folder: String) {
    self.folder = folder
  }

  /// How the shared watch learns of other processes' changes, or nil while no page listens.
  var mechanism: FolderWatch.Mechanism? { state.withLock { $0.watch?.mechanism } }

  /// A new listener; the first one starts the store's watch.
  func listen() -> Listener {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let id = state.withLock { state in
      if state.watch == nil {
        state.watch = FolderWatch(
          folder: folder, subfolders: Self.watchesSubfolder, ignoring: Self.ignores
        ) { [weak self] in self?.changed() }
      }
      state.next += 1
      state.listeners[state.next] = continuation
      return state.next
    }
    return Listener(id: id, stream: stream, continuation: continuation)
  }

  /// Whether the watch descends into a subfolder of the store (a path relative to it):
  /// `replicas/` and each device's folder in it, where other devices' changes arrive.
  static func watchesSubfolder(_ path: String) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.first == "replicas" else { return false }
    return parts.count == 1
      || (parts.count == 2 && !parts[1].isEmpty
        && !ReplicaFolders.isSyncEngineFile(String(parts[1])))
  }

  /// Whether a change to the entry of this name goes unreported: lock files, and what a sync
  /// engine leaves (``ReplicaFolders/isSyncEngineFile(_:)``).
  static func ignores(_ name: String) -> Bool {
    name.hasSuffix(".lock") || ReplicaFolders.isSyncEngineFile(name)
  }

  /// Removes a listener; the last one stops the store's watch.
  func stop(_ listener: Listener) {
    let watch = state.withLock { state -> FolderWatch? in
      state.listeners[listener.id] = nil
      guard state.listeners.isEmpty else { return nil }
      defer { state.watch = nil }
      return state.watch
    }
    listener.continuation.finish()
    watch?.stop()
  }

  /// Wakes every listener: the store may have changed.
  func changed() {
    for continuation in state.withLock({ Array($0.listeners.values) }) {
      continuation.yield()
    }
  }
}
