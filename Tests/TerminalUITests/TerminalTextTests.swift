import Testing

@testable import TerminalUI

@Suite("TerminalText: escaping control characters")
struct TerminalTextEscapingTests {
  @Test(arguments: [
    ("plain text", "plain text"),
    ("a\u{1B}[2Jb", #"a\u{1B}[2Jb"#),
    ("tab\there\nnext\r", #"tab\u{9}here\u{A}next\u{D}"#),
    ("\u{0}\u{7F}\u{80}\u{9B}\u{9F}", #"\u{0}\u{7F}\u{80}\u{9B}\u{9F}"#),
    ("\u{202A}\u{202E}\u{2066}\u{2069}", #"\u{202A}\u{202E}\u{2066}\u{2069}"#),
    // Neighbours of the refused ranges, and text that only looks like an escape, stay.
    (
      "\u{A0}\u{2029}\u{202F}\u{2065}\u{206A} é 日本 👍🏽",
      "\u{A0}\u{2029}\u{202F}\u{2065}\u{206A} é 日本 👍🏽"
    ),
    (#"\u{1B}"#, #"\u{1B}"#),
  ])
  func escapesExactlyTheControlCharacters(text: String, expected: String) {
    #expect(TerminalText.escaped(text) == expected)
  }

  /// Over every scalar below U+2100: the escaped text holds no
  /// control character, and text without one is returned as it was.
  @Test func noControlCharacterSurvives() {
    for value in UInt32(0)..<0x2100 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = "a" + String(Character(scalar)) + "b"
      let escaped = TerminalText.escaped(text)
      #expect(!escaped.unicodeScalars.contains(where: TerminalText.isControl), "U+\(value)")
      #expect((escaped == text) == !TerminalText.isControl(scalar), "U+\(value)")
    }
  }

  @Test func fitShowsBidiOverridesAsReplacementCharacters() {
    #expect(TerminalText.fit("a\u{202E}b", width: 10) == "a\u{FFFD}b")
    #expect(TerminalText.width(of: "a\u{202E}b") == 3)
  }
}
