/// Where a session's photos live and how decisions are applied to them.
///
/// ``FolderLibrary`` is the Linux and macOS implementation (a folder of image files, the
/// freedesktop.org Trash, XMP sidecars). An app can conform its own photo store.
public protocol PhotoLibrary: AnyObject {
  /// Reads a photo's metadata (format, dimensions, orientation, date).
  ///
  /// Called lazily, only for the photos on screen and in the preload window.
  ///
  /// - Throws: ``PhotoSessionError`` naming the photo (missing, unreadable, corrupt, ...).
  func metadata(of photo: String) throws(PhotoSessionError) -> PhotoMetadata

  /// Reads a video card's metadata (format, size, dates, duration when cheaply known); the
  /// default refuses with ``PhotoSessionError/Code/unsupportedFormat``.
  ///
  /// Called instead of ``metadata(of:)`` for a card of kind ``CardKind/video``.
  ///
  /// - Throws: ``PhotoSessionError`` naming the video.
  func videoMetadata(of video: String) throws(PhotoSessionError) -> VideoMetadata

  /// Applies a decision to a photo and returns one sentence saying what was done.
  ///
  /// Must be idempotent: applying a decision that is already applied (a commit that crashed
  /// after the move but before journaling it) succeeds without doing it twice.
  ///
  /// `resuming` is true when an earlier commit journaled its intent for this photo and then
  /// stopped (a crash): the library then checks whether the work was already done.
  ///
  /// - Throws: ``PhotoSessionError`` when the decision cannot be applied; the photo is left as
  ///   it was.
  func apply(
    _ decision: PhotoDecision, to photo: String, resuming: Bool
  ) throws(PhotoSessionError) -> String

  /// Describes what ``apply(_:to:resuming:)`` would do, without doing it (for a dry run).
  func plan(_ decision: PhotoDecision, for photo: String) -> String

  /// Applies a decision with the card's marks (rating, flag, label); the default ignores the
  /// marks and calls ``apply(_:to:resuming:)``.
  ///
  /// - Throws: ``PhotoSessionError`` when the decision cannot be applied.
  func apply(
    _ decision: PhotoDecision, marks: PhotoMarks, to photo: String, resuming: Bool
  ) throws(PhotoSessionError) -> String

  /// Describes what ``apply(_:marks:to:resuming:)`` would do; the default ignores the marks.
  func plan(_ decision: PhotoDecision, marks: PhotoMarks, for photo: String) -> String

  /// Throws what applying `decision` with `marks` would fail with before changing anything
  /// (for a dry run: the photo changed or vanished); the default checks nothing.
  ///
  /// - Throws: ``PhotoSessionError`` naming the photo.
  func check(
    _ decision: PhotoDecision, marks: PhotoMarks, for photo: String
  ) throws(PhotoSessionError)

  /// Makes every change applied since the last flush durable (syncs the folders it changed).
  ///
  /// Commit calls it at the end of every batch, before it journals the batch's results, so a
  /// result is never durable before the change it records.
  ///
  /// - Throws: ``PhotoSessionError/Code/writeFailed`` when a sync fails.
  func flush() throws(PhotoSessionError)
}

extension PhotoLibrary {
  /// Refuses: this library shows no videos.
  public func videoMetadata(of video: String) throws(PhotoSessionError) -> VideoMetadata {
    throw PhotoSessionError(
      .unsupportedFormat, path: video,
      description: "\"\(video)\" is a video this library does not read")
  }

  /// Applies the decision, ignoring the marks (for libraries that store no ratings).
  public func apply(
    _ decision: PhotoDecision, marks: PhotoMarks, to photo: String, resuming: Bool
  ) throws(PhotoSessionError) -> String {
    try apply(decision, to: photo, resuming: resuming)
  }

  /// Checks nothing.
  public func check(
    _ decision: PhotoDecision, marks: PhotoMarks, for photo: String
  ) throws(PhotoSessionError) {}

  /// Describes the decision, ignoring the marks.
  public func plan(_ decision: PhotoDecision, marks: PhotoMarks, for photo: String) -> String {
    plan(decision, for: photo)
  }
}
