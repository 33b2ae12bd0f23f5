import Foundation
import TerminalUI

/// Where commands print: data to stdout, messages to stderr, JSON with sorted keys.
///
/// Every text line goes through `TerminalText.escaped`, so an item, a collection name, a
/// photo's file name or an error message that holds control characters (an Escape sequence,
/// a newline, a bidirectional override) prints them spelled out and cannot drive the
/// terminal. JSON documents are written as the encoder escaped them. A failed write (a full
/// disk, a closed pipe) ends the process with exit status 74 and one line on stderr.
enum Output {
  /// The JSON schema version every `--json` document carries.
  static let schemaVersion = 1

  /// Writes a line of text to standard output, its control characters escaped.
  static func line(_ text: String) {
    write(TerminalText.escaped(text) + "\n", to: STDOUT_FILENO)
  }

  /// Writes text of several lines to standard output, each line's control characters escaped.
  static func lines(_ text: String) {
    write(escapingLines(text) + "\n", to: STDOUT_FILENO)
  }

  /// Writes one line to standard error, its control characters (line breaks too) escaped: a
  /// message naming data stays on one line whatever the data holds.
  static func error(_ text: String) {
    write(TerminalText.escaped(text) + "\n", to: STDERR_FILENO)
  }

  /// Writes text of several lines to standard error (the argument parser's usage messages),
  /// each line's control characters escaped.
  static func errorLines(_ text: String) {
    write(escapingLines(text) + "\n", to: STDERR_FILENO)
  }

  /// Writes text to standard output as it is: JSON, and text that carries its own escapes.
  static func raw(_ text: String) {
    write(text, to: STDOUT_FILENO)
  }

  /// Each line of `text` escaped, the line breaks kept.
  static func escapingLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(TerminalText.escaped)
      .joined(separator: "\n")
  }

  /// Encodes `value` as one pretty JSON document with sorted keys.
  static func jsonText<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  /// Prints `value` as one JSON document on standard output.
  static func json<Value: Encodable>(_ value: Value) throws {
    raw(try jsonText(value) + "\n")
  }

  /// Writes every byte of `text` to a file descriptor; on failure says so on stderr (once, if
  /// stderr still takes it) and exits with 74 (`OffloadExitCode.ioError`).
  ///
  /// `FileHandle.write(_:)` traps on a write error, so the bytes go through `write(2)`.
  static func write(_ text: String, to descriptor: Int32) {
    var text = text
    let failure: Int32? = text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return nil }
      var offset = 0
      while offset < bytes.count {
        let written = systemWrite(descriptor, base + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return nil
    }
    guard let failure else { return }
    let stream = descriptor == STDERR_FILENO ? "standard error" : "standard output"
    let message =
      "offloadctl: error: cannot write to \(stream): \(String(cString: strerror(failure)))\n"
    if descriptor != STDERR_FILENO {
      _ = message.withCString { systemWrite(STDERR_FILENO, $0, strlen($0)) }
    }
    exit(OffloadExitCode.ioError.rawValue)
  }
}
