// Setting the ``PhotoMarks`` of the card on screen, and skipping it.

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
