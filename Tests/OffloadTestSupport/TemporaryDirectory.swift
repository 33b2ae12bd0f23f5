import Foundation

/// A fresh folder under the system's temporary directory, removed by ``remove()``.
///
/// ```swift
/// let folder = try TemporaryDirectory()
/// defer { folder.remove() }
/// ```
public struct TemporaryDirectory: Sendable {
  /// The folder's path.
  public let path: String

  /// Creates a new, empty, uniquely named folder.
  public init(prefix: String = "offload-test") throws {
    let base = FileManager.default.temporaryDirectory.path
    let name =
      "\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
    path = (base as NSString).appendingPathComponent(name)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// The path of `name` inside the folder.
  public func appending(_ name: String) -> String {
    (path as NSString).appendingPathComponent(name)
  }

  /// Removes the folder and everything in it.
  public func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}
