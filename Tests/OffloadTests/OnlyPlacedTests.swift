import Foundation
import OffloadTestSupport
import OrderingCore
import Testing

@testable import Offload

/// The one item a change placed, found by walking both lists from their ends, agrees with a
/// lookup of every item by id, over seeded changes of every shape a commit makes.
@Suite("The one placed item of a change")
struct OnlyPlacedTests {
  /// The answer by the definition: every item looked up by id in the original.
  static func reference(_ collection: ItemCollection, _ original: ItemCollection) -> Int? {
    var before: [ShortID: Item] = [:]
    for item in original.items { before[item.id] = item }
    var placed: Int?
    for (index, item) in collection.items.enumerated() {
      if let old = before[item.id], old.parent == item.parent, old.order == item.order {
        continue
      }
      guard placed == nil else { return nil }
      placed = index
    }
    return placed
  }

  @Test("agrees with a lookup by id", arguments: 0..<40)
  func agrees(seed: Int) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(UInt64(7_000 + seed)))
    let count = 1 + rng.index(below: 40)
    let keys = try OrderKey.spread(count + 2, between: nil, and: nil)
    var serial: UInt64 = 1
    func newID() -> ShortID {
      serial += 1
      return ShortID(sequence: serial * 7_919)
    }
    let date = Date(timeIntervalSince1970: 0)
    let items = (0..<count).map { index in
      Item(id: newID(), text: "item \(index)", created: date, order: keys[index + 1])
    }
    let original = ItemCollection(
      id: ShortID(sequence: 1), name: "List", kind: .list, created: date, items: items)
    for _ in 0..<50 {
      var changed = original
      switch rng.index(below: 6) {
      case 0:  // an add at any place
        let at = rng.index(below: count + 1)
        changed.items.insert(
          Item(id: newID(), text: "new", created: date, order: keys[0]), at: at)
      case 1:  // one row moved in the array, its key changed or not
        let from = rng.index(below: count)
        var row = changed.items.remove(at: from)
        if rng.chance(0.8) { row.order = keys[count + 1] }
        changed.items.insert(row, at: rng.index(below: count))
      case 2:  // one key changed in place
        changed.items[rng.index(below: count)].order = keys[0]
      case 3:  // one row nested under another
        let at = rng.index(below: count)
        changed.items[at].parent = changed.items[(at + 1) % count].id
      case 4:  // two rows placed
        for at in [rng.index(below: count), rng.index(below: count)] {
          changed.items[at].order = keys[0]
        }
      default:  // a row removed, another moved
        changed.items.remove(at: rng.index(below: count))
        if changed.items.count > 1 {
          let row = changed.items.removeFirst()
          changed.items.append(row)
        }
      }
      #expect(
        Workspace.onlyPlaced(changed, original) == Self.reference(changed, original),
        "seed \(seed)")
    }
  }
}
