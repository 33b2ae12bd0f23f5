/// What the resolver answers at a pointer, apart from the auto-scroll speed: the target, the
/// insertion line and the tint.
public struct DropAnswer<ID: Hashable & Sendable>: Hashable, Sendable {
  /// The target, or nil over the dragged row itself.
  public var target: DropTarget<ID>?
  /// The insertion line, or nil when there is none.
  public var line: InsertionLine?
  /// Whether the dragged row shows the invalid tint.
  public var showsInvalidTint: Bool

  /// Whether two answers have the same target, line and tint (inlinable, as the target's).
  @inlinable public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.showsInvalidTint == rhs.showsInvalidTint && lhs.line == rhs.line
      && lhs.target == rhs.target
  }

  /// Hashes the target, line and tint.
  @inlinable public func hash(into hasher: inout Hasher) {
    hasher.combine(target)
    hasher.combine(line)
    hasher.combine(showsInvalidTint)
  }

  /// Creates an answer.
  @inlinable public init(target: DropTarget<ID>?, line: InsertionLine?, showsInvalidTint: Bool) {
    self.target = target
    self.line = line
    self.showsInvalidTint = showsInvalidTint
  }
}

/// A rectangle of pointer positions, its edges included, over which the resolver gives one
/// answer for a given previous instruction.
public struct DropRegion<ID: Hashable & Sendable>: Hashable, Sendable {
  /// The leftmost x.
  public var minX: Double
  /// The rightmost x.
  public var maxX: Double
  /// The top y.
  public var minY: Double
  /// The bottom y.
  public var maxY: Double
  /// The answer at every point of the rectangle.
  public var answer: DropAnswer<ID>

  @usableFromInline
  init(minX: Double, maxX: Double, minY: Double, maxY: Double, answer: DropAnswer<ID>) {
    self.minX = minX
    self.maxX = maxX
    self.minY = minY
    self.maxY = maxY
    self.answer = answer
  }

  /// Whether the point lies in the rectangle, its edges included.
  @inlinable public func contains(_ point: TouchPoint) -> Bool {
    point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
  }
}

