import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the driver, kills it with SIGKILL after `delay` seconds, and returns its output lines.
private func runAndKill(_ arguments: [String], environment: [String: String], after delay: Double)
  throws -> [String]
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: BuiltProduct.path("photo-session-driver"))
  process.arguments = arguments
  process.environment = environment
  let out = Pipe()
  process.standardOutput = out
  process.standardError = FileHandle.nullDevice
  try process.run()
  usleep(UInt32(delay * 1_000_000))
  kill(process.processIdentifier, SIGKILL)
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
}

/// The parts of a state a crash must keep (times are the clock's, not replayed).
private func essence(_ state: CullingState) -> String {
  let snapshot = state.snapshot
  return "\(snapshot.cursor)|\(snapshot.decisions)|\(snapshot.commits)|\(snapshot.undo)"
}

private func makePhotos(_ count: Int, from first: Int = 0, in folder: TemporaryDirectory) throws {
  for index in first..<count {
    try TestImages.write(
      TestImages.jpeg(width: 4 + index, height: 3, date: "2021:05:01 10:00:00"),
      String(format: "IMG_%04d.jpg", index), in: folder, modified: Double(1_600_000_000 + index))
  }
}

@Suite("Kill -9 trials: nothing acknowledged is lost, nothing is applied twice", .serialized)
struct KillTrialTests {
  static let trials = Environment.slowTestsEnabled ? 40 : 3

