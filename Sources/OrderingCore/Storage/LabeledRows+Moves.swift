// The operations an app's list view needs, written once for both labelings: checked offsets
// and ids, SwiftUI's `onMove` (offsets counted before removal), multi-row moves that keep the
// rows' relative order and rewrite only the rows whose labels must change, and removals.

extension _LabeledRows {
  /// The new ids, checked: none in the list, none twice.
  @inlinable
  func checkNew(_ ids: [ID], at index: Int) throws(OrderingError) {
    // One row cannot repeat itself: no set to allocate for the common insert.
    var seen = Set<ID>(minimumCapacity: ids.count > 1 ? ids.count : 0)
    for id in ids {
      if labels[id] != nil {
        throw OrderingError(
          .duplicateID, index: index,
          description:
            "cannot insert row \(String(reflecting: id)): the list already has a row with that id")
      }
      if ids.count > 1 && !seen.insert(id).inserted {
        throw OrderingError(
          .duplicateID, index: index,
          description:
            "cannot insert row \(String(reflecting: id)): it appears twice in the rows to insert")
      }
    }
  }

  /// The offsets, sorted ascending, each in `0..<count` and given once.
  @inlinable
  func checkedOffsets(_ offsets: some Sequence<Int>, to verb: String) throws(OrderingError)
    -> [Int]
  {
    try Offsets.checked(
      offsets, count: count, to: verb, item: "row", items: "rows", of: "the list")
  }

  /// The rows' offsets, sorted ascending; every id must be in the list, and given once.
  @inlinable
  func offsets(of ids: some Sequence<ID>, to verb: String) throws(OrderingError) -> [Int] {
    var result: [Int] = []
    var seen = Set<ID>()
    for id in ids {
      guard let index = index(of: id) else {
        throw OrderingError(
          .unknownID,
          description:
            "cannot \(verb) row \(String(reflecting: id)): the list has no row with that id")
      }
      guard seen.insert(id).inserted else {
        throw OrderingError(
          .duplicateID, index: index,
          description: "cannot \(verb) row \(String(reflecting: id)): it is given twice")
      }
      result.append(index)
    }
    result.sort()
    return result
  }

  /// The offset of an anchor row (`after` adds one), for moves named by ids.
  @inlinable
  func offset(of anchor: ID, after: Bool) throws(OrderingError) -> Int {
    guard let index = index(of: anchor) else {
      throw OrderingError(
        .unknownID,
        description:
          "cannot move rows \(after ? "after" : "before") row \(String(reflecting: anchor)): the list has no row with that id"
      )
    }
    return after ? index + 1 : index
  }

  /// Moves the row at `source` to `destination` (its index after the move); returns its new
  /// label and the other rows' changes. On error nothing changes.
  @inlinable
  mutating func move<L: _Labeler>(from source: Int, to destination: Int, using labeler: L)
    throws(OrderingError) -> (label: Label, changes: [Change]) where L.Label == Label
  {
    precondition(source >= 0 && source < count, "source index \(source) is outside 0..<\(count)")
    precondition(
      destination >= 0 && destination < count,
      "destination index \(destination) is outside 0..<\(count)")
    if source == destination { return (storage.value(at: source), []) }
    // The row keeps its entry in `labels` (placing it writes the new label): one hash, not two.
    let (id, label) = storage.remove(at: source)
    do {
      let (placed, changes) = try place([id], at: destination, using: labeler)
      return (placed[0], changes)
    } catch {
      storage.insert(id: id, value: label, at: source)
      throw error
    }
  }

  /// Moves the rows at `sorted` (ascending, checked) so that they stand together, in their
  /// order, before the row that was at `toOffset` (SwiftUI's `onMove`); returns every row
  /// whose label changed, in list order.
  ///
  /// A moved row whose label still lies between its new neighbours keeps it: moving one row
  /// writes one row, and a multi-row move writes only the rows that must change.
  @inlinable
  mutating func move<L: _Labeler>(offsets sorted: [Int], toOffset: Int, using labeler: L)
    throws(OrderingError) -> [Change] where L.Label == Label
  {
    try Offsets.checkDestination(toOffset, count: count, items: "rows", of: "the list")
    if Offsets.leaveOrder(sorted, toOffset: toOffset) { return [] }
    var moved: [(offset: Int, id: ID, label: Label)] = []
    moved.reserveCapacity(sorted.count)
    for offset in sorted.reversed() {
      let (id, label) = remove(at: offset)
      moved.append((offset, id, label))
    }
    moved.reverse()
    let index = Offsets.insertionIndex(sorted, toOffset: toOffset)
    let lower = index > 0 ? storage.value(at: index - 1) : nil
    let upper = index < count ? storage.value(at: index) : nil
    // Labels increase along `moved`, so the rows that may keep theirs are one run.
    let keep = moved.indices.filter { slot in
      lower.map { $0 < moved[slot].label } ?? true && upper.map { moved[slot].label < $0 } ?? true
    }
    let kept = (keep.first ?? 0)..<((keep.last ?? -1) + 1)
    var others: [Change] = []
    do {
      if kept.isEmpty {
        others += try place(moved.map(\.id), at: index, using: labeler).changes
      } else {
        for (offset, slot) in kept.enumerated() {
          insert(moved[slot].id, moved[slot].label, at: index + offset)
        }
        let tail = moved[kept.upperBound...].map(\.id)
        others += try place(tail, at: index + kept.count, using: labeler).changes
        others += try place(moved[..<kept.lowerBound].map(\.id), at: index, using: labeler).changes
      }
    } catch {
      restore(moved, undoing: others)
      throw error
    }
    return settle(moved, others)
  }

  /// The moved rows' changes (first label to last) and the others' (first old to last new),
  /// without rows that ended where they began, in list order.
  @inlinable
  func settle(_ moved: [(offset: Int, id: ID, label: Label)], _ others: [Change]) -> [Change] {
    var result: [ID: Change] = [:]
    for change in others { result[change.id, default: change].new = change.new }
    for row in moved {
      result[row.id] = Change(id: row.id, old: row.label, new: labels[row.id] ?? row.label)
    }
    return result.values.filter { $0.old != $0.new }.sorted { $0.new < $1.new }
  }

  /// Puts the list back as it was before a move that failed part way: the moved rows at
  /// their offsets with their labels, every other row's first label back.
  @usableFromInline
  mutating func restore(_ moved: [(offset: Int, id: ID, label: Label)], undoing others: [Change]) {
    var old: [ID: Label] = [:]
    for change in others.reversed() { old[change.id] = change.old }
    var ids: [ID] = []
    var values: [Label] = []
    storage.forEach(in: 0..<count) { _, id, label in
      if !moved.contains(where: { $0.id == id }) {
        ids.append(id)
        values.append(old[id] ?? label)
      }
    }
    for row in moved {
      ids.insert(row.id, at: row.offset)
      values.insert(row.label, at: row.offset)
    }
    storage = ChunkedRows(ids: ids, values: values)
    labels = Dictionary(uniqueKeysWithValues: zip(ids, values))
  }

  /// Removes the rows at `sorted` (ascending, checked) and returns them in list order.
  @inlinable
  mutating func remove(offsets sorted: [Int]) -> [(id: ID, label: Label)] {
    var removed: [(id: ID, label: Label)] = []
    removed.reserveCapacity(sorted.count)
    for offset in sorted.reversed() { removed.append(remove(at: offset)) }
    return removed.reversed()
  }
}
