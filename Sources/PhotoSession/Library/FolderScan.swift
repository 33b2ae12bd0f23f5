public import Foundation
public import Persistence

/// How a folder is scanned for photos.
public struct FolderScanOptions: Hashable, Sendable {
  /// How the photos are ordered.
  public enum Ordering: String, Hashable, Sendable, CaseIterable, Codable {
    /// EXIF DateTimeOriginal where the first 64 KiB of the file hold it, else the modification
    /// time; then the relative path. Reads the start of every file (in parallel).
    case captureDate
    /// The modification time, then the relative path: only the directory scan, no file is
    /// opened. The fastest start on huge or slow (network, cold) folders.
    case modificationTime
  }

  /// Whether subfolders are scanned too.
  public var recursive: Bool
  /// How the photos are ordered.
  public var ordering: Ordering
  /// The time zone EXIF dates (camera local time, no zone) are read in when comparing them
  /// with modification times.
  public var timeZone: TimeZone
  /// How many bytes at the start of each file are read for its capture date.
  public var dateProbeBytes: Int

  /// Scan options; by default not recursive, by capture date, in the current time zone.
  public init(
    recursive: Bool = false, ordering: Ordering = .captureDate, timeZone: TimeZone = .current,
    dateProbeBytes: Int = 65_536
  ) {
    self.recursive = recursive
    self.ordering = ordering
    self.timeZone = timeZone
    self.dateProbeBytes = dateProbeBytes
  }
}

/// Something a scan skipped or could not read, with a message; the scan goes on.
public struct ScanIssue: Hashable, Sendable, Codable {
  /// What kind of issue it is.
  public var code: PhotoSessionError.Code
  /// The path relative to the library root.
  public var path: String
  /// One sentence.
  public var message: String
}

/// The result of scanning a folder: the ordered photo ids and what was skipped.
public struct FolderScan: Sendable {
  /// The folder scanned, as an absolute path.
  public var root: String
  /// Photo ids (paths relative to ``root``) in session order.
  public var photos: [String]
  /// Each photo's identity when it was scanned, in the order of ``photos``: what a commit
  /// checks before it trashes the photo.
  public var identities: [FileIdentity] = []
  /// Each photo's companion files, in the order of ``photos``: the other files of its folder
  /// that share its base name case-insensitively (another image of the same shot, such as
  /// the RAW beside a JPEG; XMP sidecars `NAME.xmp` and `NAME.EXT.xmp`; an `.aae` edit file;
  /// a Live Photo `.mov`), as paths relative to ``root``, sorted. Every decision acts on them
  /// too.
  public var companions: [[String]] = []
  /// Each companion's identity when it was scanned, in the order of ``companions``: a commit
  /// checks every file of a card, not only the one shown.
  public var companionIdentities: [[FileIdentity]] = []
  /// Files skipped (symbolic links, empty files, names that are not UTF-8) or read with a
  /// problem (unreadable): each with a message.
  public var issues: [ScanIssue]

  /// Scans `root` for image files by extension and orders them.
  ///
  /// A video (``VideoFormat``) with no image of its base name beside it is a card of its own
  /// (``CardKind/video``), with its sidecars as companions; ordered by its modification time.
  ///
  /// Hidden files and folders (names starting with `.`, which include volume Trash folders)
  /// are not scanned. Symbolic links are skipped (a link could point outside the folder, and
  /// trashing it would trash the link, not the photo), as are zero-byte files; both are listed
  /// in ``issues``. Unreadable files are kept (they can still be trashed) and, in capture-date
  /// order (which opens every file), listed; in modification-time order no file is opened and
  /// an unreadable file shows up when its card is read.
  ///
  /// - Throws: ``PhotoSessionError/Code/notAFolder``, ``PhotoSessionError/Code/unreadable``
  ///   for the root, or ``PhotoSessionError/Code/emptyLibrary`` when no image is found.
  /// - Complexity: O(*f* log *f*) for *f* files, plus one read of
  ///   ``FolderScanOptions/dateProbeBytes`` per image for ``FolderScanOptions/Ordering/captureDate``.
  public static func scan(
    _ root: String, options: FolderScanOptions = FolderScanOptions(),
    fileSystem: any Persistence.FileSystem = POSIXFileSystem()
  ) throws(PhotoSessionError) -> FolderScan {
    let io = PhotoFiles(fileSystem)
    let absolute = FolderLibrary.absolutePath(root)
    guard let status = try io.status(absolute, followingLinks: true), status.kind == .directory
    else {
      throw PhotoSessionError(
        .notAFolder, path: root,
        description: "\"\(root)\" is not a folder: give the folder that holds the photos")
    }
    var entries: [Entry] = []
    var issues: [ScanIssue] = []
    var folders: [String] = [""]
    while let relative = folders.popLast() {
      let folder = relative.isEmpty ? absolute : PathName.join(absolute, relative)
      try list(
        folder, relative: relative, into: &entries, folders: &folders, issues: &issues,
        recursive: options.recursive, isRoot: relative.isEmpty, io: io)
    }
    guard !entries.isEmpty else {
      throw PhotoSessionError(
        .emptyLibrary, path: root,
        description:
          "\"\(root)\" holds no photos (JPEG, PNG, HEIC, GIF, WebP, TIFF or raw)\(options.recursive ? "" : "; add --recursive to look in subfolders")"
      )
    }
    if options.ordering == .captureDate {
      readCaptureDates(&entries, root: absolute, options: options, io: io)
    }
    entries.sort { a, b in
      a.time != b.time ? a.time < b.time : a.path.utf8.lexicographicallyPrecedes(b.path.utf8)
    }
    for entry in entries where entry.unreadable {
      issues.append(
        ScanIssue(
          code: .unreadable, path: entry.path,
          message:
            "\"\(entry.path)\" cannot be read (permission); it is in the session but cannot be shown"
        ))
    }
    issues.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    return FolderScan(
      root: absolute, photos: entries.map(\.path), identities: entries.map(\.identity),
      companions: entries.map { $0.companions.map(\.path) },
      companionIdentities: entries.map { $0.companions.map(\.identity) }, issues: issues)
  }

