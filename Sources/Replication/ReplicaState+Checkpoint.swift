import OrderingCore

// A merged state as checkpoint text: what merging needs to go on (the node table, the
// registers, the touches, the version vector, the waiting operations and the log entries
// that a late operation could still undo), so a device reads it instead of every log.
//
// One record per line, fields separated by tabs; text has `\`, tab and newline escaped.
// Records: `seen`, `latest`, `floor`, one `n` per node (followed by its `r` registers,
// `t` touches and `d` deletion), one `l` per kept log entry, one `w` per waiting operation,
// then `end` with the counts (a checkpoint cut short is refused).

extension ReplicaState {
  /// The checkpoint format's version; a checkpoint of another version is refused.
  public static let checkpointVersion = 1

  /// The timestamp below which no operation can arrive from these replicas any more: the
  /// oldest of their last merged operations (each replica's clock is past its own last
  /// operation, so its next ones come later). `nil` when one of them has merged nothing.
  ///
  /// - Parameter replicas: Every replica known to write (retired ones may be left out).
  /// - Returns: The timestamp, or `nil`.
  /// - Complexity: O(*r*), *r* replicas.
  public func stableTimestamp(among replicas: some Sequence<ReplicaID>) -> HybridTimestamp? {
    var result: HybridTimestamp?
    for replica in replicas {
      guard let last = lastTimestamps[replica] else { return nil }
      if result.map({ last < $0 }) ?? true { result = last }
    }
    return result
  }

  /// The state as checkpoint text, keeping the log entries from `floor` on (all of them when
  /// `floor` is `nil`, or when the state's own floor is later).
  ///
  /// - Parameter floor: The oldest timestamp a late operation may still carry
  ///   (``stableTimestamp(among:)``).
  /// - Returns: The text, one record per line.
  /// - Complexity: O(*n* + *l*), *n* nodes and *l* log entries.
  public func checkpointText(keepingFrom floor: HybridTimestamp?) -> String {
    var kept = floor.map { floor in max(floor, self.floor ?? floor) } ?? self.floor
    var first = log.count
    while first > 0, kept.map({ log[first - 1].operation.timestamp >= $0 }) ?? true {
      first -= 1
    }
    if first == 0 && self.floor == nil { kept = nil }
    var out = "offload.replica-checkpoint\t\(Self.checkpointVersion)\n"
    out += "seen\t" + CheckpointCodec.vector(seen) + "\n"
    out += "latest\t" + (latest.map(CheckpointCodec.time) ?? "-") + "\n"
    out += "floor\t" + (kept.map(CheckpointCodec.time) ?? "-") + "\n"
    for (replica, time) in lastTimestamps.sorted(by: { $0.key < $1.key }) {
      out += "last\t\(replica.rawValue)\t\(CheckpointCodec.time(time))\n"
    }
    for slot in ids.indices {
      out += "n\t\(CheckpointCodec.escaped(ids[slot].rawValue))\t\(parents[slot])\t"
      out += "\(keys[slot].rawValue)\t\(kinds[slot])\n"
      for register in registers[slot] {
        out += "r\t" + CheckpointCodec.field(register.value) + "\t"
        out += CheckpointCodec.time(register.at) + "\n"
      }
      for touch in touches[slot] { out += "t\t\(touch.replica.rawValue)\t\(touch.sequence)\n" }
      if let deletion = deletions[slot] { out += "d\t" + CheckpointCodec.deletion(deletion) + "\n" }
    }
    for entry in log[first...] {
      out += "l\t\(entry.slot)\t" + CheckpointCodec.skip(entry.skip) + "\t"
      out += "\(entry.undo.parent)\t\(entry.undo.key.rawValue)\t\(entry.undo.kind)\t"
      out += (entry.undo.deletion.map(CheckpointCodec.deletion) ?? "-") + "\t"
      out += CheckpointCodec.operation(entry.operation) + "\n"
    }
    for (_, pending) in waiting.sorted(by: { $0.key < $1.key }) {
      for (_, operation) in pending.sorted(by: { $0.key < $1.key }) {
        out += "w\t" + CheckpointCodec.operation(operation) + "\n"
      }
    }
    out += "end\t\(ids.count)\t\(log.count - first)\n"
    return out
  }

