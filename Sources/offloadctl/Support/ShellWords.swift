/// Shell words as a POSIX shell reads them: whitespace separates words; `'...'` keeps
/// everything; `"..."` keeps everything but a backslash, which escapes the next character, as
/// it does outside quotes.
///
/// One reading for the two places the tool sees shell text: a completion's partial word and
/// the `--viewer` command.
enum ShellWords {
  /// The words of `text`, and whether it ends inside a quote or after a lone backslash.
  ///
  /// - Parameters:
  ///   - text: The shell text.
  ///   - splitting: Whether whitespace outside quotes separates words; when false, the whole
  ///     text is one word (a completion's partial word, with its spaces).
  /// - Complexity: O(*m*) for a text of *m* characters.
  static func read(_ text: String, splitting: Bool = true) -> (words: [String], unclosed: Bool) {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in text {
      if escaped {
        current.append(character)
        escaped = false
        continue
      }
      switch (quote, character) {
      case ("'", "'"), ("\"", "\""): quote = nil
      case ("'", _): current.append(character)
      case ("\"", "\\"), (nil, "\\"):
        escaped = true
        inWord = true
      case ("\"", _): current.append(character)
      case (nil, "'"), (nil, "\""):
        quote = character
        inWord = true
      case (nil, let c) where splitting && c.isWhitespace:
        if inWord { words.append(current) }
        current = ""
        inWord = false
      default:
        current.append(character)
        inWord = true
      }
    }
    if inWord { words.append(current) }
    return (words, quote != nil || escaped)
  }
}
