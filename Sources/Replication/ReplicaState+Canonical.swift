/// Text forms shared by the canonical serialization and descriptions.
enum Canonical {
  /// Text in double quotes with `\`, `"` and control characters escaped (JSON style).
  static func quoted(_ text: String) -> String {
    "\"" + escaped(text, json: true) + "\""
  }

  /// Text with `\`, tab and newline escaped as `\\`, `\t` and `\n`; with `json`, also `"` as
  /// `\"` and the other control characters as `\u00XX`, as JSON writes them.
  ///
  /// - Complexity: O(*n*), where *n* is the number of scalars.
  static func escaped(_ text: String, json: Bool) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\t": result += "\\t"
      case "\n": result += "\\n"
      case "\"" where json: result += "\\\""
      case _ where json && scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

extension ReplicaState {
  /// The merged state as text that is byte-identical on every replica that merged the same
  /// operations: the collections in order, each with its items as an indented tree with
  /// order keys and fields, the rescued nodes in the inbox, then the trash.
  ///
  /// ```text
  /// collection _inbox @a0
  ///   item k7q1 @a0k7q1 text="Passport"
  /// collection k7q2 @a1k7q1 text="Trip" layout="plan"
  ///   item k7q3 @a0k7q1 text="Pack" done=true
  ///     item a1b4 @a0a1b1 text="Sunscreen"
  /// trash
  ///   item k7q5 @a2k7q1 text="Hotel" from k7q2
  /// ```
  ///
  /// - Returns: The text, one node per line.
  /// - Complexity: O(*n* log *n*) for *n* nodes.
  public func canonicalText() -> String {
    var out = ""
    let rescued = rescues()
    for collection in children(of: .root) {
      line(collection, depth: 0, into: &out)
      for child in children(of: collection) {
        let isRescued = rescued.contains { $0.node == child }
        tree(child, depth: 1, note: isRescued ? " rescued" : "", into: &out)
      }
    }
    out += "trash\n"
    for deleted in deletedNodes() {
      line(deleted.node, depth: 1, suffix: " from \(deleted.formerParent)", into: &out)
    }
    return out
  }

  /// A node and its live subtree, preorder.
  func tree(_ node: NodeID, depth: Int, note: String, into out: inout String) {
    line(node, depth: depth, suffix: note, into: &out)
    for child in children(of: node) { tree(child, depth: depth + 1, note: "", into: &out) }
  }

  /// One node's line: kind, id, key and fields in field order.
  func line(_ node: NodeID, depth: Int, suffix: String = "", into out: inout String) {
    guard let slot = slotOf[node] else { return }
    out += String(repeating: "  ", count: depth)
    out += kind(of: node) == .item ? "item " : "collection "
    out += "\(node) @\(keys[Int(slot)])"
    for register in registers[Int(slot)].sorted(by: { $0.value.field < $1.value.field }) {
      out += " \(register.value)"
    }
    out += suffix + "\n"
  }
}
