import Foundation

/// One measured figure set of a benchmark case, printed as a table row or a JSON object.
struct BenchmarkRow {
  /// Ordered (key, value) pairs; the keys are the JSON keys the issues ask for.
  var fields: [(String, BenchmarkValue)]

  subscript(key: String) -> BenchmarkValue? {
    fields.first { $0.0 == key }?.1
  }
}

/// A value in a benchmark row.
enum BenchmarkValue: CustomStringConvertible {
  case text(String)
  case integer(Int)
  case number(Double)

  var description: String {
    switch self {
    case .text(let text): text
    case .integer(let value): value.formatted(.number.grouping(.automatic))
    case .number(let value):
      abs(value) >= 100
        ? value.formatted(.number.precision(.fractionLength(0)).grouping(.automatic))
        : value.formatted(.number.precision(.significantDigits(3)))
    }
  }

  var json: Any {
    switch self {
    case .text(let text): text
    case .integer(let value): value
    case .number(let value): (value * 1000).rounded() / 1000
    }
  }
}

/// Prints rows as an aligned table or as one JSON array with sorted keys.
enum Report {
  static func print(title: String, rows: [BenchmarkRow], json: Bool) throws {
    if json {
      let objects = rows.map { row in
        Dictionary(uniqueKeysWithValues: row.fields.map { ($0.0, $0.1.json) })
      }
      let data = try JSONSerialization.data(
        withJSONObject: objects, options: [.sortedKeys, .prettyPrinted])
      Swift.print(String(decoding: data, as: UTF8.self))
      return
    }
    guard !rows.isEmpty else { return }
    // Columns are the union of every row's keys, in first-seen order.
    var headers: [String] = []
    for row in rows {
      for (key, _) in row.fields where !headers.contains(key) { headers.append(key) }
    }
    let cells = rows.map { row in headers.map { row[$0]?.description ?? "" } }
    let widths = headers.indices.map { column in
      max(headers[column].count, cells.map { $0[column].count }.max() ?? 0)
    }
    Swift.print(title)
    func line(_ values: [String]) -> String {
      values.enumerated().map { column, value in
        column == 0
          ? value.padding(toLength: widths[column], withPad: " ", startingAt: 0)
          : String(repeating: " ", count: widths[column] - value.count) + value
      }.joined(separator: "  ")
    }
    Swift.print(line(headers))
    Swift.print(line(widths.map { String(repeating: "-", count: $0) }))
    for row in cells { Swift.print(line(row)) }
  }
}

/// Measures elapsed time with the monotonic clock.
enum Stopwatch {
  /// Runs `body` and returns its result and the seconds it took.
  @inline(never)
  static func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = ContinuousClock.now
    let result = try body()
    let elapsed = ContinuousClock.now - start
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (result, seconds)
  }

  /// Runs `body` `repetitions` times and returns the fastest run in seconds.
  static func best(of repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<repetitions { best = min(best, try measure(body).1) }
    return best
  }
}

/// A seeded SplitMix64 generator: every workload is reproducible.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Keeps the optimizer from removing a computed value.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
