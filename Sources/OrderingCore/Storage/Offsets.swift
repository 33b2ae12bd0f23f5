// SwiftUI's `onMove(perform:)` hands over a set of offsets and a destination counted before
// the rows are removed; `onDelete(perform:)` a set of offsets. Both lists and the forest check
// and read them the same way, with messages that name the offset and the group it is outside.

/// Checks and reads row offsets as SwiftUI gives them.
@usableFromInline
enum Offsets {
  /// The offsets, sorted ascending, each in `0..<count` and given once; `items` is the plural
  /// of `item` ("rows", "children") and `holder` what has them ("the list", "trip").
  @inlinable
  static func checked(
    _ offsets: some Sequence<Int>, count: Int, to verb: String, item: String, items: String,
    of holder: String
  ) throws(OrderingError) -> [Int] {
    let sorted = offsets.sorted()
    for (position, offset) in sorted.enumerated() {
      guard offset >= 0 && offset < count else {
        throw OrderingError(
          .offsetOutOfRange, index: offset,
          description:
            "cannot \(verb) the \(item) at offset \(offset): \(holder) has \(count) \(items), at offsets 0..<\(count)"
        )
      }
      if position > 0 && sorted[position - 1] == offset {
        throw OrderingError(
          .duplicateOffset, index: offset,
          description: "cannot \(verb) \(items): offset \(offset) is given twice")
      }
    }
    return sorted
  }

  /// Checks a destination counted before the move: in `0...count`.
  @inlinable
  static func checkDestination(_ toOffset: Int, count: Int, items: String, of holder: String)
    throws(OrderingError)
  {
    guard toOffset >= 0 && toOffset <= count else {
      throw OrderingError(
        .offsetOutOfRange, index: toOffset,
        description:
          "cannot move \(items) to offset \(toOffset): \(holder) has \(count) \(items), so a destination is in 0...\(count)"
      )
    }
  }

  /// Whether moving the rows at `sorted` to `toOffset` leaves the order as it is: a contiguous
  /// block dropped inside or at the edges of itself (no offsets at all included).
  @inlinable
  static func leaveOrder(_ sorted: [Int], toOffset: Int) -> Bool {
    guard let first = sorted.first, let last = sorted.last else { return true }
    return last - first + 1 == sorted.count && toOffset >= first && toOffset <= last + 1
  }

  /// Where the moved block starts among the rows left once it is taken out.
  @inlinable
  static func insertionIndex(_ sorted: [Int], toOffset: Int) -> Int {
    toOffset - sorted.prefix { $0 < toOffset }.count
  }
}
