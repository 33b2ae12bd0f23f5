import Gestures
public import OrderingCore

// The intents that change an item's fields (its text, its role) rather than its place, and
// the move of rows out of one collection into another: each checks the collection's rules and
// gives one change, as the placement intents in `Editor.swift` do.

extension Editor {
  /// Replaces an item's text.
  ///
  /// - Parameters:
  ///   - id: The item.
  ///   - text: The new text; spaces around it are dropped (see ``ItemText/valid(_:)``).
  ///   - current: The text now.
  /// - Returns: The change (empty when the text is the same).
  /// - Throws: ``EditRefusal`` with code `unknown` for an item not in the collection, or
  ///   `text` for text that is empty, spans lines or holds a control character.
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public func editText(_ id: ID, to text: String, from current: String) throws(EditRefusal)
    -> EditChange<ID>
  {
    try requireItem(id)
    return edit(id, "text", from: current, to: try ItemText.valid(text))
  }

  /// Sets or clears an item's role, keeping the collection's rules whole.
  ///
  /// The role must leave the item where the rules (as they become) accept it: a day header
  /// stays a top-level row of an itinerary, a segment sits on a day of its range. In a plan
  /// whose rules come from the text convention (no item has a stored role), the roles the
  /// convention gives are written too, so the one role set does not switch the convention off
  /// for every other row.
  ///
  /// - Parameters:
  ///   - id: The item.
  ///   - role: The new role, or nil for none.
  ///   - stored: Each item's stored role.
  /// - Returns: The change: the item's `role` field, and the convention's roles written.
  /// - Throws: ``EditRefusal`` with code `unknown` for an item not in the collection, or
  ///   `placement` with the rules' reason when the role would refuse the item's own place.
  /// - Complexity: O(*r* log *r*), where *r* is the number of roles, plus O(*t*) for the
  ///   roots *t* of a plan.
  public mutating func setRole(
    _ id: ID, to role: PlacementRole?, stored: (ID) -> PlacementRole?
  ) throws(EditRefusal) -> EditChange<ID> {
    try requireItem(id)
    let conventional = !rules.roles.isEmpty && rules.roles.keys.allSatisfy { stored($0) == nil }
    var fields: [EditChange<ID>.Field] = []
    if conventional {
      for (other, word) in rules.roles.sorted(by: { $0.key < $1.key }) where other != id {
        fields.append(.init(id: other, name: "role", before: nil, after: word.description))
      }
    }
    let old = stored(id)
    if old != role {
      fields.append(
        .init(id: id, name: "role", before: old?.description, after: role?.description))
    }
    guard rules.nests else { return EditChange(intent: .edit, fields: fields) }
    var roles = rules.roles
    roles[id] = role
    let new = PlacementRules<ID>.plan(
      roots: forest.roots, roles: roles, maximumDepth: rules.maximumDepth)
    let parent = forest.parent(of: id)
    let depth = forest.depth(of: id)
    if rules.policy.accepts(id, parent, depth), !new.policy.accepts(id, parent, depth) {
      throw EditRefusal(code: "placement", reason: new.policy.placementReason)
    }
    adopt(new)
    return EditChange(intent: .edit, fields: fields)
  }

  /// Moves items with their subtrees out of this collection into another one's editor, side
  /// by side in the order given, under both collections' rules.
  ///
  /// A fixed row stays in its collection (the rule's reason, as for any move of it); the
  /// destination's rules see the moved rows with their roles, so a day header lands only
  /// among the roots of an itinerary and any other row only on a day.
  ///
  /// - Parameters:
  ///   - ids: The items to move (none nested under another).
  ///   - other: The destination collection's editor.
  ///   - destination: Where they go there.
  ///   - roles: The moved items' stored roles.
  /// - Returns: What left this collection and what arrived in the other.
  /// - Throws: ``EditRefusal`` (neither editor changes then).
  /// - Complexity: O(*s* log *n*) over the moved subtrees' sizes *s*, plus O(*r* + *t*) to
  ///   take their roles in.
  public mutating func move(
    _ ids: [ID], into other: inout Editor<ID>, at destination: OrderedForest<ID>.Destination,
    roles: [ID: PlacementRole] = [:]
  ) throws(EditRefusal) -> EditTransfer<ID> {
    if let refusal = DropTargetResolver.canLift(ids, rules: rules.policy) {
      throw EditRefusal(code: "fixed", reason: refusal.reason)
    }
    var target = other
    if target.rules.nests, !roles.isEmpty {
      var all = target.rules.roles
      all.merge(roles) { _, carried in carried }
      let roots = target.forest.roots + (target.isRoot(destination) ? ids : [])
      target.adopt(.plan(roots: roots, roles: all, maximumDepth: target.rules.maximumDepth))
    }
    var added = OrderedForest<ID>.ChangeSet()
    var place = destination
    do throws(OrderedForest<ID>.Refusal) {
      for top in ids {
        added.changes += try target.forest.insert(top, at: place).changes
        for node in forest.subtree(of: top) where node != top {
          guard let parent = forest.parent(of: node) else { continue }
          added.changes += try target.forest.insert(node, at: .lastChild(of: parent)).changes
        }
        place = .after(top)
      }
    } catch {
      throw EditRefusal(error)
    }
    var source = self
    let removed = source.remove(ids)
    self = source
    other = target
    return EditTransfer(removed: removed, added: EditChange(intent: .move, added))
  }