extension DropTargetResolver {
  /// The resolver's answers for the next pointer sample near a point, as rectangles: for any
  /// pointer inside one, ``resolve(pointer:rows:dragged:rules:configuration:previous:)`` with
  /// the same rows, rules, configuration and `previous` gives that rectangle's target, line
  /// and tint (the auto-scroll speed, which changes with every y, is not part of it).
  ///
  /// A client that resolves far away (a server, a background task) sends these with each
  /// answer, with `previous` set to that answer's instruction. When the next sample lands in
  /// a rectangle, the client draws its line in the same frame as the dragged row, and the
  /// resolver's own answer, when it arrives, confirms it.
  ///
  /// The answer changes only at a row's top, bottom and zone edges and, below the last row
  /// of a subtree, at each indentation step of x; with hysteresis, also one hysteresis
  /// distance to either side of those. Each stretch between two such edges, and each edge
  /// itself, is resolved once; a margin of a millionth of a point either side of an edge,
  /// where rounding could put the change, belongs to no rectangle unless both sides agree.
  ///
  /// ```swift
  /// let regions = DropTargetResolver.regions(
  ///   around: TouchPoint(x: 40, y: 130), radius: 96, rows: rows, dragged: ["travel-1"],
  ///   rules: rules, configuration: configuration, previous: resolution.target?.instruction)
  /// if let next = regions.first(where: { $0.contains(TouchPoint(x: 42, y: 151)) }) {
  ///   draw(next.answer.line)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - pointer: The centre of the square of pointer positions to cover.
  ///   - radius: Half the square's side, in points.
  ///   - rows: The visible rows, top to bottom, in outline order.
  ///   - dragged: The dragged rows' ids.
  ///   - rules: Where the dragged rows may land.
  ///   - configuration: Geometry and thresholds.
  ///   - previous: The instruction the next sample's resolution will be given.
  /// - Returns: Disjoint rectangles, top to bottom and left to right, inside the square.
  /// - Complexity: O((*e* + *b*·*s*)·*n* + *k*) and one rules check per distinct target,
  ///   where *e* is the number of edges within the radius, *b* how many of them lie below
  ///   the last row of a subtree, *s* the number of indentation steps within the radius,
  ///   *n* the number of rows and *k* of dragged rows.
  @inlinable public static func regions<Rules: DropRules>(
    around pointer: TouchPoint, radius: Double, rows: [DropRow<Rules.ID>],
    dragged: [Rules.ID], rules: Rules, configuration: DropConfiguration,
    previous: DropInstruction<Rules.ID>?
  ) -> [DropRegion<Rules.ID>] {
    guard radius >= 0, pointer.x.isFinite, pointer.y.isFinite, radius.isFinite else { return [] }
    let outline = Outline(rows: rows, dragged: dragged)
    var targets: [DropInstruction<Rules.ID>: DropTarget<Rules.ID>] = [:]
    func answer(_ point: TouchPoint) -> DropAnswer<Rules.ID> {
      outline.answer(at: point, configuration: configuration, previous: previous) { wanted in
        if let known = targets[wanted] { return known }
        let target = outline.validate(
          wanted, dragged: dragged, rules: rules, configuration: configuration)
        targets[wanted] = target
        return target
      }
    }
    let h = configuration.hysteresis.isFinite ? abs(configuration.hysteresis) : 0
    var edgesY: [Double] = []
    for row in rows {
      let edge = row.acceptsChildren ? configuration.edgeFraction : 0.5
      edgesY += [
        row.minY, row.maxY, row.minY + edge * row.height, row.minY + (1 - edge) * row.height,
      ]
    }
    var edgesX: [Double] = []
    let indent = configuration.indentationWidth
    if indent > 0, indent.isFinite {
      let deepest = rows.map(\.depth).max() ?? 0
      for step in 0...(deepest + 1) { edgesX.append(configuration.originX + Double(step) * indent) }
    }
    let ys = Span.cells(
      edges: edgesY, hysteresis: h, from: pointer.y - radius, to: pointer.y + radius)
    let xs = Span.cells(
      edges: edgesX, hysteresis: h, from: pointer.x - radius, to: pointer.x + radius)
    let whole = [Span(low: pointer.x - radius, high: pointer.x + radius, probe: pointer.x)]

    var regions: [DropRegion<Rules.ID>] = []
    var band: (low: Double, high: Double, runs: [(Span, DropAnswer<Rules.ID>)])?
    func flush() {
      guard let band else { return }
      for (span, answer) in band.runs {
        regions.append(
          DropRegion(
            minX: span.low, maxX: span.high, minY: band.low, maxY: band.high, answer: answer))
      }
    }
    for row in ys {
      // The x matters only where one of the probes lands below the last row of a subtree.
      let usesX = [row.probe, row.probe - h, row.probe + h].contains { y in
        outline.raw(at: TouchPoint(x: pointer.x, y: y), configuration: configuration)?.usesX
          == true
      }
      var runs: [(Span, DropAnswer<Rules.ID>)] = []
      for column in usesX ? xs : whole {
        let here = answer(TouchPoint(x: column.probe, y: row.probe))
        if let last = runs.last, last.1 == here {
          runs[runs.count - 1].0.high = column.high
        } else {
          runs.append((column, here))
        }
      }
      if let current = band, current.runs.elementsEqual(runs, by: { $0.0 == $1.0 && $0.1 == $1.1 })
      {
        band?.high = row.high
      } else {
        flush()
        band = (row.low, row.high, runs)
      }
    }
    flush()
    return regions
  }
}

/// A stretch of one coordinate with one answer: between two edges (less a margin) or an edge
/// itself; `probe` is where it is resolved.
@usableFromInline
struct Span: Equatable {
  @usableFromInline var low: Double
  @usableFromInline var high: Double
  @usableFromInline var probe: Double

  @inlinable init(low: Double, high: Double, probe: Double) {
    self.low = low
    self.high = high
    self.probe = probe
  }

  /// Where rounding could move an edge: a millionth of a point, or more far from the origin.
  @inlinable static func margin(_ value: Double) -> Double { max(1e-6, abs(value) * 0x1p-40) }

  /// The stretches and edges from `low` to `high`, given the edges (each also moved by the
  /// hysteresis either way).
  @inlinable static func cells(
    edges: [Double], hysteresis: Double, from low: Double, to high: Double
  )
    -> [Span]
  {
    var all: [Double] = []
    for edge in edges where edge.isFinite {
      for value in [edge - hysteresis, edge, edge + hysteresis] where value >= low && value <= high
      {
        all.append(value)
      }
    }
    all.sort()
    var spans: [Span] = []
    var start = low
    var last: Double?
    for edge in all where edge != last {
      last = edge
      let end = edge - margin(edge)
      if end >= start { spans.append(Span(low: start, high: end, probe: (start + end) / 2)) }
      spans.append(Span(low: edge, high: edge, probe: edge))
      start = edge + margin(edge)
    }
    if high >= start { spans.append(Span(low: start, high: high, probe: (start + high) / 2)) }
    return spans
  }
}
