/// Many short lists of 32-bit values in one buffer: each list is a run of cells with room
/// to grow, and a run that outgrows its room moves to the end of the buffer.
///
/// An ordered forest keeps every sibling list here instead of an array per node, so a move
/// touches one buffer and no per-node allocation. The pool does not know which runs are
/// alive (the forest keeps them in its records); it counts the cells no run owns any more
/// (`garbage`), and the owner compacts it by copying every live run into a new pool.
///
/// Invariants (``invariantViolation(runs:)``): every run lies inside the buffer, no cell
/// belongs to two runs, and the cells no run owns are exactly `garbage`.
@usableFromInline
struct RunPool: Sendable {
  /// A run of cells: one list and its room to grow.
  @usableFromInline
  struct Run: Hashable, Sendable {
    /// The index of the first cell.
    @usableFromInline
    var start: Int32
    /// The number of values in the list.
    @usableFromInline
    var count: Int32
    /// The number of cells the run owns, from `start`.
    @usableFromInline
    var capacity: Int32

    /// An empty run that owns no cells.
    @inlinable
    init() {
      start = 0
      count = 0
      capacity = 0
    }

    @inlinable
    init(start: Int, count: Int, capacity: Int) {
      self.start = Int32(start)
      self.count = Int32(count)
      self.capacity = Int32(capacity)
    }

    /// The cells of the list (not its spare room).
    @inlinable
    var cells: Range<Int> { Int(start)..<Int(start) &+ Int(count) }
  }

  /// The value of a cell no list uses.
  @inlinable
  static var unused: Int32 { -1 }

  /// The buffer.
  @usableFromInline
  var cells: [Int32]
  /// Cells that no run owns any more (left behind when a run moved to grow, or released).
  @usableFromInline
  var garbage: Int

  /// An empty pool.
  @inlinable
  init() {
    cells = []
    garbage = 0
  }

  /// A pool that holds `cells` exactly, every cell owned by some run.
  @inlinable
  init(cells: [Int32]) {
    self.cells = cells
    garbage = 0
  }

  /// The value at `index` of a list.
  @inlinable
  @inline(__always)
  subscript(index: Int, in run: Run) -> Int32 {
    precondition(index >= 0 && index < Int(run.count), "list index out of range")
    return cells[Int(run.start) &+ index]
  }

  /// Whether `run` is full.
  @inlinable
  @inline(__always)
  func isFull(_ run: Run) -> Bool { run.count == run.capacity }

  /// The capacity a full run grows to.
  @inlinable
  static func grownCapacity(of run: Run) -> Int { max(4, Int(run.capacity) * 2) }

  /// Whether growing `run` would take the pool past three times `liveCells` (plus a little):
  /// then the owner compacts first. A compaction costs O(*n*) and comes after at least 2*n*
  /// new cells, so growing stays amortized O(1) and the pool under about 3*n* cells.
  @inlinable
  func needsCompaction(toGrow run: Run, liveCells: Int) -> Bool {
    cells.count + Self.grownCapacity(of: run) > 3 * liveCells + 1024
  }

  /// Gives a full run room to grow: in place when it ends the buffer, else in new cells at
  /// the end (its old cells become garbage).
  ///
  /// - Complexity: O(*k*) to copy a run of *k* values.
  @inlinable
  mutating func grow(_ run: inout Run) {
    let capacity = Self.grownCapacity(of: run)
    precondition(cells.count + capacity <= Int(Int32.max), "the pool is too large")
    if Int(run.start) + Int(run.capacity) == cells.count {
      cells.append(contentsOf: repeatElement(Self.unused, count: capacity - Int(run.capacity)))
      run.capacity = Int32(capacity)
      return
    }
    let start = cells.count
    for index in run.cells { cells.append(cells[index]) }
    cells.append(contentsOf: repeatElement(Self.unused, count: capacity - Int(run.count)))
    garbage += Int(run.capacity)
    run.start = Int32(start)
    run.capacity = Int32(capacity)
  }

  /// Inserts `value` at `index` of a list that has room.
  ///
  /// - Complexity: O(*k*) for *k* values after `index`.
  @inlinable
  mutating func insert(_ value: Int32, at index: Int, in run: inout Run) {
    precondition(index >= 0 && index <= Int(run.count), "list index out of range")
    precondition(run.count < run.capacity, "the run is full")
    let base = Int(run.start)
    let moved = Int(run.count) - index
    cells.withUnsafeMutableBufferPointer { cells in
      let at = cells.baseAddress.unsafelyUnwrapped + base + index
      if moved > 0 {
        UnsafeMutableRawPointer(at + 1).copyMemory(
          from: at, byteCount: moved * MemoryLayout<Int32>.stride)
      }
      at.pointee = value
    }
    run.count += 1
  }

  /// Removes the value at `index` of a list.
  ///
  /// - Complexity: O(*k*) for *k* values after `index`.
  @inlinable
  mutating func remove(at index: Int, in run: inout Run) {
    precondition(index >= 0 && index < Int(run.count), "list index out of range")
    let base = Int(run.start)
    let moved = Int(run.count) - index - 1
    if moved > 0 {
      cells.withUnsafeMutableBufferPointer { cells in
        let at = cells.baseAddress.unsafelyUnwrapped + base + index
        UnsafeMutableRawPointer(at).copyMemory(
          from: at + 1, byteCount: moved * MemoryLayout<Int32>.stride)
      }
    }
    run.count -= 1
  }

  /// Gives up the cells of a run that is no longer used.
  @inlinable
  mutating func release(_ run: Run) {
    garbage += Int(run.capacity)
  }

  /// Copies the list of `run` into `fresh` with no spare room, and returns its new run:
  /// compaction calls this for every live run, then replaces the pool with `fresh`.
  @inlinable
  func copy(_ run: Run, into fresh: inout RunPool) -> Run {
    let start = fresh.cells.count
    fresh.cells.append(contentsOf: cells[run.cells])
    return Run(start: start, count: Int(run.count), capacity: Int(run.count))
  }

  /// The first broken invariant for these live runs, or `nil`: every run inside the
  /// buffer, no cell owned twice, and the unowned cells counted as garbage.
  ///
  /// - Complexity: O(*c*), where *c* is the number of cells.
  func invariantViolation(runs: some Sequence<Run>) -> String? {
    var owned = [Bool](repeating: false, count: cells.count)
    var ownedCount = 0
    for run in runs {
      let start = Int(run.start)
      let capacity = Int(run.capacity)
      guard start >= 0, run.count >= 0, run.count <= run.capacity,
        capacity == 0 || start + capacity <= cells.count
      else {
        return "the run \(start)+\(run.count)/\(capacity) is out of the pool"
      }
      for cell in start..<start + capacity {
        guard !owned[cell] else { return "pool cell \(cell) belongs to two runs" }
        owned[cell] = true
      }
      ownedCount += capacity
    }
    guard ownedCount + garbage == cells.count else {
      return "the pool counts \(garbage) garbage cells, but \(cells.count - ownedCount) are unowned"
    }
    return nil
  }

  /// Traps with a message when an invariant is broken for these live runs.
  func checkInvariants(runs: some Sequence<Run>) {
    if let violation = invariantViolation(runs: runs) {
      preconditionFailure("RunPool invariant broken: \(violation)")
    }
  }
}
