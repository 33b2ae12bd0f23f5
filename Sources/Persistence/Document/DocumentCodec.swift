import Foundation

/// A decoded document with what its envelope said.
struct DecodedDocument<Document> {
  var document: Document
  var version: Int
  var journal: JournalPosition?
}

/// Turns documents into file bytes and back, with precise errors for damaged bytes.
enum DocumentCodec {
  /// The bytes of a file holding `document`: the envelope in canonical JSON and a final newline.
  ///
  /// A ``CanonicalJSONCodable`` document writes itself (the same bytes, faster) unless
  /// `fastPath` is false; when it cannot, the `Codable` path runs.
  static func encode<Document: Codable>(
    _ document: Document, format: DocumentFormat<Document>, journal: JournalPosition? = nil,
    path: String, fastPath: Bool = true
  ) throws(PersistenceError) -> Data {
    if fastPath, let fast = document as? any CanonicalJSONCodable,
      let bytes = fastEncode(fast, format: format, journal: journal)
    {
      return bytes
    }
    let envelope = Envelope(
      data: document,
      header: EnvelopeHeader(format: format.name, journal: journal, version: format.version))
    do {
      var bytes: [UInt8] = []
      try LineEncoder(pretty: format.prettyPrinted).encode(envelope, into: &bytes)
      bytes.append(0x0A)
      return Data(bytes)
    } catch {
      throw PersistenceError(
        .encodingFailed, path: path, underlying: error,
        description:
          "cannot encode the document for \(path): \(describe(error)).")
    }
  }

  /// The document in `data`, migrated to the current version.
  ///
  /// A ``CanonicalJSONCodable`` document of the current version reads itself unless `fastPath`
  /// is false; anything its reader does not read goes through `JSONDecoder`, which gives the
  /// same value or the precise error.
  static func decode<Document: Codable>(
    _ data: Data, format: DocumentFormat<Document>, path: String, fastPath: Bool = true
  ) throws(PersistenceError) -> DecodedDocument<Document> {
    if fastPath, let fast = Document.self as? any CanonicalJSONCodable.Type,
      let decoded = fastDecode(data, as: fast, format: format)
    {
      return decoded
    }
    let decoder = CanonicalJSON.decoder()
    var firstError: (any Error)?
    do {
      let envelope = try decoder.decode(Envelope<Document>.self, from: data)
      let header = envelope.header
      if header.format == format.name && header.version == format.version {
        return DecodedDocument(
          document: envelope.data, version: header.version, journal: header.journal)
      }
    } catch {
      firstError = error
    }
    // JSONDecoder failed: find out why, with a place in the file.
    let syntax = data.withUnsafeBytes { JSONScanner.validate($0) }
    if let syntax {
      let (line, column) = data.withUnsafeBytes {
        JSONScanner.lineAndColumn(of: syntax.offset, in: $0)
      }
      throw PersistenceError(
        .damaged, path: path, offset: syntax.offset, line: line,
        description:
          "\(path) is damaged at line \(line), column \(column) (byte \(syntax.offset)): \(syntax.message)."
      )
    }
    guard let header = try? decoder.decode(EnvelopeHeader.self, from: data) else {
      throw PersistenceError(
        .damaged, path: path, offset: 0, line: 1,
        description:
          "\(path) is damaged at line 1, column 1 (byte 0): it is JSON but not a document envelope with \"format\", \"version\" and \"data\" members."
      )
    }
    guard header.format == format.name else {
      throw PersistenceError(
        .wrongFormat, path: path,
        description:
          "\(path) holds a \"\(header.format.prefix(60))\" document, not \"\(format.name)\"; open it with the program that wrote it."
      )
    }
    guard header.version <= format.version else {
      throw PersistenceError(
        .newerVersion, path: path,
        description:
          "\(path) was written by a newer version (format \(format.name) version \(header.version), this program reads up to \(format.version)); upgrade the program, the file was left untouched."
      )
    }
    guard header.version >= 1 else {
      throw PersistenceError(
        .damaged, path: path,
        description: "\(path) is damaged: its version \(header.version) is not 1 or higher.")
    }
    if header.version < format.version {
      return try migrate(data, from: header.version, format: format, path: path)
    }
    throw shapeError(firstError, data: data, path: path)
  }

  /// The file bytes of a ``CanonicalJSONCodable`` document, written without the `Codable`
  /// machinery; nil when the document cannot be written that way (the caller then encodes it
  /// through `Codable`, which reports the error).
  ///
  /// - Complexity: O(*n*), where *n* is the encoded size.
  static func fastEncode<Document>(
    _ document: any CanonicalJSONCodable, format: DocumentFormat<Document>,
    journal: JournalPosition?
  ) -> Data? {
    var writer = CanonicalJSONWriter(pretty: format.prettyPrinted, reservingCapacity: 1 << 16)
    writer.beginObject()
    writer.key("data")
    do {
      try document.writeCanonicalJSON(to: &writer)
    } catch {
      return nil
    }
    writer.key("format")
    writer.string(format.name)
    if let journal {
      writer.key("journal")
      writer.beginObject()
      writer.key("generation")
      writer.integer(journal.generation)
      writer.key("lastSequence")
      writer.integer(journal.lastSequence)
      writer.endObject()
    }
    writer.key("version")
    writer.integer(format.version)
    writer.endObject()
    writer.appendNewline()
    return writer.data
  }

  /// The members of the envelope and of its journal position.
  static let envelopeKeys: CanonicalJSONKeys = ["data", "format", "journal", "version"]
  static let journalKeys: CanonicalJSONKeys = ["generation", "lastSequence"]

