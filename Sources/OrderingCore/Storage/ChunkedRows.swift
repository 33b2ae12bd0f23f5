// A sequence of (id, value) rows stored in chunks, so inserting or removing a row in the middle
// of a million-row list moves at most a chunk's worth of rows instead of half the list.
//
// Layout: `chunks[c]` holds between 1 and `2 * chunkSize` rows (the only chunk may be empty);
// `starts[c]` is the list index of chunk `c`'s first row. Finding a row is a binary search over
// `starts` (O(log(n / B))); inserting or removing updates the starts after the chunk (O(n / B))
// and shifts rows inside one chunk (O(B)). With B = 512 and n = 1,000,000 that is about 2,000
// integer additions and at most 1,024 row moves per operation.

/// Rows of an ordered list, in chunks of at most `2 * chunkSize` rows.
@usableFromInline
struct ChunkedRows<ID, Value> {
  /// One run of consecutive rows.
  @usableFromInline
  struct Chunk {
    @usableFromInline var ids: [ID]
    @usableFromInline var values: [Value]

    @inlinable
    init(ids: [ID], values: [Value]) {
      self.ids = ids
      self.values = values
    }
  }

  /// The target number of rows per chunk; a chunk splits when it reaches twice this.
  @inlinable static var chunkSize: Int { 512 }

  @usableFromInline var chunks: [Chunk] = [Chunk(ids: [], values: [])]
  /// The list index of each chunk's first row.
  @usableFromInline var starts: [Int] = [0]
  /// The number of rows.
  @usableFromInline var count = 0

  @inlinable init() {}

  /// Creates rows from parallel arrays of ids and values, in full chunks.
  @inlinable
  init(ids: [ID], values: [Value]) {
    precondition(ids.count == values.count, "ids and values differ in count")
    guard !ids.isEmpty else { return }
    chunks = []
    starts = []
    var start = 0
    while start < ids.count {
      let end = Swift.min(start + Self.chunkSize, ids.count)
      chunks.append(Chunk(ids: Array(ids[start..<end]), values: Array(values[start..<end])))
      starts.append(start)
      start = end
    }
    count = ids.count
  }

  /// The chunk holding list index `index` and the offset inside it; `index == count` gives the
  /// end of the last chunk.
  ///
  /// - Complexity: O(log(*n* / *B*)).
  @inlinable @inline(__always)
  func locate(_ index: Int) -> (chunk: Int, offset: Int) {
    var low = 0
    var high = starts.count - 1
    // The last chunk whose start is <= index.
    while low < high {
      let middle = (low + high + 1) >> 1
      if starts[middle] <= index { low = middle } else { high = middle - 1 }
    }
    return (low, index - starts[low])
  }

  /// The id at `index`.
  @inlinable
  func id(at index: Int) -> ID {
    let (chunk, offset) = locate(index)
    return chunks[chunk].ids[offset]
  }

  /// The value at `index`.
  @inlinable
  func value(at index: Int) -> Value {
    let (chunk, offset) = locate(index)
    return chunks[chunk].values[offset]
  }

  /// Replaces the value at `index`.
  @inlinable
  mutating func setValue(_ value: Value, at index: Int) {
    let (chunk, offset) = locate(index)
    chunks[chunk].values[offset] = value
  }

  /// Calls `body` with the index, id and value of every row in `range`, in order.
  ///
  /// - Complexity: O(log(*n* / *B*) + *r*), where *r* is the length of `range`.
  @inlinable
  func forEach(in range: Range<Int>, _ body: (Int, ID, Value) throws -> Void) rethrows {
    guard !range.isEmpty else { return }
    var (chunk, offset) = locate(range.lowerBound)
    var index = range.lowerBound
    while index < range.upperBound {
      let rows = chunks[chunk]
      let end = Swift.min(rows.ids.count, offset + (range.upperBound - index))
      for position in offset..<end {
        try body(index, rows.ids[position], rows.values[position])
        index += 1
      }
      chunk += 1
      offset = 0
    }
  }

