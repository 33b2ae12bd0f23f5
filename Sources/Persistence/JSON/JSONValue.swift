/// Any JSON value, for migrations: an older version's data is read as a `JSONValue`, changed
/// step by step, and then decoded as the current type.
///
/// ```swift
/// Migration(from: 1) { data in
///   var data = data
///   data["title"] = data["name"] ?? .string("")  // version 2 renamed `name` to `title`
///   data["name"] = nil
///   return data
/// }
/// ```
public enum JSONValue: Hashable, Sendable, Codable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number without fraction or exponent that fits in 64 bits.
  case integer(Int64)
  /// Any other number.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object.
  case object([String: JSONValue])

  /// The member `key` of an object (nil for other values); setting nil removes the member.
  public subscript(key: String) -> JSONValue? {
    get {
      guard case .object(let members) = self else { return nil }
      return members[key]
    }
    set {
      guard case .object(var members) = self else { return }
      members[key] = newValue
      self = .object(members)
    }
  }

  /// Decodes any JSON value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Encodes the value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