  /// The document in `data` read by `type`'s own reader, when the file is of the current
  /// version and entirely in the reader's subset; nil otherwise (the caller then decodes with
  /// `JSONDecoder`, which reports any damage).
  ///
  /// - Complexity: O(*n*), where *n* is the file's size.
  static func fastDecode<Document>(
    _ data: Data, as type: any CanonicalJSONCodable.Type, format: DocumentFormat<Document>
  ) -> DecodedDocument<Document>? {
    data.withUnsafeBytes { bytes -> DecodedDocument<Document>? in
      var reader = CanonicalJSONReader(bytes)
      var document: Document?
      var name: String?
      var journal: JournalPosition?
      var version: Int?
      do {
        try reader.readObject(keys: envelopeKeys) {
          (reader, key) throws(CanonicalJSONError) in
          switch key {
          case 0: document = try type.init(canonicalJSON: &reader) as? Document
          case 1: name = try reader.readString()
          case 2:
            if try reader.readNull() { break }
            var generation: Int?
            var lastSequence: Int?
            try reader.readObject(keys: journalKeys) {
              (reader, key) throws(CanonicalJSONError) in
              if key == 0 {
                generation = try reader.readInt()
              } else {
                lastSequence = try reader.readInt()
              }
            }
            guard let generation, let lastSequence else { throw reader.failure() }
            journal = JournalPosition(generation: generation, lastSequence: lastSequence)
          default: version = try reader.readInt()
          }
        }
        try reader.finish()
      } catch {
        return nil
      }
      guard let document, name == format.name, version == format.version else { return nil }
      return DecodedDocument(document: document, version: format.version, journal: journal)
    }
  }

  /// Runs the migration chain from `version` up to the format's version.
  private static func migrate<Document: Codable>(
    _ data: Data, from version: Int, format: DocumentFormat<Document>, path: String
  ) throws(PersistenceError) -> DecodedDocument<Document> {
    let decoder = CanonicalJSON.decoder()
    let old: Envelope<JSONValue>
    do {
      old = try decoder.decode(Envelope<JSONValue>.self, from: data)
    } catch {
      throw shapeError(error, data: data, path: path)
    }
    var value = old.data
    for step in version..<format.version {
      guard let migration = format.migrations.first(where: { $0.fromVersion == step }) else {
        throw PersistenceError(
          .missingMigration, path: path,
          description:
            "\(path) is version \(version) of \(format.name), but no migration from version \(step) to \(step + 1) is registered; the file was left untouched."
        )
      }
      do {
        value = try migration.transform(value)
      } catch {
        throw PersistenceError(
          .migrationFailed, path: path, underlying: error,
          description:
            "migrating \(path) from version \(step) to \(step + 1) failed: \(error); the file was left untouched."
        )
      }
    }
    do {
      let bytes = try CanonicalJSON.encoder(pretty: false).encode(value)
      let document = try decoder.decode(Document.self, from: bytes)
      return DecodedDocument(document: document, version: version, journal: old.header.journal)
    } catch {
      throw PersistenceError(
        .migrationFailed, path: path, underlying: error,
        description:
          "\(path) was migrated from version \(version) to \(format.version), but the result does not decode: \(describe(error)); the file was left untouched."
      )
    }
  }

  /// A damaged-file error for JSON of the wrong shape, pointing at the value at fault.
  static func shapeError(_ error: (any Error)?, data: Data, path: String) -> PersistenceError {
    var where_ = ""
    var offset: Int?
    var line: Int?
    if let decoding = error as? DecodingError, let context = decoding.context {
      let located = data.withUnsafeBytes { bytes -> (Int, Int, Int)? in
        guard let found = JSONScanner.offset(of: context.codingPath, in: bytes) else { return nil }
        let (line, column) = JSONScanner.lineAndColumn(of: found, in: bytes)
        return (found, line, column)
      }
      if let (found, foundLine, column) = located {
        offset = found
        line = foundLine
        where_ = " at line \(foundLine), column \(column) (byte \(found))"
      }
    }
    return PersistenceError(
      .damaged, path: path, offset: offset, line: line, underlying: error,
      description: "\(path) is damaged\(where_): \(error.map(describe) ?? "unknown shape").")
  }

  /// A short phrase for a coding error: what was expected, and where.
  static func describe(_ error: any Error) -> String {
    func place(_ path: [any CodingKey]) -> String {
      var text = ""
      for key in path {
        if let index = key.intValue,
          key.stringValue.hasPrefix("Index") || key.stringValue == "\(index)"
        {
          text += "[\(index)]"
        } else {
          text += text.isEmpty ? key.stringValue : "." + key.stringValue
        }
      }
      return text.isEmpty ? "the top level" : text
    }
    switch error {
    case DecodingError.typeMismatch(let type, let context):
      return "expected \(type) at \(place(context.codingPath))"
    case DecodingError.valueNotFound(let type, let context):
      return "missing \(type) value at \(place(context.codingPath))"
    case DecodingError.keyNotFound(let key, let context):
      return "missing member \"\(key.stringValue)\" in \(place(context.codingPath))"
    case DecodingError.dataCorrupted(let context):
      return "invalid value at \(place(context.codingPath)): \(context.debugDescription)"
    case EncodingError.invalidValue(let value, let context):
      return "cannot encode \(value) at \(place(context.codingPath)): \(context.debugDescription)"
    default:
      return "\(error)"
    }
  }
}

extension DecodingError {
  fileprivate var context: Context? {
    switch self {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .dataCorrupted(let context):
      return context
    case .keyNotFound(_, let context):
      return context
    @unknown default:
      return nil
    }
  }
}
