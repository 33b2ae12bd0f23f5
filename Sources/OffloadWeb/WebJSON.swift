import Persistence

/// A value that writes its own JSON: the bytes `WebShapes.encode` writes through `JSONEncoder`
/// (members in key order, nil optionals left out, slashes as they are), with Persistence's
/// writer. The organize views go this way: `JSONEncoder` took 8 ms for a 1,000-row plan's view,
/// a third of a drop's time to the new rows.
///
/// A conformance must write exactly what `JSONEncoder` writes; `WebJSONTests` compares the two
/// over seeded values.
protocol WebJSONWritable: Encodable {
  /// Writes the value, or returns false (having written anything) for a value this path does
  /// not write, which then goes through `JSONEncoder`.
  ///
  /// - Complexity: O(*n*) in the size of the JSON.
  func writeJSON(to writer: inout CanonicalJSONWriter) -> Bool
}

extension CanonicalJSONWriter {
  /// Writes `"key":"value"`, or nothing for nil (as `JSONEncoder` leaves nil out).
  mutating func member(_ key: StaticString, _ value: String?) {
    member(key, value) { $0.string($1) }
  }

  /// Writes `"key":true` or `false`, or nothing for nil.
  mutating func member(_ key: StaticString, _ value: Bool?) {
    member(key, value) { $0.bool($1) }
  }

  /// Writes `"key":` and the integer, or nothing for nil.
  mutating func member(_ key: StaticString, _ value: Int?) {
    member(key, value) { $0.integer($1) }
  }

  /// Writes `"key":` and `value` with `write`, or nothing for nil.
  private mutating func member<Value>(
    _ key: StaticString, _ value: Value?, _ write: (inout Self, Value) -> Void
  ) {
    guard let value else { return }
    self.key(key)
    write(&self, value)
  }
}

extension OrganizeShapes.Row: WebJSONWritable {
  func writeJSON(to writer: inout CanonicalJSONWriter) -> Bool {
    writer.beginObject()
    writer.member("childCount", childCount)
    writer.member("depth", depth)
    writer.member("done", done)
    writer.member("fixed", fixed)
    writer.member("id", id)
    writer.member("number", number)
    writer.member("parent", parent)
    writer.member("role", role)
    writer.member("text", text)
    writer.endObject()
    return true
  }
}

extension OrganizeShapes.Collection: WebJSONWritable {
  func writeJSON(to writer: inout CanonicalJSONWriter) -> Bool {
    writer.beginObject()
    writer.member("canUndo", canUndo)
    writer.member("id", id)
    writer.member("itinerary", itinerary)
    writer.member("kind", kind)
    writer.member("name", name)
    writer.key("rows")
    writer.beginArray()
    for row in rows {
      writer.element()
      _ = row.writeJSON(to: &writer)
    }
    writer.endArray()
    writer.member("version", version)
    writer.endObject()
    return true
  }
}

extension OrganizeShapes.Changed: WebJSONWritable where View: WebJSONWritable {
  func writeJSON(to writer: inout CanonicalJSONWriter) -> Bool {
    writer.beginObject()
    writer.member("done", done)
    writer.member("id", id)
    writer.member("made", made.map { Int(clamping: $0) })
    writer.member("undone", undone.map { Int(clamping: $0) })
    writer.key("view")
    guard view.writeJSON(to: &writer) else { return false }
    writer.endObject()
    return true
  }
}
