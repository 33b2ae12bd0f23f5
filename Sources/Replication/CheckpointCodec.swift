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
    return Canonical.escaped(text, json: false)
  }

  static func time(_ time: HybridTimestamp) -> String {
    "\(time.wallTime).\(time.counter).\(time.replica.rawValue)"
  }

  static func vector(_ vector: VersionVector) -> String {
    let parts = vector.counts.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)=\($0.value)" }
    return parts.isEmpty ? "-" : parts.joined(separator: ",")
  }

  static func field(_ value: FieldValue) -> String {
    switch value {
    case .text(let text), .note(let text), .role(let text), .layout(let text),
      .created(let text):
      return "\(value.field)\t" + escaped(text)
    case .done(let flag): return "3\t" + (flag ? "1" : "0")
    }
  }

  /// A deletion as one field: `time;seen;formerParent;formerKey`.
  static func deletion(_ deletion: Deletion) -> String {
    "\(time(deletion.at));\(vector(deletion.seen));\(deletion.formerParent);"
      + deletion.formerKey.rawValue
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
}
