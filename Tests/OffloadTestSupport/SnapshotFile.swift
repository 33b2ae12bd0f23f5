import Foundation

/// Text snapshots in a test target's `Snapshots/` folder, shared by the targets that keep them.
public enum SnapshotFile {
  /// Compares `text` with the snapshot `name` beside `filePath` (in its `Snapshots/` folder), or
  /// writes it there when `RECORD_SNAPSHOTS=1`.
  ///
  /// - Returns: nil when they match (or the snapshot was recorded); otherwise what differs, as
  ///   the message for the test's issue.
  /// - Complexity: O(*n*) in the length of the text.
  public static func mismatch(_ text: String, named name: String, besides filePath: String)
    -> String?
  {
    let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
      .appendingPathComponent("Snapshots")
    let file = folder.appendingPathComponent(name)
    if Environment.value("RECORD_SNAPSHOTS") == "1" {
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try? Data(text.utf8).write(to: file)
      return nil
    }
    guard let data = FileManager.default.contents(atPath: file.path) else {
      return "no snapshot \(name); run with RECORD_SNAPSHOTS=1 to record it"
    }
    let expected = String(decoding: data, as: UTF8.self)
    guard expected != text else { return nil }
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let b = text.split(separator: "\n", omittingEmptySubsequences: false)
    let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
    return
      "\(name) differs from its snapshot at line \(line + 1):\n  expected: \(line < a.count ? String(a[line]) : "<end>")\n  actual:   \(line < b.count ? String(b[line]) : "<end>")\n(RECORD_SNAPSHOTS=1 re-records)"
  }
}
