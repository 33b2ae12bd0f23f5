/// A visible row of a list or an outline, as the drop resolver sees it.
public struct DropRow<ID: Hashable & Sendable>: Hashable, Sendable {
  /// The row's node.
  public var id: ID
  /// The top of the row's frame, in the list's coordinates (points).
  public var minY: Double
  /// The row's height, in points.
  public var height: Double
  /// The row's depth in the outline (0 for a root).
  public var depth: Int
  /// Whether the row's children are shown below it.
  public var isExpanded: Bool
  /// Whether the row may take children.
  public var acceptsChildren: Bool

  /// Creates a row.
  public init(
    id: ID, minY: Double, height: Double, depth: Int = 0, isExpanded: Bool = false,
    acceptsChildren: Bool = false
  ) {
    self.id = id
    self.minY = minY
    self.height = height
    self.depth = depth
    self.isExpanded = isExpanded
    self.acceptsChildren = acceptsChildren
  }

  /// The bottom of the row's frame.
  public var maxY: Double { minY + height }
}

/// A move an ordered forest applies: the same vocabulary as `OrderingCore`'s forest moves,
/// defined here so `Gestures` imports nothing.
public enum DropMove<ID: Hashable & Sendable>: Hashable, Sendable {
  /// Just before a node, under the same parent.
  case before(ID)
  /// Just after a node, under the same parent.
  case after(ID)
  /// The first child of a node.
  case firstChild(of: ID)
  /// The last child of a node.
  case lastChild(of: ID)
  /// A root at an index among the roots.
  case rootIndex(Int)
}

/// Where a drop would land, in the terms of the drag UI.
public enum DropInstruction<ID: Hashable & Sendable>: Hashable, Sendable {
  /// Above a row, as its previous sibling.
  case insertAbove(ID)
  /// Below a row, as its next sibling.
  case insertBelow(ID)
  /// Into a row, as its first child (`first` is true) or its last child.
  case makeChild(of: ID, first: Bool)
  /// Below the current subtree at a shallower level chosen by the pointer's x: after the
  /// ancestor at `depth`.
  case reparent(after: ID, depth: Int)
  /// At a root index (an empty list, or an explicit root slot).
  case rootIndex(Int)

  // Written out and inlinable, where the derived ones are not: the resolver compares and
  // hashes instructions hundreds of times per drop-region answer, and each derived call from
  // specialized code looked up the generic type's metadata at run time.

  /// Whether two instructions are the same case with equal values.
  @inlinable public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.insertAbove(let a), .insertAbove(let b)), (.insertBelow(let a), .insertBelow(let b)):
      a == b
    case (.makeChild(let a, let x), .makeChild(let b, let y)): a == b && x == y
    case (.reparent(let a, let x), .reparent(let b, let y)): a == b && x == y
    case (.rootIndex(let x), .rootIndex(let y)): x == y
    default: false
    }
  }

  /// Hashes the case and its values.
  @inlinable public func hash(into hasher: inout Hasher) {
    switch self {
    case .insertAbove(let id):
      hasher.combine(0)
      hasher.combine(id)
    case .insertBelow(let id):
      hasher.combine(1)
      hasher.combine(id)
    case .makeChild(let id, let first):
      hasher.combine(2)
      hasher.combine(id)
      hasher.combine(first)
    case .reparent(let id, let depth):
      hasher.combine(3)
      hasher.combine(id)
      hasher.combine(depth)
    case .rootIndex(let index):
      hasher.combine(4)
      hasher.combine(index)
    }
  }

  /// The forest move that carries the instruction out.
  public var move: DropMove<ID> {
    switch self {
    case .insertAbove(let id): .before(id)
    case .insertBelow(let id): .after(id)
    case .makeChild(let id, let first): first ? .firstChild(of: id) : .lastChild(of: id)
    case .reparent(let id, _): .after(id)
    case .rootIndex(let index): .rootIndex(index)
    }
  }
}

/// Why a drop or a lift is refused: a code to switch on and a sentence for the user.
public struct DropRefusal: Hashable, Sendable, CustomStringConvertible {
  /// A stable code (`cycle`, `maximumDepth`, `notDraggable`, `edge`, or a rule's own).
  public var code: String
  /// One sentence the UI can show or speak.
  public var reason: String

  /// Creates a refusal.
  public init(code: String, reason: String) {
    self.code = code
    self.reason = reason
  }

  /// The reason.
  public var description: String { reason }

  /// A node would move into its own subtree.
  public static let cycle = DropRefusal(
    code: "cycle", reason: "a row cannot move inside itself or its own children")
  /// A keyboard move has nowhere to go in that direction.
  public static let edge = DropRefusal(
    code: "edge", reason: "the row cannot move further in that direction")
}

/// The caller's rules: which rows may be dragged and where they may land.
///
/// The same rule value drives the forest's refusals, the resolver's blocked instruction and
/// a keyboard move, so the three never disagree.
public protocol DropRules<ID> {
  /// The node identifier.
  associatedtype ID: Hashable & Sendable
  /// Nil when the row may be dragged, else why not.
  func canDrag(_ id: ID) -> DropRefusal?
  /// Nil when the dragged rows may land under `parent` (nil: as roots) at `depth`, else why not.
  func canPlace(_ dragged: [ID], under parent: ID?, depth: Int) -> DropRefusal?
}

/// Rules that allow everything.
public struct OpenDropRules<ID: Hashable & Sendable>: DropRules, Hashable, Sendable {
  /// Creates the rules.
  public init() {}
  /// Always nil.
  public func canDrag(_ id: ID) -> DropRefusal? { nil }
  /// Always nil.
  public func canPlace(_ dragged: [ID], under parent: ID?, depth: Int) -> DropRefusal? { nil }
}

