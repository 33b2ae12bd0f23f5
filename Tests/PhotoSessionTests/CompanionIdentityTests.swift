import Foundation
import OffloadTestSupport
import Persistence
import Testing

@testable import PhotoSession

/// Names of the entries of `folder`, sorted (empty when it does not exist).
private func entries(_ folder: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// How a companion is changed after start.
enum CompanionChange: String, CaseIterable, CustomTestStringConvertible {
  case size, modificationTime, replacedByAnotherFile, folder, symbolicLink, vanished

  var testDescription: String { rawValue }

  /// Changes the file at `path` (a regular file of at least one byte).
  func apply(to path: String) throws {
    let manager = FileManager.default
    switch self {
    case .size:
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.seekToEnd()
      try handle.write(contentsOf: [0x20])
      try handle.close()
    case .modificationTime:
      try manager.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: path)
    case .replacedByAnotherFile:
      // Same size and modification time, another inode: a file written beside and renamed.
      let attributes = try manager.attributesOfItem(atPath: path)
      var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
      bytes[bytes.count - 1] ^= 0xFF
      let temporary = path + ".new"
      try Data(bytes).write(to: URL(fileURLWithPath: temporary))
      try manager.setAttributes(
        [.modificationDate: attributes[.modificationDate] as Any], ofItemAtPath: temporary)
      #expect(rename(temporary, path) == 0)
    case .folder:
      try manager.removeItem(atPath: path)
      try manager.createDirectory(atPath: path, withIntermediateDirectories: false)
    case .symbolicLink:
      let target = path + ".target"
      try manager.moveItem(atPath: path, toPath: target)
      try manager.createSymbolicLink(atPath: path, withDestinationPath: target)
    case .vanished:
      try manager.removeItem(atPath: path)
    }
  }

  /// The end of the reason a commit gives for the companion.
  var reason: String {
    switch self {
    case .size: "changed: its size changed from"
    case .modificationTime: "changed: it was modified since the session started"
    case .replacedByAnotherFile:
      "changed: it is another file than the one the session saw (its inode changed)"
    case .folder: "is now a folder"
    case .symbolicLink: "is now a symbolic link"
    case .vanished: "is no longer in the folder (moved or deleted)"
    }
  }
}

@Suite("Commit checks every file of a card: a changed companion skips the whole card")
struct CompanionIdentityTests {
  /// A generated camera folder: `count` cards `IMG_n.JPG`, each with a seeded choice of
  /// companions (a RAW, a sidecar, an edit file, a Live Photo video), real files of random
  /// sizes with distinct modification times.
  private func makeFolder(
    _ photos: TemporaryDirectory, count: Int, random: inout SplitMix64
  ) throws -> [String: [String]] {
    var cards: [String: [String]] = [:]
    var time = 1_600_000_000.0
    for number in 0..<count {
      let name = "IMG_\(1000 + number)"
      let jpeg = TestImages.jpeg(width: 4 + number, height: 3)
      try TestImages.write(jpeg, name + ".JPG", in: photos, modified: time)
      time += 1
      var companions: [String] = []
      for ext in ["dng", "xmp", "aae", "MOV"] where random.chance(0.6) || companions.isEmpty {
        let size = 1 + random.index(below: 300)
        let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        try TestImages.write(bytes, name + "." + ext, in: photos, modified: time)
        time += 1
        companions.append(name + "." + ext)
      }
      cards[name + ".JPG"] = companions.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
    return cards
  }

  @Test(arguments: CompanionChange.allCases)
  func aChangedCompanionSkipsTheWholeCardAndLeavesItIntact(_ change: CompanionChange) throws {
    let seed = SplitMix64.testSeed(
      0xC0A1 &+ UInt64(CompanionChange.allCases.firstIndex(of: change)!))
    var random = SplitMix64(seed: seed)
    for round in 0..<3 {
      let work = try TemporaryDirectory()
      defer { work.remove() }
      let photos = try TemporaryDirectory(prefix: "offload-companion-identity")
      defer { photos.remove() }
      let cards = try makeFolder(photos, count: 3 + random.index(below: 4), random: &random)
      let store = PhotoSessionStore(
        folder: work.appending("sessions"),
        trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")))
      var opened: PhotoSessionStore.Opened? = try store.start(
        folder: photos.path, options: .init(ordering: .modificationTime))
      let id = try #require(opened?.id)
      let order = try #require(opened?.manifest.photos)
      #expect(order.count == cards.count, "\(random)")
      // One identity line per companion, beside the manifest (opening a session reads none).
      let lines = try String(
        contentsOfFile: work.appending("sessions/\(id)/companion-identities"), encoding: .utf8
      ).split(separator: "\n")
      #expect(lines.count == cards.values.map(\.count).reduce(0, +))
      while opened?.session.state.isAtEnd == false { try opened?.session.swipe(.left) }
      opened = nil
      // One card, chosen by the seed, has one companion changed.
      let victim = order[random.index(below: order.count)]
      let companions = try #require(cards[victim])
      let companion = companions[random.index(below: companions.count)]
      try change.apply(to: photos.appending(companion))
      let kept = ([victim] + companions).filter { $0 != companion }
      func contents() throws -> [Data] {
        try kept.map { try Data(contentsOf: URL(fileURLWithPath: photos.appending($0))) }
      }
      let before = try contents()
      let session = try store.open(id)
      let context = "seed \(seed) round \(round): \(companion) \(change)"

      let dry = try session.session.commit(dryRun: true)
      #expect(dry.failed.map(\.photo) == [victim], "\(context)")
      #expect(dry.applied.count == order.count - 1, "\(context)")
      let report = try session.session.commit()
      #expect(report.failed.map(\.photo) == [victim], "\(context)")
      #expect(report.applied.count == order.count - 1, "\(context)")
      let failure = try #require(report.failed.first?.failure, "\(context)")
      #expect(failure.code == .photoChanged && failure.path == companion, "\(context)")
      #expect(
        failure.description.hasPrefix(
          "skipped \"\(victim)\": its companion \"\(companion)\" \(change.reason)"), "\(context)")
      #expect(dry.failed.first?.detail == report.failed.first?.detail, "\(context)")
      // The skipped card is intact: every one of its files (and the changed one) is where it
      // was, byte for byte; the others went to the Trash.
      #expect(try contents() == before, "\(context)")
      let left = Set(entries(photos.path))
      for file in [victim] + companions where file != companion || change != .vanished {
        #expect(left.contains(file), "\(context): \(file)")
      }
      let trashed = Set(entries(work.appending("data/Trash/files")))
      #expect(trashed.isDisjoint(with: [victim] + companions), "\(context)")
      #expect(
        trashed.count == order.filter { $0 != victim }.map { 1 + cards[$0]!.count }.reduce(0, +))
      #expect(session.session.statistics.failed == 1)
    }
  }

