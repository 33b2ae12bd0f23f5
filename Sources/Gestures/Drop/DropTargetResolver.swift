/// Turns a pointer over row frames into a drop target, an insertion line and an auto-scroll
/// speed; and a keyboard move into the same kind of target. Pure functions: the same input
/// gives the same output.
///
/// Zones: on a row that takes children, the top quarter means "insert above", the bottom
/// quarter "insert below" and the middle "make child"; other rows split in halves. Below the
/// last row of a subtree, the pointer's x chooses the level: each indentation width to the
/// left climbs one ancestor ("reparent"). Below an expanded row with visible children, the
/// drop lands as its first child, where the line is drawn.
///
/// ```swift
/// let resolution = DropTargetResolver.resolve(
///   pointer: TouchPoint(x: 40, y: 130), rows: rows, dragged: ["travel-1"], rules: rules,
///   configuration: DropConfiguration(viewportMaxY: 640))
/// switch resolution.target {
/// case .allowed(let instruction)?: forest.move("travel-1", to: instruction.move)
/// case .blocked(let refusal, _)?: showTint(refusal.reason)
/// case nil: break
/// }
/// ```
public enum DropTargetResolver: Sendable {
  /// Whether every dragged row may be lifted: nil when so, else the first refusal.
  ///
  /// - Complexity: O(*k*), where *k* is the number of dragged rows.
  @inlinable public static func canLift<Rules: DropRules>(_ dragged: [Rules.ID], rules: Rules)
    -> DropRefusal?
  {
    for id in dragged {
      if let refusal = rules.canDrag(id) { return refusal }
    }
    return nil
  }

  /// Resolves the drop target under a pointer.
  ///
  /// - Parameters:
  ///   - pointer: The pointer, in the list's coordinates.
  ///   - rows: The visible rows, top to bottom, in outline order.
  ///   - dragged: The dragged rows' ids (their visible descendants move with them).
  ///   - rules: Where the dragged rows may land.
  ///   - configuration: Geometry and thresholds.
  ///   - previous: The instruction of the previous call, for hysteresis: a target that the
  ///     pointer would reach again within ``DropConfiguration/hysteresis`` points is kept.
  /// - Returns: The target, the insertion line, the tint and the auto-scroll speed.
  /// - Complexity: O(*n* + *k*), where *n* is the number of rows and *k* of dragged rows.
  @inlinable public static func resolve<Rules: DropRules>(
    pointer: TouchPoint, rows: [DropRow<Rules.ID>], dragged: [Rules.ID], rules: Rules,
    configuration: DropConfiguration, previous: DropInstruction<Rules.ID>? = nil
  ) -> DropResolution<Rules.ID> {
    let outline = Outline(rows: rows, dragged: dragged)
    let answer = outline.answer(
      at: pointer, configuration: configuration, previous: previous
    ) { outline.validate($0, dragged: dragged, rules: rules, configuration: configuration) }
    return DropResolution(
      target: answer.target, line: answer.line, showsInvalidTint: answer.showsInvalidTint,
      autoScrollSpeed: autoScrollSpeed(y: pointer.y, configuration: configuration))
  }

  /// The auto-scroll speed for a pointer's y: zero outside the edge zones, ramping
  /// quadratically to the maximum speed at the viewport's edge (negative at the top).
  @inlinable public static func autoScrollSpeed(y: Double, configuration: DropConfiguration)
    -> Double
  {
    let edge = configuration.autoScrollEdge
    guard edge > 0 else { return 0 }
    let fromTop = y - configuration.viewportMinY
    let fromBottom = configuration.viewportMaxY - y
    if fromTop < edge && fromTop <= fromBottom {
      let depth = min(1, (edge - fromTop) / edge)
      return -configuration.autoScrollMaximumSpeed * depth * depth
    }
    if fromBottom < edge {
      let depth = min(1, (edge - fromBottom) / edge)
      return configuration.autoScrollMaximumSpeed * depth * depth
    }
    return 0
  }

