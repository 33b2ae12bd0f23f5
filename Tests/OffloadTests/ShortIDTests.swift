import OffloadTestSupport
import Testing

@testable import Offload

@Suite("ShortID: typable identifiers")
struct ShortIDTests {
  @Test func sequenceIdsAreUniqueSixCharactersAndStable() {
    var seen = Set<String>()
    for sequence in 0..<50_000 as Range<UInt64> {
      let id = ShortID(sequence: sequence)
      #expect(id.rawValue.count == 6)
      #expect(seen.insert(id.rawValue).inserted, "duplicate id at \(sequence)")
    }
    #expect(ShortID(sequence: 1) == ShortID(sequence: 1))
    #expect(ShortID(sequence: 1 << 30).rawValue.count == 7)
  }

  @Test func consecutiveIdsDoNotShareLongPrefixes() {
    let ids = (1...1_000 as ClosedRange<UInt64>).map { ShortID(sequence: $0).rawValue }
    let sharedThree = zip(ids, ids.dropFirst()).filter { $0.prefix(3) == $1.prefix(3) }.count
    #expect(sharedThree < 10)
  }

  @Test func parsingRejectsOtherCharacters() {
    #expect(ShortID("abc123") != nil)
    #expect(ShortID("") == nil)
    #expect(ShortID("ABC") == nil)
    #expect(ShortID("oil") == nil)
    #expect(ShortID("a b") == nil)
  }

  @Test func prefixMatching() {
    let ids = ["abc123", "abd456", "xyz789", "ab"].compactMap(ShortID.init)
    #expect(ShortID.match("abc", in: ids) == .unique(ShortID("abc123")!))
    #expect(ShortID.match("ABC", in: ids) == .unique(ShortID("abc123")!))
    #expect(ShortID.match("ab", in: ids) == .unique(ShortID("ab")!))
    #expect(
      ShortID.match("a", in: ids)
        == .ambiguous(["ab", "abc123", "abd456"].compactMap(ShortID.init)))
    #expect(ShortID.match("q", in: ids) == .none)
  }

  @Test func codableRefusesBadIds() throws {
    #expect(try JSONRoundTrip.encode([ShortID("ab12")!]) == "[\"ab12\"]")
    #expect(throws: DecodingError.self) {
      try JSONRoundTrip.decode([ShortID].self, from: "[\"AB\"]")
    }
  }
}