  @Test func aRatingIgnoresItsOwnSidecarButNotAChangedRaw() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-companion-identity")
    defer { photos.remove() }
    for (index, name) in ["A.jpg", "B.jpg"].enumerated() {
      try TestImages.write(
        TestImages.jpeg(width: 4, height: 3), name, in: photos,
        modified: Double(1_600_000_000 + index))
    }
    try TestImages.write(Array(XMPSidecar.newPacket(rating: 1).utf8), "A.xmp", in: photos)
    try TestImages.write(Array("raw".utf8), "B.dng", in: photos)
    let store = PhotoSessionStore(
      folder: work.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")))
    let opened = try store.start(folder: photos.path, options: .init(ordering: .modificationTime))
    try opened.session.swipe(.right)
    try opened.session.swipe(.right)
    // A's sidecar is edited by another program: a rating merges into it, no refusal.
    try CompanionChange.size.apply(to: photos.appending("A.xmp"))
    // B's RAW is rewritten: the card is refused.
    try CompanionChange.modificationTime.apply(to: photos.appending("B.dng"))
    let report = try opened.session.commit()
    #expect(report.applied.map(\.photo) == ["A.jpg"])
    #expect(report.failed.map(\.failure?.path) == ["B.dng"])
    #expect(!FileManager.default.fileExists(atPath: photos.appending("B.jpg.xmp")))
  }

  @Test func aVersion2ManifestWithoutCompanionIdentitiesStillOpensAndCommits() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-companion-identity")
    defer { photos.remove() }
    try TestImages.write(TestImages.jpeg(width: 4, height: 3), "A.jpg", in: photos)
    try TestImages.write(Array("raw".utf8), "A.dng", in: photos)
    let store = PhotoSessionStore(
      folder: work.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")))
    var opened: PhotoSessionStore.Opened? = try store.start(folder: photos.path)
    let id = try #require(opened?.id)
    try opened?.session.swipe(.left)
    opened = nil
    // Rewrite the manifest as a version 2 document, as earlier builds wrote it.
    let path = work.appending("sessions/\(id)/manifest.json")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains("\"version\":3"))
    // A version 2 session has no companion identities file.
    try FileManager.default.removeItem(
      atPath: work.appending("sessions/\(id)/companion-identities"))
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    var data = try #require(object["data"] as? [String: Any])
    data["version"] = 2
    object["data"] = data
    object["version"] = 2
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(
      to: URL(fileURLWithPath: path))
    let manifest = try store.readManifest(id)
    #expect(manifest.version == 2)
    // Without identities a companion is still checked to be a regular file.
    try CompanionChange.folder.apply(to: photos.appending("A.dng"))
    let reopened = try store.open(id)
    let report = try reopened.session.commit()
    #expect(report.failed.map(\.failure?.path) == ["A.dng"])
    #expect(entries(photos.path) == ["A.dng", "A.jpg"])
    try FileManager.default.removeItem(atPath: photos.appending("A.dng"))
    try TestImages.write(Array("raw2".utf8), "A.dng", in: photos)
    // A changed companion without a recorded identity passes: only its kind was known.
    #expect(try reopened.session.commit().failed.isEmpty)
    #expect(entries(work.appending("data/Trash/files")) == ["A.dng", "A.jpg"])
  }
}
