import OffloadTestSupport
import Testing

@testable import OrderingCore

/// Calls the byte-level algorithm over any alphabet, as the reference library's tests do.
private func referenceBetween(_ a: String?, _ b: String?, digits: KeyDigits = .base62) -> String {
  let lower = a ?? ""
  let upper = b ?? ""
  do {
    return try withBytes(lower) { (x) throws(OrderingError) in
      try withBytes(upper) { (y) throws(OrderingError) in
        if a != nil { try digits.validate(x) { lower } }
        if b != nil { try digits.validate(y) { upper } }
        return try OrderKey.between(a == nil ? nil : x, b == nil ? nil : y, digits: digits).rawValue
      }
    }
  } catch {
    return "error: \(error.code)"
  }
}

private let base10 = KeyDigits(Array("0123456789".utf8))
private let base95 = KeyDigits(Array((0x20...0x7E).map { UInt8($0) }))

@Suite("OrderKey: the reference library's published vectors")
struct OrderKeyVectorTests {
  // The vectors of the `fractional-indexing` test suite (version 3), base 62.
  @Test(
    arguments: [
      (nil, nil, "a0"), (nil, "a0", "Zz"), (nil, "Zz", "Zy"), ("a0", nil, "a1"), ("a1", nil, "a2"),
      ("a0", "a1", "a0V"), ("a1", "a2", "a1V"), ("a0V", "a1", "a0l"), ("Zz", "a0", "ZzV"),
      ("Zz", "a1", "a0"), (nil, "Y00", "Xzzz"), ("bzz", nil, "c000"), ("a0", "a0V", "a0G"),
      ("a0", "a0G", "a08"), ("b125", "b129", "b127"), ("a0", "a1V", "a1"), ("Zz", "a01", "a0"),
      (nil, "a0V", "a0"), (nil, "b999", "b99"),
      (nil, "A000000000000000000000000001", "A000000000000000000000000000V"),
      ("zzzzzzzzzzzzzzzzzzzzzzzzzzy", nil, "zzzzzzzzzzzzzzzzzzzzzzzzzzz"),
      ("zzzzzzzzzzzzzzzzzzzzzzzzzzz", nil, "zzzzzzzzzzzzzzzzzzzzzzzzzzzV"),
    ] as [(String?, String?, String)])
  func base62(lower: String?, upper: String?, expected: String) throws {
    let a = try lower.map { try OrderKey(validating: $0) }
    let b = try upper.map { try OrderKey(validating: $0) }
    #expect(try OrderKey.between(a, b).rawValue == expected)
    #expect(referenceBetween(lower, upper) == expected)
  }

  @Test(
    arguments: [
      (nil, "A00000000000000000000000000", "error: smallestInteger"),
      ("a00", nil, "error: trailingZero"),
      ("a00", "a1", "error: trailingZero"),
      ("0", "1", "error: invalidHead"),
      ("a1", "a0", "error: boundsNotAscending"),
    ] as [(String?, String?, String)])
  func base62Errors(lower: String?, upper: String?, expected: String) {
    #expect(referenceBetween(lower, upper) == expected)
  }

  @Test(
    arguments: [
      ("a00", "a01", "a00P"), ("a0/", "a00", "a0/P"), (nil, nil, "a "), ("a ", nil, "a!"),
      (nil, "a ", "Z~"), ("a0 ", "a0!", "error: trailingZero"),
      (nil, "A                          0", "A                          ("), ("a~", nil, "b  "),
      ("Z~", nil, "a "), ("b   ", nil, "error: trailingZero"), ("a0", "a0V", "a0;"),
      ("a  1", "a  2", "a  1P"), (nil, "A                          ", "error: smallestInteger"),
    ] as [(String?, String?, String)])
  func base95Vectors(lower: String?, upper: String?, expected: String) {
    #expect(referenceBetween(lower, upper, digits: base95) == expected)
  }

