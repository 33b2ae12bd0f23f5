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
    var reader = CheckpointReader(text: text)
    var ended = false
    while let line = reader.nextLine() {
      let fields = line.fields
      func bad(_ what: String) -> ReplicationError {
        ReplicationError(.badCheckpoint, "checkpoint line \(line.number): \(what)")
      }
      guard !ended else { throw bad("a record after the end") }
      switch fields[0] {
      case "offload.replica-checkpoint" where line.number == 1:
        guard fields.count == 2, Int(fields[1]) == Self.checkpointVersion else {
          throw bad("version \(fields.count > 1 ? String(fields[1]) : "?") is not read")
        }
      case _ where line.number == 1:
        throw bad("not a replica checkpoint")
      case "seen":
        guard let vector = CheckpointCodec.vector(fields, 1) else { throw bad("bad vector") }
        seen = vector
      case "latest": latest = try CheckpointCodec.optionalTime(fields, 1, bad)
      case "floor": floor = try CheckpointCodec.optionalTime(fields, 1, bad)
      case "last":
        guard fields.count == 3, let replica = try? ReplicaID(String(fields[1])),
          let time = CheckpointCodec.time(fields[2])
        else { throw bad("bad last timestamp") }
        lastTimestamps[replica] = time
      case "n":
        guard fields.count == 5, let parent = Int32(fields[2]),
          let key = OrderKey(rawValue: String(fields[3])), let kind = UInt8(fields[4]), kind <= 3
        else { throw bad("bad node") }
        let count = ids.count
        let slot = self.slot(NodeID(CheckpointCodec.unescaped(fields[1])))
        guard ids.count == count + 1 else { throw bad("a node named twice") }
        parents[Int(slot)] = parent
        keys[Int(slot)] = key
        kinds[Int(slot)] = kind
      case "r":
        guard let slot = ids.indices.last, fields.count == 4,
          let value = CheckpointCodec.field(fields[1], fields[2]),
          let time = CheckpointCodec.time(fields[3])
        else { throw bad("bad register") }
        registers[slot].append(Register(value: value, at: time))
      case "t":
        guard let slot = ids.indices.last, fields.count == 3,
          let replica = try? ReplicaID(String(fields[1])), let sequence = UInt64(fields[2])
        else { throw bad("bad touch") }
        touches[slot].append(Touch(replica: replica, sequence: sequence))
      case "d":
        guard let slot = ids.indices.last, let deletion = CheckpointCodec.deletion(fields, 1)
        else { throw bad("bad deletion") }
        deletions[slot] = deletion
      case "l":
        guard fields.count >= 8, let slot = Int32(fields[1]), slot >= 0, Int(slot) < ids.count,
          let skip = CheckpointCodec.skip(fields[2]), let parent = Int32(fields[3]),
          let key = OrderKey(rawValue: String(fields[4])), let kind = UInt8(fields[5]),
          let operation = CheckpointCodec.operation(fields, 7)
        else { throw bad("bad log entry") }
        let deletion = fields[6] == "-" ? nil : CheckpointCodec.deletion(fields[6])
        guard fields[6] == "-" || deletion != nil else { throw bad("bad log entry") }
        log.append(
          LogEntry(
            operation: operation, slot: slot, skip: skip,
            undo: Undo(parent: parent, key: key, kind: kind, deletion: deletion)))
      case "w":
        guard let operation = CheckpointCodec.operation(fields, 1) else {
          throw bad("bad waiting operation")
        }
        waiting[operation.replica, default: [:]][operation.sequence] = operation
      case "end":
        guard fields.count == 3, Int(fields[1]) == ids.count, Int(fields[2]) == log.count else {
          throw bad("the counts do not match the records")
        }
        ended = true
      default:
        throw bad("unknown record")
      }
    }
    guard ended else {
      throw ReplicationError(.badCheckpoint, "the checkpoint is cut short (no end record)")
    }
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

/// Reads checkpoint text line by line, splitting on bytes (tab and newline are ASCII).
struct CheckpointReader {
  let text: Substring
  var position: Substring.UTF8View.Index
  var number = 0

  init(text: Substring) {
    self.text = text
    position = text.utf8.startIndex
  }

  mutating func nextLine() -> (number: Int, fields: [Substring])? {
    let bytes = text.utf8
    guard position < bytes.endIndex else { return nil }
    var fields: [Substring] = []
    var start = position
    var index = position
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == 0x0A { break }
      if byte == 0x09 {
        fields.append(Substring(bytes[start..<index]))
        start = bytes.index(after: index)
      }
      index = bytes.index(after: index)
    }
    fields.append(Substring(bytes[start..<index]))
    position = index < bytes.endIndex ? bytes.index(after: index) : index
    number += 1
    return (number, fields)
  }
}
