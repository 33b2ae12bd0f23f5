/// A card's rating, flag and colour label, set during culling and written into the XMP of
/// every image of the card at commit (unless the card is trashed).
///
/// The marks are separate from the ``PhotoDecision``: a favorite is written as rating 5 (the
/// library's favorite rating) unless the user set another rating; a reject is written as
/// `xmp:Rating="-1"`, as Lightroom and darktable read it, whatever the rating.
public struct PhotoMarks: Hashable, Sendable, Codable {
  /// A pick or reject flag.
  public enum Flag: String, Hashable, Sendable, CaseIterable, Codable {
    /// Picked: kept in the session; XMP has no pick field, so it clears a reject and writes
    /// nothing by itself.
    case pick
    /// Rejected: written as `xmp:Rating="-1"`.
    case reject
  }

  /// A colour label, written as `xmp:Label` with the capitalised English name.
  public enum ColorLabel: String, Hashable, Sendable, CaseIterable, Codable {
    /// `Red`.
    case red
    /// `Yellow`.
    case yellow
    /// `Green`.
    case green
    /// `Blue`.
    case blue
    /// `Purple`.
    case purple

    /// The `xmp:Label` value (`Red`, `Yellow`, ...), as Lightroom, Bridge and darktable write it.
    public var xmpValue: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// The label for an `xmp:Label` value, case-insensitively, or nil for any other text.
    public init?(xmpValue: some StringProtocol) {
      self.init(rawValue: xmpValue.lowercased())
    }
  }

  /// The star rating the user set, 0 to 5.
  public var rating: Int?
  /// The flag the user set.
  public var flag: Flag?
  /// The colour label the user set.
  public var label: ColorLabel?

  /// Marks with nothing set.
  public init(rating: Int? = nil, flag: Flag? = nil, label: ColorLabel? = nil) {
    self.rating = rating
    self.flag = flag
    self.label = label
  }

  /// Whether nothing is set.
  public var isEmpty: Bool { rating == nil && flag == nil && label == nil }

  /// The `xmp:Rating` commit writes for a card with `decision`: -1 for a reject, else the
  /// rating set, else `favoriteRating` for a favorite, else nil (nothing written).
  public func xmpRating(for decision: PhotoDecision, favoriteRating: Int) -> Int? {
    if flag == .reject { return -1 }
    if let rating { return rating }
    return decision == .favorite ? favoriteRating : nil
  }

  private enum CodingKeys: String, CodingKey {
    case rating = "r"
    case flag = "f"
    case label = "l"
  }
}

extension CullingSession {
  /// Rates the card on screen 0 to 5 (it stays on screen); written at commit as `xmp:Rating`.
  ///
  /// - Throws: ``PhotoSessionError/Code/invalidArgument`` for a rating outside 0...5,
  ///   ``PhotoSessionError/Code/endOfLibrary`` at the end, or a journal write error.
  /// - Complexity: O(1) plus one journal append.
  public func rate(_ rating: Int) throws(PhotoSessionError) {
    guard (0...5).contains(rating) else {
      throw PhotoSessionError(
        .invalidArgument, description: "a rating is 0 to 5 stars, not \(rating)")
    }
    try mark { $0.rating = rating }
  }

  /// Flags the card on screen as a pick or a reject (it stays on screen).
  ///
  /// - Throws: ``PhotoSessionError/Code/endOfLibrary`` at the end, or a journal write error.
  /// - Complexity: O(1) plus one journal append.
  public func flag(_ flag: PhotoMarks.Flag) throws(PhotoSessionError) {
    try mark { $0.flag = flag }
  }

  /// Gives the card on screen a colour label (it stays on screen).
  ///
  /// - Throws: ``PhotoSessionError/Code/endOfLibrary`` at the end, or a journal write error.
  /// - Complexity: O(1) plus one journal append.
  public func label(_ label: PhotoMarks.ColorLabel) throws(PhotoSessionError) {
    try mark { $0.label = label }
  }

  private func mark(_ change: (inout PhotoMarks) -> Void) throws(PhotoSessionError) {
    var marks = state.marks(at: state.cursor)
    change(&marks)
    try appendAndApply([state.markEvent(marks, time: clock())])
  }

  /// Moves the card on screen to the end of the queue without a decision; undo brings it
  /// back.
  ///
  /// - Throws: ``PhotoSessionError/Code/endOfLibrary`` at the end, or a journal write error.
  /// - Complexity: O(*n*) for *n* photos (the undecided tail of the queue moves up by one).
  public func skip() throws(PhotoSessionError) {
    try appendAndApply([state.skipEvent(time: clock())])
    refreshMetadata()
  }
}

extension CullingState {
  /// The marks of the card at `index` (empty when none were set).
  public func marks(at index: Int) -> PhotoMarks {
    marks[index] ?? PhotoMarks()
  }

  /// The event that sets the marks of the card on screen to `marks`.
  ///
  /// - Throws: ``PhotoSessionError/Code/endOfLibrary`` when every photo has a decision.
  public func markEvent(_ marks: PhotoMarks, time: Double) throws(PhotoSessionError)
    -> SessionEvent
  {
    try requireCard("rate, flag or label")
    return .marked(index: cursor, photo: photos[cursor], marks: marks, time: time)
  }

  /// The event that moves the card on screen to the end of the queue.
  ///
  /// - Throws: ``PhotoSessionError/Code/endOfLibrary`` when every photo has a decision.
  public func skipEvent(time: Double) throws(PhotoSessionError) -> SessionEvent {
    try requireCard("skip")
    return .skipped(index: cursor, photo: photos[cursor], time: time)
  }

  private func requireCard(_ action: String) throws(PhotoSessionError) {
    guard !isAtEnd else {
      throw PhotoSessionError(
        .endOfLibrary,
        description:
          "nothing to \(action): the session is at the end of the library (all \(photos.count) photos have a decision)"
      )
    }
  }

  /// Moves the photo at `from` to `to`, shifting the photos between them by one (with their
  /// marks and manifest positions); only undecided photos move.
  ///
  /// - Complexity: O(*n*) for *n* photos.
  mutating func movePhoto(from: Int, to: Int) {
    guard from != to else { return }
    let photo = photos.remove(at: from)
    photos.insert(photo, at: to)
    var positions = order ?? Array(0..<photos.count)
    positions.insert(positions.remove(at: from), at: to)
    order = positions.elementsEqual(0..<photos.count) ? nil : positions
    var moved: [Int: PhotoMarks] = [:]
    for (index, value) in marks {
      let target: Int
      if index == from {
        target = to
      } else if from < to && index > from && index <= to {
        target = index - 1
      } else if to < from && index >= to && index < from {
        target = index + 1
      } else {
        target = index
      }
      moved[target] = value
    }
    marks = moved
    clearPositions()
  }
}
