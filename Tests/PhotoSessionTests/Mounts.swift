import Foundation
import OffloadTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A small tmpfs mounted on a temporary folder: a second file system (another `st_dev`) and,
/// after ``makeReadOnly()``, a folder even root cannot write. Needs the right to mount (root in
/// a container); ``make()`` returns nil otherwise.
final class TemporaryMount {
  let path: String
  private let folder: TemporaryDirectory

  private init(folder: TemporaryDirectory) {
    self.folder = folder
    self.path = folder.path
  }

  static func make() -> TemporaryMount? {
    #if os(Linux)
      guard geteuid() == 0, let folder = try? TemporaryDirectory(prefix: "offload-mount") else {
        return nil
      }
      guard run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", folder.path]) else {
        folder.remove()
        return nil
      }
      return TemporaryMount(folder: folder)
    #else
      return nil
    #endif
  }

  func makeReadOnly() -> Bool {
    Self.run(["mount", "-o", "remount,ro", path])
  }

  func remove() {
    _ = Self.run(["umount", path])
    folder.remove()
  }

  private static func run(_ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    do {
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus == 0
    } catch {
      return false
    }
  }
}
