public import OrderingCore

/// One change the editor made: what was asked, and every item whose place or field changed,
/// before and after.
///
/// It is the single stream of operations a surface saves and a replication layer can log:
/// plain values (ids, parent ids, order keys as text, field values as text), `Codable` when
/// the ids are, and its ``inverse`` is the undo.
///
/// ```swift
/// var editor = Editor(forest: forest, rules: rules)
/// let change = try editor.move(["t"], to: .lastChild(of: "d1"))
/// let undo = change.inverse    // puts "t" back
/// ```
public struct EditChange<ID: Hashable & Sendable>: Hashable, Sendable {
  /// What was asked.
  public enum Intent: String, Hashable, Sendable, Codable, CaseIterable {
    /// A new item.
    case add
    /// A move (by command, keyboard or several rows at once).
    case move
    /// A drop at the end of a drag.
    case drop
    /// A nest under the previous sibling.
    case indent
    /// A lift out of the parent.
    case outdent
    /// A removal with everything nested.
    case remove
    /// A done or not-done mark.
    case mark
    /// A new text or role.
    case edit
    /// The inverse of another change.
    case undo
  }

  /// Where an item sits: its parent (nil for a root) and its order key's text.
  public struct Spot: Hashable, Sendable {
    /// The parent, or nil for a root.
    public var parent: ID?
    /// The order key among the siblings, as text.
    public var key: String

    /// Creates a spot.
    ///
    /// - Parameters:
    ///   - parent: The parent, or nil for a root.
    ///   - key: The order key's text.
    public init(parent: ID?, key: String) {
      self.parent = parent
      self.key = key
    }
  }

  /// One item's place before and after (nil before for an added item, nil after for a
  /// removed one).
  public struct Placement: Hashable, Sendable {
    /// The item.
    public var id: ID
    /// Where it was.
    public var before: Spot?
    /// Where it is.
    public var after: Spot?

    /// Creates a placement (a change recorded elsewhere, such as a store's history, as the
    /// editor's).
    ///
    /// - Parameters:
    ///   - id: The item.
    ///   - before: Where it was, or nil for an added item.
    ///   - after: Where it is, or nil for a removed one.
    public init(id: ID, before: Spot?, after: Spot?) {
      self.id = id
      self.before = before
      self.after = after
    }
  }

  /// One item's field before and after: `done` (`true` or `false`), `text`, `role` or
  /// `note` (nil for none; an absent item has none).
  public struct Field: Hashable, Sendable {
    /// The item.
    public var id: ID
    /// The field's name: `done`, `text`, `role` or `note`.
    public var name: String
    /// The value before.
    public var before: String?
    /// The value after.
    public var after: String?

    /// Creates a field change.
    ///
    /// - Parameters:
    ///   - id: The item.
    ///   - name: The field's name: `done`, `text`, `role` or `note`.
    ///   - before: The value before, or nil for none.
    ///   - after: The value after, or nil for none.
    public init(id: ID, name: String, before: String?, after: String?) {
      self.id = id
      self.name = name
      self.before = before
      self.after = after
    }
  }

  /// What was asked.
  public var intent: Intent
  /// The items whose places changed, in the order the change made them.
  public var placements: [Placement]
  /// The fields that changed.
  public var fields: [Field]

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - intent: What was asked.
  ///   - placements: The items whose places changed.
  ///   - fields: The fields that changed.
  public init(intent: Intent, placements: [Placement] = [], fields: [Field] = []) {
    self.intent = intent
    self.placements = placements
    self.fields = fields
  }

  /// Whether nothing changed.
  public var isEmpty: Bool { placements.isEmpty && fields.isEmpty }

  /// The change that takes this one back: every place and field swapped, in reverse order.
  ///
  /// - Complexity: O(*c*), where *c* is the number of placements and fields.
  public var inverse: EditChange {
    EditChange(
      intent: .undo,
      placements: placements.reversed().map {
        Placement(id: $0.id, before: $0.after, after: $0.before)
      },
      fields: fields.reversed().map {
        Field(id: $0.id, name: $0.name, before: $0.after, after: $0.before)
      })
  }
}

extension EditChange where ID: Comparable {
  /// The change of a forest change set.
  ///
  /// - Parameters:
  ///   - intent: What was asked.
  ///   - changes: What the forest did.
  /// - Complexity: O(*c*), where *c* is the number of changes.
  public init(intent: Intent, _ changes: OrderedForest<ID>.ChangeSet) {
    func spot(_ placement: OrderedForest<ID>.Placement?) -> Spot? {
      placement.map { Spot(parent: $0.parent, key: $0.key.rawValue) }
    }
    self.init(
      intent: intent,
      placements: changes.changes.map {
        Placement(id: $0.id, before: spot($0.old), after: spot($0.new))
      })
  }

  /// The forest change set that carries out the placements (fields are not the forest's).
  ///
  /// - Returns: The change set, or nil when a key's text is not an order key.
  /// - Complexity: O(*c*), where *c* is the number of placements.
  public var changeSet: OrderedForest<ID>.ChangeSet? {
    var changes: [OrderedForest<ID>.ChangeSet.Change] = []
    for placement in placements {
      var old: OrderedForest<ID>.Placement?
      var new: OrderedForest<ID>.Placement?
      if let before = placement.before {
        guard let key = OrderKey(rawValue: before.key) else { return nil }
        old = OrderedForest<ID>.Placement(parent: before.parent, key: key)
      }
      if let after = placement.after {
        guard let key = OrderKey(rawValue: after.key) else { return nil }
        new = OrderedForest<ID>.Placement(parent: after.parent, key: key)
      }
      changes.append(.init(id: placement.id, old: old, new: new))
    }
    return OrderedForest<ID>.ChangeSet(changes)
  }
}

extension EditChange: Codable where ID: Codable {}
extension EditChange.Spot: Codable where ID: Codable {}
extension EditChange.Placement: Codable where ID: Codable {}
extension EditChange.Field: Codable where ID: Codable {}
