import OrderingCore

/// Reads checkpoint text (``ReplicaState/checkpointText(keepingFrom:)``) over its bytes:
/// lines and tab-separated fields are byte ranges, integers are parsed by hand and replica
/// ids are interned, so a field becomes a `String` only when the state keeps its text.
///
/// The field forms are those ``CheckpointCodec`` writes.
struct CheckpointScanner {
  let bytes: [UInt8]
  var position = 0
  /// The current line's number (1 for the first).
  var number = 0
  /// The current line's fields, as byte ranges.
  var fields: [Range<Int>] = []
  /// Every replica id read so far with its bytes packed in an integer (a checkpoint names a
  /// handful, tens of thousands of times).
  var replicas: [(packed: UInt64, id: ReplicaID)] = []
  /// The index in ``replicas`` of the last one found (runs of one replica are common).
  var hit = 0

  /// - Complexity: O(*b*), *b* bytes.
  init(text: Substring) {
    bytes = text.utf8.withContiguousStorageIfAvailable(Array.init) ?? Array(text.utf8)
    fields.reserveCapacity(16)
  }

  /// A scanner over bytes already read.
  init(bytes: [UInt8]) {
    self.bytes = bytes
    fields.reserveCapacity(16)
  }

  /// Moves to the next line; `false` at the end of the text.
  ///
  /// - Complexity: O(*c*), *c* bytes in the line.
  mutating func nextLine() -> Bool {
    guard position < bytes.count else { return false }
    fields.removeAll(keepingCapacity: true)
    let end = bytes.withUnsafeBufferPointer { buffer in
      var start = position
      var index = position
      while index < buffer.count {
        let byte = buffer[index]
        if byte == 0x0A { break }
        if byte == 0x09 {
          fields.append(start..<index)
          start = index + 1
        }
        index += 1
      }
      fields.append(start..<index)
      return index
    }
    position = end + 1
    number += 1
    return true
  }

  /// The range of field `index`, or an empty range past the end when the line is shorter.
  func range(_ index: Int) -> Range<Int> {
    index < fields.count ? fields[index] : bytes.count..<bytes.count
  }

  /// Whether a range holds exactly `literal` (ASCII).
  func holds(_ range: Range<Int>, _ literal: StaticString) -> Bool {
    guard range.count == literal.utf8CodeUnitCount else { return false }
    let start = literal.utf8Start
    for offset in 0..<range.count where bytes[range.lowerBound + offset] != start[offset] {
      return false
    }
    return true
  }

  /// Whether field `index` holds exactly `literal`.
  func field(_ index: Int, is literal: StaticString) -> Bool { holds(range(index), literal) }

