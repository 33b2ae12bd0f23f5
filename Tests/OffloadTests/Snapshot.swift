import OffloadTestSupport
import Testing

/// Compares text with a snapshot file in `Tests/OffloadTests/Snapshots/`;
/// `RECORD_SNAPSHOTS=1` writes the file instead.
func expectSnapshot(
  _ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  if let mismatch = SnapshotFile.mismatch(text, named: name, besides: #filePath) {
    Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
  }
}
