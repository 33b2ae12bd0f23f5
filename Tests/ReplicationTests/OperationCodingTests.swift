import Foundation
import OffloadTestSupport
import OrderingCore
import Replication
import Testing

@Suite("Operations as log lines")
struct OperationCodingTests {
  func line(_ operation: ReplicaOperation) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(operation), as: UTF8.self)
  }

  @Test("every operation of seeded runs survives a round trip through its line")
  func roundTrip() throws {
    for seed in 0..<20 as Range<UInt64> {
      var simulation = Simulation(seed: SplitMix64.testSeed(seed))
      for _ in 0..<150 { simulation.step() }
      for operation in simulation.logs.flatMap({ $0 }) {
        let text = try line(operation)
        let back = try JSONDecoder().decode(ReplicaOperation.self, from: Data(text.utf8))
        #expect(back == operation, "\(text)")
      }
    }
  }

  @Test("the line format is the one of decision 0010")
  func format() throws {
    let k7q = try ReplicaID("k7q")
    let move = ReplicaOperation(
      sequence: 12, timestamp: .init(wallTime: 1_732_694_400_123, counter: 0, replica: k7q),
      change: .move(NodeID("k7q3"), parent: NodeID("k7q1"), key: try .init(validating: "a0V")))
    #expect(
      try line(move)
        == #"{"key":"a0V","node":"k7q3","op":"move","parent":"k7q1","replica":"k7q","seq":12,"#
        + #""t":[1732694400123,0]}"#)
    let set = ReplicaOperation(
      sequence: 13, timestamp: .init(wallTime: 5, counter: 1, replica: k7q),
      change: .set(NodeID("k7q3"), .done(true)))
    #expect(
      try line(set)
        == #"{"field":"done","node":"k7q3","op":"set","replica":"k7q","seq":13,"t":[5,1],"#
        + #""value":true}"#)
  }

  @Test("bad lines are refused with what is wrong")
  func badLines() {
    let cases = [
      (
        #"{"node":"x","op":"jump","replica":"k7q","seq":1,"t":[1,0]}"#, "unknown operation \"jump\""
      ),
      (
        #"{"field":"done","node":"x","op":"set","replica":"k7q","seq":1,"t":[1,0],"value":"yes"}"#,
        "field \"done\" does not take the value"
      ),
      (
        #"{"key":"a00","node":"x","op":"move","parent":"y","replica":"k7q","seq":1,"t":[1,0]}"#,
        "invalid order key \"a00\""
      ),
    ]
    for (text, message) in cases {
      do {
        _ = try JSONDecoder().decode(ReplicaOperation.self, from: Data(text.utf8))
        Issue.record("\(text) was accepted")
      } catch let DecodingError.dataCorrupted(context) {
        #expect(context.debugDescription.contains(message), "\(context.debugDescription)")
      } catch {
        Issue.record("\(text): \(error)")
      }
    }
  }
}
