import OrderingCore
import Replication
import Testing

/// Two replicas, `aaa` and `bbb`, that start from one shared plan.
struct Pair {
  var a: Replica
  var b: Replica
  var logA: [ReplicaOperation] = []
  var logB: [ReplicaOperation] = []

  init() throws {
    a = Replica(id: try ReplicaID("aaa"))
    b = Replica(id: try ReplicaID("bbb"))
  }

  mutating func onA(_ body: (inout Replica) throws -> Replica.Commit) rethrows {
    logA += try body(&a).operations
  }

  mutating func onB(_ body: (inout Replica) throws -> Replica.Commit) rethrows {
    logB += try body(&b).operations
  }

  /// Both replicas receive each other's whole log; returns the two reports (a's, b's).
  @discardableResult
  mutating func exchange(wallTime: UInt64 = 100) -> (MergeReport, MergeReport) {
    (a.merge(logB, wallTime: wallTime), b.merge(logA, wallTime: wallTime))
  }
}

@Suite("Replica edge cases")
struct ReplicaEdgeCaseTests {
  /// A plan "Trip" with items Pack and Tent on replica a, known to b.
  func trip() throws -> (Pair, NodeID, NodeID, NodeID) {
    var pair = try Pair()
    var trip: NodeID = .inbox
    var pack: NodeID = .inbox
    var tent: NodeID = .inbox
    try pair.onA { replica in
      let commit = try replica.createCollection("Trip", layout: "plan", wallTime: 1)
      trip = try #require(commit.created)
      return commit
    }
    try pair.onA { replica in
      let commit = try replica.add("Pack", to: .lastChild(of: trip), wallTime: 2)
      pack = try #require(commit.created)
      return commit
    }
    try pair.onA { replica in
      let commit = try replica.add("Tent", to: .lastChild(of: trip), wallTime: 3)
      tent = try #require(commit.created)
      return commit
    }
    pair.exchange(wallTime: 4)
    return (pair, trip, pack, tent)
  }

