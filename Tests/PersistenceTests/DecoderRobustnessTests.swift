import Foundation
import OffloadTestSupport
import Testing

@testable import Persistence

/// Mutates valid files into hostile ones, byte by byte and token by token.
struct Mutator {
  var rng: SplitMix64
  let tokens: [[UInt8]] = [
    "{", "}", "[", "]", "\"", ",", ":", "\\", "\\u", "\\ud800", "1e999", "-", "-0", "0.", "null",
    "true", "\n", "\u{0}", "\u{FF}", "é", "\"data\"", "\"version\":2", "\"seq\":",
    "99999999999999999999",
  ].map { Array($0.utf8) }

  mutating func mutate(_ input: [UInt8], seeds: [[UInt8]]) -> [UInt8] {
    var bytes = input
    for _ in 0..<(1 + rng.index(below: 4)) {
      let position = bytes.isEmpty ? 0 : rng.index(below: bytes.count + 1)
      switch rng.index(below: 8) {
      case 0 where !bytes.isEmpty:
        bytes[min(position, bytes.count - 1)] ^= UInt8(1 << rng.index(below: 8))
      case 1:
        bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: position)
      case 2 where !bytes.isEmpty:
        let end = min(bytes.count, position + 1 + rng.index(below: 16))
        bytes.removeSubrange(min(position, end)..<end)
      case 3:
        bytes = Array(bytes.prefix(position))
      case 4:
        bytes.insert(contentsOf: tokens[rng.index(below: tokens.count)], at: position)
      case 5 where !bytes.isEmpty:
        let start = rng.index(below: bytes.count)
        let end = min(bytes.count, start + rng.index(below: 32))
        bytes.insert(contentsOf: bytes[start..<end], at: position)
      case 6:
        let other = seeds[rng.index(below: seeds.count)]
        let cut = other.isEmpty ? 0 : rng.index(below: other.count)
        bytes = Array(bytes.prefix(position)) + other[cut...]
      default:
        bytes.append(contentsOf: tokens[rng.index(below: tokens.count)])
      }
    }
    return bytes
  }

  mutating func randomBytes() -> [UInt8] {
    (0..<rng.index(below: 64)).map { _ in
      rng.chance(0.5)
        ? Array("{}[]\":,0123456789-.eEtrufalsn \n\\".utf8)[rng.index(below: 31)]
        : UInt8(truncatingIfNeeded: rng.next())
    }
  }
}

@Suite("Decoders survive arbitrary bytes")
struct DecoderRobustnessTests {
  static let inputsPerFormat = 60_000

  @Test func documentDecoderOnMutatedAndRandomInputs() throws {
    var seedRNG = SplitMix64(seed: SplitMix64.testSeed(9))
    let seeds: [[UInt8]] = try (0..<12).map { _ in
      let plan = seedRNG.plan(maxItems: 2)
      return Array(
        try DocumentCodec.encode(
          plan, format: DocumentFormat<Plan>(name: "test.plan", prettyPrinted: seedRNG.chance(0.5)),
          path: "seed"))
    }
    var mutator = Mutator(rng: SplitMix64(seed: SplitMix64.testSeed(10)))
    var outcomes: [PersistenceError.Code?: Int] = [:]
    for index in 0..<Self.inputsPerFormat {
      let input =
        index % 10 == 0
        ? mutator.randomBytes() : mutator.mutate(seeds[index % seeds.count], seeds: seeds)
      let data = Data(input)
      do {
        _ = try DocumentCodec.decode(data, format: planFormat, path: "input")
        outcomes[nil, default: 0] += 1
      } catch {
        outcomes[error.code, default: 0] += 1
        if let offset = error.offset {
          #expect(offset >= 0 && offset <= input.count, "\(index) \(mutator.rng)")
        }
        #expect(error.line.map { $0 >= 1 } ?? true)
        #expect(!error.description.isEmpty)
      }
      // The scanner alone, on the same bytes.
      if let syntax = input.withUnsafeBytes({ JSONScanner.validate($0) }) {
        #expect(syntax.offset <= input.count)
      }
    }
    // The run reached both valid documents and damage.
    #expect(outcomes[nil, default: 0] > 0)
    #expect(outcomes[.damaged, default: 0] > Self.inputsPerFormat / 2)
  }

