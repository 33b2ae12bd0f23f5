/// What a document file holds and how older versions of it are upgraded.
///
/// Every document is written inside an envelope that names its format and version:
///
/// ```json
/// {
///   "data" : { ... },
///   "format" : "offload.collection",
///   "version" : 2
/// }
/// ```
///
/// Loading a file of an older version runs the ``Migration``s from its version up to
/// ``version`` on the raw JSON of `data`, then decodes the result as `Document`; a file of a
/// newer version is refused with ``PersistenceError/Code/newerVersion`` and left untouched.
///
/// ```swift
/// let format = DocumentFormat<Collection>(
///   name: "offload.collection", version: 2,
///   migrations: [
///     Migration(from: 1) { data in
///       var data = data
///       data["tags"] = .array([])  // version 2 added tags
///       return data
///     }
///   ])
/// ```
public struct DocumentFormat<Document: Codable>: Sendable {
  /// The format's name, stored in every file and checked on load (`"offload.collection"`).
  public let name: String
  /// The version this program writes; files of this version decode directly.
  public let version: Int
  /// The upgrades from each older version to the next.
  public let migrations: [Migration]
  /// Whether files are indented, one member per line (best for diffs) or compact (one line).
  public let prettyPrinted: Bool

  /// Describes a format.
  ///
  /// - Parameters:
  ///   - name: The format's name, stored in every file.
  ///   - version: The version written; at least 1.
  ///   - migrations: One migration from each older version still readable.
  ///   - prettyPrinted: Whether to indent the file; true by default.
  public init(
    name: String, version: Int = 1, migrations: [Migration] = [], prettyPrinted: Bool = true
  ) {
    precondition(version >= 1, "a document format's version starts at 1")
    self.name = name
    self.version = version
    self.migrations = migrations
    self.prettyPrinted = prettyPrinted
  }
}

/// One step of a migration chain: it turns the `data` of a file of version ``fromVersion`` into
/// the `data` of version `fromVersion + 1`.
public struct Migration: Sendable {
  /// The version this step reads.
  public let fromVersion: Int
  /// The step itself.
  let transform: @Sendable (JSONValue) throws -> JSONValue

  /// Creates a migration step.
  ///
  /// - Parameters:
  ///   - version: The version the step reads; it produces `version + 1`.
  ///   - transform: Turns the older data into the newer; a thrown error fails the load with
  ///     ``PersistenceError/Code/migrationFailed``.
  public init(from version: Int, _ transform: @escaping @Sendable (JSONValue) throws -> JSONValue) {
    self.fromVersion = version
    self.transform = transform
  }
}

/// The envelope around every document: its header (format, version, the journal position of a
/// snapshot) and the data, all members of one JSON object.
struct Envelope<Payload: Codable> {
  var data: Payload
  var header: EnvelopeHeader
}

extension Envelope: Codable {
  private enum CodingKeys: String, CodingKey {
    case data
  }

  // The header's members stand beside `data`: the header reads and writes them itself.
  init(from decoder: any Decoder) throws {
    data = try decoder.container(keyedBy: CodingKeys.self).decode(Payload.self, forKey: .data)
    header = try EnvelopeHeader(from: decoder)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(data, forKey: .data)
    try header.encode(to: encoder)
  }
}

/// What an envelope says besides its data; read alone to learn the format and version of a
/// file whose data does not decode.
struct EnvelopeHeader: Codable {
  var format: String
  var journal: JournalPosition?
  var version: Int
}

/// Where a snapshot stands in its journal: the generation of the journal that continues it and
/// the sequence number of the last entry it includes.
struct JournalPosition: Codable, Hashable, Sendable {
  var generation: Int
  var lastSequence: Int
}
