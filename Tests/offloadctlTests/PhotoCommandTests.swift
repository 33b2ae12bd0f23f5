import Foundation
import OffloadTestSupport
import Persistence
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Small image files with valid headers, written byte by byte.
enum PhotoFiles {
  private static func be32(_ v: Int) -> [UInt8] {
    [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }

  /// A PNG: signature, IHDR (with its CRC-32), IEND.
  static func png(width: Int, height: Int) -> [UInt8] {
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let body = Array(type.utf8) + data
      return be32(data.count) + body + be32(Int(CRC32.checksum(body)))
    }
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      + chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0]) + chunk("IEND", [])
  }

  /// A baseline JPEG: SOI, SOF0 with the size, SOS, EOI.
  static func jpeg(width: Int, height: Int) -> [UInt8] {
    var out: [UInt8] = [0xFF, 0xD8]
    out += [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF)]
    out += [UInt8(width >> 8), UInt8(width & 0xFF), 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    out += [0xFF, 0xDA, 0x00, 0x0C, 0x03, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0, 0x12, 0x34]
    return out + [0xFF, 0xD9]
  }
}

/// A photo folder, a Trash (`XDG_DATA_HOME`) and a store (`OFFLOAD_HOME`) in a temporary
/// folder, and a way to run the built `offloadctl` against them.
struct PhotoFixture {
  let folder: TemporaryDirectory
  var photos: String { folder.appending("photos") }
  var dataHome: String { folder.appending("data") }
  var store: String { folder.appending("store") }
  var trash: String { dataHome + "/Trash" }
  var environment: [String: String] {
    [
      "OFFLOAD_HOME": store, "XDG_DATA_HOME": dataHome, "HOME": folder.path,
      "SOURCE_DATE_EPOCH": "1800000000", "TZ": "UTC",
    ]
  }

  /// Writes `a.jpg`, `b.png`, `c.jpg`, `d.png` (all with the same modification time, so they
  /// order by name), plus what a scan must skip or report: `empty.jpg` (zero bytes),
  /// `link.jpg` (a symbolic link) and `notes.txt` (not an image).
  init(corrupt: Bool = false) throws {
    folder = try TemporaryDirectory(prefix: "offloadctl-photos")
    let manager = FileManager.default
    try manager.createDirectory(atPath: photos, withIntermediateDirectories: true)
    var files: [(String, [UInt8])] = [
      ("a.jpg", PhotoFiles.jpeg(width: 640, height: 480)),
      ("b.png", PhotoFiles.png(width: 300, height: 200)),
      ("c.jpg", PhotoFiles.jpeg(width: 480, height: 640)),
      ("d.png", PhotoFiles.png(width: 20, height: 10)),
      ("empty.jpg", []), ("notes.txt", Array("hello".utf8)),
    ]
    if corrupt { files.append(("bad.jpg", [0xFF, 0xD8, 0xFF, 0xC0, 0x00])) }
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    for (name, bytes) in files {
      let path = photos + "/" + name
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      try manager.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }
    try manager.createSymbolicLink(atPath: photos + "/link.jpg", withDestinationPath: "a.jpg")
  }

  func run(_ arguments: String..., stdin: String? = nil) throws -> ProcessResult {
    try run(arguments, stdin: stdin)
  }

  func run(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
    try BuiltProduct.run("offloadctl", arguments, environment: environment, stdin: stdin)
  }

  /// Runs a command that must succeed and returns its standard output.
  @discardableResult
  func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
    -> String
  {
    let result = try run(arguments)
    #expect(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
    return result.stdout
  }

  /// Runs a command that must fail with `status`, and returns its standard error.
  @discardableResult
  func fails(
    _ status: Int32, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    let result = try run(arguments)
    #expect(result.status == status, "\(arguments): \(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "\(arguments): \(result)", sourceLocation: sourceLocation)
    return result.stderr
  }

  /// A `--json` command's document.
  func json(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String: Any]
  {
    let result = try run(arguments + ["--json"])
    #expect(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require(object as? [String: Any], sourceLocation: sourceLocation)
  }

