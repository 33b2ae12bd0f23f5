extension OrderedForest {
  /// What was asked of the forest: the operation, the nodes and the destination.
  public struct Request: Hashable, Sendable, CustomStringConvertible {
    /// The kind of operation.
    public enum Operation: String, Hashable, Sendable {
      /// A move of one node or a selection.
      case move
      /// An insert of a new node.
      case insert
      /// An indent: become the last child of the previous sibling.
      case indent
      /// An outdent: become the next sibling of the parent.
      case outdent
    }

    /// The kind of operation.
    public var operation: Operation
    /// The nodes asked to move, in the order given.
    public var nodes: [ID]
    /// Where they were asked to go (for an indent or outdent, where it would have put the
    /// node); `nil` for an indent or outdent refused before it found a place.
    public var destination: Destination?

    /// Creates a request.
    public init(_ operation: Operation, nodes: [ID], destination: Destination?) {
      self.operation = operation
      self.nodes = nodes
      self.destination = destination
    }

    /// `move 4 after 7`, `indent 4`, `move 3 nodes (1, 2, 5) as the last child of 9`.
    public var description: String {
      let names =
        nodes.count == 1
        ? "\(nodes[0])" : "\(nodes.count) nodes (\(nodes.map { "\($0)" }.joined(separator: ", ")))"
      guard let destination, operation == .move || operation == .insert else {
        return "\(operation.rawValue) \(names)"
      }
      return "\(operation.rawValue) \(names) \(destination)"
    }
  }

  /// A move, insert, indent or outdent the forest refused: why, and what was asked.
  ///
  /// The forest is unchanged when it throws one. ``description`` is one sentence: the
  /// request, then the reason.
  ///
  /// ```swift
  /// do {
  ///   try forest.move("trip", to: .lastChild(of: "pack"))
  /// } catch {
  ///   print(error.reason)  // intoOwnSubtree(node: "trip", target: "pack")
  ///   print(error)  // cannot move trip as the last child of pack: ...
  /// }
  /// ```
  public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why the forest refused.
    public enum Reason: Hashable, Sendable {
      /// The node, or the node a destination names, is not in the forest.
      case unknownNode(ID)
      /// An insert names an id the forest already holds.
      case duplicateNode(ID)
      /// An empty selection was asked to move.
      case emptySelection
      /// The destination is the node itself or inside its subtree (`target` is the node the
      /// destination names).
      case intoOwnSubtree(node: ID, target: ID)
      /// A root index is outside `0...rootCount`, where `rootCount` is the number of roots
      /// once the moved nodes are taken out.
      case rootIndexOutOfRange(index: Int, rootCount: Int)
      /// The moved subtree would reach `depth`, deeper than the maximum `limit`.
      case tooDeep(node: ID, depth: Int, limit: Int)
      /// A rule keeps the node where it is.
      case notMovable(node: ID, rule: String, reason: String)
      /// A rule refuses the place.
      case ruleRefused(node: ID, rule: String, reason: String)
      /// A clamping rule refused the place and no allowed place was found nearby.
      case noAllowedPlace(node: ID, rule: String, reason: String)
      /// An indent of a node that is the first among its siblings.
      case noPreviousSibling(ID)
      /// An outdent of a root.
      case alreadyRoot(ID)
    }

    /// Why the forest refused.
    public var reason: Reason
    /// What was asked.
    public var request: Request

    /// Creates a refusal.
    public init(_ reason: Reason, request: Request) {
      self.reason = reason
      self.request = request
    }

    /// One sentence: `cannot <request>: <reason>`.
    public var description: String {
      "cannot \(request): \(Self.explain(reason))"
    }

    static func explain(_ reason: Reason) -> String {
      switch reason {
      case .unknownNode(let id):
        "the forest holds no node \(id)"
      case .duplicateNode(let id):
        "the forest already holds a node \(id)"
      case .emptySelection:
        "no node is selected"
      case .intoOwnSubtree(let node, let target):
        node == target
          ? "a node cannot go inside itself"
          : "\(target) is inside \(node)'s subtree, and a node cannot go inside its own subtree"
      case .rootIndexOutOfRange(let index, let rootCount):
        "root index \(index) is outside 0...\(rootCount)"
      case .tooDeep(let node, let depth, let limit):
        "\(node)'s subtree would reach depth \(depth), deeper than the maximum depth \(limit)"
      case .notMovable(let node, let rule, let reason):
        "\(node) cannot be moved (rule \"\(rule)\": \(reason))"
      case .ruleRefused(let node, let rule, let reason):
        "\(node) may not go there (rule \"\(rule)\": \(reason))"
      case .noAllowedPlace(let node, let rule, let reason):
        "\(node) may not go there (rule \"\(rule)\": \(reason)) and no allowed place is near"
      case .noPreviousSibling(let id):
        "\(id) is the first of its siblings, so there is no sibling to indent under"
      case .alreadyRoot(let id):
        "\(id) is a root, so there is no parent to outdent from"
      }
    }
  }
}
