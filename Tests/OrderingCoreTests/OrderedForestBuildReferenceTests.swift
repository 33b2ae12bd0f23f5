import OffloadTestSupport
import Testing

@testable import OrderingCore

/// How the reference build orders an entry: a valid key, a position, or nothing usable.
enum ReferenceSort: Comparable {
  case key(OrderKey)
  case position(Int)
  case none
}

/// The build's rules written the plain way (dictionaries, one sort per sibling group with
/// one comparison), to hold the fast build to: over many seeded record sets, good and bad,
/// both give the same records in preorder, the same repairs in the same order and the same
/// rows to rewrite.
struct ReferenceBuild<ID: Hashable & Comparable & Sendable> {
  typealias Record = OrderedForest<ID>.Record
  typealias Repair = OrderedForest<ID>.Repair

  /// The forest's records in preorder, with their final keys.
  var records: [Record] = []
  var repairs: [Repair] = []
  var rewritten: [ID] = []

  init(_ input: [Record]) throws {
    // A repeated id keeps its first record.
    var kept: [ID: Int] = [:]
    var entries: [Record] = []
    var repairs: [(repair: Repair, sequence: Int)] = []
    func report(_ id: ID, _ kind: Repair.Kind) {
      repairs.append((Repair(id: id, kind: kind), repairs.count))
    }
    for (index, record) in input.enumerated() {
      if let first = kept[record.id] {
        report(record.id, .duplicateRecord(recordIndex: index, keptIndex: first))
      } else {
        kept[record.id] = index
        entries.append(record)
      }
    }
    var rewritten = Set<ID>()
    // A missing parent makes a root.
    let known = Set(entries.map(\.id))
    var parent: [ID: ID] = [:]
    for entry in entries {
      guard let stored = entry.parent else { continue }
      if known.contains(stored) {
        parent[entry.id] = stored
      } else {
        report(entry.id, .missingParent(stored))
        rewritten.insert(entry.id)
      }
    }
    // A cycle is cut at its smallest id.
    var cycleFree = Set<ID>()
    for entry in entries {
      var walk: [ID] = []
      var onWalk = Set<ID>()
      var current: ID? = entry.id
      while let id = current, !cycleFree.contains(id), !onWalk.contains(id) {
        walk.append(id)
        onWalk.insert(id)
        current = parent[id]
      }
      if let id = current, onWalk.contains(id) {
        let cycle = walk[walk.firstIndex(of: id)!...]
        let cut = cycle.min()!
        var members = [cut]
        var member = parent[cut]!
        while member != cut {
          members.append(member)
          member = parent[member]!
        }
        parent[cut] = nil
        rewritten.insert(cut)
        report(cut, .cycle(members))
      }
      cycleFree.formUnion(walk)
    }
    var sort: [ID: ReferenceSort] = [:]
    var stored: [ID: Record.Order] = [:]
    for entry in entries {
      stored[entry.id] = entry.order
      switch entry.order {
      case .key(let text):
        do {
          sort[entry.id] = .key(try OrderKey(validating: text))
        } catch {
          sort[entry.id] = ReferenceSort.none
          report(entry.id, .invalidKey(text, error.code))
        }
      case .position(let value): sort[entry.id] = .position(value)
      case .missing: sort[entry.id] = ReferenceSort.none
      }
    }
    var children: [ID?: [ID]] = [:]
    for entry in entries { children[parent[entry.id], default: []].append(entry.id) }
    var keys: [ID: OrderKey] = [:]
    for groupParent in Array(children.keys) {
      let group = children[groupParent]!
      let sorted = group.sorted { (sort[$0]!, $0) < (sort[$1]!, $1) }
      // Kept keys stay; every other entry gets a key between its kept neighbours.
      var lastKept: (id: ID, key: OrderKey)?
      var firstOfPosition: (id: ID, value: Int)?
      var needsKey: [Bool] = []
      for id in sorted {
        switch sort[id]! {
        case .key(let key):
          if let last = lastKept, last.key == key {
            report(id, .duplicateKey(key.rawValue, tiedWith: last.id))
            needsKey.append(true)
          } else {
            lastKept = (id, key)
            keys[id] = key
            needsKey.append(false)
          }
        case .position(let value):
          if let first = firstOfPosition, first.value == value {
            report(id, .duplicatePosition(value, tiedWith: first.id))
          } else {
            firstOfPosition = (id, value)
          }
          needsKey.append(true)
        case .none:
          if case .missing = stored[id]! {
            report(id, .missingOrder)
          }
          needsKey.append(true)
        }
      }
      var index = 0
      while index < sorted.count {
        guard needsKey[index] else {
          index += 1
          continue
        }
        var end = index
        while end < sorted.count && needsKey[end] { end += 1 }
        let lower = index > 0 ? keys[sorted[index - 1]] : nil
        let upper = end < sorted.count ? keys[sorted[end]] : nil
        let fresh = try OrderKey.spread(end - index, between: lower, and: upper)
        for (offset, key) in fresh.enumerated() {
          keys[sorted[index + offset]] = key
          rewritten.insert(sorted[index + offset])
        }
        index = end
      }
      children[groupParent] = sorted
    }
    // Preorder.
    var stack = Array((children[nil] ?? []).reversed())
    while let id = stack.popLast() {
      records.append(Record(id: id, parent: parent[id], key: keys[id]!))
      stack.append(contentsOf: (children[id] ?? []).reversed())
    }
    self.repairs = repairs.sorted {
      ($0.repair.id, $0.repair.rank, $0.sequence) < ($1.repair.id, $1.repair.rank, $1.sequence)
    }.map(\.repair)
    self.rewritten = entries.map(\.id).filter { rewritten.contains($0) }
  }
}

