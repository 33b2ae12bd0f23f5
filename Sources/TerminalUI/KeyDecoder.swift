/// Turns the bytes a terminal sends into key presses: a pure decoder with no I/O.
///
/// Feed it bytes as they arrive; it returns every complete key and keeps an incomplete tail
/// (half an escape sequence, half a UTF-8 character) for the next call. A lone Escape cannot
/// be told from the start of a sequence until time passes: when no byte follows within
/// ``escapeTimeoutMilliseconds``, call ``flush()``.
///
/// It understands what xterm, VTE (GNOME Terminal), Konsole, iTerm2, tmux and the Linux console
/// send: arrows and Home/End as `ESC [ A` or `ESC O A`, with modifiers as `ESC [ 1 ; m A`
/// (m − 1 = shift 1 + alt 2 + control 4), `ESC [ n ~` keys (Insert, Delete, Page Up/Down,
/// F5–F12), Shift-Tab `ESC [ Z`, Alt as an Escape prefix (before a character, `ESC x`, or
/// before a whole sequence, `ESC ESC [ A` for alt+up), control letters as bytes 1–26,
/// Backspace as `0x7F` or `0x08`, and UTF-8 text.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.feed([0x1B, 0x5B, 0x31, 0x3B, 0x32])   // []: incomplete
/// decoder.feed([0x41])                           // [shift+up]
/// decoder.feed([0x1B])                           // []: Escape, or a sequence?
/// decoder.flush()                                // [escape]
/// ```
public struct KeyDecoder: Sendable {
  /// How long to wait after an Escape for the byte that would make it a sequence or an
  /// Alt prefix before taking it as the Escape key: 25 ms, shorter than a key repeat and
  /// longer than a sequence takes to arrive over ssh on a local network.
  public static let escapeTimeoutMilliseconds = 25

  private var pending: [UInt8] = []

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Whether bytes of an incomplete key are waiting.
  public var hasPending: Bool { !pending.isEmpty }