  /// Resolves a keyboard (or accessibility) move of one row under the same rules.
  ///
  /// - Returns: The target; `.blocked(.edge, wanted: .insertAbove(id))` when there is nowhere
  ///   to go, and a blocked target when the row may not be dragged or may not land there.
  /// - Complexity: O(*n*), where *n* is the number of rows.
  @inlinable public static func keyboardMove<Rules: DropRules>(
    _ move: KeyboardMove, of id: Rules.ID, in rows: [DropRow<Rules.ID>], rules: Rules,
    configuration: DropConfiguration = DropConfiguration()
  ) -> DropTarget<Rules.ID> {
    let outline = Outline(rows: rows, dragged: [id])
    guard let index = outline.index(of: id) else {
      return .blocked(.edge, wanted: .insertAbove(id))
    }
    guard let wanted = outline.keyboardInstruction(move, from: index) else {
      return .blocked(.edge, wanted: .insertAbove(id))
    }
    if let refusal = rules.canDrag(id) { return .blocked(refusal, wanted: wanted) }
    return outline.validate(wanted, dragged: [id], rules: rules, configuration: configuration)
  }
}

/// The rows seen as an outline: parents, siblings and the dragged subtrees.
@usableFromInline
struct Outline<ID: Hashable & Sendable> {
  @usableFromInline let rows: [DropRow<ID>]
  /// For each row, whether it is dragged or inside a dragged subtree.
  @usableFromInline let moving: [Bool]
  /// For each row, whether it is itself one of the dragged rows.
  @usableFromInline let isDragged: [Bool]
  /// The deepest visible level below a dragged row, relative to it.
  @usableFromInline let draggedHeight: Int
  /// Each row's bottom, apart from the rows: finding the row under a pointer reads only these
  /// (the drop regions find it hundreds of times per answer).
  @usableFromInline let maxYs: [Double]
  /// Whether the bottoms never decrease, so the row under a pointer can be found by bisection.
  @usableFromInline let sorted: Bool

  @inlinable init(rows: [DropRow<ID>], dragged: [ID]) {
    self.rows = rows
    let draggedSet = Set(dragged)
    var moving = [Bool](repeating: false, count: rows.count)
    var isDragged = [Bool](repeating: false, count: rows.count)
    var height = 0
    var index = 0
    while index < rows.count {
      if draggedSet.contains(rows[index].id) {
        isDragged[index] = true
        let root = rows[index].depth
        moving[index] = true
        var next = index + 1
        while next < rows.count && rows[next].depth > root {
          moving[next] = true
          height = max(height, rows[next].depth - root)
          if draggedSet.contains(rows[next].id) { isDragged[next] = true }
          next += 1
        }
        index = next
      } else {
        index += 1
      }
    }
    self.moving = moving
    self.isDragged = isDragged
    self.draggedHeight = height
    maxYs = rows.map(\.maxY)
    sorted = zip(maxYs, maxYs.dropFirst()).allSatisfy { $0 <= $1 }
  }

  @inlinable func index(of id: ID) -> Int? { rows.firstIndex { $0.id == id } }

  @inlinable func parent(of index: Int) -> Int? {
    var j = index - 1
    while j >= 0 {
      if rows[j].depth < rows[index].depth { return j }
      j -= 1
    }
    return nil
  }

  @inlinable func ancestor(of index: Int, atDepth depth: Int) -> Int? {
    var j = index
    while j >= 0 {
      if rows[j].depth == depth && j <= index { return j }
      if rows[j].depth < depth { return nil }
      j -= 1
    }
    return nil
  }

  @inlinable func previousSibling(of index: Int) -> Int? {
    var j = index - 1
    while j >= 0 {
      if rows[j].depth == rows[index].depth { return j }
      if rows[j].depth < rows[index].depth { return nil }
      j -= 1
    }
    return nil
  }

  @inlinable func nextSibling(of index: Int) -> Int? {
    var j = index + 1
    while j < rows.count && rows[j].depth > rows[index].depth { j += 1 }
    return j < rows.count && rows[j].depth == rows[index].depth ? j : nil
  }