  /// Swipes, undos and changes killed at a random moment, made on the session directly
  /// (`swipe`) or through a `PhotoDeck`, which takes the lock per change (`deck`).
  @Test(arguments: ["swipe", "deck"]) func killDuringSwiping(mode: String) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x5EED))
    for trial in 0..<Self.trials {
      let work = try TemporaryDirectory(prefix: "offload-kill")
      defer { work.remove() }
      let photos = try TemporaryDirectory(prefix: "offload-kill-photos")
      defer { photos.remove() }
      try makePhotos(60, in: photos)
      let trash = FreedesktopTrash(homeTrash: work.appending("data/Trash"))
      let store = PhotoSessionStore(folder: work.appending("sessions"), trash: trash)
      let id = try store.start(folder: photos.path).id
      let seed = rng.next()
      let lines = try runAndKill(
        [mode, store.folder, id, "3000", String(seed)],
        environment: ["XDG_DATA_HOME": work.appending("data")],
        after: Double(rng.index(below: 250) + 20) / 1000)
      // Replay what the child announced on a memory session.
      let reopened = try store.open(id).session
      let model = try CullingSession(
        photos: reopened.state.photos, journal: MemorySessionJournal(), clock: { 0 })
      var acknowledged = essence(model.state)
      var inFlight: String?
      var index = 0
      var operations = 0
      while index < lines.count {
        let line = lines[index]
        guard line.hasPrefix("do ") else {
          index += 1
          continue
        }
        let words = line.split(separator: " ")
        var failure: PhotoSessionError.Code?
        do throws(PhotoSessionError) {
          switch words[1] {
          case "swipe": try model.swipe(SwipeDirection(rawValue: String(words[2])) ?? .up)
          case "undo": try model.undo()
          default:
            try model.change(
              model.state.photos[Int(words[2]) ?? 0],
              to: PhotoDecision(rawValue: String(words[3])) ?? .keep)
          }
        } catch {
          failure = error.code
        }
        let answer = index + 1 < lines.count ? lines[index + 1] : nil
        if answer == "ok" {
          #expect(
            failure == nil,
            "trial \(trial) line \(index): the model failed with \(String(describing: failure))")
          acknowledged = essence(model.state)
          operations += 1
        } else if let answer, answer.hasPrefix("err ") {
          #expect(answer == "err \(failure?.rawValue ?? "none")", "trial \(trial) line \(index)")
        } else {
          inFlight = essence(model.state)
        }
        index += 2
      }
      let found = essence(reopened.state)
      #expect(
        found == acknowledged || found == inFlight,
        "trial \(trial), seed \(seed): \(operations) acknowledged operations; the reopened state is neither the acknowledged one nor the one in flight"
      )
    }
  }

  @Test(.timeLimit(.minutes(5))) func killDuringRescan() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x2E5C))
    for trial in 0..<Self.trials {
      let work = try TemporaryDirectory(prefix: "offload-kill")
      defer { work.remove() }
      let photos = try TemporaryDirectory(prefix: "offload-kill-photos")
      defer { photos.remove() }
      try makePhotos(20, in: photos)
      let trash = FreedesktopTrash(homeTrash: work.appending("data/Trash"))
      let store = PhotoSessionStore(folder: work.appending("sessions"), trash: trash)
      let id: String
      let before: [String]
      do {
        let opened = try store.start(folder: photos.path)
        id = opened.id
        before = opened.session.state.photos
        try opened.session.swipe(.left)
      }
      try makePhotos(400, from: 20, in: photos)
      let added = (20..<400).map { String(format: "IMG_%04d.jpg", $0) }
      let lines = try runAndKill(
        ["rescan", store.folder, id], environment: ["XDG_DATA_HOME": work.appending("data")],
        after: Double(rng.index(below: 120) + 5) / 1000)
      let reopened = try store.open(id).session.state
      // One journal entry: the queue is the one before or the one after, never a part.
      if lines.contains("ok 380") {
        #expect(reopened.photos == before + added, "trial \(trial)")
      } else {
        #expect(
          reopened.photos == before || reopened.photos == before + added,
          "trial \(trial): \(reopened.photos.count) photos after a kill")
      }
      #expect(reopened.cursor == 1)
    }
  }

  @Test func killDuringCommit() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0xC0FF))
    for trial in 0..<Self.trials {
      let work = try TemporaryDirectory(prefix: "offload-kill")
      defer { work.remove() }
      let photos = try TemporaryDirectory(prefix: "offload-kill-photos")
      defer { photos.remove() }
      let count = 60
      try makePhotos(count, in: photos)
      let trash = FreedesktopTrash(homeTrash: work.appending("data/Trash"))
      let store = PhotoSessionStore(folder: work.appending("sessions"), trash: trash)
      var decisions: [String: PhotoDecision] = [:]
      let id: String
      do {
        let opened = try store.start(folder: photos.path)
        id = opened.id
        while let photo = opened.session.state.currentPhoto {
          let decision = PhotoDecision.allCases[rng.index(below: 3)]
          try opened.session.decide(decision)
          decisions[photo] = decision
        }
      }
      // Photos replaced by a folder after start (one to trash, one favorite): the commit must
      // skip them, before and after the kill, and never move the folder.
      var replaced: Set<String> = []
      for kind in [PhotoDecision.trash, .favorite] {
        guard let photo = decisions.filter({ $0.value == kind }).keys.sorted().last else {
          continue
        }
        try FileManager.default.removeItem(atPath: photos.appending(photo))
        try TestImages.write(Array("not a photo".utf8), photo + "/inside.txt", in: photos)
        replaced.insert(photo)
      }
      let lines = try runAndKill(
        ["commit", store.folder, id, "10"], environment: ["XDG_DATA_HOME": work.appending("data")],
        after: Double(rng.index(below: 500) + 10) / 1000)
      let doneBeforeKill = lines.filter { $0.hasPrefix("done ") }.count
      // Resume in this process.
      let opened = try store.open(id)
      let report = try opened.session.commit()
      #expect(
        Set(report.failed.map(\.photo)) == replaced
          && report.failed.allSatisfy { $0.failure?.code == .photoChanged },
        "trial \(trial): \(report.failed.map(\.detail))")
      #expect(opened.session.statistics.committed == count - replaced.count, "trial \(trial)")
      for photo in replaced {
        #expect(
          FileManager.default.contents(atPath: photos.appending(photo + "/inside.txt"))
            == Data("not a photo".utf8), "trial \(trial) \(photo)")
      }
      // Every photo is where its decision says, once.
      let files = Set(
        try FileManager.default.contentsOfDirectory(atPath: work.appending("data/Trash/files")))
      let infos = try FileManager.default.contentsOfDirectory(
        atPath: work.appending("data/Trash/info"))
      var trashedPaths: [String] = []
      for info in infos {
        let text = try String(
          contentsOfFile: work.appending("data/Trash/info/\(info)"), encoding: .utf8)
        let path = try #require(text.split(separator: "\n").first { $0.hasPrefix("Path=") })
        #expect(
          files.contains(String(info.dropLast(".trashinfo".count))),
          "trial \(trial): orphaned \(info)")
        trashedPaths.append(FreedesktopTrash.percentDecode(path.dropFirst(5)) ?? "")
      }
      #expect(infos.count == files.count, "trial \(trial)")
      let expectedTrash = decisions.filter { $0.value == .trash && !replaced.contains($0.key) }
        .keys.map { photos.appending($0) }.sorted()
      #expect(
        trashedPaths.sorted() == expectedTrash,
        "trial \(trial): killed after \(doneBeforeKill) photos")
      for (photo, decision) in decisions where !replaced.contains(photo) {
        let exists = FileManager.default.fileExists(atPath: photos.appending(photo))
        let sidecar = try? String(contentsOfFile: photos.appending(photo + ".xmp"), encoding: .utf8)
        switch decision {
        case .trash: #expect(!exists && sidecar == nil, "trial \(trial) \(photo)")
        case .favorite:
          #expect(
            exists && sidecar?.contains("xmp:Rating=\"5\"") == true, "trial \(trial) \(photo)")
        case .keep: #expect(exists && sidecar == nil, "trial \(trial) \(photo)")
        }
      }
      // Nothing else appeared next to the photos (no temporary files left behind).
      let left = try FileManager.default.contentsOfDirectory(atPath: photos.path)
      #expect(
        left.filter { $0.hasPrefix(".") }.isEmpty,
        "trial \(trial): \(left.filter { $0.hasPrefix(".") })")
    }
  }

  /// A restore killed at a random moment, then run again: the folder is byte for byte what it
  /// was before the commit, and the Trash holds no file and no info file of the session.
  @Test func killDuringRestore() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x2E57))
    for trial in 0..<Self.trials {
      let work = try TemporaryDirectory(prefix: "offload-kill")
      defer { work.remove() }
      let photos = try TemporaryDirectory(prefix: "offload-kill-photos")
      defer { photos.remove() }
      try makePhotos(40, in: photos)
      // Every other photo has a sidecar: a card of two files.
      for index in stride(from: 0, to: 40, by: 2) {
        try TestImages.write(
          Array(XMPSidecar.newPacket(rating: index % 5).utf8),
          String(format: "IMG_%04d.jpg.xmp", index), in: photos,
          modified: Double(1_600_000_000 + index))
      }
      let before = try folderDigest(photos.path)
      let trash = FreedesktopTrash(homeTrash: work.appending("data/Trash"))
      let store = PhotoSessionStore(folder: work.appending("sessions"), trash: trash)
      let id: String
      do {
        let opened = try store.start(folder: photos.path)
        id = opened.id
        while opened.session.state.currentPhoto != nil {
          try opened.session.decide(rng.index(below: 4) == 0 ? .keep : .trash)
        }
        #expect(try opened.session.commit().failed.isEmpty, "trial \(trial)")
      }
      let lines = try runAndKill(
        ["restore", store.folder, id], environment: ["XDG_DATA_HOME": work.appending("data")],
        after: Double(rng.index(below: 150) + 5) / 1000)
      #expect(lines.allSatisfy { !$0.hasPrefix("err ") }, "trial \(trial): \(lines)")
      let restoredBeforeKill = Set(lines.filter { $0.hasPrefix("done ") }.map { $0.dropFirst(5) })
      // Restore again in this process: the cards not yet back, in whole or in part.
      let opened = try store.open(id)
      for item in opened.session.review(.trash) where !restoredBeforeKill.contains(item.photo[...])
      {
        do throws(PhotoSessionError) {
          _ = try opened.library.restore(item.photo)
        } catch {
          // Only a card the killed run restored in whole (its `done` line unwritten) is refused.
          #expect(error.code == .restoreRefused, "trial \(trial) \(item.photo): \(error)")
          #expect(FileManager.default.fileExists(atPath: photos.appending(item.photo)))
        }
      }
      try opened.library.flush()
      #expect(
        try folderDigest(photos.path) == before,
        "trial \(trial): killed after \(restoredBeforeKill.count) cards")
      for folder in ["files", "info"] {
        let left =
          (try? FileManager.default.contentsOfDirectory(
            atPath: work.appending("data/Trash/\(folder)"))) ?? []
        #expect(left.isEmpty, "trial \(trial): \(folder) holds \(left)")
      }
    }
  }
}
