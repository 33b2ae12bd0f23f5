import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A watch of one folder's entries: calls back when a file in it is written and closed,
/// renamed into it, created or deleted, whichever process did it.
///
/// On Linux the watch is one inotify descriptor (`IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE |
/// IN_DELETE` on the folder), read by a thread of its own that sleeps in `poll(2)` until the
/// kernel has an event or the watch is stopped: an idle folder costs no system call at all.
/// The macOS counterpart is a vnode source on the folder
/// (`DispatchSource.makeFileSystemObjectSource` with `.write`, which kqueue raises when an
/// entry is added, removed or renamed) or FSEvents; until that is written, and wherever inotify
/// cannot watch the folder (it is missing, or the per-user watch limit is reached), the watch
/// falls back to looking at the entries' names, sizes and modification times every
/// ``pollInterval`` (``mechanism`` says which is in use).
///
/// Events that arrive together are reported as one call; names `ignoring` accepts (a lock
/// file that readers open for writing, say) are not reported at all.
///
/// ```swift
/// let watch = FolderWatch(folder: "/tmp", ignoring: { $0.hasSuffix(".lock") }) {
///   print("something changed")
/// }
/// watch.stop()
/// ```
public final class FolderWatch: @unchecked Sendable {
  /// How a watch learns of changes.
  public enum Mechanism: String, Sendable {
    /// The kernel reports each change (Linux inotify); nothing runs while nothing changes.
    case inotify
    /// The folder is looked at every ``FolderWatch/pollInterval``.
    case poll
  }

  /// How often the fallback looks at the folder.
  public static let pollInterval: Duration = .milliseconds(250)

  /// The folder watched.
  public let folder: String
  /// How this watch learns of changes.
  public let mechanism: Mechanism

  private let lock = NSLock()
  private var stopped = false
  /// The write end of the pipe that wakes the inotify thread to stop it (-1 when polling).
  private let wake: Int32

  /// Starts watching `folder`.
  ///
  /// - Parameters:
  ///   - folder: The folder whose entries are watched (not its subfolders).
  ///   - ignoring: Whether a change to the entry of this name goes unreported.
  ///   - onChange: Called on the watch's own thread after one or more reported changes.
  public init(
    folder: String, ignoring: @escaping @Sendable (String) -> Bool = { _ in false },
    onChange: @escaping @Sendable () -> Void
  ) {
    self.folder = folder
    #if os(Linux)
      if let (watch, pipe) = Self.inotify(folder) {
        mechanism = .inotify
        wake = pipe.write
        let thread = Thread {
          Self.readEvents(watch, stop: pipe.read, ignoring: ignoring, onChange: onChange)
        }
        thread.name = "FolderWatch"
        thread.start()
        return
      }
    #endif
    mechanism = .poll
    wake = -1
    let thread = Thread { [weak self] in
      var last = Self.stamp(folder, ignoring: ignoring)
      while true {
        Thread.sleep(forTimeInterval: Double(Self.pollInterval.components.attoseconds) / 1e18)
        guard let self, !self.isStopped else { return }
        let now = Self.stamp(folder, ignoring: ignoring)
        if now != last {
          last = now
          onChange()
        }
      }
    }
    thread.name = "FolderWatch"
    thread.start()
  }

  deinit { stop() }

  /// Stops the watch: its thread ends at once (a call to `onChange` already under way
  /// finishes first). Stopping twice is harmless.
  public func stop() {
    let first = lock.withLock {
      defer { stopped = true }
      return !stopped
    }
    guard first, wake >= 0 else { return }
    var byte: UInt8 = 0
    _ = write(wake, &byte, 1)
    close(wake)
  }

  private var isStopped: Bool { lock.withLock { stopped } }

  /// The names, sizes and modification times of the folder's reported entries.
  static func stamp(_ folder: String, ignoring: (String) -> Bool) -> [String] {
    let manager = FileManager.default
    let names = (try? manager.contentsOfDirectory(atPath: folder)) ?? []
    return names.sorted().filter { !ignoring($0) }.map { name in
      let attributes = try? manager.attributesOfItem(atPath: folder + "/" + name)
      let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
      let date = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
      return "\(name)|\(size)|\(date)"
    }
  }

  #if os(Linux)
    /// An inotify descriptor watching `folder`, and a pipe whose write end stops the reader.
    private static func inotify(_ folder: String) -> (Int32, (read: Int32, write: Int32))? {
      let watch = inotify_init1(Int32(IN_CLOEXEC))
      guard watch >= 0 else { return nil }
      let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
      var ends: [Int32] = [0, 0]
      guard inotify_add_watch(watch, folder, mask) >= 0, pipe(&ends) == 0 else {
        close(watch)
        return nil
      }
      return (watch, (ends[0], ends[1]))
    }

    /// Sleeps until the kernel reports events or `stop` is readable; reports each batch once.
    private static func readEvents(
      _ watch: Int32, stop: Int32, ignoring: (String) -> Bool, onChange: () -> Void
    ) {
      defer {
        close(watch)
        close(stop)
      }
      let header = MemoryLayout<inotify_event>.size
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        var fds = [
          pollfd(fd: watch, events: Int16(POLLIN), revents: 0),
          pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, 2, -1)
        if ready < 0 && errno == EINTR { continue }
        guard ready > 0, fds[1].revents == 0, fds[0].revents & Int16(POLLIN) != 0 else { return }
        let count = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return }
        var reported = false
        buffer.withUnsafeBytes { bytes in
          var offset = 0
          while offset + header <= count {
            let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            let start = offset + header
            let length = Int(event.len)
            let name = bytes[start..<min(start + length, count)].prefix { $0 != 0 }
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0
              || !ignoring(String(decoding: name, as: UTF8.self))
            {
              reported = true
            }
            offset = start + length
          }
        }
        if reported { onChange() }
      }
    }
  #endif
}