@Suite("OrderedForest: build from records against a plain reference build")
struct OrderedForestBuildReferenceTests {
  /// Texts that are valid keys, invalid keys, and long keys whose first 8 bytes tie.
  static let keyTexts = [
    "a0", "a1", "a2", "a5", "aV", "az", "b10", "Zz", "a0V", "a00", "", "a", "0", "Ü",
    "a0000000V", "a0000000W", "a0000000V1", "A00000000000000000000000000", "b1", "a0 ",
  ]

  /// Random records over `idCount` ids: orphans, self-parents, longer cycles, repeated ids,
  /// tied and invalid keys, tied positions and missing orders, in proportions set by `mix`.
  static func records<ID>(
    count: Int, idCount: Int, mix: Double, _ rng: inout SplitMix64, id: (Int) -> ID
  ) -> [OrderedForest<ID>.Record] {
    (0..<count).map { index in
      let own = rng.chance(mix * 0.3) ? rng.index(below: idCount) : index % idCount
      let parent: ID?
      if rng.chance(0.25) {
        parent = nil
      } else if rng.chance(mix * 0.2) {
        parent = id(idCount + rng.index(below: 3))  // dangling
      } else if rng.chance(1 - mix) {
        parent = own > 0 ? id(rng.index(below: own)) : nil  // an earlier id: no cycle
      } else {
        parent = id(rng.index(below: idCount))  // anywhere: cycles and self-parents
      }
      let order: OrderedForest<ID>.Record.Order
      switch rng.index(below: 10) {
      case 0..<5: order = .key(keyTexts[rng.index(below: rng.chance(mix) ? keyTexts.count : 7)])
      case 5: order = .key("a\(rng.index(below: 2))\(["", "V", "g", "z1"][rng.index(below: 4)])")
      case 6, 7: order = .position(rng.index(below: 6) - 2)
      case 8: order = rng.chance(mix) ? .missing : .position(rng.index(below: 1000))
      default: order = .key("a\(rng.index(below: 10))")
      }
      return OrderedForest<ID>.Record(id: id(own), parent: parent, order: order)
    }
  }

  static func check<ID>(
    _ records: [OrderedForest<ID>.Record], _ label: @autoclosure () -> String
  ) throws {
    let expected = try ReferenceBuild(records)
    let (forest, report) = OrderedForest<ID>.build(from: records)
    #expect(forest.records == expected.records, "\(label())")
    #expect(report.repairs == expected.repairs, "\(label())")
    #expect(report.rewritten == expected.rewritten, "\(label())")
    #expect(forest.count == expected.records.count, "\(label())")
    #expect(forest.firstInvariantViolation() == nil, "\(label())")
    // A sequence that tells no count up front gives the same forest and report.
    var iterator = records.makeIterator()
    let streamed = OrderedForest<ID>.build(from: AnyIterator { iterator.next() })
    #expect(streamed.forest == forest && streamed.report == report, "\(label())")
  }