  @Test func base10Spread() throws {
    func spread(_ a: String?, _ b: String?, _ n: Int) -> String {
      // The reference's generateNKeysBetween, replayed over base 10.
      func go(_ a: String?, _ b: String?, _ n: Int) -> [String] {
        if n == 0 { return [] }
        if n == 1 { return [referenceBetween(a, b, digits: base10)] }
        if b == nil {
          var c = referenceBetween(a, b, digits: base10)
          var result = [c]
          for _ in 1..<n {
            c = referenceBetween(c, b, digits: base10)
            result.append(c)
          }
          return result
        }
        if a == nil {
          var c = referenceBetween(a, b, digits: base10)
          var result = [c]
          for _ in 1..<n {
            c = referenceBetween(a, c, digits: base10)
            result.append(c)
          }
          return result.reversed()
        }
        let mid = n / 2
        let c = referenceBetween(a, b, digits: base10)
        return go(a, c, mid) + [c] + go(c, b, n - mid - 1)
      }
      return go(a, b, n).joined(separator: " ")
    }
    #expect(spread(nil, nil, 5) == "a0 a1 a2 a3 a4")
    #expect(spread("a4", nil, 10) == "a5 a6 a7 a8 a9 b00 b01 b02 b03 b04")
    #expect(spread(nil, "a0", 5) == "Z5 Z6 Z7 Z8 Z9")
    #expect(
      spread("a0", "a2", 20)
        == "a01 a02 a03 a035 a04 a05 a06 a07 a08 a09 a1 a11 a12 a13 a14 a15 a16 a17 a18 a19")
  }

  @Test func base62SpreadMatchesReferenceShape() throws {
    #expect(
      try OrderKey.spread(5, between: nil, and: nil).map(\.rawValue) == [
        "a0", "a1", "a2", "a3", "a4",
      ])
    #expect(
      try OrderKey.spread(3, between: nil, and: OrderKey(validating: "a0")).map(\.rawValue) == [
        "Zx", "Zy", "Zz",
      ])
    #expect(try OrderKey.spread(0, between: nil, and: nil).isEmpty)
    let three = try OrderKey.spread(3, between: .first, and: OrderKey(validating: "a1")).map(
      \.rawValue)
    #expect(three == ["a0G", "a0V", "a0l"])
  }
}

@Suite("OrderKey: validation and errors")
struct OrderKeyValidationTests {
  @Test(
    arguments: [
      ("", OrderingError.Code.emptyKey, "a key cannot be empty"),
      ("0a", .invalidHead, "its head '0' at byte 0 is not a letter"),
      ("é0", .invalidHead, "its head byte 0xC3 at byte 0"),
      ("b1", .invalidIntegerLength, "head 'b' needs an integer part of 3 bytes, but the key has 2"),
      ("a", .invalidIntegerLength, "needs an integer part of 2 bytes"),
      ("Zz", nil, ""),
      ("a10", .trailingZero, "the fraction ends in '0' at byte 2"),
      ("A00000000000000000000000000", .smallestInteger, "smallest integer key"),
      ("a0!", .invalidDigit, "'!' at byte 2 is not a digit"),
      ("a0 x", .invalidDigit, "byte 0x20 at byte 2"),
      ("a-", .invalidDigit, "'-' at byte 1"),
    ] as [(String, OrderingError.Code?, String)])
  func validation(text: String, code: OrderingError.Code?, message: String) {
    do {
      let key = try OrderKey(validating: text)
      #expect(code == nil, "accepted \(text)")
      #expect(key.rawValue == text)
      #expect(OrderKey.isValid(text))
      #expect(OrderKey(rawValue: text) == key)
    } catch {
      #expect(error.code == code)
      #expect(error.key == text)
      #expect(error.description.contains(message), "\(error.description)")
      #expect(error.description.hasPrefix("invalid order key"))
      #expect(!OrderKey.isValid(text))
      #expect(OrderKey(rawValue: text) == nil)
    }
  }

  @Test func zeroIntegerDigitsAreValid() throws {
    // "a0" has a zero integer digit: only the fraction may not end in zero.
    #expect(OrderKey.isValid("a0"))
    #expect(OrderKey.isValid("b00"))
    #expect(!OrderKey.isValid("b000"))
  }

  @Test func boundsOutOfOrderNameBothKeys() throws {
    let a = try OrderKey(validating: "a1")
    let b = try OrderKey(validating: "a0")
    #expect {
      try OrderKey.between(a, b)
    } throws: { error in
      let error = try #require(error as? OrderingError)
      return error.code == .boundsNotAscending && error.key == "a1" && error.otherKey == "a0"
        && error.description
          == "cannot make a key between \"a1\" and \"a0\": the lower bound sorts after the upper bound"
    }
    #expect(throws: OrderingError.self) { try OrderKey.between(a, a) }
    do {
      _ = try OrderKey.between(a, a)
    } catch {
      #expect(error.description.hasSuffix("they are equal"))
    }
  }

  @Test func longKeysAreShortenedInMessages() throws {
    let long = "a0" + String(repeating: "V", count: 100) + "0"
    do {
      _ = try OrderKey(validating: long)
      Issue.record("accepted a key with a trailing zero")
    } catch {
      #expect(error.description.contains("(103 bytes)"))
      #expect(error.description.utf8.count < 200)
      #expect(error.key == long)
    }
  }

  @Test func keySpaceExhaustedMessage() throws {
    // Above the largest integer key only fractions remain, so `between(k, nil)` never fails,
    // but the byte-level increment reports the top so callers can refuse cleanly.
    let top = Array("zzzzzzzzzzzzzzzzzzzzzzzzzzz".utf8)
    let result = top.withUnsafeBufferPointer { integer in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { out in
        KeyDigits.base62.increment(integer, into: out)
      }
    }
    #expect(result == nil)
    let bottom = Array("A00000000000000000000000000".utf8)
    let down = bottom.withUnsafeBufferPointer { integer in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { out in
        KeyDigits.base62.decrement(integer, into: out)
      }
    }
    #expect(down == nil)
  }
}