  /// Lets `body` rewrite the value of every row in `range`, in order.
  ///
  /// - Complexity: O(log(*n* / *B*) + *r*), where *r* is the length of `range`.
  @inlinable
  mutating func updateValues(in range: Range<Int>, _ body: (Int, ID, inout Value) -> Void) {
    guard !range.isEmpty else { return }
    var (chunk, offset) = locate(range.lowerBound)
    var index = range.lowerBound
    while index < range.upperBound {
      let available = chunks[chunk].ids.count
      let end = Swift.min(available, offset + (range.upperBound - index))
      for position in offset..<end {
        body(index, chunks[chunk].ids[position], &chunks[chunk].values[position])
        index += 1
      }
      chunk += 1
      offset = 0
    }
  }

  /// Inserts a row at `index` (0...count).
  ///
  /// - Complexity: O(*B* + *n* / *B*).
  @inlinable
  mutating func insert(id: ID, value: Value, at index: Int) {
    precondition(index >= 0 && index <= count, "row index \(index) is outside 0...\(count)")
    let (chunk, offset) = locate(index)
    chunks[chunk].ids.insert(id, at: offset)
    chunks[chunk].values.insert(value, at: offset)
    count += 1
    for later in (chunk + 1)..<starts.count { starts[later] += 1 }
    if chunks[chunk].ids.count >= 2 * Self.chunkSize { split(chunk) }
  }

  /// Removes and returns the row at `index` (0..<count).
  ///
  /// - Complexity: O(*B* + *n* / *B*).
  @inlinable @discardableResult
  mutating func remove(at index: Int) -> (id: ID, value: Value) {
    precondition(index >= 0 && index < count, "row index \(index) is outside 0..<\(count)")
    let (chunk, offset) = locate(index)
    let id = chunks[chunk].ids.remove(at: offset)
    let value = chunks[chunk].values.remove(at: offset)
    count -= 1
    for later in (chunk + 1)..<starts.count { starts[later] -= 1 }
    if chunks[chunk].ids.count < Self.chunkSize / 4 && chunks.count > 1 { mergeSmall(chunk) }
    return (id, value)
  }

  /// Every id, in order.
  @inlinable
  var allIDs: [ID] { joined(\.ids) }

  /// Every value, in order.
  @inlinable
  var allValues: [Value] { joined(\.values) }

  /// One column of every chunk, joined in order.
  @inlinable
  func joined<Element>(_ column: KeyPath<Chunk, [Element]>) -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(count)
    for chunk in chunks { result.append(contentsOf: chunk[keyPath: column]) }
    return result
  }

  @usableFromInline
  mutating func split(_ chunk: Int) {
    let half = chunks[chunk].ids.count / 2
    let tail = Chunk(
      ids: Array(chunks[chunk].ids[half...]), values: Array(chunks[chunk].values[half...]))
    chunks[chunk].ids.removeSubrange(half...)
    chunks[chunk].values.removeSubrange(half...)
    chunks.insert(tail, at: chunk + 1)
    starts.insert(starts[chunk] + half, at: chunk + 1)
  }

  /// Joins a small chunk with a neighbour (an empty chunk is dropped).
  @usableFromInline
  mutating func mergeSmall(_ chunk: Int) {
    if chunks[chunk].ids.isEmpty {
      chunks.remove(at: chunk)
      starts.remove(at: chunk)
      return
    }
    // Merge into the smaller neighbour when the result stays under the split size.
    let previous = chunk - 1
    let next = chunk + 1
    let target: Int?
    if previous >= 0 && chunks[previous].ids.count + chunks[chunk].ids.count < Self.chunkSize {
      target = previous
    } else if next < chunks.count
      && chunks[next].ids.count + chunks[chunk].ids.count < Self.chunkSize
    {
      target = chunk
    } else {
      target = nil
    }
    guard let left = target else { return }
    let right = left + 1
    let moved = chunks.remove(at: right)
    starts.remove(at: right)
    chunks[left].ids.append(contentsOf: moved.ids)
    chunks[left].values.append(contentsOf: moved.values)
  }
}

extension ChunkedRows: Sendable where ID: Sendable, Value: Sendable {}
extension ChunkedRows.Chunk: Sendable where ID: Sendable, Value: Sendable {}
