public import OrderingCore

/// A collection with its items arranged: the forest built from the stored records, and rows
/// with outline numbers for display.
public struct CollectionTree: Sendable {
  /// The collection as stored.
  public let collection: ItemCollection
  /// The arrangement of its items.
  public private(set) var forest: OrderedForest<ShortID>
  /// What building the forest had to repair (empty for a healthy file).
  public let repairs: OrderedForest<ShortID>.RepairReport
  /// The items by id.
  public let items: [ShortID: Item]
  /// The collection's placement rules, from its kind and its items' roles; ``forest`` checks
  /// every move, insert, indent and outdent against them.
  public let rules: PlacementRules<ShortID>

  /// One displayed row.
  public struct Row: Hashable, Sendable {
    /// The item.
    public var item: Item
    /// Its depth: 0 for a root.
    public var depth: Int
    /// Its outline number, `1`, `1.2`, `1.2.1`, numbering all rows, shown or not.
    public var number: String
    /// How many children it has.
    public var childCount: Int
    /// How many items under it are hidden (collapsed or past the depth limit).
    public var hiddenCount: Int
  }

  /// Arranges a collection's items.
  ///
  /// - Parameters:
  ///   - collection: The stored collection.
  ///   - maximumPlanDepth: The deepest depth moves may reach in a plan.
  /// - Complexity: O(*n* log *n*), where *n* is the number of items.
  public init(_ collection: ItemCollection, maximumPlanDepth: Int) {
    self.collection = collection
    var items: [ShortID: Item] = [:]
    for item in collection.items { items[item.id] = item }
    self.items = items
    let records = collection.items.map {
      OrderedForest<ShortID>.Record(id: $0.id, parent: $0.parent, key: $0.order)
    }
    let constraints = OrderedForest<ShortID>.Constraints(
      maximumDepth: collection.kind == .list ? 0 : maximumPlanDepth, keyBudget: Self.keyBudget)
    (forest, repairs) = OrderedForest.build(from: records, constraints: constraints)
    rules = Self.rules(
      of: collection, items: items, forest: forest, maximumPlanDepth: maximumPlanDepth)
    forest.constraints = rules.constraints(keyBudget: Self.keyBudget)
  }

  /// The editor of this collection: its arrangement under its rules.
  public var editor: Editor<ShortID> { Editor(forest: forest, rules: rules) }

  /// The rules of a collection: a list is flat; a plan's rules follow from its items' stored
  /// roles, or, when none has one, from the text convention (``RoleConvention``) when every
  /// root reads `Day N`.
  ///
  /// - Complexity: O(*n*) for a plan, O(1) for a list.
  static func rules(
    of collection: ItemCollection, items: [ShortID: Item], forest: OrderedForest<ShortID>,
    maximumPlanDepth: Int
  ) -> PlacementRules<ShortID> {
    guard collection.kind == .plan else { return .list() }
    var roles: [ShortID: PlacementRole] = [:]
    for item in collection.items { if let role = item.role { roles[item.id] = role } }
    let roots = forest.roots
    if roles.isEmpty, !roots.isEmpty {
      for root in roots {
        guard let text = items[root]?.text, let day = RoleConvention.role(of: text, isRoot: true)
        else { return .plan(roots: roots, roles: [:], maximumDepth: maximumPlanDepth) }
        roles[root] = day
      }
      for item in collection.items where item.parent != nil {
        if let role = RoleConvention.role(of: item.text, isRoot: false) { roles[item.id] = role }
      }
    }
    return .plan(roots: roots, roles: roles, maximumDepth: maximumPlanDepth)
  }

  /// The rows in preorder with outline numbers.
  ///
  /// - Parameters:
  ///   - collapsed: Items whose descendants are hidden.
  ///   - maximumDepth: Rows deeper than this are hidden; `nil` shows every depth.
  /// - Complexity: O(*n*), where *n* is the number of items.
  public func rows(collapsed: Set<ShortID> = [], maximumDepth: Int? = nil) -> [Row] {
    var rows: [Row] = []
    var counters: [Int] = []
    var hiddenBelow: Int? = nil  // Depth under which rows are hidden.
    var openRows: [Int] = []  // Index in `rows` of the shown ancestor at each depth.
    for row in forest.flattened() {
      if counters.count > row.depth + 1 { counters.removeLast(counters.count - row.depth - 1) }
      if counters.count == row.depth { counters.append(0) }
      counters[row.depth] += 1
      if let limit = hiddenBelow, row.depth > limit {
        if let owner = openRows.last { rows[owner].hiddenCount += 1 }
        continue
      }
      hiddenBelow = nil
      openRows.removeAll { rows[$0].depth >= row.depth }
      guard let item = items[row.id] else { continue }
      rows.append(
        Row(
          item: item, depth: row.depth, number: counters.map(String.init).joined(separator: "."),
          childCount: row.childCount, hiddenCount: 0))
      openRows.append(rows.count - 1)
      if collapsed.contains(row.id) || maximumDepth.map({ row.depth >= $0 }) == true {
        hiddenBelow = row.depth
      }
    }
    return rows
  }

  /// The longest order key a workspace writes, in bytes: the forest of every collection
  /// carries it as its `OrderedForest.Constraints.keyBudget`, so every move, insert, indent
  /// and bulk move re-keys the smallest window of siblings when a key would grow past it.
  public static let keyBudget = 16

  /// Applies a forest change set to the stored items: new parents and keys, removals.
  ///
  /// - Complexity: O(*n* + *c*), where *c* is the number of changes.
  static func apply(
    _ changes: OrderedForest<ShortID>.ChangeSet, to collection: inout ItemCollection,
    adding newItems: [ShortID: Item] = [:]
  ) {
    var position: [ShortID: Int] = [:]
    for (index, item) in collection.items.enumerated() { position[item.id] = index }
    var removed: Set<ShortID> = []
    for change in changes.changes {
      if let placement = change.new {
        if let index = position[change.id] {
          collection.items[index].parent = placement.parent
          collection.items[index].order = placement.key
        } else if var item = newItems[change.id] {
          item.parent = placement.parent
          item.order = placement.key
          position[item.id] = collection.items.count
          collection.items.append(item)
        }
      } else {
        removed.insert(change.id)
      }
    }
    if !removed.isEmpty { collection.items.removeAll { removed.contains($0.id) } }
  }

  /// Renders rows as text lines: id, outline number, indentation by depth, checkbox, text,
  /// and how many nested items are hidden.
  ///
  /// ```
  /// pbq8sz  2    [ ] Pack
  /// bksrh6  2.1    [ ] Buy wool socks
  /// ```
  ///
  /// - Complexity: O(*r*), where *r* is the number of rows.
  public static func lines(_ rows: [Row]) -> [String] {
    let width = rows.map(\.number.count).max() ?? 1
    return rows.map { row in
      var line = row.item.id.rawValue + "  "
      line += row.number + String(repeating: " ", count: width - row.number.count) + "  "
      line += String(repeating: "  ", count: row.depth)
      line += row.item.done ? "[x] " : "[ ] "
      line += row.item.text
      if row.hiddenCount > 0 { line += "  (+\(row.hiddenCount) hidden)" }
      return line
    }
  }
}