@Suite("OrderKey: boundaries")
struct OrderKeyBoundaryTests {
  @Test func integerLengthChangesAtEveryHead() throws {
    // Walking up from the largest 2-byte negative integer crosses into positives, then
    // every increment that carries out grows the integer part by one byte.
    #expect(try OrderKey.between(OrderKey(validating: "Zz"), nil).rawValue == "a0")
    #expect(try OrderKey.between(OrderKey(validating: "az"), nil).rawValue == "b00")
    #expect(try OrderKey.between(OrderKey(validating: "bzz"), nil).rawValue == "c000")
    #expect(try OrderKey.between(OrderKey(validating: "Yzzz"), nil).rawValue == "Z0")
    #expect(try OrderKey.between(nil, OrderKey(validating: "a0")).rawValue == "Zz")
    #expect(try OrderKey.between(nil, OrderKey(validating: "Z0")).rawValue == "Yzz")
    #expect(try OrderKey.between(nil, OrderKey(validating: "b00")).rawValue == "az")
  }

  @Test func largestAndSmallestIntegers() throws {
    let largest = try OrderKey(validating: "z" + String(repeating: "z", count: 26))
    let above = try OrderKey.between(largest, nil)
    #expect(above.rawValue == largest.rawValue + "V")
    #expect(largest < above)
    // The integer just above the smallest: the reference returns the (invalid) smallest
    // integer key here; we return the valid key just above it.
    let smallestPlusOne = try OrderKey(validating: "A" + String(repeating: "0", count: 25) + "1")
    let below = try OrderKey.between(nil, smallestPlusOne)
    #expect(below.rawValue == "A" + String(repeating: "0", count: 26) + "V")
    #expect(OrderKey.isValid(below.rawValue))
    #expect(below < smallestPlusOne)
    // Keep going down: fractions of the smallest integer shrink toward it forever.
    var key = below
    for _ in 0..<50 {
      let next = try OrderKey.between(nil, key)
      #expect(next < key)
      key = next
    }
  }

  @Test func oneDigitPastTheHead() throws {
    // From the integer step to the fractional midpoint: a0 < a1 are adjacent integers.
    #expect(try OrderKey.between(.first, OrderKey(validating: "a1")).rawValue == "a0V")
    #expect(try OrderKey.between(.first, OrderKey(validating: "a2")).rawValue == "a1")
    #expect(
      try OrderKey.between(OrderKey(validating: "ay"), OrderKey(validating: "b00")).rawValue == "az"
    )
    #expect(
      try OrderKey.between(OrderKey(validating: "az"), OrderKey(validating: "b00")).rawValue
        == "azV")
    #expect(
      try OrderKey.between(OrderKey(validating: "a0z"), OrderKey(validating: "a1")).rawValue
        == "a0zV")
  }

  @Test func comparisonIsByteOrder() throws {
    let keys = try ["Zz", "a0", "a0V", "a1", "b00", "A000000000000000000000000001"].map(
      OrderKey.init(validating:))
    let sorted = keys.sorted()
    #expect(
      sorted.map(\.rawValue) == ["A000000000000000000000000001", "Zz", "a0", "a0V", "a1", "b00"])
    #expect(
      sorted.map(\.rawValue)
        == keys.map(\.rawValue).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
  }

  @Test func codableRoundTripAndRejection() throws {
    let key = try OrderKey(validating: "a0V")
    let encoded = try JSONRoundTrip.encode([key])
    #expect(encoded == "[\"a0V\"]")
    #expect(try JSONRoundTrip.decode([OrderKey].self, from: encoded) == [key])
    #expect(throws: DecodingError.self) {
      try JSONRoundTrip.decode([OrderKey].self, from: "[\"a00\"]")
    }
    #expect(key.description == "a0V")
    #expect(key.debugDescription == "OrderKey(\"a0V\")")
  }
}

/// The workloads of the key benchmark, as a test drives them.
enum KeyWorkload: String, CaseIterable, CustomStringConvertible {
  case append, prepend, random, move, afterFirst

  var description: String { rawValue }

