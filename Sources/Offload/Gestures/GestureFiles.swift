import Foundation
public import Gestures

/// Reads gesture traces and stroke files from disk for the `Gestures` module, which does no
/// I/O itself.
public enum GestureFiles {
  /// An error reading or parsing a gesture file.
  public struct FileError: Error, CustomStringConvertible {
    /// Whether the file was missing (as opposed to unreadable or malformed).
    public var isMissing: Bool
    /// Whether the content was malformed.
    public var isBadData: Bool
    /// One sentence naming the file and the problem.
    public var description: String
  }

  static func read(_ path: String) throws(FileError) -> String {
    guard FileManager.default.fileExists(atPath: path) else {
      throw FileError(isMissing: true, isBadData: false, description: "no such file: \(path)")
    }
    do {
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      return String(decoding: data, as: UTF8.self)
    } catch {
      throw FileError(
        isMissing: false, isBadData: false,
        description: "cannot read \(path): \(error.localizedDescription)")
    }
  }

  /// Replays a JSON-lines trace file.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the file.
  /// - Parameters:
  ///   - path: The trace file.
  ///   - preset: A preset that overrides the trace's own, or nil to use the trace's (else iOS).
  /// - Throws: ``FileError``: missing, unreadable, malformed, or a trace with no touch (no
  ///   `began` sample) and no action: nothing to replay is bad data, not an empty timeline.
  public static func replay(path: String, preset: GesturePreset?) throws(FileError)
    -> GestureReplay
  {
    let text = try read(path)
    let replay: GestureReplay
    do {
      let trace = try GestureTrace(parsing: text)
      replay = GestureReplay(trace: trace, preset: preset ?? .ios, overridePreset: preset != nil)
    } catch {
      throw FileError(isMissing: false, isBadData: true, description: "\(path): \(error)")
    }
    guard !replay.strokes.isEmpty else {
      throw FileError(
        isMissing: false, isBadData: true,
        description:
          "\(path): nothing to replay: the trace has no touch (a began sample) and no action")
    }
    return replay
  }

  /// Evaluates a CSV stroke file against its derived labels.
  ///
  /// - Complexity: O(*n*), where *n* is the size of the file.
  public static func evaluate(path: String, preset: GesturePreset, density: Double)
    throws(FileError) -> StrokeEvaluation
  {
    let text = try read(path)
    do {
      let strokes = try RecordedStroke.parseCSV(text)
      return StrokeEvaluation(strokes: strokes, preset: preset, density: density)
    } catch {
      throw FileError(isMissing: false, isBadData: true, description: "\(path): \(error)")
    }
  }
}
