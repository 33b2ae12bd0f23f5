import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A session journal in a folder: `journal.jsonl` (one event per line, with a sequence number
/// and a CRC-32) and `snapshot.json` (written by compaction).
///
/// Each line reads `{"seq":12,"crc":"1c291ca3","event":{...}}`; the checksum covers the bytes
/// of the `event` object exactly as written. Every ``append(_:)`` writes its lines with one
/// `write` and one `fsync` before returning. Replay cuts off a torn or checksum-failing last
/// line (what a crash in the middle of an append leaves) and reports it; damage before the tail
/// throws an error naming the line. Compaction writes the snapshot atomically with the sequence
/// number it covers, then replaces the journal with an empty one; a crash between the two
/// leaves lines the snapshot already covers, which replay skips.
public final class JSONLinesSessionJournal: SessionJournal {
  /// The folder holding the journal and the snapshot.
  public let folder: String
  /// The journal file's path.
  public var journalPath: String { FileSystem.join(folder, "journal.jsonl") }
  /// The snapshot file's path.
  public var snapshotPath: String { FileSystem.join(folder, "snapshot.json") }

  private var descriptor: Int32 = -1
  private var nextSequence: Int?
  private var fileLength: Int = 0
  private let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// Whether this instance only reads: replay reports a torn tail without cutting it, and
  /// append and compaction throw. For listing sessions another process may have open.
  public let readOnly: Bool

  /// Opens (or prepares to create) the journal in `folder`, which must exist.
  ///
  /// - Parameters:
  ///   - folder: The session folder.
  ///   - readOnly: Never write (see ``readOnly``).
  public init(folder: String, readOnly: Bool = false) {
    self.folder = folder
    self.readOnly = readOnly
  }

  private func requireWritable() throws(PhotoSessionError) {
    if readOnly {
      throw PhotoSessionError(
        .writeFailed, path: journalPath,
        description: "cannot write the journal \"\(journalPath)\": it was opened read-only")
    }
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  private struct SnapshotFile: Codable {
    var format: String
    var version: Int
    var throughSequence: Int
    var state: SessionSnapshot
  }

  static let snapshotFormat = "offload.photo-session.snapshot"

  // MARK: Append

  /// Appends events with one write and one fsync; returns once they are durable.
  ///
  /// - Throws: ``PhotoSessionError/Code/writeFailed``; the journal is cut back to its length
  ///   before the call, so a failed append leaves no partial line.
  /// - Complexity: O(*k*) for *k* events.
  public func append(_ events: [SessionEvent]) throws(PhotoSessionError) {
    guard !events.isEmpty else { return }
    try requireWritable()
    if nextSequence == nil { _ = try replay() }
    try openForAppend()
    var sequence = nextSequence ?? 1
    var bytes: [UInt8] = []
    for event in events {
      let body: Data
      do {
        body = try encoder.encode(event)
      } catch {
        throw PhotoSessionError(
          .writeFailed, path: journalPath, description: "cannot encode a journal entry: \(error)")
      }
      bytes.append(contentsOf: Self.line(sequence: sequence, body: Array(body)))
      sequence += 1
    }
    do {
      try FileSystem.writeAll(descriptor, bytes, path: journalPath)
      try FileSystem.sync(descriptor, path: journalPath)
    } catch {
      // Cut off whatever part of the lines reached the file, so the next append starts clean.
      if ftruncate(descriptor, off_t(fileLength)) != 0 {
        close(descriptor)
        descriptor = -1
        nextSequence = nil
      }
      throw error
    }
    fileLength += bytes.count
    nextSequence = sequence
  }

  /// The bytes of one journal line.
  static func line(sequence: Int, body: [UInt8]) -> [UInt8] {
    let crc = String(CRC32.checksum(body), radix: 16)
    let padded = String(repeating: "0", count: 8 - crc.count) + crc
    var line = Array("{\"seq\":\(sequence),\"crc\":\"\(padded)\",\"event\":".utf8)
    line.append(contentsOf: body)
    line.append(contentsOf: [UInt8(ascii: "}"), UInt8(ascii: "\n")])
    return line
  }

  private func openForAppend() throws(PhotoSessionError) {
    guard descriptor < 0 else { return }
    let existed = (try FileSystem.status(journalPath)) != nil
    let fd = open(journalPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    if fd < 0 { throw FileSystem.failure(.writeFailed, "open journal", journalPath) }
    descriptor = fd
    var status = stat()
    if fstat(fd, &status) == 0 { fileLength = Int(status.st_size) }
    if !existed { try FileSystem.syncDirectory(folder) }
  }

  // MARK: Replay

  /// Reads the snapshot and the events after it, cutting off a torn last line.
  ///
  /// - Throws: ``PhotoSessionError/Code/journalCorrupt`` naming the line and byte offset of
  ///   damage before the tail; ``PhotoSessionError/Code/sessionCorrupt`` for a damaged snapshot.
  /// - Complexity: O(*b*), where *b* is the size of the journal and the snapshot in bytes.
  public func replay() throws(PhotoSessionError) -> JournalContents {
    var snapshot: SessionSnapshot?
    var covered = 0
    if try FileSystem.status(snapshotPath) != nil {
      let bytes = try FileSystem.readAll(snapshotPath)
      let file: SnapshotFile
      do {
        file = try JSONDecoder().decode(SnapshotFile.self, from: Data(bytes))
      } catch {
        throw PhotoSessionError(
          .sessionCorrupt, path: snapshotPath,
          description: "the session snapshot \"\(snapshotPath)\" is damaged: \(error)")
      }
      guard file.format == Self.snapshotFormat, file.version == 1 else {
        throw PhotoSessionError(
          .sessionCorrupt, path: snapshotPath,
          description:
            "the session snapshot \"\(snapshotPath)\" is format \(file.format) version \(file.version); this build reads version 1"
        )
      }
      snapshot = file.state
      covered = file.throughSequence
    }
    var events: [SessionEvent] = []
    var repairs: [String] = []
    var expected = covered + 1
    let bytes: [UInt8]
    if try FileSystem.status(journalPath) != nil {
      bytes = try FileSystem.readAll(journalPath)
    } else {
      bytes = []
    }
    let decoder = JSONDecoder()
    var start = 0
    var lineNumber = 0
    var goodLength = 0
    while start < bytes.count {
      lineNumber += 1
      let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
      let end = newline ?? bytes.count
      let parsed = Self.parse(bytes[start..<end])
      let isLast = newline == nil || newline == bytes.count - 1
      guard newline != nil, case .success(let (sequence, body)) = parsed else {
        let reason: String
        switch parsed {
        case .failure(let error): reason = error.message
        case .success: reason = "it has no final newline"
        }
        if isLast {
          repairs.append(
            "cut off a torn last line \(lineNumber) of \"\(journalPath)\" (\(bytes.count - start) bytes at offset \(start)): \(reason)"
          )
          break
        }
        throw PhotoSessionError(
          .journalCorrupt, path: journalPath, offset: lineNumber,
          description:
            "the journal \"\(journalPath)\" is damaged at line \(lineNumber) (byte \(start)): \(reason)"
        )
      }
      if sequence > covered {
        guard sequence == expected else {
          throw PhotoSessionError(
            .journalCorrupt, path: journalPath, offset: lineNumber,
            description:
              "the journal \"\(journalPath)\" skips from sequence \(expected - 1) to \(sequence) at line \(lineNumber)"
          )
        }
        do {
          events.append(try decoder.decode(SessionEvent.self, from: Data(body)))
        } catch {
          throw PhotoSessionError(
            .journalCorrupt, path: journalPath, offset: lineNumber,
            description:
              "the journal \"\(journalPath)\" has an unreadable event at line \(lineNumber): \(error)"
          )
        }
        expected += 1
      }
      start = end + 1
      goodLength = start
    }
    if goodLength < bytes.count && !readOnly {
      try cutJournal(to: goodLength)
    }
    nextSequence = expected
    return JournalContents(snapshot: snapshot, events: events, repairs: repairs)
  }

  private func cutJournal(to length: Int) throws(PhotoSessionError) {
    if descriptor >= 0 {
      close(descriptor)
      descriptor = -1
    }
    let fd = open(journalPath, O_WRONLY | O_CLOEXEC)
    if fd < 0 { throw FileSystem.failure(.writeFailed, "open journal", journalPath) }
    defer { close(fd) }
    if ftruncate(fd, off_t(length)) != 0 {
      throw FileSystem.failure(.writeFailed, "cut the torn tail of", journalPath)
    }
    try FileSystem.sync(fd, path: journalPath)
  }

  /// Parses one line into its sequence number and checked event bytes.
  static func parse(_ line: ArraySlice<UInt8>) -> Result<(Int, ArraySlice<UInt8>), LineError> {
    let head = Array("{\"seq\":".utf8)
    guard line.starts(with: head) else { return .failure("it does not start with {\"seq\":") }
    var index = line.startIndex + head.count
    var sequence = 0
    let digitsStart = index
    while index < line.endIndex, line[index] >= 0x30, line[index] <= 0x39, index - digitsStart < 18
    {
      sequence = sequence * 10 + Int(line[index] - 0x30)
      index += 1
    }
    guard index > digitsStart else { return .failure("it has no sequence number") }
    let middle = Array(",\"crc\":\"".utf8)
    guard line[index...].starts(with: middle) else { return .failure("it has no crc field") }
    index += middle.count
    guard line.endIndex - index >= 8 else { return .failure("its crc is cut short") }
    var crc: UInt32 = 0
    for byte in line[index..<index + 8] {
      guard let digit = hexValue(byte) else { return .failure("its crc is not hexadecimal") }
      crc = crc << 4 | UInt32(digit)
    }
    index += 8
    let tail = Array("\",\"event\":".utf8)
    guard line[index...].starts(with: tail) else { return .failure("it has no event field") }
    index += tail.count
    guard line.endIndex > index, line[line.endIndex - 1] == UInt8(ascii: "}") else {
      return .failure("it does not end with }")
    }
    let body = line[index..<line.endIndex - 1]
    guard CRC32.checksum(body) == crc else {
      return .failure("its checksum does not match its content")
    }
    return .success((sequence, body))
  }

  /// A reason a line does not parse.
  struct LineError: Error, ExpressibleByStringLiteral {
    var message: String
    init(stringLiteral value: String) { message = value }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }

  // MARK: Compaction

  /// Writes `snapshot` atomically, then replaces the journal with an empty one.
  ///
  /// - Throws: ``PhotoSessionError/Code/writeFailed``; on failure the previous snapshot and
  ///   journal still replay to the same state.
  /// - Complexity: O(*n*), where *n* is the number of photos in the snapshot.
  public func compact(into snapshot: SessionSnapshot) throws(PhotoSessionError) {
    try requireWritable()
    if nextSequence == nil { _ = try replay() }
    let through = (nextSequence ?? 1) - 1
    let file = SnapshotFile(
      format: Self.snapshotFormat, version: 1, throughSequence: through, state: snapshot)
    let data: Data
    do {
      data = try encoder.encode(file)
    } catch {
      throw PhotoSessionError(
        .writeFailed, path: snapshotPath, description: "cannot encode the snapshot: \(error)")
    }
    try FileSystem.writeAtomically(Array(data) + [UInt8(ascii: "\n")], to: snapshotPath)
    if descriptor >= 0 {
      close(descriptor)
      descriptor = -1
    }
    try FileSystem.writeAtomically([], to: journalPath)
    fileLength = 0
  }
}

extension JSONLinesSessionJournal.LineError: CustomStringConvertible {
  var description: String { message }
}
