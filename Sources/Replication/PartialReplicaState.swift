import OrderingCore

/// A merged state loaded from checkpoint text only in part: the version vector, the latest
/// and last timestamps, and the nodes asked for (each with its registers, touches and
/// deletion, and with its ancestors and former parent, so the tree above it is whole).
///
/// A change on a large store touches a few nodes; loading those instead of all of them is
/// what keeps its cost from growing with the store (decision 0013). For every node loaded,
/// the partial state answers what the whole state answers (kind, parent, key, fields,
/// whether it is live), and this replica's own new operations merge into it as into the
/// whole state, as long as each is newer than everything merged (``mergeOwn(_:)`` checks).
/// Child lists, the structural log and the rescue walk are not loaded: the partial state is
/// never written as a checkpoint nor shown.
///
/// ```swift
/// var partial = try PartialReplicaState(checkpoint: text)
/// try partial.load([pack, tent])
/// guard try partial.mergeOwn(ownTail) else { /* load the whole state */ }
/// print(partial.state.parent(of: pack) == tent)
/// ```
public struct PartialReplicaState: Sendable {
  /// The state holding the nodes loaded so far.
  public private(set) var state = ReplicaState()
  /// The checkpoint's bytes.
  var scanner: CheckpointScanner
  /// The checkpoint's node records.
  let table: NodeTable
  /// The state's slot of each checkpoint slot loaded.
  var loaded: [Int32: Int32] = [:]

  /// Reads the checkpoint's header and indexes its node records (no node is loaded but the
  /// fixed ones).
  ///
  /// - Parameter text: What ``ReplicaState/checkpointText(keepingFrom:)`` wrote.
  /// - Throws: ``ReplicationError`` with code ``ReplicationError/Code/badCheckpoint`` for
  ///   another format or version, a damaged header or node record, a checkpoint cut short,
  ///   or one holding waiting operations (only a whole state can merge them).
  /// - Complexity: O(*b*), *b* bytes of the text (no field but the node ids is parsed).
  public init(checkpoint text: Substring) throws(ReplicationError) {
    var scan = CheckpointScanner(text: text)
    var header = ReplicaState()
    var table = NodeTable()
    table.reserve(scan.bytes.count / 64)
    var ended = false
    var logLines = 0
    var failure: ReplicationError?
    while !ended, scan.position < scan.bytes.count {
      // Node, register, touch, deletion and log records, skipped in one pass (node records
      // indexed) up to the next record of another kind.
      var skipped = 0
      // The first line is the format line, whatever it starts with.
      let first = scan.number == 0
      let stop = scan.bytes.withUnsafeBufferPointer { bytes in
        var start = scan.position
        while !first, start + 1 < bytes.count, bytes[start + 1] == 0x09 {
          let tag = bytes[start]
          guard tag == 0x6E || tag == 0x72 || tag == 0x74 || tag == 0x64 || tag == 0x6C else {
            break
          }
          let end = Self.newline(in: bytes, from: start + 2)
          if tag == 0x6E {
            do throws(ReplicationError) {
              try table.index(node: start, end: end, in: bytes)
            } catch {
              failure = error
              break
            }
          } else if tag == 0x6C {
            logLines += 1
          }
          skipped += 1
          start = end + 1
        }
        return start
      }
      if let failure { throw failure }
      scan.position = stop
      scan.number += skipped
      guard stop < scan.bytes.count else { break }
      if stop + 1 < scan.bytes.count, scan.bytes[stop] == 0x77, scan.bytes[stop + 1] == 0x09 {
        throw ReplicaState.badCheckpoint(
          line: scan.number + 1, "waiting operations are merged only by a whole state")
      }
      _ = scan.nextLine()
      ended = try header.readHeaderRecord(&scan, counts: (table.lines.count, logLines))
    }
    guard ended else { throw ReplicaState.checkpointCutShort }
    self.scanner = scan
    self.table = table
    state.seen = header.seen
    state.latest = header.latest
    state.floor = header.floor
    state.lastTimestamps = header.lastTimestamps
    // The empty state's fixed nodes stand in for the checkpoint's: load them over it.
    state.clearNodes()
    try load([.root, .trash, .inbox])
  }