  /// The names in a folder, sorted, or nil when it does not exist.
  func names(_ path: String) -> [String]? {
    (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted()
  }

  /// The only session's folder.
  func sessionFolder() throws -> String {
    let sessions = store + "/photo-sessions"
    let id = try #require(names(sessions)?.first)
    return sessions + "/" + id
  }

  func remove() { folder.remove() }
}

@Suite("offloadctl photos: end to end on real image files")
struct PhotoCommandTests {
  @Test func startSwipeUndoReviewChangeCommit() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    let start = try fixture.run("photos", "start", fixture.photos, "--order", "mtime")
    #expect(start.status == 0, "\(start)")
    #expect(
      start.stdout
        == """
        Started photo session 20270115-080000: 4 photos in \(fixture.photos) (2 skipped)
        On screen:
          a.jpg
          JPEG · 39 bytes · 640×480 · orientation up
          modified 2023-11-14 22:13:20 UTC

        """)
    #expect(start.stderr.contains("offloadctl: warning: \"empty.jpg\" is an empty file"))
    #expect(start.stderr.contains("offloadctl: warning: \"link.jpg\" is a symbolic link"))

    #expect(try fixture.ok("photos", "swipe", "left") == "a.jpg → trash (Session: 1 / 4)\n")
    #expect(try fixture.ok("photos", "swipe", "right") == "b.png → favorite (Session: 2 / 4)\n")
    #expect(try fixture.ok("photos", "swipe", "up") == "c.jpg → keep (Session: 3 / 4)\n")
    #expect(
      try fixture.ok("photos", "undo") == "Undone: c.jpg has no decision and is on screen again\n")
    #expect(try fixture.ok("photos", "swipe", "right") == "c.jpg → favorite (Session: 3 / 4)\n")
    let status = try fixture.ok("photos", "status")
    #expect(status.contains("Session: 3 / 4\ntrash 1 · favorite 2 · keep 0 · pending 3"))
    #expect(status.contains("On screen:\n  d.png\n  PNG · 45 bytes · 20×10"), "\(status)")

    #expect(
      try fixture.ok("photos", "review")
        == """
             1  trash    pending    a.jpg
             2  favorite pending    b.png
             3  favorite pending    c.jpg

        """)
    #expect(
      try fixture.ok("photos", "review", "--decision", "trash")
        == "     1  trash    pending    a.jpg\n")
    #expect(try fixture.ok("photos", "change", "c.jpg", "trash") == "c.jpg → trash\n")
    #expect(
      try fixture.ok("photos", "swipe", "left")
        == "d.png → trash (Session: 4 / 4)\nEvery photo has a decision: review them, then `offloadctl photos commit`.\n"
    )
    #expect(
      try fixture.ok("photos", "undo") == "Undone: d.png has no decision and is on screen again\n")
    #expect(try fixture.ok("photos", "undo") == "Undone: c.jpg is favorite again\n")
    try fixture.ok("photos", "change", "c.jpg", "trash")

    // A dry run changes nothing.
    let before = fixture.names(fixture.photos)
    let dry = try fixture.ok("photos", "commit", "--dry-run")
    let trashBytes =
      PhotoFiles.jpeg(width: 640, height: 480).count
      + PhotoFiles.jpeg(width: 480, height: 640).count
    #expect(
      dry.hasSuffix("Would commit 3 photos (\(trashBytes) bytes would go to the Trash)\n"), "\(dry)"
    )
    #expect(fixture.names(fixture.photos) == before && fixture.names(fixture.trash) == nil)

    // In a pipe without --yes, commit refuses.
    let refused = try fixture.fails(64, "photos", "commit")
    #expect(
      refused
        == "offloadctl: error: commit changes files and standard input is not a terminal to confirm: pass --yes (or --dry-run to see the plan)\n"
    )
    #expect(fixture.names(fixture.trash) == nil)

    let commit = try fixture.ok("photos", "commit", "--yes")
    #expect(
      commit.hasSuffix("Committed 3 photos (\(trashBytes) bytes moved to the Trash)\n"), "\(commit)"
    )
    // Trashed photos are in the Trash with their info files; the favorite has a sidecar;
    // nothing was unlinked.
    #expect(fixture.names(fixture.trash + "/files") == ["a.jpg", "c.jpg"])
    #expect(fixture.names(fixture.trash + "/info") == ["a.jpg.trashinfo", "c.jpg.trashinfo"])
    let info = try String(contentsOfFile: fixture.trash + "/info/a.jpg.trashinfo", encoding: .utf8)
    #expect(info.hasPrefix("[Trash Info]\nPath=\(fixture.photos)/a.jpg\nDeletionDate="), "\(info)")
    #expect(
      fixture.names(fixture.photos)
        == ["b.png", "b.png.xmp", "d.png", "empty.jpg", "link.jpg", "notes.txt"])
    let sidecar = try String(contentsOfFile: fixture.photos + "/b.png.xmp", encoding: .utf8)
    #expect(sidecar.contains("xmp:Rating=\"5\""))
    #expect(
      FileManager.default.contents(atPath: fixture.trash + "/files/a.jpg")
        == Data(PhotoFiles.jpeg(width: 640, height: 480)))

    // Committing again does nothing; committed photos cannot change or be undone.
    #expect(try fixture.ok("photos", "commit").hasSuffix("Committed 0 photos\n"))
    let committed = try fixture.fails(1, "photos", "change", "a.jpg", "keep")
    #expect(committed.hasPrefix("offloadctl: error: "), "\(committed)")
    try fixture.fails(1, "photos", "undo")
    #expect(
      try fixture.ok("photos", "sessions")
        == "20270115-080000  Session: 3 / 4  pending 0  \(fixture.photos)\n")
  }

  @Test func jsonDocuments() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    let started = try fixture.json("photos", "start", fixture.photos, "--order", "mtime")
    #expect(started["schemaVersion"] as? Int == 1)
    let session = try #require(started["session"] as? [String: Any])
    #expect(session["id"] as? String == "20270115-080000")
    #expect((session["statistics"] as? [String: Any])?["total"] as? Int == 4)
    let skipped = try #require(started["skipped"] as? [[String: Any]])
    #expect(skipped.map { $0["path"] as? String } == ["empty.jpg", "link.jpg"])
    #expect(skipped.first?["code"] as? String == "emptyFile")

    let swiped = try fixture.json("photos", "swipe", "left")
    #expect((swiped["decided"] as? [String: Any])?["decision"] as? String == "trash")
    #expect((swiped["current"] as? [String: Any])?["photo"] as? String == "b.png")
    let status = try fixture.json("photos", "status")
    let current = try #require(status["current"] as? [String: Any])
    #expect((current["metadata"] as? [String: Any])?["pixelWidth"] as? Int == 300)
    #expect((status["next"] as? [Any])?.count == 2)
    let review = try fixture.json("photos", "review")
    #expect((review["items"] as? [[String: Any]])?.first?["photo"] as? String == "a.jpg")
    let undone = try fixture.json("photos", "undo")
    #expect((undone["photo"] as? [String: Any])?["photo"] as? String == "a.jpg")
    try fixture.ok("photos", "swipe", "right")
    let changed = try fixture.json("photos", "change", "a.jpg", "keep")
    #expect(changed["decision"] as? String == "keep")
    let dry = try fixture.json("photos", "commit", "--dry-run")
    #expect((dry["report"] as? [String: Any])?["dryRun"] as? Bool == true)
    let sessions = try fixture.json("photos", "sessions")
    #expect((sessions["sessions"] as? [[String: Any]])?.count == 1)

    // Keys are sorted and the document is the same bytes every time.
    let first = try fixture.run("photos", "status", "--json")
    let second = try fixture.run("photos", "status", "--json")
    #expect(first.stdout == second.stdout)
    let keys = first.stdout.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map {
      String($0.dropFirst(3).prefix { $0 != "\"" })
    }
    #expect(keys == keys.sorted() && keys.contains("schemaVersion"), "\(keys)")
  }

  @Test func errorsAndTheirExitCodes() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    // No session yet.
    #expect(
      try fixture.fails(66, "photos", "status").hasPrefix(
        "offloadctl: error: there is no photo session in"))
    #expect(try fixture.ok("photos", "sessions").hasPrefix("No photo sessions"))
    // Not a folder, a file, an empty folder.
    #expect(
      try fixture.fails(66, "photos", "start", fixture.folder.appending("missing")).contains(
        "is not a folder"))
    try fixture.fails(66, "photos", "start", fixture.photos + "/notes.txt")
    let empty = fixture.folder.appending("empty")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    #expect(try fixture.fails(66, "photos", "start", empty).contains("holds no photos"))
    // Bad usage.
    try fixture.fails(64, "photos", "start", fixture.photos, "--undo-depth", "-1")
    let usage = try fixture.run("photos", "swipe", "down")
    #expect(usage.status == 64 && usage.stderr.contains("'left', 'right' or 'up'"))
    let badDecision = try fixture.run("photos", "review", "--decision", "maybe")
    #expect(badDecision.status == 64)

    try fixture.ok("photos", "start", fixture.photos, "--order", "mtime")
    #expect(try fixture.fails(1, "photos", "undo").hasPrefix("offloadctl: error: "))
    try fixture.fails(1, "photos", "change", "a.jpg", "keep")  // not decided
    #expect(
      try fixture.fails(66, "photos", "change", "zz.jpg", "keep")
        == "offloadctl: error: \"zz.jpg\" is not a photo of this session\n")
    try fixture.fails(66, "photos", "status", "--session", "nope")
    for _ in 0..<4 { try fixture.ok("photos", "swipe", "up") }
    #expect(try fixture.fails(1, "photos", "swipe", "left").contains("end of the library"))

    // Another process has the session open: 75.
    let lock = open(try fixture.sessionFolder() + "/journal.lock", O_RDWR)
    #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
    #expect(try fixture.fails(75, "photos", "status").contains("is open in another process"))
    close(lock)
    try fixture.ok("photos", "status")

    // A journal damaged before its last line: 65, and nothing is rewritten.
    let journal = try fixture.sessionFolder() + "/journal.0.jsonl"
    var text = try String(contentsOfFile: journal, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"b.png\"", with: "\"B.png\"")
    try text.write(toFile: journal, atomically: true, encoding: .utf8)
    let damaged = try fixture.fails(65, "photos", "status")
    #expect(damaged.contains("is damaged at line 3"), "\(damaged)")
    #expect(try String(contentsOfFile: journal, encoding: .utf8) == text)
    try fixture.fails(65, "photos", "swipe", "left")
    #expect(try fixture.ok("photos", "sessions").contains("unreadable: "))
  }

  /// Photos vanish, a sidecar cannot be written and the Trash cannot be made: each photo is
  /// reported, the others are committed, and the failed ones stay pending for the next commit.
  @Test func commitFailuresAreReportedAndRetried() throws {
    let fixture = try PhotoFixture(corrupt: true)
    defer { fixture.remove() }
    try fixture.ok("photos", "start", fixture.photos, "--order", "mtime")
    // Order: a.jpg b.png bad.jpg c.jpg d.png
    let status = try fixture.ok("photos", "status")
    #expect(status.contains("a.jpg"))
    try fixture.ok("photos", "swipe", "left")  // a.jpg: trash
    try fixture.ok("photos", "swipe", "right")  // b.png: favorite
    let corrupt = try fixture.ok("photos", "status")
    #expect(corrupt.contains("  bad.jpg\n  cannot read this photo: "), "\(corrupt)")
    try fixture.ok("photos", "swipe", "left")  // bad.jpg: trash, the session goes on
    try fixture.ok("photos", "swipe", "left")  // c.jpg: trash
    // c.jpg vanishes during the session; b.png's sidecar name is taken by a folder; the Trash
    // cannot be created for a.jpg and bad.jpg... only after c.jpg is reported.
    try FileManager.default.removeItem(atPath: fixture.photos + "/c.jpg")
    try FileManager.default.createDirectory(
      atPath: fixture.photos + "/b.png.xmp", withIntermediateDirectories: true)
    let result = try fixture.run("photos", "commit", "--yes")
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stdout.hasSuffix(
        "Committed 2 photos (\(PhotoFiles.jpeg(width: 640, height: 480).count + 5) bytes moved to the Trash); 2 failed\n"
      ), "\(result)")
    #expect(result.stderr.contains("offloadctl: warning: c.jpg was not committed: "))
    #expect(result.stderr.contains("offloadctl: warning: b.png was not committed: "))
    #expect(
      result.stderr.hasSuffix(
        "offloadctl: error: 2 photos could not be committed; they stay pending and the next commit tries them again\n"
      ))
    #expect(fixture.names(fixture.trash + "/files") == ["a.jpg", "bad.jpg"])
    #expect(
      try fixture.ok("photos", "review", "--pending")
        == "     2  favorite failed     b.png\n     4  trash    failed     c.jpg\n")
    // The sidecar's place is free again: the next commit finishes b.png; c.jpg stays failed.
    try FileManager.default.removeItem(atPath: fixture.photos + "/b.png.xmp")
    let again = try fixture.run("photos", "commit", "--yes")
    #expect(again.status == 1 && again.stdout.hasSuffix("Committed 1 photo; 1 failed\n"))
    #expect(FileManager.default.fileExists(atPath: fixture.photos + "/b.png.xmp"))

    // A Trash that cannot be created: 1 with the reason; the photo stays where it was.
    let other = try PhotoFixture()
    defer { other.remove() }
    try FileManager.default.createDirectory(
      atPath: other.dataHome, withIntermediateDirectories: true)
    try Data("not a folder".utf8).write(to: URL(fileURLWithPath: other.trash))
    try other.ok("photos", "start", other.photos, "--order", "mtime")
    try other.ok("photos", "swipe", "left")
    let blocked = try other.run("photos", "commit", "--yes")
    #expect(blocked.status == 1 && blocked.stderr.contains("a.jpg was not committed"))
    #expect(FileManager.default.fileExists(atPath: other.photos + "/a.jpg"))
  }
}