  /// Loads a state from checkpoint text.
  ///
  /// - Parameter text: What ``checkpointText(keepingFrom:)`` wrote.
  /// - Throws: ``ReplicationError`` with code ``ReplicationError/Code/badCheckpoint`` naming
  ///   the line, for another format or version, a damaged record, or a checkpoint cut short.
  /// - Complexity: O(*n* + *l*), *n* nodes and *l* log entries.
  public init(checkpoint text: Substring) throws(ReplicationError) {
    self.init()
    // The fixed nodes are in the checkpoint like any other: start from an empty table.
    clearNodes()
    var scan = CheckpointScanner(text: text)
    // The node table grows by one slot per `n` record; a node record is at least 10 bytes.
    reserveSlots(scan.bytes.count / 64)
    var ended = false
    while scan.nextLine() {
      let number = scan.number
      func bad(_ what: String) -> ReplicationError { Self.badCheckpoint(line: number, what) }
      guard !ended else { throw bad("a record after the end") }
      let tag = scan.fields[0]
      let count = scan.fields.count
      guard number > 1, tag.count == 1 else {
        ended = try readHeaderRecord(&scan, counts: (ids.count, log.count))
        continue
      }
      switch scan.bytes[tag.lowerBound] {
      case 0x6E:  // n
        guard count == 5, let parent = scan.integer(scan.fields[2], as: Int32.self),
          let key = scan.key(scan.fields[3]),
          let kind = scan.integer(scan.fields[4], as: UInt8.self),
          kind <= 3
        else { throw bad("bad node") }
        let before = ids.count
        let slot = Int(self.slot(NodeID(scan.text(scan.fields[1]))))
        guard ids.count == before + 1 else { throw bad("a node named twice") }
        parents[slot] = parent
        keys[slot] = key
        kinds[slot] = kind
        // An item has its text and its creation time: one allocation for both.
        registers[slot].reserveCapacity(2)
      case 0x72:  // r
        guard let slot = ids.indices.last, count == 4,
          let value = scan.fieldValue(scan.fields[1], scan.fields[2]),
          let time = scan.time(scan.fields[3])
        else { throw bad("bad register") }
        registers[slot].append(Register(value: value, at: time))
      case 0x74:  // t
        guard let slot = ids.indices.last, count == 3, let replica = scan.replica(scan.fields[1]),
          let sequence = scan.integer(scan.fields[2], as: UInt64.self)
        else { throw bad("bad touch") }
        touches[slot].append(Touch(replica: replica, sequence: sequence))
      case 0x64:  // d
        guard let slot = ids.indices.last, count == 2,
          let deletion = scan.deletion(scan.fields[1])
        else { throw bad("bad deletion") }
        deletions[slot] = deletion
      case 0x6C:  // l
        guard count >= 8, let slot = scan.integer(scan.fields[1], as: Int32.self), slot >= 0,
          Int(slot) < ids.count, let skip = scan.skip(scan.fields[2]),
          let parent = scan.integer(scan.fields[3], as: Int32.self),
          let key = scan.key(scan.fields[4]),
          let kind = scan.integer(scan.fields[5], as: UInt8.self),
          let operation = scan.operation(from: 7)
        else { throw bad("bad log entry") }
        let none = scan.field(6, is: "-")
        let deletion = none ? nil : scan.deletion(scan.fields[6])
        guard none || deletion != nil else { throw bad("bad log entry") }
        log.append(
          LogEntry(
            operation: operation, slot: slot, skip: skip,
            undo: Undo(parent: parent, key: key, kind: kind, deletion: deletion)))
      case 0x77:  // w
        guard let operation = scan.operation(from: 1) else { throw bad("bad waiting operation") }
        waiting[operation.replica, default: [:]][operation.sequence] = operation
      default:
        throw bad("unknown record")
      }
    }
    guard ended else { throw Self.checkpointCutShort }
    for slot in ids.indices {
      let parent = parents[slot]
      guard parent < Int32(ids.count) else {
        throw ReplicationError(.badCheckpoint, "node \(ids[slot]) names a parent out of range")
      }
      parents[slot] = -1
      link(Int32(slot), under: parent)
    }
    guard slotOf[.root] != nil, slotOf[.trash] != nil, slotOf[.inbox] != nil else {
      throw ReplicationError(.badCheckpoint, "the checkpoint lacks the fixed nodes")
    }
  }
}