  /// The first newline in `bytes` from `start`, or their end: eight bytes at a time (a word
  /// holds a newline when the word xor newlines has a zero byte), then byte by byte.
  ///
  /// - Complexity: O(*c*), *c* bytes up to the newline.
  static func newline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var index = start
    if let base = bytes.baseAddress {
      while index + 8 <= bytes.count {
        let word =
          UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
        if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
        index += 8
      }
    }
    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
    return index
  }

  /// The checkpoint's slot of a node id, or `nil` when the checkpoint does not name it.
  func checkpointSlot(_ id: NodeID) -> Int32? {
    if let packed = PackedNodeID(id.rawValue) { return table.slot(of: packed) }
    return table.slotOfText[id.rawValue]
  }

  /// A node's kind: the loaded node's, else the checkpoint's (a node named by neither has
  /// none).
  ///
  /// - Parameter id: A node id.
  /// - Returns: Item or collection, or `nil`.
  public func kind(of id: NodeID) -> NodeKind? {
    if state.slotOf[id] != nil { return state.kind(of: id) }
    guard let slot = checkpointSlot(id) else { return nil }
    switch table.kinds[Int(slot)] {
    case 1: return .item
    case 2: return .collection
    default: return nil
    }
  }

  /// Loads nodes from the checkpoint, with their ancestors and former parents; an id the
  /// checkpoint does not name is left out (the state does not hold it either).
  ///
  /// - Parameter nodes: The ids.
  /// - Throws: ``ReplicationError`` with code ``ReplicationError/Code/badCheckpoint`` for a
  ///   damaged record of a node loaded.
  /// - Complexity: O(*k* · *d*), *k* ids and *d* the tree's depth.
  public mutating func load(_ nodes: some Sequence<NodeID>) throws(ReplicationError) {
    for id in nodes where state.slotOf[id] == nil {
      guard let slot = checkpointSlot(id) else { continue }
      _ = try load(slot: slot)
    }
  }

  /// Loads the node in a checkpoint slot (and what stands above it); returns its state slot.
  private mutating func load(slot: Int32) throws(ReplicationError) -> Int32 {
    if let known = loaded[slot] { return known }
    guard slot >= 0, Int(slot) < table.lines.count else {
      throw ReplicationError(.badCheckpoint, "checkpoint: a parent out of range")
    }
    let record = try scanner.nodeRecord(at: table.lines[Int(slot)])
    guard state.slotOf[record.id] == nil else {
      throw ReplicationError(.badCheckpoint, "checkpoint: node \(record.id) loaded twice")
    }
    let own = state.slot(record.id)
    loaded[slot] = own
    state.keys[Int(own)] = record.key
    state.kinds[Int(own)] = record.kind
    state.registers[Int(own)] = record.registers
    state.touches[Int(own)] = record.touches
    if var deletion = record.deletion {
      if deletion.formerParent >= 0 {
        deletion.formerParent = try load(slot: deletion.formerParent)
      }
      state.deletions[Int(own)] = deletion
    }
    if record.parent >= 0 { state.link(own, under: try load(slot: record.parent)) }
    return own
  }

  /// Merges this replica's own operations (its log's lines past the checkpoint), loading
  /// the nodes they name first.
  ///
  /// - Parameter operations: The operations, in their log's order.
  /// - Returns: `false`, merging nothing, when one is not newer than everything merged or
  ///   one would wait behind a gap: only the whole state can place those.
  /// - Throws: ``ReplicationError`` for a damaged record of a node loaded.
  /// - Complexity: O(*k* · *d*), *k* operations and *d* the tree's depth.
  public mutating func mergeOwn(_ operations: [ReplicaOperation]) throws(ReplicationError)
    -> Bool
  {
    var latest = state.latest
    var next: [ReplicaID: UInt64] = [:]
    var named: [NodeID] = []
    for operation in operations {
      let replica = operation.replica
      let expected = next[replica] ?? state.seen[replica] + 1
      if operation.sequence < expected { continue }
      guard operation.sequence == expected, latest.map({ $0 < operation.timestamp }) ?? true
      else { return false }
      next[replica] = expected + 1
      latest = operation.timestamp
      named.append(operation.change.node)
      switch operation.change {
      case .create(_, _, let parent, _, _), .move(_, let parent, _): named.append(parent)
      case .delete, .set: break
      }
    }
    try load(named)
    _ = state.merge(operations, checkRescues: false)
    return true
  }
}