  @Test("concurrent moves of A under B and B under A: the later is skipped on both")
  func crossingMoves() throws {
    var (pair, trip, pack, tent) = try trip()
    try pair.onA { try $0.move([pack], to: .lastChild(of: tent), wallTime: 10) }
    try pair.onB { try $0.move([tent], to: .lastChild(of: pack), wallTime: 11) }
    let (reportA, reportB) = pair.exchange(wallTime: 12)
    #expect(pair.a.state.canonicalText() == pair.b.state.canonicalText())
    #expect(pair.a.state.parent(of: pack) == tent)
    #expect(pair.a.state.parent(of: tent) == trip)
    // a skips b's later move when it arrives; b, on receiving a's earlier move, undoes its
    // own, applies a's and skips its own at redo.
    #expect(reportA.skipped.count == 1 && reportB.skipped.count == 1)
    #expect(
      reportA.summary { $0.rawValue == "bbb" ? "phone" : "laptop" }
        == "1 change from phone; 1 move skipped: it would put Tent inside itself (under Pack)")
    #expect(pair.a.state.structuralProblems().isEmpty)
  }

  @Test("an item added under a parent deleted elsewhere is rescued into the inbox")
  func rescueAfterDelete() throws {
    for addFirst in [true, false] {
      var (pair, trip, pack, _) = try trip()
      var added: NodeID = .inbox
      // The add's wall time is before or after the delete's: rescued either way.
      try pair.onB { replica in
        let commit = try replica.add(
          "Sunscreen", to: .lastChild(of: pack), wallTime: addFirst ? 10 : 20)
        added = try #require(commit.created)
        return commit
      }
      try pair.onA { try $0.delete([trip], wallTime: 15) }
      let (reportA, _) = pair.exchange(wallTime: 30)
      #expect(pair.a.state.canonicalText() == pair.b.state.canonicalText())
      #expect(pair.a.state.isLive(added))
      #expect(!pair.a.state.isLive(pack))
      #expect(pair.a.state.children(of: .inbox) == [added])
      #expect(reportA.rescued.map(\.node) == [added])
      #expect(
        reportA.summary { $0.rawValue }
          == "1 change from bbb; Sunscreen kept in the inbox: aaa had deleted its parent")
      #expect(pair.a.state.deletedNodes().map(\.node) == [trip])
      // Restoring the plan brings Pack back, with Sunscreen still under it.
      try pair.onA { try $0.restore(trip, wallTime: 40) }
      #expect(pair.a.state.isLive(pack) && pair.a.state.parent(of: added) == pack)
      #expect(pair.a.state.children(of: .inbox).isEmpty)
    }
  }

  @Test("a parent deleted knowingly takes its children with it")
  func knowingDelete() throws {
    var (pair, trip, pack, _) = try trip()
    try pair.onA { try $0.delete([trip], wallTime: 10) }
    let (_, reportB) = pair.exchange(wallTime: 11)
    #expect(!pair.b.state.isLive(pack) && reportB.rescued.isEmpty)
    #expect(pair.b.state.children(of: .inbox).isEmpty)
  }

  @Test("concurrent inserts into one gap get distinct keys and one order everywhere")
  func sameGap() throws {
    var (pair, _, pack, tent) = try trip()
    try pair.onA { try $0.add("Map", to: .after(pack), wallTime: 10) }
    try pair.onB { try $0.add("Hat", to: .after(pack), wallTime: 10) }
    pair.exchange(wallTime: 11)
    #expect(pair.a.state.canonicalText() == pair.b.state.canonicalText())
    let trip = try #require(pair.a.state.parent(of: pack))
    let order = pair.a.state.children(of: trip).map { pair.a.state.name(of: $0) }
    #expect(order == ["Pack", "Map", "Hat", "Tent"])
    let keys = pair.a.state.children(of: trip).compactMap { pair.a.state.key(of: $0) }
    #expect(Set(keys).count == 4)
    #expect(pair.a.state.key(of: tent).map { keys.last == $0 } == true)
  }

  @Test("last writer wins per field; a tie of wall time and counter goes to the larger replica id")
  func lastWriterWins() throws {
    let pack = NodeID("aaa1")
    let a = try ReplicaID("aaa")
    let b = try ReplicaID("bbb")
    let create = ReplicaOperation(
      sequence: 1, timestamp: .init(wallTime: 1, counter: 0, replica: a),
      change: .create(pack, kind: .item, parent: .inbox, key: .first, fields: [.text("Pack")]))
    let fromA = ReplicaOperation(
      sequence: 2, timestamp: .init(wallTime: 5, counter: 0, replica: a),
      change: .set(pack, .text("Pack bags")))
    let fromB = ReplicaOperation(
      sequence: 1, timestamp: .init(wallTime: 5, counter: 0, replica: b),
      change: .set(pack, .text("Pack tent")))
    let doneA = ReplicaOperation(
      sequence: 3, timestamp: .init(wallTime: 6, counter: 0, replica: a),
      change: .set(pack, .done(true)))
    for order in [[create, fromA, fromB, doneA], [fromB, doneA, fromA, create]] {
      var state = ReplicaState()
      for operation in order { state.merge([operation]) }
      #expect(state.value(0, of: pack) == .text("Pack tent"))
      #expect(state.value(3, of: pack) == .done(true))
    }
  }

  @Test("an early operation arriving late is applied under the later ones (undo, do, redo)")
  func lateArrival() throws {
    var (pair, trip, pack, tent) = try trip()
    // b moves Pack under Tent early; a, later, moves Tent under Pack and edits.
    try pair.onB { try $0.move([pack], to: .lastChild(of: tent), wallTime: 5) }
    try pair.onA { try $0.move([tent], to: .lastChild(of: pack), wallTime: 50) }
    try pair.onA { try $0.set(.done(true), of: tent, wallTime: 51) }
    let (reportA, _) = pair.exchange(wallTime: 60)
    #expect(pair.a.state.canonicalText() == pair.b.state.canonicalText())
    #expect(pair.a.state.parent(of: pack) == tent && pair.a.state.parent(of: tent) == trip)
    #expect(reportA.skipped.map(\.reason) == [.intoOwnSubtree(parent: pack)])
  }

  @Test("a log delivered with a gap waits for the missing operations")
  func gapWaits() throws {
    var (pair, _, pack, _) = try trip()
    try pair.onA { try $0.set(.text("one"), of: pack, wallTime: 10) }
    try pair.onA { try $0.set(.text("two"), of: pack, wallTime: 11) }
    let last = try #require(pair.logA.last)
    let report = pair.b.merge([last], wallTime: 12)
    #expect(report.waiting == 1 && report.arrived.isEmpty)
    #expect(pair.b.state.value(0, of: pack) == .text("Pack"))
    let filled = pair.b.merge(pair.logA, wallTime: 13)
    #expect(filled.arrived.values.reduce(0, +) == 2 && filled.waiting == 0)
    #expect(pair.b.state.value(0, of: pack) == .text("two"))
    #expect(pair.b.merge(pair.logA, wallTime: 14).summary() == "nothing new")
  }

  @Test("undo takes back this replica's last change, never another's")
  func undo() throws {
    var (pair, trip, pack, tent) = try trip()
    try pair.onB { try $0.set(.text("Tent!"), of: tent, wallTime: 10) }
    pair.exchange(wallTime: 11)
    try pair.onA { try $0.move([pack], to: .lastChild(of: tent), wallTime: 12) }
    try pair.onA { try $0.undo(wallTime: 13) }
    #expect(pair.a.state.parent(of: pack) == trip)
    try pair.onA { try $0.undo(wallTime: 14) }  // the add of Tent
    #expect(!pair.a.state.isLive(tent))
    // b's own edit is b's to undo, and only that.
    try pair.onB { try $0.undo(wallTime: 15) }
    pair.exchange(wallTime: 16)
    #expect(pair.b.state.canonicalText() == pair.a.state.canonicalText())
    #expect(pair.b.state.value(0, of: tent) == .text("Tent"))
    do {
      _ = try pair.b.undo(wallTime: 17)
      Issue.record("b has no change of its own left")
    } catch {
      #expect(error.description == "there is no change of this device to undo")
    }
  }

  @Test("local refusals name what is wrong")
  func refusals() throws {
    var (pair, trip, pack, tent) = try trip()
    try pair.onA { try $0.move([tent], to: .lastChild(of: pack), wallTime: 10) }
    #expect(
      throws: ReplicationError(.intoOwnSubtree, "cannot move Pack inside itself (under Tent)")
    ) {
      try pair.a.move([pack], to: .lastChild(of: tent), wallTime: 11)
    }
    #expect(
      throws: ReplicationError(.noPlace, "Pack is the first of its siblings, so it cannot indent")
    ) {
      try pair.a.indent(pack, wallTime: 11)
    }
    #expect(throws: ReplicationError(.notAllowed, "_inbox cannot be deleted")) {
      try pair.a.delete([.inbox], wallTime: 11)
    }
    #expect(throws: ReplicationError(.notAllowed, "an item cannot go under _root")) {
      try pair.a.add("x", to: .lastChild(of: .root), wallTime: 11)
    }
    _ = trip
  }

  @Test("converting a plan to a list flattens it in preorder on every replica")
  func convert() throws {
    var (pair, trip, pack, tent) = try trip()
    try pair.onA { try $0.move([tent], to: .lastChild(of: pack), wallTime: 10) }
    try pair.onA { try $0.convertCollection(trip, to: "list", wallTime: 11) }
    pair.exchange(wallTime: 12)
    #expect(pair.b.state.children(of: trip) == [pack, tent])
    #expect(pair.b.state.value(4, of: trip) == .layout("list"))
  }
}

