import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

@Suite("POSIXFileSystem: status, folder listings, exclusive creates, mkdir -p, atomic writes")
struct FileSystemSeamTests {
  let system = POSIXFileSystem()

  @Test func statusTellsKindIdentitySizeAndTime() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let file = folder.appending("a.bin")
    try Data([1, 2, 3, 4, 5]).write(to: URL(fileURLWithPath: file))
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000.5)], ofItemAtPath: file)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appending("link"), withDestinationPath: file)
    let status = try system.status(file, followingLinks: false)
    let attributes = try FileManager.default.attributesOfItem(atPath: file)
    #expect(status.kind == .regular && status.size == 5)
    #expect(status.inode == (attributes[.systemFileNumber] as? NSNumber)?.uint64Value)
    #expect(status.owner == UInt32(getuid()))
    #expect(status.modified.seconds == 1_700_000_000)
    #expect(status.modified.secondsSince1970 == 1_700_000_000.5)
    #expect(status.modified.nanosecondsSince1970 == 1_700_000_000_500_000_000)
    #expect(
      try system.status(folder.appending("link"), followingLinks: false).kind == .symbolicLink)
    #expect(try system.status(folder.appending("link"), followingLinks: true) == status)
    #expect(try system.status(folder.path, followingLinks: false).kind == .directory)
    // Reading without following links: the open itself refuses the link, not only a check.
    #expect(try system.readPrefix(folder.appending("link"), limit: 9).bytes == [1, 2, 3, 4, 5])
    #expect(throws: PersistenceError.self) {
      try system.readPrefix(folder.appending("link"), limit: 9, followingLinks: false)
    }
    #expect(try system.readPrefix(file, limit: 9, followingLinks: false).size == 5)
    try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: folder.path)
    #expect(try system.status(folder.path, followingLinks: true).isSticky)
    #expect(!status.isSticky)
    // Nothing there, or a file where a folder is expected on the way: not found.
    for missing in [folder.appending("none"), file + "/below"] {
      let error = #expect(throws: PersistenceError.self) {
        try system.status(missing, followingLinks: false)
      }
      #expect(error?.code == .notFound && error?.path == missing)
      #expect(error?.description.hasPrefix("\(missing) does not exist (lstat: ") == true)
      #expect(try system.statusIfPresent(missing, followingLinks: true) == nil)
    }
  }

  @Test func readDirectoryListsRawNamesWithTheirKinds() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    try Data([1]).write(to: URL(fileURLWithPath: folder.appending("file")))
    try FileManager.default.createDirectory(
      atPath: folder.appending("sub"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appending("link"), withDestinationPath: "file")
    let latin1: [UInt8] = Array("caf".utf8) + [0xE9]  // not UTF-8
    let fd = latin1.withUnsafeBufferPointer { name -> Int32 in
      var path = Array((folder.path + "/").utf8CString.dropLast())
      path += name.map { CChar(bitPattern: $0) } + [0]
      return open(path, O_WRONLY | O_CREAT, 0o644)
    }
    #expect(fd >= 0)
    close(fd)
    let entries = try system.readDirectory(folder.path).sorted {
      $0.rawName.lexicographicallyPrecedes($1.rawName)
    }
    #expect(
      entries.map(\.rawName) == [latin1, Array("file".utf8), Array("link".utf8), Array("sub".utf8)])
    #expect(entries[0].name == nil && entries[1].name == "file")
    // Where the file system tells kinds (ext4, tmpfs, btrfs, APFS), they are right.
    let kinds = entries.dropFirst().map(\.kind)
    #expect(kinds == [.regular, .symbolicLink, .directory] || kinds == [nil, nil, nil])
    #expect(
      try system.listDirectory(folder.path).sorted() == ["caf\u{FFFD}", "file", "link", "sub"])
    let error = #expect(throws: PersistenceError.self) {
      try system.readDirectory(folder.appending("none"))
    }
    #expect(error?.code == .notFound && error?.operation == "opendir")
  }

  @Test func createDirectoryAndCreateNewAreExclusive() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let sub = folder.appending("sub")
    try system.createDirectory(sub, permissions: 0o700)
    #expect(try system.status(sub, followingLinks: false).permissions == 0o700)
    let again = #expect(throws: PersistenceError.self) {
      try system.createDirectory(sub, permissions: 0o700)
    }
    #expect(again?.errorNumber == EEXIST && again?.code == .ioFailure)
    #expect(again?.description == "mkdir failed for \(sub): File exists (errno \(EEXIST)).")
    let path = sub + "/new.txt"
    let file = try system.open(path, .createNew(permissions: 0o600))
    try system.writeAll(file, Data("one".utf8))
    try system.close(file)
    #expect(try system.status(path, followingLinks: false).permissions == 0o600)
    let taken = #expect(throws: PersistenceError.self) {
      try system.open(path, .createNew(permissions: 0o600))
    }
    #expect(taken?.errorNumber == EEXIST)
    #expect(try system.readAll(path) == Data("one".utf8))
  }

  @Test func makeDirectoriesCreatesMissingParentsAndRefusesAFileInTheWay() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let deep = folder.appending("a/b/c")
    try system.makeDirectories(deep, permissions: 0o700)
    try system.makeDirectories(deep, permissions: 0o700)  // exists: nothing to do
    #expect(try system.status(deep, followingLinks: true).kind == .directory)
    #expect(try system.status(folder.appending("a"), followingLinks: true).permissions == 0o700)
    try Data([1]).write(to: URL(fileURLWithPath: folder.appending("a/file")))
    for blocked in [folder.appending("a/file"), folder.appending("a/file/below")] {
      let error = #expect(throws: PersistenceError.self) {
        try system.makeDirectories(blocked, permissions: 0o755)
      }
      #expect(error?.code == .ioFailure, "\(blocked)")
    }
    let error = #expect(throws: PersistenceError.self) {
      try system.makeDirectories(folder.appending("a/file"), permissions: 0o755)
    }
    #expect(
      error?.description
        == "cannot create folder \"\(folder.appending("a/file"))\": a file is there")
  }

  @Test(arguments: [0, 3, 5, 9])
  func readPrefixReadsAtMostTheLimitAndTellsTheSize(limit: Int) throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let path = folder.appending("f")
    try Data([1, 2, 3, 4, 5]).write(to: URL(fileURLWithPath: path))
    let (bytes, size) = try system.readPrefix(path, limit: limit)
    #expect(size == 5 && bytes == Array([1, 2, 3, 4, 5].prefix(limit)))
    let missing = #expect(throws: PersistenceError.self) {
      try system.readPrefix(folder.appending("none"), limit: limit)
    }
    #expect(missing?.code == .notFound)
    let notAFile = #expect(throws: PersistenceError.self) {
      try system.readPrefix(folder.path, limit: limit)
    }
    #expect(
      notAFile?.description == "\(folder.path) is not a regular file (a folder); move it away.")
  }

  /// An atomic write with a chosen temporary name fails at each of its operations in turn:
  /// the file holds the old bytes or the new ones, and the temporary file is gone.
  @Test func anAtomicWriteThatFailsAnywhereLeavesTheOldOrTheNewBytes() throws {
    let old = Data("old contents\n".utf8)
    let new = Data(repeating: 0x6E, count: 10_000)
    let dryFolder = try TemporaryDirectory()
    defer { dryFolder.remove() }
    let dry = FaultInjectingFileSystem()
    try old.write(to: URL(fileURLWithPath: dryFolder.appending("f")))
    try dry.writeAtomically(
      new, to: dryFolder.appending("f"), temporaryPath: dryFolder.appending(".f.tmp"))
    #expect(dry.operations.first == "open createNew(permissions: 420) \(dryFolder.path)/.f.tmp")
    #expect(
      dry.operations.suffix(2) == ["fsync \(dryFolder.path)", "close \(dryFolder.path)"])
    for failing in 1...dry.operationCount {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let path = folder.appending("f")
      try old.write(to: URL(fileURLWithPath: path))
      let faulty = FaultInjectingFileSystem(failingOperation: failing)
      do {
        try faulty.writeAtomically(new, to: path, temporaryPath: folder.appending(".f.tmp"))
      } catch {
        #expect(error.code == .ioFailure && error.description.contains("injected fault"))
      }
      let now = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(now == old || now == new, "operation \(failing)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["f"])
    }
    // Without syncing the folder, the rename is the last operation.
    let quiet = FaultInjectingFileSystem()
    try quiet.writeAtomically(old, to: dryFolder.appending("g"), syncFolder: false)
    #expect(quiet.operations.last?.hasPrefix("rename \(dryFolder.path)/g.tmp-") == true)
  }

  @Test func pathNamesSplitAndJoin() {
    #expect(PathName.directory(of: "/a/b.jpg") == "/a" && PathName.directory(of: "/b") == "/")
    #expect(PathName.directory(of: "b") == "." && PathName.lastComponent(of: "/a/b.jpg") == "b.jpg")
    #expect(PathName.lastComponent(of: "b") == "b" && PathName.join("/a/", "b") == "/a/b")
    #expect(PathName.join("/a", "b/c") == "/a/b/c")
  }
}