/// What the resolver decided for a pointer position.
public enum DropTarget<ID: Hashable & Sendable>: Hashable, Sendable {
  /// The drop lands as the instruction says.
  case allowed(DropInstruction<ID>)
  /// The drop is refused; `wanted` is where it would have landed.
  case blocked(DropRefusal, wanted: DropInstruction<ID>)

  /// Whether two targets are the same case with equal values (inlinable, as the
  /// instruction's).
  @inlinable public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.instruction == rhs.instruction && lhs.refusal == rhs.refusal
  }

  /// Hashes the instruction and the refusal.
  @inlinable public func hash(into hasher: inout Hasher) {
    hasher.combine(instruction)
    hasher.combine(refusal)
  }

  /// The instruction, allowed or wanted.
  @inlinable public var instruction: DropInstruction<ID> {
    switch self {
    case .allowed(let instruction): instruction
    case .blocked(_, let wanted): wanted
    }
  }

  /// Why the drop is refused, or `nil` when it is allowed.
  @inlinable public var refusal: DropRefusal? {
    if case .blocked(let refusal, _) = self { return refusal }
    return nil
  }

  /// Whether the drop is refused.
  public var isBlocked: Bool { refusal != nil }
}

/// Where to draw the insertion line.
public struct InsertionLine: Hashable, Sendable {
  /// The line's vertical position, in the list's coordinates.
  public var y: Double
  /// The line's leading x: the origin plus the landing depth times the indentation width.
  public var x: Double
  /// The landing depth.
  public var depth: Int

  /// The line at `y` for a landing at `depth`, indented as `configuration` says.
  @usableFromInline
  init(y: Double, depth: Int, configuration: DropConfiguration) {
    self.y = y
    x = configuration.originX + Double(depth) * configuration.indentationWidth
    self.depth = depth
  }
}

/// Everything the UI needs while a row is dragged over a list.
public struct DropResolution<ID: Hashable & Sendable>: Hashable, Sendable {
  /// The target, or nil when the pointer is over the dragged row itself (a drop is a no-op).
  public var target: DropTarget<ID>?
  /// The insertion line to show (fade it in with ``MotionCue/insertionLineFade``), or nil
  /// when there is none (no target, or a blocked one).
  public var line: InsertionLine?
  /// Whether the dragged row shows the red invalid tint (``MotionCue/invalidTint``).
  public var showsInvalidTint: Bool
  /// The auto-scroll speed, points per second: negative scrolls up, positive down, 0 none.
  public var autoScrollSpeed: Double

  @usableFromInline
  init(
    target: DropTarget<ID>?, line: InsertionLine?, showsInvalidTint: Bool,
    autoScrollSpeed: Double
  ) {
    self.target = target
    self.line = line
    self.showsInvalidTint = showsInvalidTint
    self.autoScrollSpeed = autoScrollSpeed
  }

  /// The haptic to play if the finger lifts now: a drop, or the refused-drop pattern.
  public var hapticOnRelease: HapticCue {
    target?.isBlocked == true ? .refusedDrop : .drop
  }

  /// The motion to play if the finger lifts now: snap back when blocked or a no-op.
  public var motionOnRelease: MotionCue? {
    target == nil || target?.isBlocked == true ? .snapBack : nil
  }
}

/// The resolver's geometry and thresholds.
public struct DropConfiguration: Hashable, Sendable {
  /// The x of depth 0's leading edge, in points.
  public var originX: Double
  /// The indentation per depth level, in points.
  public var indentationWidth: Double
  /// The deepest depth a row may land at (nil: no limit).
  public var maximumDepth: Int?
  /// The top and bottom fraction of a row that means above and below when the row takes
  /// children (the middle means "make child"); rows without children split in halves.
  public var edgeFraction: Double
  /// How far the pointer must go past a zone boundary before the target changes, in points.
  public var hysteresis: Double
  /// The viewport's top and bottom, in the list's coordinates.
  public var viewportMinY: Double
  /// The viewport's bottom.
  public var viewportMaxY: Double
  /// The height of the auto-scroll zones at the top and bottom, in points.
  public var autoScrollEdge: Double
  /// The auto-scroll speed at the very edge, points per second.
  public var autoScrollMaximumSpeed: Double

  /// Creates a configuration; the defaults are ours (see the guide).
  public init(
    originX: Double = 16, indentationWidth: Double = 24, maximumDepth: Int? = nil,
    edgeFraction: Double = 0.25, hysteresis: Double = 4, viewportMinY: Double = 0,
    viewportMaxY: Double = 800, autoScrollEdge: Double = 60, autoScrollMaximumSpeed: Double = 1200
  ) {
    self.originX = originX
    self.indentationWidth = indentationWidth
    self.maximumDepth = maximumDepth
    self.edgeFraction = edgeFraction
    self.hysteresis = hysteresis
    self.viewportMinY = viewportMinY
    self.viewportMaxY = viewportMaxY
    self.autoScrollEdge = autoScrollEdge
    self.autoScrollMaximumSpeed = autoScrollMaximumSpeed
  }
}

/// A move from the keyboard or an accessibility action instead of a drag.
public enum KeyboardMove: String, Hashable, Sendable, CaseIterable {
  /// Before the previous sibling, or to the end of the previous parent group.
  case up
  /// After the next sibling, or to the start of the next parent group.
  case down
  /// Into the previous sibling, as its last child (``AccessibilityAction/nest``).
  case indent
  /// Out of the parent, just after it.
  case outdent
}
