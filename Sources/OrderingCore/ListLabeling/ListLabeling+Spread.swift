// Where evenly spread positions go between two bounds, with the range's ends as open bounds.
//
// All distances are computed as UInt64 differences, so the full range Int64.min...Int64.max
// works without overflow; positions are reconstructed with wrapping arithmetic, which is
// exact because every result lies inside the range.

/// `count` strictly increasing positions: `start + gap * j + (extra * (j + 1)) / divisor`.
@usableFromInline
struct SpreadPlan: Sendable {
  @usableFromInline var start: Int64
  @usableFromInline var gap: UInt64
  @usableFromInline var extra: UInt64
  @usableFromInline var divisor: UInt64

  @inlinable
  init(start: Int64, gap: UInt64, extra: UInt64 = 0, divisor: UInt64 = 1) {
    self.start = start
    self.gap = gap
    self.extra = extra
    self.divisor = divisor
  }

  /// The position of the `j`-th row of the plan.
  @inlinable @inline(__always)
  func position(_ j: Int) -> Int64 {
    let step = UInt64(j)
    let offset = gap &* step &+ (extra &* (step &+ 1)) / divisor
    return start &+ Int64(bitPattern: offset)
  }
}

/// The distance from `low` to `high` (`low <= high`) as an unsigned number.
@inlinable @inline(__always)
func distance(_ low: Int64, _ high: Int64) -> UInt64 {
  UInt64(bitPattern: high &- low)
}

extension ListLabelingConfiguration {
  /// The number of positions in the range minus one.
  @inlinable var width: UInt64 { distance(range.lowerBound, range.upperBound) }

  /// Plans `count` positions strictly between `lower` and `upper` (`nil` is an open end of
  /// the range), each at least `minimumGap` from the next, or `nil` when they do not fit.
  ///
  /// Between two rows the positions split the gap evenly. Toward an open end the rows are
  /// `endGap` apart when there is room (appending stays cheap), each taking at most a
  /// 1/(`listCount` + 1) share of the room left, so a list growing at one end slows down
  /// instead of running into the end; and never closer to the end than to each other. With
  /// both ends open the rows are centred in the range.
  @inlinable
  func plan(
    count: Int, lower: Int64?, upper: Int64?, minimumGap: UInt64, listCount: Int
  ) -> SpreadPlan? {
    precondition(count >= 1)
    let rows = UInt64(count)
    let endGap = UInt64(self.endGap)
    let floor = Swift.max(minimumGap, 1)
    switch (lower, upper) {
    case (let lower?, let upper?):
      let room = distance(lower, upper)
      let gap = room / (rows + 1)
      guard gap >= floor else { return nil }
      return SpreadPlan(
        start: lower &+ Int64(bitPattern: gap), gap: gap, extra: room % (rows + 1),
        divisor: rows + 1)
    case (let lower?, nil):
      let gap = endGapToward(room: distance(lower, range.upperBound), rows, listCount, floor)
      guard gap >= floor else { return nil }
      return SpreadPlan(start: lower &+ Int64(bitPattern: gap), gap: gap)
    case (nil, let upper?):
      let gap = endGapToward(room: distance(range.lowerBound, upper), rows, listCount, floor)
      guard gap >= floor else { return nil }
      return SpreadPlan(start: upper &- Int64(bitPattern: gap &* rows), gap: gap)
    case (nil, nil):
      let width = self.width
      if count == 1 {
        return SpreadPlan(start: range.lowerBound &+ Int64(bitPattern: width / 2), gap: 0)
      }
      // Leave at least half the range free beyond the ends, so prepending and appending stay
      // cheap; a range too small for that packs the rows as evenly as it can.
      var gap = Swift.min(endGap, width / 2 / (rows + 1))
      if gap == 0 { gap = width / (rows + 1) }
      if gap == 0 { gap = width / (rows - 1) }
      guard gap >= floor else { return nil }
      let span = gap &* (rows - 1)
      return SpreadPlan(start: range.lowerBound &+ Int64(bitPattern: (width - span) / 2), gap: gap)
    }
  }
  /// The gap between rows placed toward an open end with `room` positions left: `endGap`,
  /// or a 1/(`listCount` + 1) share of the room when that is smaller and still at least
  /// `floor`, else the room split evenly among the rows and the end.
  @inlinable
  func endGapToward(room: UInt64, _ rows: UInt64, _ listCount: Int, _ floor: UInt64) -> UInt64 {
    let share = Swift.min(UInt64(endGap), room / (UInt64(listCount) + 1))
    if share >= floor { return share }
    return Swift.min(UInt64(endGap), room / (rows + 1))
  }
}

extension ListLabelingConfiguration: _Labeler {
  /// The smallest gap a relabeled window of `count` rows must leave between its rows: its
  /// density threshold. Larger windows must be sparser (the gap grows with the window), so a
  /// window relabeled now absorbs about as many inserts as it has rows before it needs
  /// relabeling again. The threshold never asks for more than `ceiling`: the gap a
  /// whole-list spread would give (over half the range), and at most the end gap, so a range
  /// that is small for its list still relabels windows rather than the whole list.
  @inlinable @inline(__always)
  static func minimumGap(forWindowOf count: Int, ceiling: UInt64) -> UInt64 {
    Swift.max(2, Swift.min(UInt64(count), ceiling))
  }

  /// The ceiling of ``minimumGap(forWindowOf:ceiling:)`` for a list of `rows` rows.
  @inlinable
  func gapCeiling(rows: Int) -> UInt64 {
    Swift.min(UInt64(endGap), width / 2 / (UInt64(rows) + 1))
  }

  /// Not API: positions for `count` new rows in the gap, when it is free; throws when the
  /// range has fewer positions than the list will have rows.
  @inlinable
  public func _direct(
    _ count: Int, between lower: Int64?, and upper: Int64?, listCount: Int, at index: Int
  ) throws(OrderingError) -> [Int64]? {
    if UInt64(listCount) - 1 > width {
      throw OrderingError(
        .positionSpaceExhausted, index: index,
        description:
          "cannot place \(listCount) rows in positions \(range.lowerBound)...\(range.upperBound): the range has only \(width &+ 1) positions"
      )
    }
    let plan = self.plan(
      count: count, lower: lower, upper: upper, minimumGap: 1, listCount: listCount)
    return plan.map { plan in (0..<count).map(plan.position) }
  }

  /// Not API: positions for a window of `count` rows when the window is sparse enough for
  /// its size.
  @inlinable
  public func _window(
    _ count: Int, between lower: Int64?, and upper: Int64?, whole: Bool, listCount: Int
  ) throws(OrderingError) -> [Int64]? {
    let minimumGap =
      whole ? 1 : Self.minimumGap(forWindowOf: count, ceiling: gapCeiling(rows: listCount))
    let plan = self.plan(
      count: count, lower: lower, upper: upper, minimumGap: minimumGap, listCount: listCount)
    return plan.map { plan in (0..<count).map(plan.position) }
  }
}