@Suite("Clocks and ids")
struct ClockAndIDTests {
  @Test("tick always increases, also when the wall clock goes back")
  func tick() throws {
    var clock = HybridClock(replica: try ReplicaID("k7q"))
    var previous = clock.tick(wallTime: 100)
    for wall: UInt64 in [100, 99, 50, 101, 101, 200, 10] {
      let next = clock.tick(wallTime: wall)
      #expect(previous < next)
      previous = next
    }
  }

  @Test("after receive, the next tick is after the remote timestamp")
  func receive() throws {
    var clock = HybridClock(replica: try ReplicaID("zzz"))
    _ = clock.tick(wallTime: 10)
    let remote = HybridTimestamp(wallTime: 500, counter: 7, replica: try ReplicaID("aaa"))
    clock.receive(remote, wallTime: 20)
    let next = clock.tick(wallTime: 21)
    #expect(remote < next && next.wallTime == 500 && next.counter == 9)
  }

  @Test("ids are the replica id and a base-32 counter; different replicas never collide")
  func ids() throws {
    let a = try ReplicaID("k7q")
    let b = try ReplicaID("k7r")
    #expect(NodeID.make(replica: a, counter: 47).rawValue == "k7q1f")
    var seen: Set<NodeID> = []
    for counter in 1...2_000 as ClosedRange<UInt64> {
      seen.insert(.make(replica: a, counter: counter))
      seen.insert(.make(replica: b, counter: counter))
    }
    #expect(seen.count == 4_000)
  }