  struct Entry {
    var path: String
    var time: Double
    /// The image format; nil for a companion file (a sidecar, an edit file, a video).
    var format: ImageFormat?
    var identity: FileIdentity
    var companions: [Entry] = []
    var unreadable = false
  }

  private static func list(
    _ folder: String, relative: String, into entries: inout [Entry], folders: inout [String],
    issues: inout [ScanIssue], recursive: Bool, isRoot: Bool, io: PhotoFiles
  ) throws(PhotoSessionError) {
    let listing: [DirectoryEntry]
    do throws(PersistenceError) {
      listing = try io.system.readDirectory(folder)
    } catch {
      let error = PhotoFiles.failure(.unreadable, error, action: "list folder")
      if isRoot { throw error }
      issues.append(ScanIssue(code: .unreadable, path: relative, message: error.description))
      return
    }
    var images: [Entry] = []
    var others: [Entry] = []
    defer { group(images, others, into: &entries, issues: &issues) }
    for entry in listing {
      let raw = entry.rawName
      guard let first = raw.first, first != UInt8(ascii: ".") else { continue }
      guard let name = entry.name else {
        issues.append(
          ScanIssue(
            code: .unreadable, path: relative + "/" + String(decoding: raw, as: UTF8.self),
            message: "a file name in \"\(folder)\" is not valid UTF-8; it was skipped"))
        continue
      }
      let path = relative.isEmpty ? name : relative + "/" + name
      let format = ImageFormat(fileName: name)
      let kind = entry.kind
      let maybeFolder = kind == .directory || kind == nil
      let companion = format == nil && Companion.isCompanion(name)
      guard format != nil || companion || (recursive && maybeFolder) || kind == .symbolicLink
      else { continue }
      let status: FileStatus
      do throws(PersistenceError) {
        status = try io.system.status(PathName.join(folder, name), followingLinks: false)
      } catch {
        let reason = error.errorNumber.map(PhotoFiles.reason) ?? error.description
        issues.append(
          ScanIssue(
            code: .unreadable, path: path,
            message: "\"\(path)\" cannot be inspected: \(reason); it was skipped"))
        continue
      }
      if status.kind == .directory {
        if recursive { folders.append(path) }
        continue
      }
      guard format != nil || companion else { continue }
      if status.kind == .symbolicLink {
        issues.append(
          ScanIssue(
            code: .unsupportedFormat, path: path,
            message:
              "\"\(path)\" is a symbolic link; it was skipped (trashing it would not trash the photo)"
          ))
        continue
      }
      guard status.kind == .regular else { continue }
      if companion {
        others.append(
          Entry(
            path: path, time: status.modified.secondsSince1970, format: nil,
            identity: FileIdentity(status)))
        continue
      }
      if status.size == 0 {
        issues.append(
          ScanIssue(
            code: .emptyFile, path: path, message: "\"\(path)\" is an empty file; it was skipped"))
        continue
      }
      images.append(
        Entry(
          path: path, time: status.modified.secondsSince1970, format: format,
          identity: FileIdentity(status)))
    }
  }

