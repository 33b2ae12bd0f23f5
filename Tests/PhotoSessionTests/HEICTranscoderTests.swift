import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The HEIC transcoder with stand-in decoders (shell scripts), so every failure is exercised
/// whether or not libheif is installed; the real decoder's run is in OffloadWebTests.
@Suite("HEIC transcoder")
struct HEICTranscoderTests {
  let key = "0123456789abcdef0123456789abcdef"
  /// The smallest JPEG shape the cache accepts: start and end markers around some bytes.
  let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9]

  /// An executable shell script `name` in `folder`.
  @discardableResult
  func script(_ folder: String, _ name: String, _ body: String) -> String {
    let path = folder + "/" + name
    FileManager.default.createFile(atPath: path, contents: Data(("#!/bin/sh\n" + body).utf8))
    chmod(path, 0o755)
    return path
  }

  @Test("the decoder is looked up on the search path: heif-dec first, executables only")
  func findsTheDecoder() throws {
    let folder = try TemporaryDirectory(prefix: "offload-heic")
    defer { folder.remove() }
    let first = folder.appending("a")
    let second = folder.appending("b")
    for path in [first, second] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    #expect(HEICTranscoder.findDecoder(searchPath: "\(first):\(second)") == nil)
    #expect(HEICTranscoder.findDecoder(searchPath: nil) == nil)
    FileManager.default.createFile(atPath: first + "/heif-dec", contents: Data())
    #expect(HEICTranscoder.findDecoder(searchPath: "\(first):\(second)") == nil)
    script(second, "heif-convert", "exit 0\n")
    #expect(
      HEICTranscoder.findDecoder(searchPath: "\(first):\(second)") == second + "/heif-convert")
    script(second, "heif-dec", "exit 0\n")
    #expect(HEICTranscoder.findDecoder(searchPath: "\(first):\(second)") == second + "/heif-dec")
    // Relative folders are not searched.
    #expect(HEICTranscoder.findDecoder(searchPath: "relative:.") == nil)
  }

  @Test("a conversion is cached whole and reused; the decoder sees a copy, never the photo")
  func cachesOnce() throws {
    let folder = try TemporaryDirectory(prefix: "offload-heic")
    defer { folder.remove() }
    let log = folder.appending("runs.log")
    let jpegHex = jpeg.map { String(format: "\\%03o", $0) }.joined()
    let decoder = script(
      folder.path, "heif-dec",
      "echo \"$@\" >> '\(log)'\ncase \"$3\" in *in.heic) ;; *) exit 9;; esac\n"
        + "printf '\(jpegHex)' > \"$4\"\n")
    let cache = folder.appending("store/web/heic")
    let transcoder = HEICTranscoder(decoder: decoder, cacheFolder: cache)
    #expect(transcoder.cached(key: key) == nil)
    #expect(try transcoder.jpeg([1, 2, 3], key: key, name: "a.heic") == jpeg)
    #expect(try transcoder.jpeg([1, 2, 3], key: key, name: "a.heic") == jpeg)
    #expect(transcoder.cached(key: key) == jpeg)
    let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(runs.count == 1 && runs[0].hasPrefix("-q 90 "), "\(runs)")
    // Only the entry is left: the work folder and temporary files are gone.
    #expect(try FileManager.default.contentsOfDirectory(atPath: cache) == [key + ".jpg"])
  }

  @Test(
    "the cache keeps at most its limit: least recently used entries go first, never the new one"
  )
  func sweepsOldestFirst() throws {
    let folder = try TemporaryDirectory(prefix: "offload-heic")
    defer { folder.remove() }
    let cache = folder.appending("heic")
    try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
    // Five 100-byte entries, a day apart (oldest first), a work folder and a stray file.
    let keys = (0..<5).map { String(repeating: String($0), count: 16) }
    for (age, key) in keys.enumerated() {
      let path = cache + "/" + key + ".jpg"
      let bytes = jpeg.dropLast(2) + [UInt8](repeating: 0, count: 91) + jpeg.suffix(2)
      _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
      var times = [timeval(tv_sec: 1_000_000 + age * 86_400, tv_usec: 0)]
      times.append(times[0])
      utimes(path, times)
    }
    try FileManager.default.createDirectory(
      atPath: cache + "/.convert-1-2", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: cache + "/notes.txt", contents: Data(count: 1000))
    var transcoder = HEICTranscoder(decoder: "/bin/false", cacheFolder: cache, cacheLimit: 1000)
    #expect(transcoder.sweep().isEmpty, "within the limit nothing goes")
    transcoder.cacheLimit = 250
    // A hit renews the oldest entry: the next two oldest go instead.
    #expect(transcoder.cached(key: keys[0]) != nil)
    #expect(transcoder.sweep() == [keys[1], keys[2], keys[3]])
    let left = try FileManager.default.contentsOfDirectory(atPath: cache).sorted()
    #expect(left == [".convert-1-2", keys[0] + ".jpg", keys[4] + ".jpg", "notes.txt"].sorted())
    // The entry being kept stays even when it alone is over the limit.
    transcoder.cacheLimit = 0
    #expect(transcoder.sweep(keeping: keys[4]) == [keys[0]])
    #expect(FileManager.default.fileExists(atPath: cache + "/" + keys[4] + ".jpg"))
  }

  @Test("failures name the photo and the decoder's reason, and cache nothing")
  func failures() throws {
    let folder = try TemporaryDirectory(prefix: "offload-heic")
    defer { folder.remove() }
    let cache = folder.appending("cache")
    let cases: [(body: String, timeout: Double, message: String)] = [
      (
        "echo 'Error: no such box' >&2\necho 'Could not decode image' >&2\nexit 1\n", 60,
        "cannot convert b.heic to JPEG: heif-dec failed (exit status 1): Could not decode image"
      ),
      (
        "printf 'not a jpeg' > \"$4\"\n", 60,
        "cannot convert b.heic to JPEG: heif-dec wrote no JPEG"
      ),
      ("exit 0\n", 60, "cannot convert b.heic to JPEG: heif-dec wrote no JPEG"),
      ("sleep 5\n", 0.3, "cannot convert b.heic to JPEG: heif-dec did not finish in 0.3 s"),
    ]
    for (body, timeout, message) in cases {
      let decoder = script(folder.path, "heif-dec", body)
      let transcoder = HEICTranscoder(decoder: decoder, cacheFolder: cache, timeout: timeout)
      let error = #expect(throws: PhotoSessionError.self) {
        try transcoder.jpeg([0, 1], key: key, name: "b.heic")
      }
      #expect(error?.code == .corruptImage)
      #expect(error?.description == message)
      #expect(try FileManager.default.contentsOfDirectory(atPath: cache).isEmpty)
    }
    let missing = HEICTranscoder(decoder: folder.appending("gone"), cacheFolder: cache)
    let error = #expect(throws: PhotoSessionError.self) {
      try missing.jpeg([0, 1], key: key, name: "b.heic")
    }
    #expect(error?.description.hasPrefix("cannot convert b.heic to JPEG: gone could not") == true)
  }

  @Test("keys are 16 to 128 lowercase hexadecimal digits; anything else is refused")
  func keys() throws {
    let transcoder = HEICTranscoder(decoder: "/bin/false", cacheFolder: "/nonexistent")
    for bad in ["", "0123", "../../etc/passwd", key.uppercased(), key + "/x", key + "g"] {
      let error = #expect(throws: PhotoSessionError.self) {
        try transcoder.jpeg([0], key: bad, name: "c.heic")
      }
      #expect(error?.code == .invalidArgument, "\(bad)")
      #expect(transcoder.cached(key: bad) == nil)
    }
    #expect(HEICTranscoder.isKey(String(repeating: "a", count: 128)))
    #expect(!HEICTranscoder.isKey(String(repeating: "a", count: 129)))
  }
}
