public import OrderingCore

/// Why the editor refused an intent: a short code, and the one-line reason every surface
/// shows as it is.
///
/// A rule's refusal (a fixed row, a refused place, a blocked drop) carries the rule's own
/// reason, the same sentence whether a command, a keyboard move or a drop asked; any other
/// refusal of the forest (into its own subtree, too deep, no previous sibling) carries the
/// forest's sentence.
public struct EditRefusal: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of refusal: `fixed` (the row stays where it is), `placement` (a rule refuses
  /// the place), `too-deep`, `forest` (any other refusal of the arrangement), or a drop
  /// resolver's code for a blocked drop.
  public var code: String
  /// One line saying why.
  public var reason: String

  /// Creates a refusal.
  ///
  /// - Parameters:
  ///   - code: What kind of refusal.
  ///   - reason: One line saying why.
  public init(code: String, reason: String) {
    self.code = code
    self.reason = reason
  }

  /// The refusal of a forest, in the rule's words when a rule refused.
  ///
  /// - Parameter refusal: What the forest refused.
  public init<ID>(_ refusal: OrderedForest<ID>.Refusal) {
    switch refusal.reason {
    case .notMovable(_, _, let reason): self.init(code: "fixed", reason: reason)
    case .ruleRefused(_, _, let reason), .noAllowedPlace(_, _, let reason):
      self.init(code: "placement", reason: reason)
    case .tooDeep: self.init(code: "too-deep", reason: refusal.description)
    default: self.init(code: "forest", reason: refusal.description)
    }
  }

  /// The reason.
  public var description: String { reason }
}
