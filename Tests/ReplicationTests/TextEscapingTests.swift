import OrderingCore
import Replication
import Testing

/// The two escapings of field text, pinned to their bytes: a description quotes as JSON does,
/// a checkpoint escapes only what would break its tab-separated lines.
@Suite("Field text escaping")
struct TextEscapingTests {
  /// Every character either escaping treats specially, and some it leaves alone.
  static let awkward = "a\"b\\c\nd\te\r\u{1}f\u{7F}é"

  @Test("A field's description quotes its text as JSON writes it")
  func descriptionsQuote() {
    let quoted = #""a\"b\\c\nd\te\u000d\u0001f"# + "\u{7F}é\""
    #expect(FieldValue.text(Self.awkward).description == "text=" + quoted)
    #expect(FieldValue.note(Self.awkward).description == "note=" + quoted)
    #expect(FieldValue.role("day 1").description == #"role="day 1""#)
    #expect(FieldValue.layout("plan").description == #"layout="plan""#)
    #expect(FieldValue.done(true).description == "done=true")
    #expect(FieldValue.created("1700000000000").description == "created=1700000000000")
    #expect(FieldValue.text("").description == #"text="""#)
  }

  @Test("A checkpoint escapes only backslash, tab and newline, and reads the text back")
  func checkpointsEscape() throws {
    let replica = try ReplicaID("a00")
    let time = HybridTimestamp(wallTime: 5, counter: 0, replica: replica)
    let create = ReplicaOperation(
      sequence: 1, timestamp: time,
      change: .create(
        NodeID("x\ty"), kind: .collection, parent: .root, key: .first,
        fields: [.text(Self.awkward)]))
    var state = ReplicaState()
    state.merge([create])
    let text = state.checkpointText(keepingFrom: nil)
    let escaped = #"a"b\\c\nd\te"# + "\r\u{1}f\u{7F}é"
    #expect(text.contains("r\t0\t" + escaped + "\t5.0.a00\n"), "\(text)")
    #expect(text.contains("n\tx\\ty\t"), "\(text)")
    let loaded = try ReplicaState(checkpoint: text[...])
    #expect(loaded.checkpointText(keepingFrom: nil) == text)
    #expect(loaded.canonicalText() == state.canonicalText())
    #expect(state.canonicalText().contains("text=" + #""a\"b\\c\nd\te\u000d\u0001f"#))
  }
}
