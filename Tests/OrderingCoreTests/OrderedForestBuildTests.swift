import OffloadTestSupport
import Testing

@testable import OrderingCore

@Suite("OrderedForest: build from records")
struct OrderedForestBuildTests {
  typealias Record = Forest.Record

  @Test func cleanRecordsBuildCleanly() throws {
    let records = [
      Record(id: "b", parent: "a", order: .key("a1")),
      Record(id: "a", parent: nil, order: .key("a0")),
      Record(id: "c", parent: "a", order: .key("a0")),
    ]
    let (forest, report) = Forest.build(from: records)
    #expect(render(forest) == "a(c b)")
    #expect(report.isClean)
    #expect(report.rewritten.isEmpty)
    #expect(report.description == "no repairs")
    #expect(forest.records.map(\.id) == ["a", "c", "b"])
  }

  @Test func everyRepairIsReportedAndNoRecordIsLost() throws {
    let records = [
      Record(id: "root", parent: nil, order: .key("a0")),
      Record(id: "orphan", parent: "ghost", order: .key("a1")),
      Record(id: "x", parent: "y", order: .key("a0")),
      Record(id: "y", parent: "z", order: .key("a0")),
      Record(id: "z", parent: "x", order: .key("a0")),
      Record(id: "self", parent: "self", order: .key("a5")),
      Record(id: "d2", parent: "root", order: .key("a1")),
      Record(id: "d1", parent: "root", order: .key("a1")),
      Record(id: "d3", parent: "root", order: .key("a2")),
      Record(id: "bad", parent: "root", order: .key("a00")),
      Record(id: "none", parent: "root", order: .missing),
      Record(id: "root", parent: nil, order: .key("a9")),
    ]
    let (forest, report) = Forest.build(from: records)
    // Every distinct id is in the forest.
    #expect(forest.count == 11)
    // x's key ties with root's at the root level: root (the smaller id) keeps a0.
    #expect(render(forest) == "root(d1 d2 d3 bad none) x(z(y)) orphan self")
    #expect(
      report.repairs.map(\.description) == [
        "bad has the invalid order key \"a00\" (trailingZero): it got a new key after its siblings",
        "d2 shares order key \"a1\" with d1: it got a new key right after d1",
        "none has no order: it went after its ordered siblings",
        "orphan names parent ghost, which does not exist: it became a root",
        "record 11 repeats id root of record 0: it was left out, and the store should delete it",
        "self is in the parent cycle self -> self: it became a root",
        "x is in the parent cycle x -> y -> z -> x: it became a root",
        "x shares order key \"a0\" with root: it got a new key right after root",
      ])
    #expect(Set(report.rewritten) == ["orphan", "x", "self", "d2", "bad", "none"])
    let d1 = forest.key(of: "d1")
    let d3 = forest.key(of: "d3")
    #expect(d1.rawValue == "a1" && d3.rawValue == "a2")
    #expect(d1 < forest.key(of: "d2") && forest.key(of: "d2") < d3)
    #expect(publicInvariantProblem(forest) == nil)
    #expect(report.repairs.first?.kind == .invalidKey("a00", .trailingZero))
  }

  @Test func positionsOrderSiblingsAndTiesBreakByID() throws {
    let records = [
      Record(id: "c", parent: nil, order: .position(2)),
      Record(id: "b", parent: nil, order: .position(1)),
      Record(id: "a", parent: nil, order: .position(1)),
      Record(id: "k", parent: nil, order: .key("a0")),
    ]
    let (forest, report) = Forest.build(from: records)
    #expect(render(forest) == "k a b c")
    #expect(report.repairs == [Forest.Repair(id: "b", kind: .duplicatePosition(1, tiedWith: "a"))])
    #expect(report.repairs[0].description == "b shares position 1 with a: it goes right after a")
    #expect(report.rewritten == ["c", "b", "a"])
  }

  @Test func theSameRecordsInAnyOrderGiveTheSameForest() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(4))
    for round in 0..<50 {
      // Random records with orphans, cycles, duplicate and bad keys.
      let count = 1 + rng.index(below: 40)
      var records: [Record] = []
      for index in 0..<count {
        let parent: String? = rng.chance(0.3) ? nil : "n\(rng.index(below: count + 3))"
        let order: Record.Order
        switch rng.index(below: 4) {
        case 0: order = .key(["a0", "a1", "a2", "a00", "b"][rng.index(below: 5)])
        case 1: order = .position(rng.index(below: 4))
        case 2: order = .missing
        default: order = .key("a\(rng.index(below: 10))")
        }
        records.append(Record(id: "n\(index)", parent: parent, order: order))
      }
      let (forest, report) = Forest.build(from: records)
      #expect(forest.count == count, "\(rng) round \(round)")
      #expect(publicInvariantProblem(forest) == nil, "\(rng) round \(round)")
      var shuffled = records
      shuffled.shuffle(using: &rng)
      let (again, againReport) = Forest.build(from: shuffled)
      #expect(again == forest, "\(rng) round \(round)")
      #expect(againReport.repairs == report.repairs, "\(rng) round \(round)")
      // Rebuilding from the repaired forest's own records is clean.
      #expect(Forest.build(from: forest.records).report.isClean)
    }
  }
}