  @inlinable func sibling(of index: Int, upward: Bool) -> Int? {
    upward ? previousSibling(of: index) : nextSibling(of: index)
  }

  @usableFromInline
  struct Raw {
    @usableFromInline var instruction: DropInstruction<ID>
    @usableFromInline var lineY: Double
    @usableFromInline var depth: Int
    /// Whether the pointer's x chose the instruction (below the last row of a subtree).
    @usableFromInline var usesX: Bool

    @inlinable
    init(instruction: DropInstruction<ID>, lineY: Double, depth: Int, usesX: Bool = false) {
      self.instruction = instruction
      self.lineY = lineY
      self.depth = depth
      self.usesX = usesX
    }
  }

  /// The first row whose bottom is below y, else the last row.
  ///
  /// - Complexity: O(log *n*) when the bottoms never decrease, else O(*n*).
  @inlinable func row(under y: Double) -> Int {
    guard sorted else { return maxYs.firstIndex { y < $0 } ?? maxYs.count - 1 }
    var low = 0
    var high = maxYs.count
    while low < high {
      let middle = (low + high) / 2
      if y < maxYs[middle] { high = middle } else { low = middle + 1 }
    }
    return low < maxYs.count ? low : maxYs.count - 1
  }

  /// What the resolver answers at a pointer, apart from the auto-scroll speed: the raw
  /// instruction under it, or the previous one when the pointer is within the hysteresis of a
  /// place that gives it, then validated.
  ///
  /// - Complexity: O(*n*) plus one `validate` call, where *n* is the number of rows.
  @inlinable func answer(
    at pointer: TouchPoint, configuration: DropConfiguration,
    previous: DropInstruction<ID>?, validate: (DropInstruction<ID>) -> DropTarget<ID>
  ) -> DropAnswer<ID> {
    var chosen = raw(at: pointer, configuration: configuration)
    if let previous, let current = chosen, current.instruction != previous {
      let h = configuration.hysteresis
      let nudges = [
        TouchPoint(x: 0, y: -h), TouchPoint(x: 0, y: h), TouchPoint(x: -h, y: 0),
        TouchPoint(x: h, y: 0),
      ]
      for nudge in nudges {
        if let other = raw(at: pointer + nudge, configuration: configuration),
          other.instruction == previous
        {
          chosen = other
          break
        }
      }
    }
    guard let raw = chosen else {
      return DropAnswer(target: nil, line: nil, showsInvalidTint: false)
    }
    let target = validate(raw.instruction)
    let line =
      target.isBlocked
      ? nil
      : InsertionLine(y: raw.lineY, depth: raw.depth, configuration: configuration)
    return DropAnswer(target: target, line: line, showsInvalidTint: target.isBlocked)
  }

  /// The instruction under a pointer, before rules; nil over a dragged row itself.
  @inlinable func raw(at pointer: TouchPoint, configuration: DropConfiguration) -> Raw? {
    guard let first = rows.first, let last = rows.last else {
      return Raw(instruction: .rootIndex(0), lineY: configuration.viewportMinY, depth: 0)
    }
    if pointer.y < first.minY {
      if isDragged[0] { return nil }
      return Raw(instruction: .insertAbove(first.id), lineY: first.minY, depth: first.depth)
    }
    let index = row(under: pointer.y)
    if isDragged[index] { return nil }
    let row = rows[index]
    let fraction = pointer.y >= last.maxY ? 1 : (pointer.y - row.minY) / max(row.height, 1e-9)
    let edge = row.acceptsChildren ? configuration.edgeFraction : 0.5
    if fraction < edge {
      return Raw(instruction: .insertAbove(row.id), lineY: row.minY, depth: row.depth)
    }
    if fraction <= 1 - edge && row.acceptsChildren {
      return Raw(
        instruction: .makeChild(of: row.id, first: row.isExpanded), lineY: row.maxY,
        depth: row.depth + 1)
    }
    // Below the row.
    let next = index + 1 < rows.count ? rows[index + 1] : nil
    if let next, next.depth > row.depth {
      return Raw(
        instruction: .makeChild(of: row.id, first: true), lineY: row.maxY, depth: row.depth + 1)
    }
    let shallowest = next?.depth ?? 0
    if shallowest < row.depth && configuration.indentationWidth > 0 {
      // Clamped as a Double first: a pointer far off to the side (or NaN) must not trap.
      let wanted = ((pointer.x - configuration.originX) / configuration.indentationWidth)
        .rounded(.down)
      let depth = Int(min(Double(row.depth), max(Double(shallowest), wanted)))
      if depth < row.depth, let ancestor = ancestor(of: index, atDepth: depth) {
        return Raw(
          instruction: .reparent(after: rows[ancestor].id, depth: depth), lineY: row.maxY,
          depth: depth, usesX: true)
      }
      return Raw(
        instruction: .insertBelow(row.id), lineY: row.maxY, depth: row.depth, usesX: true)
    }
    return Raw(instruction: .insertBelow(row.id), lineY: row.maxY, depth: row.depth)
  }

