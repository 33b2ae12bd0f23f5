import Foundation
import OrderingCore

/// Reads what it can of a collection file that is JSON but not a valid collection document:
/// records with a missing or invalid field (an older or other client, a hand edit).
///
/// Every record with a valid id is kept: a missing text becomes empty, a missing date the
/// collection's date, a missing `done` false, an invalid parent none (the forest build makes
/// such a node a root), and a missing or invalid order key is backfilled after the valid ones,
/// in file order, by ``OrderedForest/build(from:constraints:)`` as for every other repair.
enum CollectionSalvage {
  /// What salvaging found.
  struct Result {
    /// The collection as far as it could be read.
    var collection: ItemCollection
    /// What had to be filled in or dropped, one sentence each.
    var notes: [String]
  }

  /// Salvages a collection from a file's bytes; nil when the bytes are not JSON at all.
  ///
  /// - Parameters:
  ///   - data: The file's bytes (an envelope with `data`, or a bare collection object).
  ///   - id: The collection's id (from its file name).
  ///   - fallbackDate: The date for records without one.
  ///   - maximumPlanDepth: The deepest depth a plan item may reach.
  /// - Complexity: O(*n* log *n*), where *n* is the number of records.
  static func salvage(
    _ data: Data, id: ShortID, fallbackDate: Date, maximumPlanDepth: Int
  ) -> Result? {
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      return nil
    }
    let object = root["data"] as? [String: Any] ?? root
    var notes: [String] = []
    let created = date(object["created"]) ?? fallbackDate
    let name = (object["name"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "Recovered \(id)"
    if object["name"] as? String == nil { notes.append("the collection has no name") }
    let records = object["items"] as? [Any] ?? []
    var items: [Item] = []
    var orders: [OrderedForest<ShortID>.Record.Order] = []
    var sawParent = false
    var seen: Set<ShortID> = []
    guard let placeholder = try? OrderKey.between(nil, nil) else { return nil }
    for (number, value) in records.enumerated() {
      guard let record = value as? [String: Any],
        let itemID = (record["id"] as? String).flatMap(ShortID.init)
      else {
        notes.append("record \(number + 1) has no valid id and cannot be kept")
        continue
      }
      guard seen.insert(itemID).inserted else {
        notes.append("item \(itemID) is listed twice; the first is kept")
        continue
      }
      var missing: [String] = []
      let text = record["text"] as? String ?? ""
      if record["text"] as? String == nil { missing.append("text") }
      let itemCreated = date(record["created"]) ?? created
      if date(record["created"]) == nil { missing.append("date") }
      let done = record["done"] as? Bool ?? false
      if record["done"] as? Bool == nil { missing.append("done") }
      let parent = (record["parent"] as? String).flatMap(ShortID.init)
      if record["parent"] != nil && parent == nil { missing.append("parent") }
      if parent != nil { sawParent = true }
      let keyText = record["order"] as? String
      let key = keyText.flatMap(OrderKey.init(rawValue:))
      if key == nil { missing.append("order") }
      orders.append(key.map { .key($0.rawValue) } ?? .missing)
      if !missing.isEmpty {
        notes.append("item \(itemID) has no valid \(missing.joined(separator: ", ")); filled in")
      }
      items.append(
        Item(
          id: itemID, text: text, created: itemCreated, done: done, parent: parent,
          order: key ?? placeholder, note: record["note"] as? String))
    }
    let kind =
      (object["kind"] as? String).flatMap(CollectionKind.init(rawValue:))
      ?? (sawParent ? .plan : .list)
    // Backfill the missing keys the way every other repair does.
    let built = OrderedForest<ShortID>.build(
      from: zip(items, orders).map { .init(id: $0.id, parent: $0.parent, order: $1) },
      constraints: .init(maximumDepth: kind == .list ? 0 : maximumPlanDepth))
    var position: [ShortID: Int] = [:]
    for (index, item) in items.enumerated() { position[item.id] = index }
    for record in built.forest.records {
      guard let index = position[record.id], case .key(let text) = record.order,
        let key = OrderKey(rawValue: text)
      else { continue }
      items[index].parent = record.parent
      items[index].order = key
    }
    return Result(
      collection: ItemCollection(id: id, name: name, kind: kind, created: created, items: items),
      notes: notes)
  }

  /// A date in the store's text form (ISO 8601, with or without milliseconds).
  private static func date(_ value: Any?) -> Date? {
    guard let text = value as? String else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
  }
}