  private func requireItem(_ id: ID) throws(EditRefusal) {
    guard forest.contains(id) else {
      throw EditRefusal(code: "unknown", reason: "no such item in this collection")
    }
  }
}

/// A move of rows from one collection to another: what left the one and what arrived in the
/// other, each a change of its own collection.
public struct EditTransfer<ID: Hashable & Sendable>: Hashable, Sendable {
  /// The rows removed from the source collection.
  public var removed: EditChange<ID>
  /// The rows placed in the destination collection.
  public var added: EditChange<ID>

  /// Creates a transfer.
  ///
  /// - Parameters:
  ///   - removed: The rows removed from the source collection.
  ///   - added: The rows placed in the destination collection.
  public init(removed: EditChange<ID>, added: EditChange<ID>) {
    self.removed = removed
    self.added = added
  }

  /// The total number of rows moved (nested rows included).
  public var count: Int { removed.placements.count }
}

/// The rule for an item's text, the same wherever it is typed: one line, not empty, and no
/// control character or bidirectional override (printed later, it could drive a terminal or
/// disguise what a line says).
public enum ItemText {
  /// The text with the spaces and tabs around it dropped.
  ///
  /// - Parameter text: The text as typed.
  /// - Returns: The trimmed text.
  /// - Throws: ``EditRefusal`` with code `text` and one line saying what is wrong.
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public static func valid(_ text: String) throws(EditRefusal) -> String {
    try valid(text, what: "an item's text")
  }

  /// The text with the spaces and tabs around it dropped, refused as `what`.
  ///
  /// - Parameters:
  ///   - text: The text as typed.
  ///   - what: What the text is, as the refusal names it (`a collection name`).
  /// - Returns: The trimmed text.
  /// - Throws: ``EditRefusal`` with code `text` and one line saying what is wrong.
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public static func valid(_ text: String, what: String) throws(EditRefusal) -> String {
    let trimmed = trimmingSpaces(text)
    guard !trimmed.isEmpty else {
      throw EditRefusal(code: "text", reason: "\(what) cannot be empty")
    }
    guard !trimmed.contains(where: \.isNewline) else {
      throw EditRefusal(code: "text", reason: "\(what) must fit on one line")
    }
    try refuseControlCharacters(trimmed, what: what)
    return trimmed
  }

  /// Refuses text holding a control character (C0 but the line break, DEL, C1) or a
  /// bidirectional override, naming the first one and its column.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - what: What the text is, as the refusal names it.
  ///   - allowingLineBreaks: Whether U+000A is allowed (a note's lines).
  /// - Throws: ``EditRefusal`` with code `text`.
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  public static func refuseControlCharacters(
    _ text: String, what: String, allowingLineBreaks: Bool = false
  ) throws(EditRefusal) {
    for (column, scalar) in text.unicodeScalars.enumerated()
    where (scalar.value == 0x0A && !allowingLineBreaks) || isRefused(scalar) {
      var hex = String(scalar.value, radix: 16, uppercase: true)
      if hex.count < 4 { hex = String(repeating: "0", count: 4 - hex.count) + hex }
      throw EditRefusal(
        code: "text",
        reason: "\(what) cannot hold the control character U+\(hex) (column \(column + 1))")
    }
  }

  /// Whether text may not hold the scalar: a control character other than the line break, or
  /// a bidirectional override.
  ///
  /// - Parameter scalar: The scalar.
  /// - Returns: Whether it is refused.
  public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A: false
    case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// The text without the spaces and tabs (Unicode space separators and U+0009) at its ends.
  static func trimmingSpaces(_ text: String) -> String {
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      scalar.value == 0x09 || scalar.properties.generalCategory == .spaceSeparator
    }
    let scalars = text.unicodeScalars
    guard let start = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[start...last])
  }
}
