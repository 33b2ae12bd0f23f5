import ArgumentParser
import Foundation
import PhotoSession

#if canImport(Glibc)
  import Glibc
#endif

/// `offload-bench photos`: session start on huge folders (with its own peak RSS, measured in a
/// child process), decision latency including the durable journal append, commit throughput.
struct PhotosBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "photos",
    abstract: "PhotoSession: start on 20,000 and 100,000 files, decision latency, commit.")

  @Option(help: "Folder sizes for the start workload (comma separated).")
  var sizes = "20000,100000"

  @Option(help: "Timed decisions for the latency workload.")
  var decisions = 2_000

  @Option(help: "Photos committed in the commit workload.")
  var commitCount = 2_000

  @Flag(help: "Print one JSON array instead of a table.")
  var json = false

  func run() throws {
    var rows: [BenchmarkRow] = []
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "offload-bench-photos-\(getpid())")
    defer { try? FileManager.default.removeItem(at: base) }
    for n in sizes.split(separator: ",").compactMap({ Int($0) }) {
      let folder = base.appendingPathComponent("photos-\(n)").path
      let cards = try Self.generate(n, in: folder)
      // Warm the page cache once, as a second start would see it.
      _ = try FolderScan.scan(folder, options: .init(ordering: .modificationTime))
      for ordering in FolderScanOptions.Ordering.allCases {
        let store = base.appendingPathComponent("store-\(n)-\(ordering.rawValue)").path
        let (seconds, peak, photos) = try Self.startInChild(
          folder: folder, store: store, ordering: ordering)
        precondition(photos == cards, "the start saw \(photos) cards, not \(cards)")
        rows.append(
          BenchmarkRow(fields: [
            ("workload", .text("start (\(ordering.rawValue) order)")), ("n", .integer(n)),
            ("seconds", .number(seconds)), ("peakRSSBytes", .integer(peak)),
          ]))
      }
      // The scan alone (what start costs before writing the manifest and opening).
      for ordering in FolderScanOptions.Ordering.allCases {
        let (scan, seconds) = try Stopwatch.measure {
          try FolderScan.scan(folder, options: .init(ordering: ordering))
        }
        precondition(scan.photos.count == cards)
        rows.append(
          BenchmarkRow(fields: [
            ("workload", .text("scan only (\(ordering.rawValue) order)")), ("n", .integer(n)),
            ("seconds", .number(seconds)),
          ]))
      }
      // Baseline: listing the same folder with FileManager's enumerator and attributes.
      let (_, listing) = Stopwatch.measure {
        var count = 0
        if let enumerator = FileManager.default.enumerator(atPath: folder) {
          while let name = enumerator.nextObject() as? String {
            if (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)) != nil {
              count += 1
            }
          }
        }
        blackHole(count)
      }
      rows.append(
        BenchmarkRow(fields: [
          ("workload", .text("baseline: FileManager enumerate + attributes")), ("n", .integer(n)),
          ("seconds", .number(listing)),
        ]))
      let reopenStore = base.appendingPathComponent("store-\(n)-captureDate").path
      rows.append(try Self.reopen(store: reopenStore, n: n, cards: cards))
      try? FileManager.default.removeItem(atPath: folder)
    }
    // Flush the generated files first, so the fsyncs measured below write only our own data.
    sync()
    rows.append(contentsOf: try Self.latency(decisions: decisions, base: base.path))
    rows.append(contentsOf: try Self.commit(count: commitCount, base: base.path))
    try Report.print(title: "PhotoSession (release build)", rows: rows, json: json)
  }

  /// Writes `n` files as cards (seeded): every card a small JPEG with an EXIF date (1 in 10
  /// without), every third with a RAW companion (`.dng`), every fourth with an XMP sidecar;
  /// returns the number of cards.
  @discardableResult
  static func generate(_ n: Int, in folder: String) throws -> Int {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var rng = SplitMix64(seed: 0x9407_0000 &+ UInt64(n))
    var written = 0
    var index = 0
    while written < n {
      let day = Int.random(in: 1...28, using: &rng)
      let second = Int.random(in: 0..<60, using: &rng)
      let date =
        Int.random(in: 0..<10, using: &rng) == 0
        ? nil : String(format: "2022:03:%02d 12:00:%02d", day, second)
      let bytes = smallJPEG(width: 4000, height: 3000, date: date)
      let stem = folder + String(format: "/IMG_%06d", index)
      var names = [stem + ".jpg"]
      if index % 3 == 0 { names.append(stem + ".dng") }
      if index % 4 == 0 { names.append(stem + ".xmp") }
      for path in names.prefix(n - written) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw ValidationError("cannot create \(path)") }
        let content = path.hasSuffix(".xmp") ? xmpPacket : bytes
        _ = content.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        written += 1
      }
      index += 1
    }
    return index
  }

  /// A minimal XMP sidecar with no rating yet.
  static let xmpPacket = Array(
    """
    <x:xmpmeta xmlns:x="adobe:ns:meta/">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"/>
     </rdf:RDF>
    </x:xmpmeta>

    """.utf8)

  /// A JPEG header with an EXIF APP1 (orientation 1, DateTimeOriginal) and a frame header.
  static func smallJPEG(width: Int, height: Int, date: String?) -> [UInt8] {
    var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8]
    if let date {
      tiff += [0, 2, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 1, 0, 0]
      tiff += [0x87, 0x69, 0, 4, 0, 0, 0, 1, 0, 0, 0, 38, 0, 0, 0, 0]
      tiff += [0, 1, 0x90, 0x03, 0, 2, 0, 0, 0, 20, 0, 0, 0, 56, 0, 0, 0, 0]
      tiff += Array(date.utf8) + [0]
    } else {
      tiff += [0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]
    }
    let payload = Array("Exif\u{0}\u{0}".utf8) + tiff
    var out: [UInt8] = [
      0xFF, 0xD8, 0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF),
    ]
    out += payload
    out += [0xFF, 0xC0, 0, 17, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8)]
    out += [UInt8(width & 0xFF), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xD9]
    return out
  }

  /// Runs `offload-bench photos-start-child` and reads its seconds, peak RSS and photo count.
  static func startInChild(
    folder: String, store: String, ordering: FolderScanOptions.Ordering
  ) throws -> (Double, Int, Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["photos-start-child", folder, store, ordering.rawValue]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let words = String(decoding: data, as: UTF8.self).split(separator: " ")
    guard process.terminationStatus == 0, words.count == 3, let seconds = Double(words[0]),
      let peak = Int(words[1]),
      let count = Int(words[2].trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      throw ValidationError("the start child failed: \(String(decoding: data, as: UTF8.self))")
    }
    return (seconds, peak, count)
  }

  /// Opens the session started on `n` files (`cards` cards) again after up to 20,000 swipes
  /// are journaled.
  static func reopen(store: String, n: Int, cards: Int) throws -> BenchmarkRow {
    let sessions = PhotoSessionStore(folder: store)
    let swipes = min(cards, 20_000)
    do {
      let opened = try sessions.openLatest()
      // Journal many swipes quickly: the latency workload measures one at a time.
      for _ in 0..<swipes { try opened.session.swipe(.up) }
    }
    let (opened, seconds) = try Stopwatch.measure { try sessions.openLatest() }
    precondition(opened.session.state.cursor == swipes)
    return BenchmarkRow(fields: [
      ("workload", .text("reopen (replay \(swipes) journal events)")), ("n", .integer(n)),
      ("seconds", .number(seconds)),
    ])
  }

  /// Decision latency, each swipe or undo durable (fsync) before it returns.
  static func latency(decisions: Int, base: String) throws -> [BenchmarkRow] {
    let folder = base + "/latency"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let n = 100_000
    let photos = (0..<n).map { String(format: "IMG_%06d.jpg", $0) }
    let session = try CullingSession(
      photos: photos, journal: JSONLinesSessionJournal(folder: folder))
    var swipe: [Double] = []
    var undo: [Double] = []
    var rng = SplitMix64(seed: 42)
    for step in 0..<decisions {
      let direction = SwipeDirection.allCases[Int.random(in: 0..<3, using: &rng)]
      swipe.append(try Stopwatch.measure { try session.swipe(direction) }.1)
      if step % 4 == 3 { undo.append(try Stopwatch.measure { try session.undo() }.1) }
    }
    func row(_ name: String, _ samples: [Double]) -> BenchmarkRow {
      let sorted = samples.sorted()
      func percentile(_ p: Double) -> Double {
        sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000
      }
      return BenchmarkRow(fields: [
        ("workload", .text(name)), ("n", .integer(n)), ("p50Ms", .number(percentile(0.5))),
        ("p99Ms", .number(percentile(0.99))), ("samples", .integer(samples.count)),
      ])
    }
    return [row("swipe (fsync per decision)", swipe), row("undo (fsync per undo)", undo)]
  }

  /// Commit throughput on real files: a third each trashed, favorited (sidecar), kept.
  static func commit(count: Int, base: String) throws -> [BenchmarkRow] {
    let folder = base + "/commit"
    try generate(count, in: folder)
    let trash = FreedesktopTrash(homeTrash: base + "/data/Trash")
    let store = PhotoSessionStore(folder: base + "/commit-sessions", trash: trash)
    let opened = try store.start(folder: folder, options: .init(ordering: .modificationTime))
    var index = 0
    while opened.session.state.currentPhoto != nil {
      try opened.session.decide(PhotoDecision.allCases[index % 3])
      index += 1
    }
    sync()
    let (report, seconds) = try Stopwatch.measure { try opened.session.commit(batchSize: 100) }
    precondition(report.failed.isEmpty, "commit failed: \(report.failed.map(\.detail))")
    let (again, idle) = try Stopwatch.measure { try opened.session.commit() }
    precondition(again.applied.isEmpty)
    return [
      BenchmarkRow(fields: [
        ("workload", .text("commit (1/3 trash, 1/3 favorite, 1/3 keep)")), ("n", .integer(count)),
        ("seconds", .number(seconds)),
        ("photosPerSecond", .number(Double(opened.manifest.photos.count) / seconds)),
      ]),
      BenchmarkRow(fields: [
        ("workload", .text("commit again (nothing left)")), ("n", .integer(count)),
        ("seconds", .number(idle)),
      ]),
    ]
  }
}

/// `offload-bench photos-start-child DIR STORE ORDERING`: starts one session and prints
/// `seconds peakRSSBytes photos` (the peak is this process's VmHWM).
struct PhotosStartChild: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "photos-start-child", abstract: "Internal: one timed session start.",
    shouldDisplay: false)

  @Argument var folder: String
  @Argument var store: String
  @Argument var ordering: String

  func run() throws {
    let options = FolderScanOptions(
      ordering: FolderScanOptions.Ordering(rawValue: ordering) ?? .captureDate)
    let sessions = PhotoSessionStore(folder: store)
    let (opened, seconds) = try Stopwatch.measure {
      try sessions.start(folder: folder, options: options)
    }
    print("\(seconds) \(Self.peakRSS()) \(opened.session.state.count)")
  }

  /// VmHWM from /proc/self/status, in bytes (0 where there is no /proc).
  static func peakRSS() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    let digits = line.filter(\.isNumber)
    return (Int(digits) ?? 0) * 1024
  }
}