  /// Where an instruction lands: the parent row's index (nil for a root) and the depth.
  @inlinable func landing(_ instruction: DropInstruction<ID>) -> (
    anchor: Int?, parent: Int?, depth: Int
  )? {
    switch instruction {
    case .insertAbove(let id), .insertBelow(let id), .reparent(let id, _):
      guard let index = index(of: id) else { return nil }
      return (index, parent(of: index), rows[index].depth)
    case .makeChild(let id, _):
      guard let index = index(of: id) else { return nil }
      return (index, index, rows[index].depth + 1)
    case .rootIndex:
      return (nil, nil, 0)
    }
  }

  @inlinable func validate<Rules: DropRules>(
    _ instruction: DropInstruction<ID>, dragged: [ID], rules: Rules,
    configuration: DropConfiguration
  ) -> DropTarget<ID> where Rules.ID == ID {
    guard let landing = landing(instruction) else {
      return .blocked(.edge, wanted: instruction)
    }
    if let parent = landing.parent, moving[parent] {
      return .blocked(.cycle, wanted: instruction)
    }
    if let anchor = landing.anchor, moving[anchor], !isDragged[anchor] {
      return .blocked(.cycle, wanted: instruction)
    }
    if let maximum = configuration.maximumDepth, landing.depth + draggedHeight > maximum {
      return .blocked(
        DropRefusal(
          code: "maximumDepth",
          reason:
            "the outline allows \(maximum + 1) levels; this drop would make \(landing.depth + draggedHeight + 1)"
        ), wanted: instruction)
    }
    let parentID = landing.parent.map { rows[$0].id }
    if let refusal = rules.canPlace(dragged, under: parentID, depth: landing.depth) {
      return .blocked(refusal, wanted: instruction)
    }
    return .allowed(instruction)
  }

  @inlinable func keyboardInstruction(_ move: KeyboardMove, from index: Int) -> DropInstruction<ID>?
  {
    switch move {
    case .up, .down:
      let upward = move == .up
      if let sibling = sibling(of: index, upward: upward) {
        return upward ? .insertAbove(rows[sibling].id) : .insertBelow(rows[sibling].id)
      }
      // The first (last) of its siblings goes into the parent's previous (next) sibling, at
      // the end nearest to where it was.
      if let parent = parent(of: index), let uncle = sibling(of: parent, upward: upward),
        rows[uncle].acceptsChildren
      {
        return .makeChild(of: rows[uncle].id, first: !upward)
      }
      return nil
    case .indent:
      if let previous = previousSibling(of: index), rows[previous].acceptsChildren {
        return .makeChild(of: rows[previous].id, first: false)
      }
      return nil
    case .outdent:
      if let parent = parent(of: index) {
        return .reparent(after: rows[parent].id, depth: rows[parent].depth)
      }
      return nil
    }
  }
}