  @Test func journalReaderOnMutatedAndRandomInputs() throws {
    var seedRNG = SplitMix64(seed: SplitMix64.testSeed(11))
    var seeds: [[UInt8]] = []
    for _ in 0..<8 {
      var text = Array(
        try JournalHeader(
          baseSequence: 0, format: "test.deck", generation: 0, journal: 1, version: 1
        )
        .line())
      for sequence in 1...(1 + seedRNG.index(below: 5)) {
        let entry = try JSONEncoder().encode(seedRNG.swipe())
        entry.withUnsafeBytes { JournalLine.append(sequence: sequence, entry: $0, to: &text) }
      }
      seeds.append(text)
    }
    var mutator = Mutator(rng: SplitMix64(seed: SplitMix64.testSeed(12)))
    let decoder = CanonicalJSON.decoder()
    var torn = 0
    var damaged = 0
    for index in 0..<Self.inputsPerFormat {
      let input =
        index % 10 == 0
        ? mutator.randomBytes() : mutator.mutate(seeds[index % seeds.count], seeds: seeds)
      let scan = JournalScan<Swipe>.scan(Data(input), path: "input", decoder: decoder)
      #expect(scan.validLength <= input.count)
      #expect(
        scan.entries.map(\.sequence)
          == Array(1...max(scan.entries.count, 1)).prefix(scan.entries.count).map { $0 })
      if let tail = scan.tornTail {
        torn += 1
        #expect(tail.offset == scan.validLength && tail.offset + tail.length == input.count)
      }
      if let damage = scan.damage {
        damaged += 1
        #expect(damage.line.map { $0 >= 1 } ?? false)
      }
      // Each line parser on its own.
      input.withUnsafeBytes { bytes in
        _ = try? JournalLine.parse(bytes)
      }
    }
    #expect(torn > 0 && damaged > 0)
  }

  @Test func crc32MatchesTheBitwiseDefinition() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([]) == 0)
    #expect(CRC32.checksum(Array("a".utf8)) == 0xE8B7_BE43)
    #expect(
      CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    var rng = SplitMix64(seed: SplitMix64.testSeed(13))
    for _ in 0..<500 {
      let bytes = (0..<rng.index(below: 100)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      var crc: UInt32 = 0xFFFF_FFFF
      for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
      }
      #expect(CRC32.checksum(bytes) == ~crc, "\(rng)")
      // Continuing from a seed equals checksumming the concatenation.
      let split = bytes.isEmpty ? 0 : rng.index(below: bytes.count)
      let head = CRC32.checksum(Array(bytes[..<split]))
      #expect(Array(bytes[split...]).withUnsafeBytes { CRC32.checksum($0, seed: head) } == ~crc)
    }
  }

  /// Every lead byte, followed by bytes that continue it, end it too soon or do not continue it:
  /// the scanner accepts a string exactly when the standard library reads its bytes as UTF-8.
  @Test func scannerReadsUTF8AsTheStandardLibraryDoes() {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0x07F8))
    let followers: [UInt8] = [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF4]
    func accepts(_ sequence: [UInt8]) -> Bool {
      ([0x22] + sequence + [0x22]).withUnsafeBytes { JSONScanner.validate($0) } == nil
    }
    for lead in UInt8(0x80)...0xFF {
      for _ in 0..<40 {
        let sequence =
          [lead] + (0..<rng.index(below: 4)).map { _ in followers[rng.index(below: 10)] }
        let valid = String(validating: sequence, as: UTF8.self) != nil
        #expect(accepts(sequence) == valid, "\(sequence) \(rng)")
      }
    }
    for value in stride(from: 0x80, through: 0x10FFFF, by: 0x3F1) {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let encoded = Array(String(scalar).utf8)
      #expect(accepts(encoded), "U+\(String(value, radix: 16))")
      #expect(!accepts(Array(encoded.dropLast())), "U+\(String(value, radix: 16)) cut short")
    }
  }
}
