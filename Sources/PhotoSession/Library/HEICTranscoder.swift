import Foundation
import Persistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns HEIC photos into JPEG files a browser can show, with an installed HEIF decoder
/// (libheif's `heif-dec`, or `heif-convert` before libheif 1.17), and keeps each result in a
/// cache folder, so a photo is converted once.
///
/// The decoder reads a copy of the photo's bytes in a private folder under the cache; the
/// photo itself is never opened by it, let alone changed. A result enters the cache
/// atomically (temporary file, fsync, rename), so a crash leaves either no entry or a whole
/// one. Entries are named by a key the caller derives from the bytes (a digest), so a changed
/// photo gets a new entry and a renamed one keeps its own. Find the decoder with
/// ``findDecoder(searchPath:)`` (the server passes its `PATH`), then ask ``jpeg(_:key:name:)``
/// for each photo.
///
/// The cache is bounded: after each new entry, ``sweep(keeping:)`` removes the entries used
/// least recently (a hit renews an entry's time) until the folder holds at most
/// ``cacheLimit`` bytes, never the entry just written.
public struct HEICTranscoder: Sendable {
  /// The decoder's executable.
  public let decoder: String
  /// The folder of the cached JPEG files (created when the first one is written).
  public let cacheFolder: String
  /// How long one conversion may take, in seconds, before the decoder is stopped.
  public var timeout: Double
  /// The most bytes the cache folder's entries may hold; the oldest go first beyond it.
  public var cacheLimit: Int

  /// The default ``cacheLimit``: 512 MiB, about 500 converted 12-megapixel photos.
  public static let defaultCacheLimit = 512 << 20

  /// The names looked for on the search path, in order of preference.
  public static let decoderNames = ["heif-dec", "heif-convert"]

  /// A transcoder running `decoder` and caching into `cacheFolder`.
  ///
  /// - Parameters:
  ///   - decoder: The path of `heif-dec` or `heif-convert`.
  ///   - cacheFolder: The folder of the converted files.
  ///   - timeout: How long one conversion may take, in seconds.
  ///   - cacheLimit: The most bytes the cached files may hold (``defaultCacheLimit``).
  public init(
    decoder: String, cacheFolder: String, timeout: Double = 60,
    cacheLimit: Int = defaultCacheLimit
  ) {
    self.decoder = decoder
    self.cacheFolder = cacheFolder
    self.timeout = timeout
    self.cacheLimit = cacheLimit
  }

  /// The first of ``decoderNames`` that is an executable file in a folder of `searchPath`.
  ///
  /// - Parameter searchPath: A `PATH` value: folders separated by colons.
  /// - Returns: The decoder's path, or nil when none is installed.
  /// - Complexity: O(*f*) file checks for *f* folders.
  public static func findDecoder(searchPath: String?) -> String? {
    let folders = (searchPath ?? "").split(separator: ":").map(String.init)
    for name in decoderNames {
      for folder in folders where folder.hasPrefix("/") {
        let path = PathName.join(folder, name)
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
          access(path, X_OK) == 0
        {
          return path
        }
      }
    }
    return nil
  }

  /// The cached JPEG for `key`, or nil when there is none (or it is not a JPEG). A hit
  /// renews the entry's time, so the sweep removes the entries used least recently.
  ///
  /// - Parameter key: The photo's key: 16 to 128 lowercase hexadecimal digits.
  /// - Returns: The JPEG's bytes.
  /// - Complexity: O(*b*) for a file of *b* bytes.
  public func cached(key: String) -> [UInt8]? {
    let path = PathName.join(cacheFolder, key + ".jpg")
    guard Self.isKey(key), let data = try? POSIXFileSystem().readAll(path), Self.isJPEG(data)
    else { return nil }
    utimes(path, nil)
    return [UInt8](data)
  }