extension ReplicaState {
  /// The error of a checkpoint record that does not read: `checkpoint line <n>: <what>`.
  ///
  /// - Parameters:
  ///   - line: The record's line number (1 for the first).
  ///   - what: What is wrong with it.
  /// - Returns: The error, with code ``ReplicationError/Code/badCheckpoint``.
  static func badCheckpoint(line: Int, _ what: String) -> ReplicationError {
    ReplicationError(.badCheckpoint, "checkpoint line \(line): \(what)")
  }

  /// The error of a checkpoint that ends before its end record.
  static let checkpointCutShort = ReplicationError(
    .badCheckpoint, "the checkpoint is cut short (no end record)")

  /// Reads the scanner's current line as a record outside the node table: the format line
  /// (line 1, and only there), the vector, the latest and floor timestamps, a replica's last
  /// timestamp, or the end record with its counts. The one reader of these records for a
  /// whole state and a partial one.
  ///
  /// - Parameters:
  ///   - scan: The scanner, on the line to read.
  ///   - counts: The node records and log records read so far, which the end record names.
  /// - Returns: Whether the line was the end record.
  /// - Throws: ``ReplicationError`` with code ``ReplicationError/Code/badCheckpoint`` naming
  ///   the line, for another format or version, a damaged record or an unknown one.
  mutating func readHeaderRecord(
    _ scan: inout CheckpointScanner, counts: (nodes: Int, log: Int)
  ) throws(ReplicationError) -> Bool {
    let number = scan.number
    func bad(_ what: String) -> ReplicationError { Self.badCheckpoint(line: number, what) }
    let tag = scan.fields[0]
    let count = scan.fields.count
    if number == 1 {
      guard scan.holds(tag, "offload.replica-checkpoint") else {
        throw bad("not a replica checkpoint")
      }
      guard count == 2, scan.integer(scan.fields[1]) == Self.checkpointVersion else {
        throw bad("version \(count > 1 ? scan.raw(scan.fields[1]) : "?") is not read")
      }
    } else if scan.holds(tag, "seen") {
      guard count == 2, let vector = scan.vector(scan.fields[1]) else { throw bad("bad vector") }
      seen = vector
    } else if scan.holds(tag, "latest") || scan.holds(tag, "floor") {
      guard count == 2, case .some(let time) = scan.optionalTime(scan.fields[1]) else {
        throw bad("bad timestamp")
      }
      if scan.holds(tag, "latest") { latest = time } else { floor = time }
    } else if scan.holds(tag, "last") {
      guard count == 3, let replica = scan.replica(scan.fields[1]),
        let time = scan.time(scan.fields[2])
      else { throw bad("bad last timestamp") }
      lastTimestamps[replica] = time
    } else if scan.holds(tag, "end") {
      guard count == 3, scan.integer(scan.fields[1]) == counts.nodes,
        scan.integer(scan.fields[2]) == counts.log
      else { throw bad("the counts do not match the records") }
      return true
    } else {
      throw bad("unknown record")
    }
    return false
  }
}

extension ReplicaState {
  /// Empties the node table (the fixed nodes too), for a loader that reads them.
  mutating func clearNodes() {
    slotOf = [:]
    ids = []
    parents = []
    keys = []
    kinds = []
    deletions = []
    registers = []
    touches = []
    children = []
    childIndex = []
  }

  /// Reserves room in the node table for `count` slots.
  ///
  /// - Complexity: O(*count*).
  fileprivate mutating func reserveSlots(_ count: Int) {
    slotOf.reserveCapacity(count)
    ids.reserveCapacity(count)
    parents.reserveCapacity(count)
    keys.reserveCapacity(count)
    kinds.reserveCapacity(count)
    deletions.reserveCapacity(count)
    registers.reserveCapacity(count)
    touches.reserveCapacity(count)
    children.reserveCapacity(count)
    childIndex.reserveCapacity(count)
  }
}
