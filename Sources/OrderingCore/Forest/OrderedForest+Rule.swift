extension OrderedForest {
  /// A caller's rule about where nodes may go, asked before every move.
  ///
  /// One rule value serves every path: a pointer drop, a keyboard indent or outdent, a
  /// selection move and a programmatic move all ask the same rules, and a UI can ask
  /// `OrderedForest.resolve(_:to:)` while a drag hovers to show the verdict before the drop.
  ///
  /// A rule has two questions. ``canMove(_:)`` says whether a node may be moved at all
  /// (a day header that is not draggable); ``allows(_:in:)`` says whether a node may be
  /// placed at a proposed place (a task may not contain a plan). When a place is refused,
  /// ``resolution`` says what happens: ``Resolution/refuse`` refuses the move,
  /// ``Resolution/clamp`` moves the node to the nearest place every rule allows instead.
  ///
  /// ```swift
  /// let rule = OrderedForest<String>.Rule("tasks hold no plans", allows: { proposal, _ in
  ///   kind[proposal.node] == .plan && proposal.parent.map { kind[$0] == .task } == true
  ///     ? .refuse("a task may not contain a plan") : .allow
  /// })
  /// ```
  public struct Rule: Sendable {
    /// A rule's answer.
    public enum Verdict: Hashable, Sendable {
      /// The move may happen.
      case allow
      /// The move may not happen, for this reason (one phrase a user can read).
      case refuse(String)
    }

    /// What a move does when this rule refuses the place it asked for.
    public enum Resolution: Hashable, Sendable {
      /// Refuse the move.
      case refuse
      /// Move to the nearest place that every rule allows instead, refusing only when there
      /// is none within ``Constraints/clampSearchLimit`` places.
      case clamp
    }

    /// A place proposed for one moved node.
    public struct Proposal: Hashable, Sendable {
      /// The node being moved (or inserted).
      public var node: ID
      /// The parent it would have, or `nil` for a root.
      public var parent: ID?
      /// Its index among its new siblings.
      public var index: Int
      /// The sibling it would follow, or `nil` when it would be first.
      public var previousSibling: ID?
      /// The sibling it would precede, or `nil` when it would be last.
      public var nextSibling: ID?
      /// Its depth there: 0 for a root.
      public var depth: Int

      /// Creates a proposal.
      public init(
        node: ID, parent: ID?, index: Int, previousSibling: ID?, nextSibling: ID?, depth: Int
      ) {
        self.node = node
        self.parent = parent
        self.index = index
        self.previousSibling = previousSibling
        self.nextSibling = nextSibling
        self.depth = depth
      }
    }

    /// The rule's name, as refusals print it.
    public var name: String
    /// What a move does when this rule refuses the place it asked for.
    public var resolution: Resolution
    private let movable: @Sendable (ID) -> Verdict
    private let placement: @Sendable (Proposal, OrderedForest) -> Verdict

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - name: The rule's name, as refusals print it.
    ///   - resolution: What a move does when the rule refuses its place.
    ///   - canMove: Whether a node may be moved at all; every node by default.
    ///   - allows: Whether a node may go at a proposed place; it gets the forest as it is
    ///     before the move.
    public init(
      _ name: String, resolution: Resolution = .refuse,
      canMove: @escaping @Sendable (ID) -> Verdict = { _ in .allow },
      allows: @escaping @Sendable (Proposal, OrderedForest) -> Verdict = { _, _ in .allow }
    ) {
      self.name = name
      self.resolution = resolution
      self.movable = canMove
      self.placement = allows
    }

    /// Whether a node may be moved at all.
    public func canMove(_ node: ID) -> Verdict { movable(node) }

    /// Whether a node may go at a proposed place.
    ///
    /// - Parameters:
    ///   - proposal: The place proposed for one node.
    ///   - forest: The forest as it is before the move.
    public func allows(_ proposal: Proposal, in forest: OrderedForest) -> Verdict {
      placement(proposal, forest)
    }

    /// A rule that keeps some nodes where they are (not draggable).
    ///
    /// - Parameters:
    ///   - name: The rule's name.
    ///   - reason: Why the nodes stay, as the refusal says it.
    ///   - isFixed: Whether a node stays.
    public static func fixed(
      _ name: String, reason: String, where isFixed: @escaping @Sendable (ID) -> Bool
    ) -> Rule {
      Rule(name, canMove: { isFixed($0) ? .refuse(reason) : .allow })
    }

    /// A rule that lets some nodes go only under the parents a predicate accepts
    /// (`nil` is the root level).
    ///
    /// ```swift
    /// // A travel segment may only go under the days of its valid range.
    /// .parents("travel days", resolution: .clamp, reason: "outside its days") { node, parent in
    ///   guard let range = travel[node] else { return true }
    ///   return parent.flatMap { day[$0] }.map(range.contains) ?? false
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The rule's name.
    ///   - resolution: Refuse or clamp when a parent is not accepted.
    ///   - reason: Why a parent is refused, as the refusal says it.
    ///   - accepts: Whether `node` may have `parent`.
    public static func parents(
      _ name: String, resolution: Resolution = .refuse, reason: String,
      accepts: @escaping @Sendable (_ node: ID, _ parent: ID?) -> Bool
    ) -> Rule {
      Rule(
        name, resolution: resolution,
        allows: { proposal, _ in
          accepts(proposal.node, proposal.parent) ? .allow : .refuse(reason)
        })
    }
  }
}
