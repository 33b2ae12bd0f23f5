import ArgumentParser
import Offload

/// `--before X`, `--after X`, `--first` and `--last`: where `item add` and `item move` put
/// items (`PlacementOptions<Item>`) and `collection move` a collection
/// (`PlacementOptions<ItemCollection>`). At most one of the four; exactly one where the
/// subject requires a place.
struct PlacementOptions<Subject: PlacementSubject>: ParsableArguments {
  @Option(
    help: Subject.placementHelp.beside("before"), completion: Subject.placementHelp.completion)
  var before: String?
  @Option(help: Subject.placementHelp.beside("after"), completion: Subject.placementHelp.completion)
  var after: String?
  @Flag(help: ArgumentHelp(Subject.placementHelp.first)) var first = false
  @Flag(help: ArgumentHelp(Subject.placementHelp.last)) var last = false

  func validate() throws {
    let chosen = [before != nil, after != nil, first, last].filter { $0 }.count
    if chosen > 1 || (chosen == 0 && Subject.requiresPlacement) {
      throw ValidationError("choose one of --before, --after, --first, --last")
    }
  }
}

/// What the placement options place.
protocol PlacementSubject {
  /// The placement options' help.
  static var placementHelp: PlacementHelp { get }
  /// Whether a command needs one of the four options (by default, none: the last place).
  static var requiresPlacement: Bool { get }
}

extension PlacementSubject {
  static var requiresPlacement: Bool { false }
}

/// The placement options' help: what `--before` and `--after` name, and what first and last
/// mean.
struct PlacementHelp {
  /// What `--before` and `--after` name (`item`).
  var noun: String
  /// Their value's name in the help (`id`).
  var valueName: String
  /// Their value's completion.
  var completion: CompletionKind
  /// The help of `--first`.
  var first: String
  /// The help of `--last`.
  var last: String

  /// The help of `--before` or `--after`: "Put it right before this item."
  func beside(_ side: String) -> ArgumentHelp {
    ArgumentHelp("Put it right \(side) this \(noun).", valueName: valueName)
  }
}

extension Item: PlacementSubject {
  static var placementHelp: PlacementHelp {
    PlacementHelp(
      noun: "item", valueName: "id", completion: StoreCompletion.items,
      first: "Put it first (among the parent's children, or at the top).",
      last: "Put it last (the default).")
  }
}

extension ItemCollection: PlacementSubject {
  static var placementHelp: PlacementHelp {
    PlacementHelp(
      noun: "collection", valueName: "collection", completion: StoreCompletion.collections,
      first: "Put it first, right after the inbox.", last: "Put it last.")
  }

  static var requiresPlacement: Bool { true }
}

extension PlacementOptions<Item> {
  /// The place these options name: beside an item, else first or last under `parent` (or
  /// among the top-level items when there is none).
  func resolved(under parent: String?) -> ItemPlacement {
    if let before { return .before(before) }
    if let after { return .after(after) }
    if let parent { return first ? .firstChild(of: parent) : .lastChild(of: parent) }
    return first ? .firstRoot : .lastRoot
  }
}

extension PlacementOptions<ItemCollection> {
  /// The place these options name.
  var resolved: CollectionPlacement {
    if let before { return .before(before) }
    if let after { return .after(after) }
    return first ? .first : .last
  }
}
