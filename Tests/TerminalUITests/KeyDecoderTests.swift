import OffloadTestSupport
import Testing

@testable import TerminalUI

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite("KeyDecoder")
struct KeyDecoderTests {
  @Test(
    arguments: [
      ("\u{1B}[A", "up"), ("\u{1B}[B", "down"), ("\u{1B}[C", "right"), ("\u{1B}[D", "left"),
      ("\u{1B}OA", "up"), ("\u{1B}OD", "left"), ("\u{1B}[H", "home"), ("\u{1B}[F", "end"),
      ("\u{1B}OH", "home"), ("\u{1B}OF", "end"), ("\u{1B}[1~", "home"), ("\u{1B}[4~", "end"),
      ("\u{1B}[7~", "home"), ("\u{1B}[8~", "end"), ("\u{1B}[2~", "insert"),
      ("\u{1B}[3~", "delete"), ("\u{1B}[5~", "pageup"), ("\u{1B}[6~", "pagedown"),
      ("\u{1B}[1;2A", "shift+up"), ("\u{1B}[1;2B", "shift+down"), ("\u{1B}[1;3A", "alt+up"),
      ("\u{1B}[1;5B", "ctrl+down"), ("\u{1B}[1;6C", "ctrl+shift+right"),
      ("\u{1B}[1;4D", "alt+shift+left"), ("\u{1B}[1;8A", "ctrl+alt+shift+up"),
      ("\u{1B}[1;9A", "alt+up"), ("\u{1B}[3;5~", "ctrl+delete"), ("\u{1B}[5;2~", "shift+pageup"),
      ("\u{1B}[Z", "shift+tab"), ("\t", "tab"), ("\r", "enter"), ("\n", "enter"),
      ("\u{1B}OM", "enter"), ("\u{7F}", "backspace"), ("\u{08}", "backspace"), (" ", "space"),
      ("a", "a"), ("Z", "Z"), ("7", "7"), ("~", "~"), ("\u{03}", "ctrl+c"),
      ("\u{01}", "ctrl+a"), ("\u{1A}", "ctrl+z"), ("\u{00}", "ctrl+space"),
      ("\u{1C}", "ctrl+\\"), ("\u{1F}", "ctrl+_"), ("\u{1B}a", "alt+a"),
      ("\u{1B}\u{7F}", "alt+backspace"),
      ("\u{1B}OP", "f1"), ("\u{1B}OS", "f4"), ("\u{1B}[15~", "f5"), ("\u{1B}[17~", "f6"),
      ("\u{1B}[21~", "f10"), ("\u{1B}[24~", "f12"), ("\u{1B}[1;2P", "shift+f1"),
      ("é", "é"), ("€", "€"), ("😀", "😀"),
    ])
  func decodesOneKey(input: String, expected: String) {
    let keys = KeyDecoder.decodeAll(bytes(input))
    #expect(keys.map(\.description) == [expected])
  }