  /// Runs `count` operations on a list, checking invariants after each one.
  func run(count: Int, rng: inout SplitMix64) throws {
    var list: [OrderKey] = []
    for step in 0..<count {
      var position: Int
      switch self {
      case .append: position = list.count
      case .prepend: position = 0
      case .random: position = rng.index(below: list.count + 1)
      case .afterFirst: position = list.isEmpty ? 0 : 1
      case .move:
        if list.count < 100 {
          position = rng.index(below: list.count + 1)
        } else {
          list.remove(at: rng.index(below: list.count))
          position = rng.index(below: list.count + 1)
        }
      }
      let lower = position > 0 ? list[position - 1] : nil
      let upper = position < list.count ? list[position] : nil
      let key = try OrderKey.between(lower, upper)
      #expect(lower.map { $0 < key } ?? true, "step \(step), \(rng)")
      #expect(upper.map { key < $0 } ?? true, "step \(step), \(rng)")
      #expect(OrderKey.isValid(key.rawValue), "step \(step): \(key) invalid, \(rng)")
      list.insert(key, at: position)
    }
    #expect(zip(list, list.dropFirst()).allSatisfy { $0 < $1 }, "\(self) not increasing, \(rng)")
  }
}

@Suite("OrderKey: properties over seeded random workloads")
struct OrderKeyPropertyTests {
  @Test(arguments: KeyWorkload.allCases)
  func workloadKeepsKeysValidAndIncreasing(_ workload: KeyWorkload) throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x5EED_0001))
    // after-first grows keys by ~1 byte per 6 inserts: 10,000 inserts make ~1,700-byte keys.
    try workload.run(count: 10_000, rng: &rng)
  }

  @Test func randomBoundsFromRandomKeys() throws {
    // 10,000 random pairs of valid keys drawn from the whole key space, including negative
    // heads and long fractions: the key between is valid and strictly inside.
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x5EED_0002))
    let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    func randomKey() -> OrderKey {
      while true {
        let heads = Array("ABCDWXYZabcdwxyz".utf8)
        let head = heads[rng.index(below: heads.count)]
        let length = KeyDigits.integerLength(head: head)!
        var bytes = [head]
        for _ in 1..<length { bytes.append(digits[rng.index(below: 62)]) }
        for _ in 0..<rng.index(below: 4) { bytes.append(digits[rng.index(below: 62)]) }
        if let key = OrderKey(rawValue: String(decoding: bytes, as: UTF8.self)) { return key }
      }
    }
    for _ in 0..<10_000 {
      let x = randomKey()
      let y = randomKey()
      guard x != y else { continue }
      let (a, b) = x < y ? (x, y) : (y, x)
      let k = try OrderKey.between(a, b)
      #expect(a < k && k < b, "\(a) < \(k) < \(b), \(rng)")
      #expect(OrderKey.isValid(k.rawValue))
      #expect(try OrderKey.between(a, nil) > a)
      #expect(try OrderKey.between(nil, a) < a)
    }
  }

  @Test(arguments: [1, 2, 3, 10, 1_000, 100_000])
  func spreadIsIncreasingValidAndShort(count: Int) throws {
    let upper = try OrderKey(validating: "a1")
    let keys = try OrderKey.spread(count, between: .first, and: upper)
    #expect(keys.count == count)
    #expect(keys.allSatisfy { OrderKey.first < $0 && $0 < upper })
    #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
    if count == 100_000 { #expect(keys.map(\.length).max()! <= 6) }
    let open = try OrderKey.spread(min(count, 1_000), between: nil, and: nil)
    #expect(zip(open, open.dropFirst()).allSatisfy { $0 < $1 })
    let below = try OrderKey.spread(min(count, 1_000), between: nil, and: .first)
    #expect(below.last! < .first && zip(below, below.dropFirst()).allSatisfy { $0 < $1 })
  }

  @Test func jitterIsReproducibleInsideAndDistinct() throws {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x5EED_0003))
    var replay = SplitMix64(seed: rng.seed)
    let pairs: [(OrderKey?, OrderKey?)] = try [
      (nil, nil), (.first, nil), (nil, .first), (.first, OrderKey(validating: "a1")),
      (OrderKey(validating: "a01"), OrderKey(validating: "a02V")),
      (OrderKey(validating: "a0"), OrderKey(validating: "a01")),
    ]
    var seen = Set<OrderKey>()
    for (a, b) in pairs {
      for _ in 0..<2_000 {
        let k = try OrderKey.between(a, b, jitter: &rng)
        let again = try OrderKey.between(a, b, jitter: &replay)
        #expect(k == again)
        #expect(a.map { $0 < k } ?? true, "\(String(describing: a)) < \(k), \(rng)")
        #expect(b.map { k < $0 } ?? true, "\(k) < \(String(describing: b)), \(rng)")
        #expect(OrderKey.isValid(k.rawValue))
        #expect(seen.insert(k).inserted, "collision \(k), \(rng)")
      }
    }
  }
}