  /// The text of a range as written (no escapes undone).
  func raw(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  /// The text of a range with `\\`, `\t` and `\n` undone.
  func text(_ range: Range<Int>) -> String {
    guard bytes[range].contains(0x5C) else { return raw(range) }
    var out: [UInt8] = []
    out.reserveCapacity(range.count)
    var escaping = false
    for byte in bytes[range] {
      if escaping {
        out.append(byte == 0x74 ? 0x09 : byte == 0x6E ? 0x0A : byte)
        escaping = false
      } else if byte == 0x5C {
        escaping = true
      } else {
        out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A decimal integer (with a leading `-` when `T` is signed), or `nil` when the range is
  /// empty, holds another byte or overflows `T`.
  func integer<T: FixedWidthInteger>(_ range: Range<Int>, as type: T.Type = T.self) -> T? {
    var index = range.lowerBound
    let negative = T.isSigned && index < range.upperBound && bytes[index] == 0x2D
    if negative { index += 1 }
    guard index < range.upperBound else { return nil }
    var value: T = 0
    while index < range.upperBound {
      let digit = bytes[index] &- 0x30
      guard digit < 10 else { return nil }
      let (times, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) =
        negative
        ? times.subtractingReportingOverflow(T(digit)) : times.addingReportingOverflow(T(digit))
      guard !overflow, !overflow2 else { return nil }
      value = sum
      index += 1
    }
    return value
  }

  /// The replica id in a range, interned.
  mutating func replica(_ range: Range<Int>) -> ReplicaID? {
    // A replica id is 3 bytes: its length and bytes packed in an integer find it among those
    // read.
    guard range.count <= 7 else { return nil }
    var packed = UInt64(range.count)
    for index in range { packed = packed << 8 | UInt64(bytes[index]) }
    if hit < replicas.count, replicas[hit].packed == packed { return replicas[hit].id }
    if let index = replicas.firstIndex(where: { $0.packed == packed }) {
      hit = index
      return replicas[index].id
    }
    guard let replica = try? ReplicaID(raw(range)) else { return nil }
    hit = replicas.count
    replicas.append((packed, replica))
    return replica
  }

  /// The first index of `byte` in a range, or its end.
  func first(_ byte: UInt8, in range: Range<Int>) -> Int {
    var index = range.lowerBound
    while index < range.upperBound, bytes[index] != byte { index += 1 }
    return index
  }

  /// A timestamp, `wall.counter.replica`.
  mutating func time(_ range: Range<Int>) -> HybridTimestamp? {
    let dot = first(0x2E, in: range)
    let dot2 = first(0x2E, in: min(dot + 1, range.upperBound)..<range.upperBound)
    guard dot2 < range.upperBound, let wall = integer(range.lowerBound..<dot, as: UInt64.self),
      let counter = integer(dot + 1..<dot2, as: UInt32.self),
      let replica = replica(dot2 + 1..<range.upperBound)
    else { return nil }
    return HybridTimestamp(wallTime: wall, counter: counter, replica: replica)
  }

  /// A timestamp or `-` for none; `.some(nil)` for `-`, `nil` when damaged.
  mutating func optionalTime(_ range: Range<Int>) -> HybridTimestamp?? {
    holds(range, "-") ? .some(nil) : time(range).map { .some($0) }
  }

  /// A version vector, `replica=count,…` or `-`.
  mutating func vector(_ range: Range<Int>) -> VersionVector? {
    var vector = VersionVector()
    if holds(range, "-") { return vector }
    var start = range.lowerBound
    while start <= range.upperBound {
      let end = first(0x2C, in: start..<range.upperBound)
      let equals = first(0x3D, in: start..<end)
      guard equals < end, let replica = replica(start..<equals),
        let count = integer(equals + 1..<end, as: UInt64.self)
      else { return nil }
      vector[replica] = count
      start = end + 1
    }
    return vector
  }

  /// A field's value from its number's and its text's ranges.
  func fieldValue(_ number: Range<Int>, _ value: Range<Int>) -> FieldValue? {
    guard number.count == 1 else { return nil }
    switch bytes[number.lowerBound] {
    case 0x30: return .text(text(value))
    case 0x31: return .note(text(value))
    case 0x32: return .role(text(value))
    case 0x33: return holds(value, "1") ? .done(true) : holds(value, "0") ? .done(false) : nil
    case 0x34: return .layout(text(value))
    case 0x35: return .created(text(value))
    default: return nil
    }
  }

  /// An order key, validated.
  func key(_ range: Range<Int>) -> OrderKey? { OrderKey(rawValue: raw(range)) }

  /// A deletion, `time;seen;formerParent;formerKey`.
  mutating func deletion(_ range: Range<Int>) -> Deletion? {
    var parts: [Range<Int>] = []
    var start = range.lowerBound
    while parts.count < 4 {
      let end = first(0x3B, in: start..<range.upperBound)
      parts.append(start..<end)
      start = end + 1
      if end == range.upperBound { break }
    }
    guard parts.count == 4, start > range.upperBound, let at = time(parts[0]),
      let seen = vector(parts[1]), let parent = integer(parts[2], as: Int32.self),
      let key = key(parts[3])
    else { return nil }
    return Deletion(at: at, seen: seen, formerParent: parent, formerKey: key)
  }

  /// A skip reason (`nil` for an unknown one; `.some(nil)` for none).
  func skip(_ range: Range<Int>) -> SkipReason?? {
    let colon = first(0x3A, in: range)
    let kind = range.lowerBound..<colon
    let node = colon < range.upperBound ? NodeID(text(colon + 1..<range.upperBound)) : nil
    switch node {
    case nil where holds(kind, "-"): return .some(nil)
    case nil where holds(kind, "missing"): return .some(.missingNode)
    case nil where holds(kind, "fixed"): return .some(.fixedNode)
    case nil where holds(kind, "duplicate"): return .some(.duplicateCreate)
    case let node? where holds(kind, "cycle"): return .some(.intoOwnSubtree(parent: node))
    case let node? where holds(kind, "noparent"): return .some(.missingParent(node))
    case let node? where holds(kind, "misplaced"): return .some(.misplaced(parent: node))
    default: return nil
    }
  }

  /// The operation whose fields start at field `index` and run to the end of the line.
  mutating func operation(from index: Int) -> ReplicaOperation? {
    let count = fields.count - index
    guard count >= 4, let sequence = integer(fields[index], as: UInt64.self),
      let time = time(fields[index + 1]), fields[index + 2].count == 1
    else { return nil }
    let node = NodeID(text(fields[index + 3]))
    let change: Change
    switch bytes[fields[index + 2].lowerBound] {
    case 0x63:  // c
      guard count >= 7, (count - 7) % 2 == 0, let key = key(fields[index + 6]) else {
        return nil
      }
      var values: [FieldValue] = []
      var at = index + 7
      while at < fields.count {
        guard let value = fieldValue(fields[at], fields[at + 1]) else { return nil }
        values.append(value)
        at += 2
      }
      let kind: NodeKind
      if field(index + 4, is: "i") {
        kind = .item
      } else if field(index + 4, is: "c") {
        kind = .collection
      } else {
        return nil
      }
      change = .create(
        node, kind: kind, parent: NodeID(text(fields[index + 5])), key: key, fields: values)
    case 0x6D:  // m
      guard count == 6, let key = key(fields[index + 5]) else { return nil }
      change = .move(node, parent: NodeID(text(fields[index + 4])), key: key)
    case 0x64:  // d
      guard count == 5, let seen = vector(fields[index + 4]) else { return nil }
      change = .delete(node, seen: seen)
    case 0x73:  // s
      guard count == 6, let value = fieldValue(fields[index + 4], fields[index + 5]) else {
        return nil
      }
      change = .set(node, value)
    default:
      return nil
    }
    return ReplicaOperation(sequence: sequence, timestamp: time, change: change)
  }
}

/// A node's record as the checkpoint holds it: the `n` line and the `r`, `t` and `d` lines
/// after it (slots are the checkpoint's).
struct NodeRecord {
  var id: NodeID
  var parent: Int32
  var key: OrderKey
  var kind: UInt8
  var registers: [Register] = []
  var touches: [Touch] = []
  var deletion: Deletion?
}

extension CheckpointScanner {
  /// Reads the node record whose `n` line starts at `start`, with the lines that follow it.
  ///
  /// - Throws: ``ReplicationError`` with code ``ReplicationError/Code/badCheckpoint`` naming
  ///   the byte where a damaged line starts.
  /// - Complexity: O(*c*), *c* bytes of the record.
  mutating func nodeRecord(at start: Int) throws(ReplicationError) -> NodeRecord {
    position = start
    func bad(_ what: String) -> ReplicationError {
      ReplicationError(.badCheckpoint, "checkpoint byte \(start): \(what)")
    }
    guard nextLine(), field(0, is: "n"), fields.count == 5,
      let parent = integer(fields[2], as: Int32.self), let key = key(fields[3]),
      let kind = integer(fields[4], as: UInt8.self), kind <= 3
    else { throw bad("bad node") }
    var record = NodeRecord(id: NodeID(text(fields[1])), parent: parent, key: key, kind: kind)
    record.registers.reserveCapacity(2)
    while position + 1 < bytes.count, bytes[position + 1] == 0x09 {
      let tag = bytes[position]
      guard tag == 0x72 || tag == 0x74 || tag == 0x64 else { break }
      _ = nextLine()
      let count = fields.count
      switch tag {
      case 0x72:  // r
        guard count == 4, let value = fieldValue(fields[1], fields[2]), let time = time(fields[3])
        else { throw bad("bad register") }
        record.registers.append(Register(value: value, at: time))
      case 0x74:  // t
        guard count == 3, let replica = replica(fields[1]),
          let sequence = integer(fields[2], as: UInt64.self)
        else { throw bad("bad touch") }
        record.touches.append(Touch(replica: replica, sequence: sequence))
      default:  // d
        guard count == 2, let deletion = deletion(fields[1]) else { throw bad("bad deletion") }
        record.deletion = deletion
      }
    }
    return record
  }
}