  @Test func escapeAloneNeedsAFlush() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]).isEmpty)
    #expect(decoder.hasPending)
    #expect(decoder.flush() == [KeyPress(.escape)])
    #expect(!decoder.hasPending)
    #expect(KeyDecoder.decodeAll(bytes("\u{1B}\u{1B}")).map(\.description) == ["escape", "escape"])
  }

  /// urxvt and macOS Terminal (Option as Meta) send Alt as an Escape before the key's own
  /// sequence: `ESC ESC [ A` is alt+up, however the bytes are split across reads.
  @Test(arguments: [
    ("\u{1B}\u{1B}[A", ["alt+up"]), ("\u{1B}\u{1B}OB", ["alt+down"]),
    ("\u{1B}\u{1B}[1;5A", ["ctrl+alt+up"]), ("\u{1B}\u{1B}[3~", ["alt+delete"]),
    ("\u{1B}\u{1B}x", ["escape", "alt+x"]), ("\u{1B}\u{1B}[", ["escape", "unknown(1b 5b)"]),
  ])
  func altAsAnEscapePrefixBeforeASequence(input: String, expected: [String]) {
    let input = bytes(input)
    for cut in 0...input.count {
      var decoder = KeyDecoder()
      let keys = decoder.feed(input[..<cut]) + decoder.feed(input[cut...]) + decoder.flush()
      #expect(keys.map(\.description) == expected, "cut at \(cut)")
    }
    var decoder = KeyDecoder()
    var keys: [KeyPress] = []
    for byte in input { keys += decoder.feed([byte]) }
    #expect((keys + decoder.flush()).map(\.description) == expected)
  }

  @Test func sequencesSplitAcrossReads() {
    let input = bytes("a\u{1B}[1;2Bé\u{1B}[3~q")
    // Every way of cutting the input in two gives the same keys.
    for cut in 0...input.count {
      var decoder = KeyDecoder()
      let keys = decoder.feed(input[..<cut]) + decoder.feed(input[cut...])
      #expect(keys.map(\.description) == ["a", "shift+down", "é", "delete", "q"], "cut \(cut)")
      #expect(!decoder.hasPending)
    }
  }

  @Test func byteByByteEqualsAllAtOnce() {
    var rng = SplitMix64(seed: SplitMix64.testSeed(0xC0DE))
    let pieces = [
      "\u{1B}[A", "\u{1B}[1;5C", "x", " ", "\r", "\u{7F}", "\u{1B}[Z", "ü", "\u{03}", "\u{1B}OB",
      "\u{1B}[6~", "\u{1B}q",
    ]
    for _ in 0..<200 {
      let input = (0..<rng.index(below: 20)).map { _ in pieces[rng.index(below: pieces.count)] }
        .joined()
      var decoder = KeyDecoder()
      var oneByOne: [KeyPress] = []
      for byte in bytes(input) { oneByOne += decoder.feed([byte]) }
      #expect(!decoder.hasPending, "\(rng)")
      #expect(oneByOne == KeyDecoder.decodeAll(bytes(input)), "\(rng)")
    }
  }

  @Test func unknownAndBrokenInput() {
    #expect(KeyDecoder.decodeAll(bytes("\u{1B}[99~")) == [KeyPress(.unknown(bytes("\u{1B}[99~")))])
    #expect(KeyDecoder.decodeAll(bytes("\u{1B}[?1u")) == [KeyPress(.unknown(bytes("\u{1B}[?1u")))])
    #expect(KeyDecoder.decodeAll(bytes("\u{1B}Ox")) == [KeyPress(.unknown(bytes("\u{1B}Ox")))])
    // A cut-off sequence followed by a control byte: the cut part is unknown, the byte a key.
    #expect(
      KeyDecoder.decodeAll(bytes("\u{1B}[1\r"))
        == [KeyPress(.unknown(bytes("\u{1B}[1"))), KeyPress(.enter)])
    // A cut-off sequence at the end of input, flushed.
    #expect(KeyDecoder.decodeAll(bytes("\u{1B}[1;")) == [KeyPress(.unknown(bytes("\u{1B}[1;")))])
    // Invalid UTF-8: a stray continuation byte, a lead byte without its continuation.
    #expect(KeyDecoder.decodeAll([0x80]) == [KeyPress(.unknown([0x80]))])
    #expect(KeyDecoder.decodeAll([0xC3, 0x41]) == [KeyPress(.unknown([0xC3])), .character("A")])
    #expect(KeyDecoder.decodeAll([0xE2, 0x82]) == [KeyPress(.unknown([0xE2, 0x82]))])
    #expect(KeyPress(.unknown([0x1B, 0x5B])).description == "unknown(1b 5b)")
    // Alt with a cut-off character.
    #expect(KeyDecoder.decodeAll([0x1B, 0xC3]) == [KeyPress(.escape), KeyPress(.unknown([0xC3]))])
    // Huge parameters are clamped, not overflowed.
    #expect(
      KeyDecoder.decodeAll(bytes("\u{1B}[99999999999999999999999;2A")).map(\.description)
        == ["shift+up"])
  }

  @Test func keyPressDescriptions() {
    #expect(KeyPress.controlC.description == "ctrl+c")
    #expect(KeyPress(.up, [.control, .alt, .shift]).description == "ctrl+alt+shift+up")
    #expect(KeyPress(.function(11)).description == "f11")
    #expect(KeyPress.character("x") == KeyPress(.character("x"), []))
  }

  /// Characters of every UTF-8 length decode as the standard library reads them; a byte that
  /// cannot start a sequence, or a lead byte whose sequence is broken off, is one unknown key.
  @Test func utf8DecodesAsTheStandardLibraryDoes() {
    for value in stride(from: 0x80, through: 0x10FFFF, by: 0x3F1) {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let keys = KeyDecoder.decodeAll(Array(String(scalar).utf8))
      #expect(keys == [KeyPress(.character(Character(scalar)))], "U+\(String(value, radix: 16))")
    }
    for lead in UInt8(0x80)...0xFF {
      let keys = KeyDecoder.decodeAll([lead, 0x41])
      #expect(keys == [KeyPress(.unknown([lead])), KeyPress(.character("A"))], "\(lead)")
    }
  }
}
