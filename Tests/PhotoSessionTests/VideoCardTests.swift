import Foundation
import OffloadTestSupport
import Testing

@testable import PhotoSession

@Suite("Video cards: a video with no photo beside it is a card of its own")
struct VideoCardTests {
  @Test func aLoneVideoIsACardWithItsSidecarsAndTrashMovesThemAll() throws {
    let work = try TemporaryDirectory()
    defer { work.remove() }
    let photos = try TemporaryDirectory(prefix: "offload-video")
    defer { photos.remove() }
    try TestImages.write(
      TestImages.jpeg(width: 4, height: 3), "a.jpg", in: photos, modified: 1_600_000_000)
    try TestImages.write(Array("live".utf8), "a.MOV", in: photos, modified: 1_600_000_001)
    try TestImages.write(
      quickTimeMovie(seconds: 75), "clip.MP4", in: photos, modified: 1_600_000_002)
    try TestImages.write(Array(XMPSidecar.newPacket(rating: 2).utf8), "clip.MP4.xmp", in: photos)
    try TestImages.write(Array("second".utf8), "clip.mov", in: photos, modified: 1_600_000_003)
    try TestImages.write(
      quickTimeMovie(seconds: 3, headerFirst: false, mediaBytes: 300_000), "late.m4v", in: photos,
      modified: 1_600_000_004)
    try TestImages.write(Array("riff".utf8), "old.avi", in: photos, modified: 1_600_000_005)
    let scan = try FolderScan.scan(photos.path, options: .init(ordering: .modificationTime))
    #expect(scan.photos == ["a.jpg", "clip.MP4", "late.m4v", "old.avi"])
    #expect(scan.companions == [["a.MOV"], ["clip.MP4.xmp", "clip.mov"], [], []])
    #expect(scan.photos.map(CardKind.init(path:)) == [.photo, .video, .video, .video])

    let store = PhotoSessionStore(
      folder: work.appending("sessions"),
      trash: FreedesktopTrash(homeTrash: work.appending("data/Trash")))
    let opened = try store.start(folder: photos.path, options: .init(ordering: .modificationTime))
    try opened.session.swipe(.up)
    let clip = try #require(opened.session.current)
    #expect(clip.kind == .video && clip.metadata == nil && clip.problem == nil)
    let video = try #require(clip.video)
    #expect(video.format == .mp4 && video.durationSeconds == 75)
    #expect(video.byteCount == quickTimeMovie(seconds: 75).count)
    #expect(video.modificationTime == 1_600_000_002)
    #expect(video.creationTime == Double(3_800_000_000 - 2_082_844_800))
    // The header after the media data is not read: no duration; an AVI has none either.
    #expect(opened.session.card(at: 2).video?.durationSeconds == nil)
    #expect(opened.session.card(at: 2).video?.format == .m4v)
    #expect(opened.session.card(at: 3).video?.format == .avi)
    try opened.session.swipe(.left)
    let report = try opened.session.commit()
    #expect(report.failed.isEmpty)
    let trashed = try FileManager.default.contentsOfDirectory(
      atPath: work.appending("data/Trash/files")
    ).sorted()
    #expect(trashed == ["clip.MP4", "clip.MP4.xmp", "clip.mov"])
  }

  @Test func theMovieHeaderReaderNeverTrapsOnDamagedBytes() {
    let seed = SplitMix64.testSeed(0x7EAD)
    var random = SplitMix64(seed: seed)
    let good = quickTimeMovie(seconds: 12)
    #expect(VideoMetadata.movieHeader(good).duration == 12)
    #expect(VideoMetadata.movieHeader([]) == (nil, nil))
    for _ in 0..<2_000 {
      var bytes = Array(good.prefix(random.index(below: good.count + 1)))
      for _ in 0..<random.index(below: 6) where !bytes.isEmpty {
        bytes[random.index(below: bytes.count)] = UInt8(truncatingIfNeeded: random.next())
      }
      let (duration, _) = VideoMetadata.movieHeader(bytes)
      #expect(duration.map { $0 >= 0 && $0.isFinite } ?? true, "seed \(seed)")
    }
  }
}
