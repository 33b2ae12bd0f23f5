import Foundation
import OffloadTestSupport
import Testing

/// Compares text with a snapshot file in `Tests/OffloadTests/Snapshots/`;
/// `RECORD_SNAPSHOTS=1` writes the file instead.
func expectSnapshot(
  _ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Snapshots")
  let file = folder.appendingPathComponent(name)
  if Environment.value("RECORD_SNAPSHOTS") == "1" {
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try? Data(text.utf8).write(to: file)
    return
  }
  guard let data = FileManager.default.contents(atPath: file.path) else {
    Issue.record(
      "no snapshot \(name); run with RECORD_SNAPSHOTS=1 to record it",
      sourceLocation: sourceLocation)
    return
  }
  let expected = String(decoding: data, as: UTF8.self)
  if expected != text {
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let b = text.split(separator: "\n", omittingEmptySubsequences: false)
    let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
    Issue.record(
      "\(name) differs from its snapshot at line \(line + 1):\n  expected: \(line < a.count ? String(a[line]) : "<end>")\n  actual:   \(line < b.count ? String(b[line]) : "<end>")\n(RECORD_SNAPSHOTS=1 re-records)",
      sourceLocation: sourceLocation)
  }
}
