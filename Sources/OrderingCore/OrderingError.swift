/// An error from an `OrderingCore` operation: what went wrong, and with which key or value.
///
/// Every failure in the module is one of these, thrown with typed throws, so a caller
/// switches over ``code`` without casting. ``description`` is one sentence a user can act on:
/// it names the key (shortened when very long) and what is wrong with it.
///
/// ```swift
/// do {
///   _ = try OrderKey(validating: "a00")
/// } catch {
///   print(error)  // invalid order key "a00": the fraction ends in '0' at byte 2 ...
/// }
/// ```
public struct OrderingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of failure this is.
  ///
  /// An open set of named values rather than an enum, so that a code added in a later version
  /// does not break a client's `switch` (which therefore ends with `default`).
  public struct Code: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The code's name, as it appears in messages and JSON.
    public var rawValue: String
    /// Creates a code from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The code's name.
    public var description: String { rawValue }
    /// Every code this version defines, in the order they are declared.
    public static let allCases: [Code] = [
      .emptyKey, .invalidHead, .invalidIntegerLength, .invalidDigit, .trailingZero,
      .smallestInteger, .boundsNotAscending, .keySpaceExhausted, .unknownNode, .duplicateNode,
      .staleChange, .invalidChange, .invalidOutline, .positionSpaceExhausted,
      .positionsNotIncreasing, .positionOutOfRange, .duplicateID, .keysNotIncreasing,
      .unknownID, .offsetOutOfRange, .duplicateOffset, .refused,
    ]

    /// The key is the empty string.
    public static let emptyKey = Code(rawValue: "emptyKey")
    /// The first byte is not a head letter (`a`–`z` or `A`–`Z`).
    public static let invalidHead = Code(rawValue: "invalidHead")
    /// The key is shorter than the integer part its head letter announces.
    public static let invalidIntegerLength = Code(rawValue: "invalidIntegerLength")
    /// A byte is not a digit of the key alphabet.
    public static let invalidDigit = Code(rawValue: "invalidDigit")
    /// The fractional part ends in the zero digit, which would make two spellings of one value.
    public static let trailingZero = Code(rawValue: "trailingZero")
    /// The key is the smallest integer key (`A` followed by 26 zeros); nothing sorts below it.
    public static let smallestInteger = Code(rawValue: "smallestInteger")
    /// The lower bound does not sort strictly before the upper bound.
    public static let boundsNotAscending = Code(rawValue: "boundsNotAscending")
    /// No key exists in the requested direction.
    public static let keySpaceExhausted = Code(rawValue: "keySpaceExhausted")
    /// An ordered forest holds no node with the given id.
    public static let unknownNode = Code(rawValue: "unknownNode")
    /// An ordered forest already holds a node with the given id.
    public static let duplicateNode = Code(rawValue: "duplicateNode")
    /// A change set expects a node where it no longer is: it was made for another state.
    public static let staleChange = Code(rawValue: "staleChange")
    /// Applying a change set would break the forest (a missing parent, a cycle, a shared key).
    public static let invalidChange = Code(rawValue: "invalidChange")
    /// An outline's depths do not describe a forest (a row deeper than one below the last).
    public static let invalidOutline = Code(rawValue: "invalidOutline")
    /// A list labeling has more rows than its position range has integers.
    public static let positionSpaceExhausted = Code(rawValue: "positionSpaceExhausted")
    /// Stored positions are not strictly increasing in list order.
    public static let positionsNotIncreasing = Code(rawValue: "positionsNotIncreasing")
    /// A stored position lies outside the labeling's position range.
    public static let positionOutOfRange = Code(rawValue: "positionOutOfRange")
    /// An id occurs twice in one list.
    public static let duplicateID = Code(rawValue: "duplicateID")
    /// Stored order keys are not strictly increasing in list order (or two are equal).
    public static let keysNotIncreasing = Code(rawValue: "keysNotIncreasing")
    /// A list holds no row with the given id.
    public static let unknownID = Code(rawValue: "unknownID")
    /// A row offset lies outside the list (`index` holds the offset).
    public static let offsetOutOfRange = Code(rawValue: "offsetOutOfRange")
    /// One offset is given twice in the offsets of one operation (`index` holds the offset).
    public static let duplicateOffset = Code(rawValue: "duplicateOffset")
    /// An ordered forest refused an operation; ``OrderingError/refusal(of:)`` gives the
    /// refusal with its reason.
    public static let refused = Code(rawValue: "refused")
  }

  /// What kind of failure this is.
  public var code: Code
  /// The key the failure is about, when there is one.
  public var key: String?
  /// The second key involved (the upper bound of a `between` call), when there is one.
  public var otherKey: String?
  /// The byte offset in ``key`` where the problem is, when it has a place.
  public var offset: Int?
  /// The index of the row the failure is about, when it is about a row of a list.
  public var index: Int?
  /// One sentence that names the key and what is wrong with it.
  public var description: String
  /// The error this one wraps, when there is one (a forest's refusal for
  /// ``OrderingError/Code/refused``). Equality and hashing ignore it: ``description`` already
  /// says what it says.
  public var underlying: (any Error & Sendable)?

  /// Creates an error from its parts.
  ///
  /// - Parameters:
  ///   - code: What kind of failure this is.
  ///   - key: The key the failure is about.
  ///   - otherKey: The second key involved, if any.
  ///   - offset: The byte offset of the problem in `key`, if it has one.
  ///   - index: The index of the row the failure is about, if any.
  ///   - description: One sentence a user can act on.
  ///   - underlying: The error this one wraps, if any.
  public init(
    _ code: Code, key: String? = nil, otherKey: String? = nil, offset: Int? = nil,
    index: Int? = nil, description: String, underlying: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.key = key
    self.otherKey = otherKey
    self.offset = offset
    self.index = index
    self.description = description
    self.underlying = underlying
  }

  /// Whether two errors have the same code, context and description.
  public static func == (left: OrderingError, right: OrderingError) -> Bool {
    left.code == right.code && left.key == right.key && left.otherKey == right.otherKey
      && left.offset == right.offset && left.index == right.index
      && left.description == right.description
  }

  /// Hashes the code, context and description.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(key)
    hasher.combine(otherKey)
    hasher.combine(offset)
    hasher.combine(index)
    hasher.combine(description)
  }
}

extension OrderingError {
  /// Quotes a key for a message, shortening keys longer than 40 bytes.
  static func quoted(_ key: String) -> String {
    let bytes = key.utf8.count
    guard bytes > 40 else { return "\"\(key)\"" }
    return
      "\"\(key.utf8.prefix(24).map { Character(Unicode.Scalar($0)) }.map(String.init).joined())…\" (\(bytes) bytes)"
  }

  /// Describes a byte for a message: printable ASCII as itself, anything else as hex.
  static func describeByte(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
  }
}