  @Test("a bad replica id is refused with one line")
  func badReplicaID() {
    for text in ["", "k7", "k7qq", "K7Q", "k7i"] {
      #expect(
        throws: ReplicationError(
          .invalidReplicaID,
          "invalid replica id \"\(text)\": a replica id is 3 characters of 0-9 and a-z "
            + "without i, l, o and u")
      ) { try ReplicaID(text) }
    }
  }

  @Test("keys made by two replicas for one gap differ and stay inside the gap")
  func replicaKeys() throws {
    let lower = try OrderKey(validating: "a0")
    let upper = try OrderKey(validating: "a0V")
    let one = try OrderKey.between(lower, upper, replica: try ReplicaID("aaa"))
    let two = try OrderKey.between(lower, upper, replica: try ReplicaID("bbb"))
    #expect(one != two)
    for key in [one, two] { #expect(lower < key && key < upper) }
  }
}

@Suite("The guide's example")
struct GuideExampleTests {
  @Test("runs as written in Docs/Guides/Replication.md")
  func guideExample() throws {
    var laptop = Replica(id: try ReplicaID("k7q"))
    var phone = Replica(id: try ReplicaID("a1b"))
    var laptopLog: [ReplicaOperation] = []
    var phoneLog: [ReplicaOperation] = []

    let trip = try laptop.createCollection("Trip", layout: "plan", wallTime: 1_000)
    let pack = try laptop.add("Pack", to: .lastChild(of: trip.created!), wallTime: 1_001)
    let tent = try laptop.add("Tent", to: .lastChild(of: trip.created!), wallTime: 1_002)
    laptopLog += trip.operations + pack.operations + tent.operations
    phone.merge(laptopLog, wallTime: 1_003)

    laptopLog += try laptop.move(
      [pack.created!], to: .lastChild(of: tent.created!), wallTime: 1_010
    ).operations
    phoneLog += try phone.move(
      [tent.created!], to: .lastChild(of: pack.created!), wallTime: 1_011
    ).operations

    let report = laptop.merge(phoneLog, wallTime: 1_020)
    #expect(
      report.summary { $0 == phone.id ? "phone" : "laptop" }
        == "1 change from phone; 1 move skipped: it would put Tent inside itself (under Pack)")
    phone.merge(laptopLog, wallTime: 1_021)
    #expect(laptop.state.canonicalText() == phone.state.canonicalText())
  }
}