@Suite("offloadctl photos: what changes under a running session")
struct PhotoSessionChangesTests {
  @Test func aPhotoThatVanishesIsReportedAndTheSessionGoesOn() throws {
    let fixture = try PhotoFixture()
    defer { fixture.remove() }
    try fixture.ok("photos", "start", fixture.photos, "--order", "mtime", "--quiet")
    try FileManager.default.removeItem(atPath: fixture.photos + "/a.jpg")
    let status = try fixture.ok("photos", "status")
    #expect(status.contains("  a.jpg\n  cannot read this photo: "), "\(status)")
    let json = try fixture.json("photos", "status")
    let problem = (json["current"] as? [String: Any])?["problem"] as? [String: Any]
    #expect(problem?["code"] as? String == "photoMissing")
    try fixture.ok("photos", "swipe", "left")
    #expect(try fixture.ok("photos", "swipe", "up", "--quiet").isEmpty)
    let commit = try fixture.run("photos", "commit", "--yes")
    #expect(commit.status == 1 && commit.stderr.contains("a.jpg was not committed"))
    #expect(!commit.stderr.contains("committing"), "no progress in a pipe")
  }

  /// Permissions do not stop root, so these run as another user only.
  @Test(.enabled(if: getuid() != 0, "root reads and writes through file permissions"))
  func unreadableFilesAndAReadOnlyFolder() throws {
    let fixture = try PhotoFixture()
    defer {
      chmod(fixture.photos, 0o755)
      fixture.remove()
    }
    chmod(fixture.photos + "/c.jpg", 0)
    let start = try fixture.run("photos", "start", fixture.photos, "--order", "mtime")
    #expect(start.status == 0 && start.stderr.contains("c.jpg"), "\(start)")
    try fixture.ok("photos", "swipe", "right")
    chmod(fixture.photos, 0o555)
    let commit = try fixture.run("photos", "commit", "--yes")
    #expect(commit.status == 1 && commit.stderr.contains("a.jpg was not committed"), "\(commit)")
    chmod(fixture.photos, 0o755)
    #expect(try fixture.ok("photos", "commit", "--yes").hasSuffix("Committed 1 photo\n"))
  }
}

@Suite("offloadctl photos: help snapshots")
struct PhotoHelpSnapshotTests {
  @Test(arguments: [["photos"], ["photos", "commit"], ["photos", "cull"]])
  func help(_ path: [String]) throws {
    let result = try BuiltProduct.run(
      "offloadctl", path + ["--help"], environment: ["COLUMNS": "100"])
    #expect(result.status == 0)
    expectSnapshot(result.stdout, named: "help-\(path.joined(separator: "-")).txt")
  }
}
