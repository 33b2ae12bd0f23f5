/// An error that names the combination a test body failed on.
public struct CombinationFailure: Error, CustomStringConvertible {
  /// The combination, as `name = value` pairs.
  public var combination: String
  /// The error the body threw.
  public var underlying: any Error

  public var description: String { "failed for \(combination): \(underlying)" }
}

/// Runs `body` for every element, naming the element when the body throws.
///
/// ```swift
/// try withEvery("count", in: [0, 1, 2, 100]) { count in ... }
/// ```
public func withEvery<Element>(
  _ name: String, in elements: some Sequence<Element>, _ body: (Element) throws -> Void
) throws {
  for element in elements {
    do {
      try body(element)
    } catch let failure as CombinationFailure {
      throw CombinationFailure(
        combination: "\(name) = \(element), \(failure.combination)", underlying: failure.underlying)
    } catch {
      throw CombinationFailure(combination: "\(name) = \(element)", underlying: error)
    }
  }
}

/// Runs `body` for every permutation of `elements` (Heap's algorithm), naming it on failure.
///
/// - Complexity: O(*n*! · *n*); use for *n* ≤ 8.
public func withEveryPermutation<Element>(
  _ name: String, of elements: [Element], _ body: ([Element]) throws -> Void
) throws {
  var items = elements
  var counters = [Int](repeating: 0, count: items.count)
  func run() throws {
    do {
      try body(items)
    } catch {
      throw CombinationFailure(combination: "\(name) = \(items)", underlying: error)
    }
  }
  try run()
  var index = 0
  while index < items.count {
    if counters[index] < index {
      items.swapAt(index % 2 == 0 ? 0 : counters[index], index)
      try run()
      counters[index] += 1
      index = 0
    } else {
      counters[index] = 0
      index += 1
    }
  }
}