  @Test(arguments: [0.0, 0.1, 0.5, 1.0])
  func stringIDsMatchTheReference(mix: Double) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(31))
    for round in 0..<150 {
      let idCount = 1 + rng.index(below: 60)
      let count = rng.index(below: idCount * 2)
      let records = Self.records(count: count, idCount: idCount, mix: mix, &rng) { "n\($0)" }
      try Self.check(records, "\(rng) mix \(mix) round \(round)")
    }
  }

  @Test(arguments: [0.0, 0.1, 0.5, 1.0])
  func intIDsMatchTheReference(mix: Double) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(37))
    for round in 0..<150 {
      let idCount = 1 + rng.index(below: 300)
      let count = rng.index(below: idCount * 2)
      let records = Self.records(count: count, idCount: idCount, mix: mix, &rng) { $0 * 7 - 40 }
      try Self.check(records, "\(rng) mix \(mix) round \(round)")
    }
  }

  @Test func largeCleanForestsMatchTheReference() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(41))
    for round in 0..<4 {
      // Clean records as a store keeps them, shuffled.
      let count = 2000 + rng.index(below: 2000)
      var records: [OrderedForest<Int>.Record] = []
      var last: [Int?: OrderKey] = [:]
      for id in 0..<count {
        let parent = id > 0 && rng.chance(0.9) ? rng.index(below: id) : nil
        let key = try OrderKey.between(last[parent], nil)
        last[parent] = key
        records.append(.init(id: id, parent: parent, key: key))
      }
      records.shuffle(using: &rng)
      try Self.check(records, "\(rng) round \(round)")
      #expect(OrderedForest<Int>.build(from: records).report.isClean, "\(rng) round \(round)")
    }
  }

  /// The build's one-pass key check gives each text the verdict, error and prefix of the
  /// full validation.
  @Test func theBuildsKeyCheckAgreesWithTheFullValidation() {
    var rng = SplitMix64(seed: SplitMix64.testSeed(43))
    let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    let odd: [Character] = [" ", "-", "/", "[", "`", "{", "@", ":", "é", "\u{0}"]
    // The one integer nothing sorts below, and the integer right above it.
    var texts = [
      "A" + String(repeating: "0", count: 26), "A" + String(repeating: "0", count: 25) + "1",
    ]
    for _ in 0..<20_000 {
      var text = ""
      let length = rng.index(below: 14)
      for index in 0..<length {
        if rng.chance(0.03) {
          text.append(odd[rng.index(below: odd.count)])
        } else if index == 0 && rng.chance(0.8) {
          text.append(digits[10 + rng.index(below: 52)])
        } else {
          text.append(rng.chance(0.2) ? "0" : digits[rng.index(below: digits.count)])
        }
      }
      texts.append(text)
    }
    var valid = 0
    for text in texts {
      let full = Result { () throws(OrderingError) in try OrderKey(validating: text) }
      let quick = Result { () throws(OrderingError) in try OrderKey.prefix(validating: text) }
      switch (full, quick) {
      case (.success(let key), .success(let prefix)):
        valid += 1
        #expect(prefix == key.prefix, "\(text.debugDescription) \(rng)")
      case (.failure(let error), .failure(let other)):
        #expect(error == other, "\(text.debugDescription) \(rng)")
      default:
        Issue.record("\(text.debugDescription): \(full) but \(quick) \(rng)")
      }
    }
    #expect(valid > 1000 && valid < texts.count - 1000, "\(valid) valid texts \(rng)")
  }

  /// An id whose hash has only a few values, so many ids share a home bucket and the high
  /// half of their hash: the table's probes must compare the ids themselves.
  struct CollidingID: Hashable, Comparable, Sendable, CustomStringConvertible {
    var value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(value % 3) }
    static func < (a: CollidingID, b: CollidingID) -> Bool { a.value < b.value }
    var description: String { "c\(value)" }
  }

  /// Record sets of several blocks of the table's loops (hundreds to thousands of records),
  /// with every kind of repair, so repeats, parents and cycles straddle block boundaries.
  @Test(arguments: [0.1, 0.5, 1.0])
  func manyBlocksMatchTheReference(mix: Double) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(43))
    for round in 0..<6 {
      let idCount = 200 + rng.index(below: 2500)
      let count = idCount + rng.index(below: idCount)
      let ints = Self.records(count: count, idCount: idCount, mix: mix, &rng) { $0 * 3 + 1 }
      try Self.check(ints, "\(rng) mix \(mix) round \(round) int")
      let strings = Self.records(count: count, idCount: idCount, mix: mix, &rng) { "id\($0)" }
      try Self.check(strings, "\(rng) mix \(mix) round \(round) string")
    }
  }

  @Test(arguments: [0.0, 0.5, 1.0])
  func collidingHashesMatchTheReference(mix: Double) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(47))
    for round in 0..<20 {
      let idCount = 1 + rng.index(below: 400)
      let count = rng.index(below: idCount * 2)
      let records = Self.records(count: count, idCount: idCount, mix: mix, &rng) {
        CollidingID(value: $0)
      }
      try Self.check(records, "\(rng) mix \(mix) round \(round)")
    }
  }

  @Test func emptyAndOneRecord() throws {
    try Self.check([OrderedForest<Int>.Record](), "empty")
    try Self.check([OrderedForest<Int>.Record(id: 1, parent: 1, order: .key("a00"))], "one")
    try Self.check(
      [OrderedForest<String>.Record(id: "x", parent: "ghost", order: .missing)], "orphan")
  }
}