  /// Groups one folder's images and companion files by base name into cards: the card's
  /// photo is its JPEG, HEIC or PNG, else its RAW, else another image; the rest are its
  /// companions. A video with no image of its base name is a card of its own (the first
  /// video by path when there are several), its sidecars and other videos its companions.
  /// Other companion files without an image are not cards: each is reported in `issues` (a
  /// sidecar or edit file with no photo beside it).
  private static func group(
    _ images: [Entry], _ others: [Entry], into entries: inout [Entry],
    issues: inout [ScanIssue]
  ) {
    guard !others.isEmpty || images.count > 1 else {
      entries.append(contentsOf: images)
      return
    }
    var cards: [String: [Entry]] = [:]
    for image in images { cards[Companion.stem(image.path), default: []].append(image) }
    let sortedOthers = others.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    // A video alone becomes its card's shown file.
    for video in sortedOthers
    where VideoFormat(fileName: video.path) != nil && cards[Companion.stem(video.path)] == nil {
      cards[Companion.stem(video.path)] = [video]
    }
    var extra: [String: [Entry]] = [:]
    for other in sortedOthers {
      let stem = Companion.stem(other.path)
      guard let card = cards[stem] else {
        issues.append(
          ScanIssue(
            code: .unsupportedFormat, path: other.path,
            message:
              "\"\(other.path)\" has no photo or video beside it (a sidecar or edit file alone); it is not a card and stays where it is"
          ))
        continue
      }
      if card[0].format == nil && card[0].path == other.path { continue }
      extra[stem, default: []].append(other)
    }
    for (stem, members) in cards {
      let sorted = members.sorted { a, b in
        let (x, y) = (a.format.map(Companion.rank) ?? 3, b.format.map(Companion.rank) ?? 3)
        return x != y ? x < y : a.path.utf8.lexicographicallyPrecedes(b.path.utf8)
      }
      var card = sorted[0]
      card.companions = (sorted.dropFirst() + (extra[stem] ?? [])).sorted {
        $0.path.utf8.lexicographicallyPrecedes($1.path.utf8)
      }
      entries.append(card)
    }
  }

  /// Replaces each entry's time by its EXIF capture date where the file's start holds one.
  private static func readCaptureDates(
    _ entries: inout [Entry], root: String, options: FolderScanOptions, io: PhotoFiles
  ) {
    let workers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
    let chunk = (entries.count + workers - 1) / workers
    let probe = max(64, options.dateProbeBytes)
    let zone = options.timeZone
    entries.withUnsafeMutableBufferPointer { buffer in
      let shared = SharedBuffer(buffer)
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        let start = worker * chunk
        let end = min(shared.buffer.count, start + chunk)
        guard start < end else { return }
        for index in start..<end where shared.buffer[index].format != nil {
          let entry = shared.buffer[index]
          let path = PathName.join(root, entry.path)
          let bytes: [UInt8]
          let size: Int
          do throws(PhotoSessionError) {
            (bytes, size) = try io.readPrefix(path, limit: probe)
          } catch {
            // Unreadable: no permission, or gone since the listing.
            shared.buffer[index].unreadable =
              error.code == .photoMissing || error.isPermissionDenied
            continue
          }
          guard
            let date = ImageHeader.captureDate(
              bytes, isComplete: bytes.count == size, hint: entry.format),
            let seconds = secondsSince1970(date, timeZone: zone)
          else { continue }
          shared.buffer[index].time = seconds
        }
      }
    }
  }

  /// Seconds since 1970 of a `YYYY-MM-DDThh:mm:ss` local time in `timeZone`.
  static func secondsSince1970(_ text: String, timeZone: TimeZone) -> Double? {
    let raw = Array(text.utf8)
    guard raw.count >= 19 else { return nil }
    func number(_ range: Range<Int>) -> Int {
      range.reduce(0) { $0 * 10 + Int(raw[$1]) - 0x30 }
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    var year = number(0..<4)
    let month = number(5..<7)
    let day = number(8..<10)
    year -= month <= 2 ? 1 : 0
    let era = (year >= 0 ? year : year - 399) / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let local = Double(
      days * 86_400 + number(11..<13) * 3600 + number(14..<16) * 60 + number(17..<19))
    let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local))
    return local - Double(offset)
  }
}

/// A mutable buffer shared with worker threads that each write their own disjoint range.
private final class SharedBuffer: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<FolderScan.Entry>
  init(_ buffer: UnsafeMutableBufferPointer<FolderScan.Entry>) { self.buffer = buffer }
}
