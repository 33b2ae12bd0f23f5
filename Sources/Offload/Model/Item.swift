public import Foundation
public import OrderingCore

/// Whether a collection is flat or nested.
public enum CollectionKind: String, Codable, Hashable, Sendable, CaseIterable {
  /// A flat list: every item is a root.
  case list
  /// A plan: items nest under other items.
  case plan
}

/// One captured thought, task or list entry.
public struct Item: Codable, Hashable, Sendable, Identifiable {
  /// The item's short, typable identifier, unique in the store.
  public var id: ShortID
  /// What the item says: one line.
  public var text: String
  /// When the item was captured.
  public var created: Date
  /// Whether the item is done.
  public var done: Bool
  /// The item this one is nested under, or `nil` for a root.
  public var parent: ShortID?
  /// The item's place among its siblings.
  public var order: OrderKey
  /// Longer text that goes with the item, lines separated by `\n`, or `nil` (the usual case):
  /// what a Markdown outline holds in paragraphs and quotes under an item.
  public var note: String?
  /// The item's role in a structured plan (a day header, a fixed entry, a segment of days, a
  /// free item), or `nil` (the usual case; written only when set, so stores without roles keep
  /// their bytes). See `PlacementRole` (Editing).
  public var role: PlacementRole?

  /// Creates an item.
  public init(
    id: ShortID, text: String, created: Date, done: Bool = false, parent: ShortID? = nil,
    order: OrderKey, note: String? = nil, role: PlacementRole? = nil
  ) {
    self.id = id
    self.text = text
    self.created = created
    self.done = done
    self.parent = parent
    self.order = order
    self.note = note
    self.role = role
  }
}

/// A named list or plan of items, stored as one document.
public struct ItemCollection: Codable, Hashable, Sendable, Identifiable {
  /// The collection's identifier, unique in the store.
  public var id: ShortID
  /// The collection's name, unique in the store regardless of case.
  public var name: String
  /// Flat list or nested plan.
  public var kind: CollectionKind
  /// When the collection was created.
  public var created: Date
  /// The items, in no particular order: order and nesting come from each item's
  /// `parent` and `order`.
  public var items: [Item]

  /// Creates a collection.
  public init(id: ShortID, name: String, kind: CollectionKind, created: Date, items: [Item] = []) {
    self.id = id
    self.name = name
    self.kind = kind
    self.created = created
    self.items = items
  }
}
