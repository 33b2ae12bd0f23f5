import Persistence
import Synchronization

/// The store's changes, pushed to every organize page of one server.
///
/// A change the server makes itself is announced by the service once it is saved
/// (``changed()``); a change another process makes (the command line, a second server)
/// arrives through one ``FolderWatch`` of the store folder, shared by all pages and held only
/// while a page listens. Each listener then reads the store once and tells its page when the
/// version it shows is no longer current, so a server whose pages are idle does no periodic
/// disk I/O. Lock files are ignored: readers open them for writing without changing anything.
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
        state.watch = FolderWatch(folder: folder, ignoring: { $0.hasSuffix(".lock") }) {
          [weak self] in self?.changed()
        }
      }
      state.next += 1
      state.listeners[state.next] = continuation
      return state.next
    }
    return Listener(id: id, stream: stream, continuation: continuation)
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