  /// Removes cache entries, least recently used first (by modification time, then name),
  /// until the entries hold at most ``cacheLimit`` bytes. Work folders and files that are not
  /// entries are left alone.
  ///
  /// - Parameter keeping: A key whose entry stays whatever its age (the one just written).
  /// - Returns: The keys removed, oldest first.
  /// - Complexity: O(*f* log *f*) for *f* files in the folder.
  @discardableResult
  public func sweep(keeping: String? = nil) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: cacheFolder) else {
      return []
    }
    var entries: [(key: String, bytes: Int, time: Double)] = []
    var total = 0
    for name in names where name.hasSuffix(".jpg") {
      let key = String(name.dropLast(4))
      var status = stat()
      guard Self.isKey(key), stat(PathName.join(cacheFolder, name), &status) == 0 else {
        continue
      }
      #if canImport(Darwin)
        let stamp = status.st_mtimespec
      #else
        let stamp = status.st_mtim
      #endif
      let time = Double(stamp.tv_sec) + Double(stamp.tv_nsec) / 1e9
      entries.append((key, Int(status.st_size), time))
      total += Int(status.st_size)
    }
    entries.sort { $0.time != $1.time ? $0.time < $1.time : $0.key < $1.key }
    var removed: [String] = []
    for entry in entries where total > cacheLimit && entry.key != keeping {
      if unlink(PathName.join(cacheFolder, entry.key + ".jpg")) == 0 {
        total -= entry.bytes
        removed.append(entry.key)
      }
    }
    return removed
  }

  /// The photo as a JPEG: from the cache, else converted by the decoder and cached.
  ///
  /// - Parameters:
  ///   - heic: The photo's bytes.
  ///   - key: The photo's key (see ``cached(key:)``), derived from `heic`.
  ///   - name: The photo's name, for messages.
  /// - Returns: The JPEG's bytes.
  /// - Throws: ``PhotoSessionError/Code/corruptImage`` when the decoder refuses the photo,
  ///   fails or runs out of time; ``PhotoSessionError/Code/writeFailed`` when the cache
  ///   cannot be written; ``PhotoSessionError/Code/invalidArgument`` for a malformed key.
  /// - Complexity: One run of the decoder, and O(*b*) for *b* bytes, on a cache miss.
  public func jpeg(_ heic: [UInt8], key: String, name: String) throws(PhotoSessionError)
    -> [UInt8]
  {
    guard Self.isKey(key) else {
      throw PhotoSessionError(
        .invalidArgument, description: "\"\(key)\" is not a cache key (hexadecimal digits)")
    }
    if let hit = cached(key: key) { return hit }
    let fileSystem = POSIXFileSystem()
    let work = PathName.join(
      cacheFolder, ".convert-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
    do {
      try fileSystem.makeDirectories(work, permissions: 0o700)
    } catch {
      throw PhotoSessionError(
        .writeFailed, path: cacheFolder,
        description: "cannot write the HEIC cache \(cacheFolder): \(error.description)")
    }
    defer { try? FileManager.default.removeItem(atPath: work) }
    let jpeg = try convert(heic, in: work, name: name)
    do {
      let target = PathName.join(cacheFolder, key + ".jpg")
      try fileSystem.writeAtomically(Data(jpeg), to: target)
    } catch {
      throw PhotoSessionError(
        .writeFailed, path: cacheFolder,
        description: "cannot write the HEIC cache \(cacheFolder): \(error.description)")
    }
    sweep(keeping: key)
    return jpeg
  }

  /// Runs the decoder over a copy of `heic` in the folder `work`; the JPEG it wrote.
  private func convert(_ heic: [UInt8], in work: String, name: String) throws(PhotoSessionError)
    -> [UInt8]
  {
    let input = PathName.join(work, "in.heic")
    let output = PathName.join(work, "out.jpg")
    let errors = PathName.join(work, "errors.txt")
    let tool = PathName.lastComponent(of: decoder)
    func failure(_ why: String) -> PhotoSessionError {
      PhotoSessionError(
        .corruptImage, path: name, description: "cannot convert \(name) to JPEG: \(tool) \(why)")
    }
    guard FileManager.default.createFile(atPath: input, contents: Data(heic)),
      FileManager.default.createFile(atPath: errors, contents: nil),
      let errorHandle = FileHandle(forWritingAtPath: errors)
    else {
      throw PhotoSessionError(
        .writeFailed, path: work, description: "cannot write the HEIC cache \(cacheFolder)")
    }
    defer { try? errorHandle.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: decoder)
    process.arguments = ["-q", "90", input, output]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errorHandle
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    do {
      try process.run()
    } catch {
      throw failure("could not be started (\(error.localizedDescription))")
    }
    if finished.wait(timeout: .now() + timeout) == .timedOut {
      // A decoder that hangs may not heed SIGTERM either.
      kill(process.processIdentifier, SIGKILL)
      finished.wait()
      throw failure("did not finish in \(String(format: "%g", timeout)) s")
    }
    guard process.terminationStatus == 0 else {
      let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      let line = said.split(separator: "\n").last.map { ": " + $0 } ?? ""
      throw failure("failed (exit status \(process.terminationStatus))\(line)")
    }
    // A file of several images is written as out-1.jpg, out-2.jpg, ...; the first is the
    // primary one.
    let written =
      [output]
      + ((try? FileManager.default.contentsOfDirectory(atPath: work)) ?? [])
      .filter { $0.hasPrefix("out-") && $0.hasSuffix(".jpg") }.sorted()
      .map { PathName.join(work, $0) }
    for path in written {
      if let data = FileManager.default.contents(atPath: path), Self.isJPEG(data) {
        return [UInt8](data)
      }
    }
    throw failure("wrote no JPEG")
  }

  /// Whether `key` can name a cache entry: 16 to 128 lowercase hexadecimal digits.
  static func isKey(_ key: String) -> Bool {
    (16...128).contains(key.utf8.count)
      && key.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// Whether `data` starts as a JPEG does and ends with its end-of-image marker.
  static func isJPEG(_ data: Data) -> Bool {
    data.count >= 4 && data.prefix(2) == Data([0xFF, 0xD8]) && data.suffix(2) == Data([0xFF, 0xD9])
  }
}
