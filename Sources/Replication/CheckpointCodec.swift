import OrderingCore

/// The text forms of a checkpoint's fields (``ReplicaState/checkpointText(keepingFrom:)``).
///
/// A timestamp is `wall.counter.replica`; a version vector `replica=count,…` (`-` when
/// empty); a field its number and its text; an operation its sequence, timestamp, kind
/// (`c`, `m`, `d`, `s`) and the change's parts as further tab-separated fields.
enum CheckpointCodec {
  static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A }) else {
      return text
    }
    var result = ""
    for character in text.unicodeScalars {
      switch character {
      case "\\": result += "\\\\"
      case "\t": result += "\\t"
      case "\n": result += "\\n"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }

  static func unescaped(_ text: Substring) -> String {
    guard text.utf8.contains(0x5C) else { return String(text) }
    var result = ""
    var escaping = false
    for character in text.unicodeScalars {
      if escaping {
        result.unicodeScalars.append(character == "t" ? "\t" : character == "n" ? "\n" : character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.unicodeScalars.append(character)
      }
    }
    return result
  }

  static func time(_ time: HybridTimestamp) -> String {
    "\(time.wallTime).\(time.counter).\(time.replica.rawValue)"
  }

  static func time(_ text: Substring) -> HybridTimestamp? {
    // Byte by byte: a checkpoint holds a timestamp per register, tens of thousands of them.
    let bytes = text.utf8
    var index = bytes.startIndex
    func number(limit: UInt64) -> UInt64? {
      var value: UInt64 = 0
      var digits = 0
      while index < bytes.endIndex, bytes[index] != 0x2E {
        let digit = bytes[index] &- 0x30
        guard digit < 10, value <= (limit - UInt64(digit)) / 10 else { return nil }
        value = value * 10 + UInt64(digit)
        digits += 1
        index = bytes.index(after: index)
      }
      guard digits > 0, index < bytes.endIndex else { return nil }
      index = bytes.index(after: index)
      return value
    }
    guard let wall = number(limit: .max), let counter = number(limit: UInt64(UInt32.max)),
      let replica = try? ReplicaID(String(Substring(bytes[index...])))
    else { return nil }
    return HybridTimestamp(wallTime: wall, counter: UInt32(counter), replica: replica)
  }

  static func optionalTime(
    _ fields: [Substring], _ index: Int, _ bad: (String) -> ReplicationError
  ) throws(ReplicationError) -> HybridTimestamp? {
    guard fields.count == index + 1 else { throw bad("bad timestamp") }
    if fields[index] == "-" { return nil }
    guard let time = time(fields[index]) else { throw bad("bad timestamp") }
    return time
  }

  static func vector(_ vector: VersionVector) -> String {
    let parts = vector.counts.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)=\($0.value)" }
    return parts.isEmpty ? "-" : parts.joined(separator: ",")
  }

  static func vector(_ text: Substring) -> VersionVector? {
    var vector = VersionVector()
    if text == "-" { return vector }
    for part in text.split(separator: ",") {
      let pair = part.split(separator: "=")
      guard pair.count == 2, let replica = try? ReplicaID(String(pair[0])),
        let count = UInt64(pair[1])
      else { return nil }
      vector[replica] = count
    }
    return vector
  }

  static func vector(_ fields: [Substring], _ index: Int) -> VersionVector? {
    fields.count == index + 1 ? vector(fields[index]) : nil
  }

  static func field(_ value: FieldValue) -> String {
    switch value {
    case .text(let text), .note(let text), .role(let text), .layout(let text),
      .created(let text):
      return "\(value.field)\t" + escaped(text)
    case .done(let flag): return "3\t" + (flag ? "1" : "0")
    }
  }

  static func field(_ number: Substring, _ text: Substring) -> FieldValue? {
    switch number {
    case "0": .text(unescaped(text))
    case "1": .note(unescaped(text))
    case "2": .role(unescaped(text))
    case "3": text == "1" ? .done(true) : text == "0" ? .done(false) : nil
    case "4": .layout(unescaped(text))
    case "5": .created(unescaped(text))
    default: nil
    }
  }

  /// A deletion as one field: `time;seen;formerParent;formerKey`.
  static func deletion(_ deletion: Deletion) -> String {
    "\(time(deletion.at));\(vector(deletion.seen));\(deletion.formerParent);"
      + deletion.formerKey.rawValue
  }

  static func deletion(_ text: Substring) -> Deletion? {
    let parts = text.split(separator: ";", omittingEmptySubsequences: false)
    guard parts.count == 4, let at = time(parts[0]), let seen = vector(parts[1]),
      let parent = Int32(parts[2]), let key = OrderKey(rawValue: String(parts[3]))
    else { return nil }
    return Deletion(at: at, seen: seen, formerParent: parent, formerKey: key)
  }

  static func deletion(_ fields: [Substring], _ index: Int) -> Deletion? {
    fields.count == index + 1 ? deletion(fields[index]) : nil
  }

  static func skip(_ reason: SkipReason?) -> String {
    switch reason {
    case nil: "-"
    case .intoOwnSubtree(let parent): "cycle:" + escaped(parent.rawValue)
    case .missingNode: "missing"
    case .missingParent(let parent): "noparent:" + escaped(parent.rawValue)
    case .fixedNode: "fixed"
    case .misplaced(let parent): "misplaced:" + escaped(parent.rawValue)
    case .duplicateCreate: "duplicate"
    }
  }

  /// The skip reason of a field (`nil` for an unknown one; `.some(nil)` for none).
  static func skip(_ text: Substring) -> SkipReason?? {
    let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    let node = parts.count == 2 ? NodeID(unescaped(parts[1])) : nil
    switch (parts[0], node) {
    case ("-", nil): return .some(nil)
    case ("missing", nil): return .some(.missingNode)
    case ("fixed", nil): return .some(.fixedNode)
    case ("duplicate", nil): return .some(.duplicateCreate)
    case ("cycle", let node?): return .some(.intoOwnSubtree(parent: node))
    case ("noparent", let node?): return .some(.missingParent(node))
    case ("misplaced", let node?): return .some(.misplaced(parent: node))
    default: return nil
    }
  }

  static func operation(_ operation: ReplicaOperation) -> String {
    var out = "\(operation.sequence)\t\(time(operation.timestamp))\t"
    switch operation.change {
    case .create(let node, let kind, let parent, let key, let fields):
      out += "c\t\(escaped(node.rawValue))\t\(kind == .item ? "i" : "c")\t"
      out += "\(escaped(parent.rawValue))\t\(key.rawValue)"
      for value in fields { out += "\t" + field(value) }
    case .move(let node, let parent, let key):
      out += "m\t\(escaped(node.rawValue))\t\(escaped(parent.rawValue))\t\(key.rawValue)"
    case .delete(let node, let seen):
      out += "d\t\(escaped(node.rawValue))\t\(vector(seen))"
    case .set(let node, let value):
      out += "s\t\(escaped(node.rawValue))\t" + field(value)
    }
    return out
  }

  /// The operation whose fields start at `index` and run to the end.
  static func operation(_ fields: [Substring], _ index: Int) -> ReplicaOperation? {
    let rest = fields[index...]
    guard rest.count >= 4, let sequence = UInt64(rest[index]),
      let time = time(rest[index + 1])
    else { return nil }
    let node = NodeID(unescaped(rest[index + 3]))
    let change: Change
    switch rest[index + 2] {
    case "c":
      guard rest.count >= 7, (rest.count - 7) % 2 == 0,
        let key = OrderKey(rawValue: String(rest[index + 6]))
      else { return nil }
      var values: [FieldValue] = []
      var at = index + 7
      while at < fields.count {
        guard let value = field(fields[at], fields[at + 1]) else { return nil }
        values.append(value)
        at += 2
      }
      guard rest[index + 4] == "i" || rest[index + 4] == "c" else { return nil }
      let kind: NodeKind = rest[index + 4] == "i" ? .item : .collection
      change = .create(
        node, kind: kind, parent: NodeID(unescaped(rest[index + 5])), key: key, fields: values)
    case "m":
      guard rest.count == 6, let key = OrderKey(rawValue: String(rest[index + 5])) else {
        return nil
      }
      change = .move(node, parent: NodeID(unescaped(rest[index + 4])), key: key)
    case "d":
      guard rest.count == 5, let seen = vector(rest[index + 4]) else { return nil }
      change = .delete(node, seen: seen)
    case "s":
      guard rest.count == 6, let value = field(rest[index + 4], rest[index + 5]) else {
        return nil
      }
      change = .set(node, value)
    default:
      return nil
    }
    return ReplicaOperation(sequence: sequence, timestamp: time, change: change)
  }
}
