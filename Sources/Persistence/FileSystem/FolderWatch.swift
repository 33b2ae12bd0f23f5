import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A watch of one folder's entries, and of the subfolders it is asked to descend into: calls
/// back when a file in one of them is written and closed, renamed into it, created or
/// deleted, whichever process did it.
///
/// On Linux the watch is one inotify descriptor (`IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE |
/// IN_DELETE | IN_MOVED_FROM` on the folder and on each watched subfolder), read by a thread
/// of its own that sleeps in `poll(2)` until the kernel has an event or the watch is stopped:
/// an idle folder costs no system call at all. A subfolder that appears later (a new
/// device's folder that a sync engine creates) is watched from the moment its creation is
/// seen, before that change is reported.
/// The macOS counterpart is a vnode source on the folder
/// (`DispatchSource.makeFileSystemObjectSource` with `.write`, which kqueue raises when an
/// entry is added, removed or renamed) or FSEvents; until that is written, and wherever inotify
/// cannot watch the folder (it is missing, or the per-user watch limit is reached), the watch
/// falls back to looking at the entries' names, sizes and modification times every
/// ``pollInterval`` (``mechanism`` says which is in use).
///
/// Events that arrive together are reported as one call; names `ignoring` accepts (a lock
/// file that readers open for writing, a sync engine's temporary file, say) are not reported
/// at all.
///
/// ```swift
/// let watch = FolderWatch(
///   folder: "/tmp", subfolders: { $0 == "replicas" }, ignoring: { $0.hasSuffix(".lock") }
/// ) {
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
  ///   - folder: The folder whose entries are watched.
  ///   - subfolders: Whether the entries of the subfolder at this path, relative to `folder`
  ///     (`replicas`, `replicas/k7q`), are watched too; asked again for the subfolders of a
  ///     watched subfolder, and for subfolders created later. None by default.
  ///   - ignoring: Whether a change to the entry of this name (without its folder) goes
  ///     unreported.
  ///   - onChange: Called on the watch's own thread after one or more reported changes.
  /// - Complexity: O(*e*), the entries of the watched folders, to find the subfolders.
  public init(
    folder: String, subfolders: @escaping @Sendable (String) -> Bool = { _ in false },
    ignoring: @escaping @Sendable (String) -> Bool = { _ in false },
    onChange: @escaping @Sendable () -> Void
  ) {
    self.folder = folder
    #if os(Linux)
      if let inotify = Inotify(folder: folder, subfolders: subfolders) {
        mechanism = .inotify
        wake = inotify.wake.write
        let thread = Thread {
          inotify.readEvents(ignoring: ignoring, onChange: onChange)
        }
        thread.name = "FolderWatch"
        thread.start()
        return
      }
    #endif
    mechanism = .poll
    wake = -1
    let thread = Thread { [weak self] in
      var last = Self.stamp(folder, subfolders: subfolders, ignoring: ignoring)
      while true {
        Thread.sleep(forTimeInterval: Double(Self.pollInterval.components.attoseconds) / 1e18)
        guard let self, !self.isStopped else { return }
        let now = Self.stamp(folder, subfolders: subfolders, ignoring: ignoring)
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

  /// The paths, sizes and modification times of the reported entries of the folder and of
  /// the subfolders watched.
  static func stamp(
    _ folder: String, subfolders: (String) -> Bool, ignoring: (String) -> Bool,
    relative: String = ""
  ) -> [String] {
    let manager = FileManager.default
    let names = (try? manager.contentsOfDirectory(atPath: folder)) ?? []
    var stamps: [String] = []
    for name in names.sorted() {
      let attributes = try? manager.attributesOfItem(atPath: folder + "/" + name)
      let path = relative.isEmpty ? name : relative + "/" + name
      if !ignoring(name) {
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        let date = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        stamps.append("\(path)|\(size)|\(date)")
      }
      if attributes?[.type] as? FileAttributeType == .typeDirectory, subfolders(path) {
        stamps += stamp(
          folder + "/" + name, subfolders: subfolders, ignoring: ignoring, relative: path)
      }
    }
    return stamps
  }
}

#if os(Linux)
  /// A watch's inotify side: one descriptor with a watch on the folder and on each watched
  /// subfolder, and the pipe whose write end stops the reader. After `init` only the
  /// reader's thread touches it.
  private final class Inotify: @unchecked Sendable {
    static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)

    let descriptor: Int32
    let root: String
    let subfolders: @Sendable (String) -> Bool
    let wake: (read: Int32, write: Int32)
    /// The path of each watched folder relative to the root ("" for the root), by watch.
    private var folders: [Int32: String] = [:]

    /// Watches `folder` and the subfolders `subfolders` asks for, or nil when inotify cannot
    /// (the folder is missing, the per-user watch limit is reached).
    init?(folder: String, subfolders: @escaping @Sendable (String) -> Bool) {
      descriptor = inotify_init1(Int32(IN_CLOEXEC))
      root = folder
      self.subfolders = subfolders
      var ends: [Int32] = [-1, -1]
      let piped = pipe(&ends) == 0
      wake = (ends[0], ends[1])
      guard descriptor >= 0, piped, add(""), addSubfolders(of: "") else {
        for end in [descriptor, wake.read, wake.write] where end >= 0 { close(end) }
        return nil
      }
    }

    private func path(_ relative: String) -> String {
      relative.isEmpty ? root : root + "/" + relative
    }

    /// Watches the folder at `relative`; returns whether inotify took it.
    private func add(_ relative: String) -> Bool {
      let watch = inotify_add_watch(descriptor, path(relative), Self.mask)
      guard watch >= 0 else { return false }
      folders[watch] = relative
      return true
    }

    /// Watches the subfolders of the folder at `relative` that `subfolders` asks for, and
    /// theirs; returns whether inotify took every one.
    private func addSubfolders(of relative: String) -> Bool {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path(relative))) ?? []
      var complete = true
      for name in names.sorted() {
        let child = relative.isEmpty ? name : relative + "/" + name
        var isDirectory: ObjCBool = false
        guard subfolders(child),
          FileManager.default.fileExists(atPath: path(child), isDirectory: &isDirectory),
          isDirectory.boolValue
        else { continue }
        complete = add(child) && addSubfolders(of: child) && complete
      }
      return complete
    }

    /// Stops watching the folder at `relative` and everything under it (it moved away).
    private func remove(_ relative: String) {
      for (watch, folder) in folders where folder == relative || folder.hasPrefix(relative + "/") {
        inotify_rm_watch(descriptor, watch)
        folders[watch] = nil
      }
    }

    /// Sleeps until the kernel reports events or the wake pipe is readable; reports each
    /// batch once, after watching any subfolder it created.
    func readEvents(ignoring: (String) -> Bool, onChange: () -> Void) {
      defer {
        close(descriptor)
        close(wake.read)
      }
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        var fds = [
          pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
          pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, 2, -1)
        if ready < 0 && errno == EINTR { continue }
        guard ready > 0, fds[1].revents == 0, fds[0].revents & Int16(POLLIN) != 0 else { return }
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return }
        if handle(buffer, count: count, ignoring: ignoring) { onChange() }
      }
    }

    /// Applies a batch of events to the watches; returns whether one is to be reported.
    private func handle(_ buffer: [UInt8], count: Int, ignoring: (String) -> Bool) -> Bool {
      let header = MemoryLayout<inotify_event>.size
      var reported = false
      var overflowed = false
      var offset = 0
      while offset + header <= count {
        let event = buffer.withUnsafeBytes {
          $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
        }
        let start = offset + header
        let length = Int(event.len)
        let name = String(
          decoding: buffer[start..<min(start + length, count)].prefix { $0 != 0 }, as: UTF8.self)
        offset = start + length
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
          reported = true
          overflowed = true
          continue
        }
        if event.mask & UInt32(IN_IGNORED) != 0 {
          folders[event.wd] = nil
          continue
        }
        guard let parent = folders[event.wd], !name.isEmpty else { continue }
        if event.mask & UInt32(IN_ISDIR) != 0 {
          let child = parent.isEmpty ? name : parent + "/" + name
          if event.mask & UInt32(IN_MOVED_FROM) != 0 { remove(child) }
          if event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, subfolders(child) {
            _ = add(child) && addSubfolders(of: child)
          }
        }
        if !ignoring(name) { reported = true }
      }
      // Events were lost: any subfolder made meanwhile is found by looking again.
      if overflowed { _ = addSubfolders(of: "") }
      return reported
    }
  }
#endif