  /// Decodes the keys completed by `bytes`.
  ///
  /// - Parameter bytes: The bytes read from the terminal.
  /// - Returns: The complete key presses, in order.
  /// - Complexity: O(*n*), where *n* is the number of pending and new bytes.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [KeyPress] {
    pending.append(contentsOf: bytes)
    var keys: [KeyPress] = []
    var index = 0
    while index < pending.count {
      guard let (key, length) = Self.decode(pending, at: index) else { break }
      keys.append(key)
      index += length
    }
    pending.removeFirst(index)
    return keys
  }

  /// Decodes whatever is pending as if no more bytes will come: a lone Escape becomes
  /// ``Key/escape``, a cut-off sequence becomes ``Key/unknown(_:)``.
  ///
  /// - Returns: The key presses the pending bytes make.
  public mutating func flush() -> [KeyPress] {
    var keys: [KeyPress] = []
    while !pending.isEmpty {
      if let (key, length) = Self.decode(pending, at: 0) {
        keys.append(key)
        pending.removeFirst(length)
      } else if pending[0] == 0x1B {
        if pending.count >= 2, pending[1] != 0x5B, pending[1] != 0x4F {
          // Alt with a cut-off character: the Escape alone, then the rest.
          keys.append(KeyPress(.escape))
          pending.removeFirst()
        } else if pending.count == 1 {
          keys.append(KeyPress(.escape))
          pending.removeAll()
        } else {
          keys.append(KeyPress(.unknown(pending)))
          pending.removeAll()
        }
      } else {
        keys.append(KeyPress(.unknown(pending)))
        pending.removeAll()
      }
    }
    return keys
  }

  /// Decodes all of `bytes` at once, flushing at the end: for tests and scripted input.
  ///
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public static func decodeAll(_ bytes: some Sequence<UInt8>) -> [KeyPress] {
    var decoder = KeyDecoder()
    return decoder.feed(bytes) + decoder.flush()
  }

  /// Decodes one key at `start`, or returns nil when the bytes there are incomplete.
  static func decode(_ bytes: [UInt8], at start: Int) -> (KeyPress, Int)? {
    let byte = bytes[start]
    guard byte == 0x1B else { return decodePlain(bytes, at: start) }
    guard start + 1 < bytes.count else { return nil }
    switch bytes[start + 1] {
    case 0x5B:  // ESC [
      return decodeCSI(bytes, at: start)
    case 0x4F:  // ESC O
      guard start + 2 < bytes.count else { return nil }
      // 0x4D: keypad Enter in application mode.
      let key: Key? = bytes[start + 2] == 0x4D ? .enter : sharedFinalKey(bytes[start + 2])
      return (KeyPress(key ?? .unknown(Array(bytes[start...(start + 2)]))), 3)
    case 0x1B:
      // Alt sent as an Escape prefix before a sequence (urxvt, macOS Terminal with Option as
      // Meta): `ESC ESC [ A` is alt+up. Without a third byte yet, wait; ``flush()`` makes
      // two Escapes of it when nothing follows.
      guard start + 2 < bytes.count else { return nil }
      guard bytes[start + 2] == 0x5B || bytes[start + 2] == 0x4F else {
        return (KeyPress(.escape), 1)
      }
      guard let (press, length) = decode(bytes, at: start + 1) else { return nil }
      if case .unknown = press.key { return (press, length + 1) }
      return (KeyPress(press.key, press.modifiers.union(.alt)), length + 1)
    default:
      // Alt held with a key: the key, prefixed by Escape.
      guard let (press, length) = decodePlain(bytes, at: start + 1) else { return nil }
      return (KeyPress(press.key, press.modifiers.union(.alt)), length + 1)
    }
  }

  /// Decodes a key that does not start with Escape.
  static func decodePlain(_ bytes: [UInt8], at start: Int) -> (KeyPress, Int)? {
    let byte = bytes[start]
    switch byte {
    case 0x0D, 0x0A: return (KeyPress(.enter), 1)
    case 0x09: return (KeyPress(.tab), 1)
    case 0x7F, 0x08: return (KeyPress(.backspace), 1)
    case 0x20: return (KeyPress(.space), 1)
    case 0x00: return (KeyPress(.space, [.control]), 1)
    case 0x01...0x1A:
      let letter = Character(Unicode.Scalar(byte + 0x60))
      return (KeyPress(.character(letter), [.control]), 1)
    case 0x1C...0x1F:
      let symbol = Character(Unicode.Scalar(byte + 0x40))
      return (KeyPress(.character(symbol), [.control]), 1)
    case 0x21...0x7E:
      return (KeyPress(.character(Character(Unicode.Scalar(byte)))), 1)
    default:
      return decodeUTF8(bytes, at: start)
    }
  }

  /// Decodes one UTF-8 character, or nil when it is cut off.
  static func decodeUTF8(_ bytes: [UInt8], at start: Int) -> (KeyPress, Int)? {
    let lead = bytes[start]
    // Other bytes cannot start a valid sequence; in a lead byte, the count of leading 1 bits
    // is the sequence's length.
    guard (0xC2...0xF4).contains(lead) else { return (KeyPress(.unknown([lead])), 1) }
    let length = (~lead).leadingZeroBitCount
    var end = start + 1
    while end < start + length {
      guard end < bytes.count else { return nil }
      guard bytes[end] & 0xC0 == 0x80 else {
        return (KeyPress(.unknown(Array(bytes[start..<end]))), end - start)
      }
      end += 1
    }
    let text = String(decoding: bytes[start..<end], as: UTF8.self)
    guard let character = text.first, text.count == 1, !text.contains("\u{FFFD}") else {
      return (KeyPress(.unknown(Array(bytes[start..<end]))), length)
    }
    return (KeyPress(.character(character)), length)
  }

  /// Decodes `ESC [ params final`, or nil when the final byte has not arrived.
  static func decodeCSI(_ bytes: [UInt8], at start: Int) -> (KeyPress, Int)? {
    var index = start + 2
    var parameters: [Int] = []
    var current: Int?
    while true {
      guard index < bytes.count else { return nil }
      let byte = bytes[index]
      switch byte {
      case 0x30...0x39:
        current = (current ?? 0) &* 10 &+ Int(byte - 0x30)
        if current ?? 0 > 10_000 { current = 10_000 }
      case 0x3B:
        parameters.append(current ?? 1)
        current = nil
      case 0x3A, 0x3C...0x3F, 0x20...0x2F:
        break  // private markers and intermediates: kept in the unknown bytes
      case 0x40...0x7E:
        if let current { parameters.append(current) }
        let length = index - start + 1
        let raw = Array(bytes[start..<(start + length)])
        return (csiKey(final: byte, parameters: parameters, raw: raw), length)
      default:
        // Not part of a sequence: what came before is unknown; the byte starts a new key.
        return (KeyPress(.unknown(Array(bytes[start..<index]))), index - start)
      }
      index += 1
    }
  }

  /// The key of a final byte that SS3 (`ESC O`) and CSI (`ESC [`) sequences share: the
  /// arrows, Home, End and F1–F4.
  static func sharedFinalKey(_ byte: UInt8) -> Key? {
    switch byte {
    case 0x41: .up
    case 0x42: .down
    case 0x43: .right
    case 0x44: .left
    case 0x48: .home
    case 0x46: .end
    case 0x50: .function(1)
    case 0x51: .function(2)
    case 0x52: .function(3)
    case 0x53: .function(4)
    default: nil
    }
  }

  /// The key a complete CSI sequence names.
  static func csiKey(final: UInt8, parameters: [Int], raw: [UInt8]) -> KeyPress {
    let modifiers = modifiers(parameters.count >= 2 ? parameters[1] : 1)
    let key: Key? =
      switch final {
      case 0x5A: .tab
      case 0x7E: tildeKey(parameters.first ?? 0)
      default: sharedFinalKey(final)
      }
    guard let key, raw.allSatisfy({ !(0x3C...0x3F).contains($0) && !(0x20...0x2F).contains($0) })
    else { return KeyPress(.unknown(raw)) }
    if final == 0x5A { return KeyPress(.tab, modifiers.union(.shift)) }
    return KeyPress(key, modifiers)
  }

  /// The key of `ESC [ n ~`.
  static func tildeKey(_ number: Int) -> Key? {
    switch number {
    case 1, 7: .home
    case 2: .insert
    case 3: .delete
    case 4, 8: .end
    case 5: .pageUp
    case 6: .pageDown
    case 11...15: .function(number - 10)
    case 17...21: .function(number - 11)
    case 23, 24: .function(number - 12)
    default: nil
    }
  }

  /// xterm's modifier parameter: 1 + (shift 1 | alt 2 | control 4 | meta 8).
  static func modifiers(_ parameter: Int) -> KeyModifiers {
    guard parameter > 1 else { return [] }
    var result = KeyModifiers(rawValue: UInt8((parameter - 1) & 0x7))
    if (parameter - 1) & 0x8 != 0 { result.insert(.alt) }  // meta, as alt
    return result
  }
}
