import OrderingCore

/// An operation as one flat JSON object, the line format of a device's log (decision 0010):
///
/// ```json
/// {"key":"a0Vk7q1","node":"k7q3","op":"move","parent":"k7q1","replica":"k7q","seq":12,"t":[1732694400123,0]}
/// ```
///
/// `create` adds `kind` and `fields` (an object of field names and values, decoded in field
/// order: text, note, role, done, layout, created), `delete` adds
/// `seen` (an object of replica ids and counts), `set` adds `field` and `value`.
extension ReplicaOperation: Codable {
  enum CodingKeys: String, CodingKey {
    case sequence = "seq"
    case time = "t"
    case replica, op, node, parent, key, kind, fields, seen, field, value
  }

  /// Decodes an operation from its log line's object.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing member, an unknown `op`, kind or field, or an
  ///   invalid order key; `ReplicationError` for an invalid replica id.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let replica = try ReplicaID(container.decode(String.self, forKey: .replica))
    var time = try container.nestedUnkeyedContainer(forKey: .time)
    let wall = try time.decode(UInt64.self)
    let counter = try time.decode(UInt32.self)
    let node = NodeID(try container.decode(String.self, forKey: .node))
    let change: Change
    switch try container.decode(String.self, forKey: .op) {
    case "create":
      let kindText = try container.decode(String.self, forKey: .kind)
      guard let kind = NodeKind(rawValue: kindText) else {
        throw DecodingError.dataCorruptedError(
          forKey: .kind, in: container, debugDescription: "unknown kind \"\(kindText)\"")
      }
      let fields = try container.decode([String: FieldJSON].self, forKey: .fields)
      change = .create(
        node, kind: kind, parent: NodeID(try container.decode(String.self, forKey: .parent)),
        key: try Self.key(container),
        fields: try fields.map {
          try FieldValue(name: $0.key, json: $0.value, container: container)
        }.sorted { $0.field < $1.field })
    case "move":
      change = .move(
        node, parent: NodeID(try container.decode(String.self, forKey: .parent)),
        key: try Self.key(container))
    case "delete":
      var seen = VersionVector()
      for (text, count) in try container.decode([String: UInt64].self, forKey: .seen) {
        seen[try ReplicaID(text)] = count
      }
      change = .delete(node, seen: seen)
    case "set":
      let name = try container.decode(String.self, forKey: .field)
      let json = try container.decode(FieldJSON.self, forKey: .value)
      change = .set(node, try FieldValue(name: name, json: json, container: container))
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .op, in: container, debugDescription: "unknown operation \"\(other)\"")
    }
    self.init(
      sequence: try container.decode(UInt64.self, forKey: .sequence),
      timestamp: HybridTimestamp(wallTime: wall, counter: counter, replica: replica),
      change: change)
  }

  static func key(_ container: KeyedDecodingContainer<CodingKeys>) throws -> OrderKey {
    let text = try container.decode(String.self, forKey: .key)
    do {
      return try OrderKey(validating: text)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .key, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the operation as its log line's object.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: The encoder's errors.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(sequence, forKey: .sequence)
    var time = container.nestedUnkeyedContainer(forKey: .time)
    try time.encode(timestamp.wallTime)
    try time.encode(timestamp.counter)
    try container.encode(replica.rawValue, forKey: .replica)
    try container.encode(change.node.rawValue, forKey: .node)
    switch change {
    case .create(_, let kind, let parent, let key, let fields):
      try container.encode("create", forKey: .op)
      try container.encode(kind.rawValue, forKey: .kind)
      try container.encode(parent.rawValue, forKey: .parent)
      try container.encode(key.rawValue, forKey: .key)
      var object: [String: FieldJSON] = [:]
      for value in fields { object[value.name] = value.json }
      try container.encode(object, forKey: .fields)
    case .move(_, let parent, let key):
      try container.encode("move", forKey: .op)
      try container.encode(parent.rawValue, forKey: .parent)
      try container.encode(key.rawValue, forKey: .key)
    case .delete(_, let seen):
      try container.encode("delete", forKey: .op)
      var object: [String: UInt64] = [:]
      for (replica, count) in seen.counts { object[replica.rawValue] = count }
      try container.encode(object, forKey: .seen)
    case .set(_, let value):
      try container.encode("set", forKey: .op)
      try container.encode(value.name, forKey: .field)
      try container.encode(value.json, forKey: .value)
    }
  }
}

/// A field's JSON value: text or a flag.
enum FieldJSON: Codable {
  case text(String)
  case flag(Bool)

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let flag = try? container.decode(Bool.self) {
      self = .flag(flag)
    } else {
      self = .text(try container.decode(String.self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .text(let text): try container.encode(text)
    case .flag(let flag): try container.encode(flag)
    }
  }
}

extension FieldValue {
  /// The field's name in the log: `text`, `note`, `role`, `done`, `layout` or `created`.
  public var name: String {
    switch self {
    case .text: "text"
    case .note: "note"
    case .role: "role"
    case .done: "done"
    case .layout: "layout"
    case .created: "created"
    }
  }

  var json: FieldJSON {
    switch self {
    case .text(let text), .note(let text), .role(let text), .layout(let text), .created(let text):
      .text(text)
    case .done(let flag): .flag(flag)
    }
  }

  init<Key: CodingKey>(name: String, json: FieldJSON, container: KeyedDecodingContainer<Key>)
    throws
  {
    switch (name, json) {
    case ("text", .text(let text)): self = .text(text)
    case ("note", .text(let text)): self = .note(text)
    case ("role", .text(let text)): self = .role(text)
    case ("layout", .text(let text)): self = .layout(text)
    case ("created", .text(let text)): self = .created(text)
    case ("done", .flag(let flag)): self = .done(flag)
    default:
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: container.codingPath,
          debugDescription: "field \"\(name)\" does not take the value \(json)"))
    }
  }
}