/// A checkpoint's node records: where each starts, its kind, and its slot by id.
struct NodeTable: Sendable {
  /// Where each node record starts, by the checkpoint's slot.
  var lines: [Int] = []
  /// Each node's kind, by the checkpoint's slot.
  var kinds: [UInt8] = []
  /// The packed id of each slot (unused for an id that does not pack).
  var packed: [PackedNodeID] = []
  /// Slots by packed id: open addressing over a power-of-two table, -1 for an empty place
  /// (the ids are a checkpoint's own, so a plain multiplicative hash serves).
  var places: [Int32] = Array(repeating: -1, count: 1024)
  /// The checkpoint's slot of each id that does not pack (long or escaped).
  var slotOfText: [String: Int32] = [:]

  /// Room for about `count` nodes.
  mutating func reserve(_ count: Int) {
    lines.reserveCapacity(count)
    kinds.reserveCapacity(count)
    packed.reserveCapacity(count)
    var size = places.count
    while size < count * 2 { size *= 2 }
    if size > places.count { places = Array(repeating: -1, count: size) }
  }

  /// Where `id` is or would go in ``places``.
  func place(of id: PackedNodeID) -> Int {
    let mask = places.count - 1
    var index = id.hashed & mask
    while places[index] >= 0, packed[Int(places[index])] != id { index = (index + 1) & mask }
    return index
  }

  /// The slot of a packed id.
  func slot(of id: PackedNodeID) -> Int32? {
    let found = places[place(of: id)]
    return found >= 0 ? found : nil
  }

  /// Doubles ``places`` and puts every packed slot back.
  private mutating func grow() {
    places = Array(repeating: -1, count: places.count * 2)
    for slot in packed.indices where packed[slot].high != 0 {
      places[place(of: packed[slot])] = Int32(slot)
    }
  }

  /// Records the node line from `start` to `end` (its newline): its slot, start and kind.
  mutating func index(node start: Int, end: Int, in bytes: UnsafeBufferPointer<UInt8>)
    throws(ReplicationError)
  {
    let slot = Int32(lines.count)
    var idEnd = start + 2
    var id = PackedNodeID(high: 0, low: 0)
    var packs = true
    while idEnd < end, bytes[idEnd] != 0x09 {
      let byte = bytes[idEnd]
      let offset = idEnd - start - 2
      if byte == 0x5C || offset >= 15 {  // an escape, or too long to pack
        packs = false
      } else if offset < 7 {
        id.high = id.high << 8 | UInt64(byte)
      } else {
        id.low = id.low << 8 | UInt64(byte)
      }
      idEnd += 1
    }
    let kind = bytes[end - 1] &- 0x30
    guard idEnd < end, end - start >= 10, kind <= 3, bytes[end - 2] == 0x09 else {
      throw ReplicationError(.badCheckpoint, "checkpoint: bad node at byte \(start)")
    }
    let count = idEnd - start - 2
    if packs && count > 0 {
      id.high |= UInt64(count) << 56
      if (lines.count + 1) * 2 > places.count { grow() }
      let place = place(of: id)
      guard places[place] < 0 else {
        throw ReplicationError(.badCheckpoint, "checkpoint: a node named twice")
      }
      places[place] = slot
      packed.append(id)
    } else {
      let scan = CheckpointScanner(bytes: Array(bytes[start + 2..<idEnd]))
      guard slotOfText.updateValue(slot, forKey: scan.text(0..<count)) == nil else {
        throw ReplicationError(.badCheckpoint, "checkpoint: a node named twice")
      }
      packed.append(PackedNodeID(high: 0, low: 0))
    }
    lines.append(start)
    kinds.append(kind)
  }
}

/// A node id of at most 15 bytes without escapes, packed into two integers with its length
/// in the top byte (so no packed id is zero).
struct PackedNodeID: Hashable, Sendable {
  var high: UInt64
  var low: UInt64

  /// Packs the id's text; `nil` for more than 15 bytes or a byte that text escapes.
  init?(_ id: String) {
    var high: UInt64 = 0
    var low: UInt64 = 0
    var count = 0
    for byte in id.utf8 {
      guard count < 15, byte != 0x5C, byte != 0x09, byte != 0x0A else { return nil }
      if count < 7 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
      count += 1
    }
    self.high = high | UInt64(count) << 56
    self.low = low
  }

  init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// A hash for the table (the top bits of a multiplicative mix).
  var hashed: Int {
    let mixed = (high ^ low &* 0x9E37_79B9_7F4A_7C15) &* 0xC2B2_AE3D_27D4_EB4F
    return Int(truncatingIfNeeded: mixed >> 20)
  }
}
