import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

/// `readAll` and `readPrefix` share one loop: a file system that reads a few bytes at a time,
/// a file that grew or shrank after its size was taken, and a read that fails.
@Suite("FileSystem helpers: the read loop of readAll and readPrefix")
struct ReadLoopTests {
  /// The real file system, except that each `read` fills at most `chunk` bytes and the file's
  /// size is reported `sizeError` bytes off (a file another process is changing).
  struct ShortReads: FileSystem {
    var chunk: Int
    var sizeError = 0
    let base = POSIXFileSystem()

    func open(_ path: String, _ mode: FileOpenMode) throws(PersistenceError) -> OpenFile {
      try base.open(path, mode)
    }
    func close(_ file: OpenFile) throws(PersistenceError) { try base.close(file) }
    func read(_ file: OpenFile, into buffer: UnsafeMutableRawBufferPointer)
      throws(PersistenceError) -> Int
    {
      try base.read(file, into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(chunk)))
    }
    func write(_ file: OpenFile, from buffer: UnsafeRawBufferPointer) throws(PersistenceError)
      -> Int
    { try base.write(file, from: buffer) }
    func sync(_ file: OpenFile) throws(PersistenceError) { try base.sync(file) }
    func size(_ file: OpenFile) throws(PersistenceError) -> Int {
      max(0, try base.size(file) + sizeError)
    }
    func truncate(_ file: OpenFile, to length: Int) throws(PersistenceError) {
      try base.truncate(file, to: length)
    }
    func lock(_ file: OpenFile, wait: Bool) throws(PersistenceError) -> Bool {
      try base.lock(file, wait: wait)
    }
    func rename(_ source: String, to destination: String) throws(PersistenceError) {
      try base.rename(source, to: destination)
    }
    func link(_ source: String, to destination: String) throws(PersistenceError) {
      try base.link(source, to: destination)
    }
    func unlink(_ path: String) throws(PersistenceError) { try base.unlink(path) }
    func makeDirectory(_ path: String) throws(PersistenceError) { try base.makeDirectory(path) }
    func listDirectory(_ path: String) throws(PersistenceError) -> [String] {
      try base.listDirectory(path)
    }
    func readDirectory(_ path: String) throws(PersistenceError) -> [DirectoryEntry] {
      try base.readDirectory(path)
    }
    func status(_ path: String, followingLinks: Bool) throws(PersistenceError) -> FileStatus {
      try base.status(path, followingLinks: followingLinks)
    }
    func createDirectory(_ path: String, permissions: Int) throws(PersistenceError) {
      try base.createDirectory(path, permissions: permissions)
    }
  }

  @Test("short reads and a wrong size: every byte is read, and no more than the limit")
  func shortReads() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    var random = SplitMix64(seed: 150)
    for round in 0..<60 {
      let count = round < 3 ? round : Int.random(in: 0...20_000, using: &random)
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
      let path = folder.appending("f\(round)")
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let files = ShortReads(
        chunk: Int.random(in: 1...7, using: &random),
        sizeError: Int.random(in: -50...50, using: &random))
      #expect(try files.readAll(path) == Data(bytes), "\(random)")
      let limit = Int.random(in: 0...(count + 10), using: &random)
      let prefix = try files.readPrefix(path, limit: limit)
      // readPrefix reads up to the size it was told, and never past the file's end.
      let told = max(0, count + files.sizeError)
      #expect(prefix.size == told, "\(random)")
      #expect(prefix.bytes == Array(bytes.prefix(min(limit, told))), "\(random)")
    }
  }

  @Test("a read that fails: both throw its error, whichever read it is")
  func failingRead() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.appending("f")
    try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: path))
    // open, size, then the reads of at most 7 bytes (15 to reach the end, a 16th to see it
    // for readAll): fail each in turn.
    let dry = FaultInjectingFileSystem(base: ShortReads(chunk: 7))
    _ = try dry.readAll(path)
    let reads = dry.operations.filter { $0.hasPrefix("read ") }.count
    #expect(reads == 16)
    for failing in 3..<(3 + reads) {
      let faulty = FaultInjectingFileSystem(failingOperation: failing, base: ShortReads(chunk: 7))
      let error = #expect(throws: PersistenceError.self) { try faulty.readAll(path) }
      #expect(error?.operation == "read", "operation \(failing)")
      guard failing < 3 + 15 else { continue }
      let prefix = FaultInjectingFileSystem(failingOperation: failing, base: ShortReads(chunk: 7))
      let again = #expect(throws: PersistenceError.self) {
        try prefix.readPrefix(path, limit: 100)
      }
      #expect(again?.operation == "read", "operation \(failing)")
    }
  }
}
