import Foundation

/// One entry of a journal with its sequence number.
public struct JournalRecord<Entry> {
  /// The entry's sequence number: 1 for the first entry ever appended, then one more each time.
  public var sequence: Int
  /// The entry.
  public var entry: Entry

  /// Creates a record.
  public init(sequence: Int, entry: Entry) {
    self.sequence = sequence
    self.entry = entry
  }
}

extension JournalRecord: Sendable where Entry: Sendable {}
extension JournalRecord: Equatable where Entry: Equatable {}

/// A last line that was cut off when the journal was opened: the trace of a crash in the middle
/// of an append. The entry on it had not been acknowledged.
public struct TornTail: Sendable, Hashable, CustomStringConvertible {
  /// The 1-based line number of the cut line.
  public var line: Int
  /// The byte offset where the cut line started (the journal's new length).
  public var offset: Int
  /// How many bytes were cut.
  public var length: Int
  /// What was wrong with the line.
  public var reason: String

  /// One sentence naming the line, its place and the reason.
  public var description: String {
    "line \(line) (\(length) bytes at byte \(offset)) was cut off: \(reason)"
  }
}

/// What a journal holds: the last snapshot, the entries after it in order, a torn last line if
/// one was found, and damage before the tail if any.
public struct JournalContents<Entry, Snapshot> {
  /// The state of the last compaction, or nil when the journal was never compacted.
  public var snapshot: Snapshot?
  /// The sequence number of the last entry the snapshot includes (0 without a snapshot).
  public var snapshotSequence: Int
  /// The entries after the snapshot, in order; the valid prefix when there is ``damage``.
  public var entries: [JournalRecord<Entry>]
  /// The torn last line that was (or, for ``JSONLinesJournal/read(directory:name:format:fileSystem:)``,
  /// would be) cut off.
  public var tornTail: TornTail?
  /// Damage before the last line: the line it names and everything after it are not in
  /// ``entries``. ``JSONLinesJournal/open(directory:name:format:durability:lockTimeout:fileSystem:)``
  /// throws it instead.
  public var damage: PersistenceError?

  /// The sequence number of the last entry (the snapshot's when there are no entries).
  public var lastSequence: Int { entries.last?.sequence ?? snapshotSequence }
}

extension JournalContents: Sendable where Entry: Sendable, Snapshot: Sendable {}

/// The result of reading the lines of one journal file.
struct JournalScan<Entry> {
  var header: JournalHeader?
  var entries: [JournalRecord<Entry>] = []
  /// The length of the valid prefix: the file's length unless a tail was torn or damaged.
  var validLength = 0
  var tornTail: TornTail?
  var damage: PersistenceError?
}

extension JournalScan where Entry: Decodable {
  /// Reads journal text: the header, then each entry line, stopping at the first bad line.
  ///
  /// A bad last line (no newline, wrong layout or checksum) is a torn tail; a bad line with
  /// more after it, an entry that does not decode, or a sequence number out of order is damage.
  static func scan(_ data: Data, path: String, decoder: JSONDecoder) -> JournalScan {
    var scan = JournalScan()
    data.withUnsafeBytes { bytes in
      var start = 0
      var lineNumber = 0
      var expected = 0
      while start < bytes.count {
        lineNumber += 1
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        let hasNewline = end < bytes.count
        let isLast = !hasNewline || end + 1 == bytes.count
        let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        func torn(_ reason: String) {
          scan.tornTail = TornTail(
            line: lineNumber, offset: start, length: bytes.count - start, reason: reason)
        }
        func damaged(_ reason: String, column: Int = 1) {
          scan.damage = PersistenceError(
            .damaged, path: path, offset: start + column - 1, line: lineNumber,
            description:
              "\(path) is damaged at line \(lineNumber), column \(column) (byte \(start + column - 1)): \(reason); the \(scan.entries.count) entries before it are readable."
          )
        }
        if !hasNewline {
          torn("it has no final newline (an append was interrupted)")
          return
        }
        if lineNumber == 1 {
          guard let header = try? decoder.decode(JournalHeader.self, from: Data(line)) else {
            if isLast {
              torn("the header line is not valid")
            } else {
              damaged("the first line is not a journal header")
            }
            return
          }
          scan.header = header
          expected = header.baseSequence + 1
        } else {
          let parsed: (sequence: Int, entry: Range<Int>)
          do throws(JournalLineProblem) {
            parsed = try JournalLine.parse(line)
          } catch {
            if isLast { torn(error.message) } else { damaged(error.message) }
            return
          }
          guard parsed.sequence == expected else {
            damaged("the sequence number is \(parsed.sequence), expected \(expected)")
            return
          }
          do {
            let entry = try decoder.decode(
              Entry.self, from: Data(UnsafeRawBufferPointer(rebasing: line[parsed.entry])))
            scan.entries.append(JournalRecord(sequence: parsed.sequence, entry: entry))
          } catch {
            damaged(
              "the entry does not decode: \(DocumentCodec.describe(error))",
              column: parsed.entry.lowerBound + 1)
            return
          }
          expected += 1
        }
        start = end + 1
        scan.validLength = start
      }
    }
    return scan
  }
}
