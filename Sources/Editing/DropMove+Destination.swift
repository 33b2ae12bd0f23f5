public import Gestures
public import OrderingCore

// `Gestures` imports nothing but the standard library, so it names its drop moves itself
// (`DropMove`), and `OrderingCore` knows nothing of gestures. `Editing` is the first layer
// that sees both (a pure module an app may run over its own storage), so the bridge lives here.

extension OrderedForest.Destination {
  /// The forest destination a drop lands on: ``DropMove`` names the same five places as the
  /// forest, one for one (`rootIndex` is `root(at:)`, an index among the roots once the
  /// dragged rows are taken out).
  ///
  /// It lives in `Editing` because neither side may know the other: `Gestures` imports
  /// only the standard library, and `OrderingCore` is a model with no notion of a drag.
  ///
  /// ```swift
  /// if case .allowed(let instruction)? = resolution.target {
  ///   try forest.move("travel-1", to: .init(instruction.move))
  /// }
  /// ```
  public init(_ move: DropMove<ID>) {
    switch move {
    case .before(let id): self = .before(id)
    case .after(let id): self = .after(id)
    case .firstChild(let id): self = .firstChild(of: id)
    case .lastChild(let id): self = .lastChild(of: id)
    case .rootIndex(let index): self = .root(at: index)
    }
  }
}
