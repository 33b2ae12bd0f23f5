/// A key on the keyboard, as a terminal reports it.
public enum Key: Hashable, Sendable {
  /// ↑
  case up
  /// ↓
  case down
  /// ←
  case left
  /// →
  case right
  /// Home
  case home
  /// End
  case end
  /// Page Up
  case pageUp
  /// Page Down
  case pageDown
  /// Insert
  case insert
  /// Forward delete (`ESC [ 3 ~`, the key marked Del or ⌦).
  case delete
  /// Backspace (byte `0x7F` or `0x08`, the key marked ⌫).
  case backspace
  /// Tab; Shift-Tab is `.tab` with ``KeyModifiers/shift``.
  case tab
  /// Enter or Return.
  case enter
  /// Escape, alone (not the start of a sequence).
  case escape
  /// The space bar.
  case space
  /// A function key, F1 to F12.
  case function(Int)
  /// A printable character: a letter, a digit, punctuation, any Unicode character. Control
  /// combinations are the lowercase letter with ``KeyModifiers/control``.
  case character(Character)
  /// A sequence the decoder does not know, with its bytes.
  case unknown([UInt8])
}

/// The modifier keys held with a key.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
  /// The modifiers as bits: shift 1, alt 2, control 4 (xterm's parameter less one).
  public let rawValue: UInt8

  /// Creates modifiers from their bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Shift.
  public static let shift = KeyModifiers(rawValue: 1)
  /// Alt (Option, Meta).
  public static let alt = KeyModifiers(rawValue: 2)
  /// Control.
  public static let control = KeyModifiers(rawValue: 4)
}

/// One key press: a key and the modifiers held with it.
///
/// ```swift
/// KeyPress(.up, [.shift]).description  // "shift+up"
/// KeyPress(.character("c"), [.control]) == .controlC  // true
/// ```
public struct KeyPress: Hashable, Sendable, CustomStringConvertible {
  /// The key.
  public var key: Key
  /// The modifiers held.
  public var modifiers: KeyModifiers

  /// Creates a key press.
  public init(_ key: Key, _ modifiers: KeyModifiers = []) {
    self.key = key
    self.modifiers = modifiers
  }

  /// A character with no modifier.
  public static func character(_ character: Character) -> KeyPress {
    KeyPress(.character(character))
  }

  /// Ctrl-C.
  public static let controlC = KeyPress(.character("c"), [.control])

  /// The press as `ctrl+alt+shift+name`, the form key bindings and tests use.
  public var description: String {
    var parts: [String] = []
    if modifiers.contains(.control) { parts.append("ctrl") }
    if modifiers.contains(.alt) { parts.append("alt") }
    if modifiers.contains(.shift) { parts.append("shift") }
    parts.append(key.name)
    return parts.joined(separator: "+")
  }
}

extension Key {
  /// The key's name in ``KeyPress/description``.
  public var name: String {
    switch self {
    case .up: "up"
    case .down: "down"
    case .left: "left"
    case .right: "right"
    case .home: "home"
    case .end: "end"
    case .pageUp: "pageup"
    case .pageDown: "pagedown"
    case .insert: "insert"
    case .delete: "delete"
    case .backspace: "backspace"
    case .tab: "tab"
    case .enter: "enter"
    case .escape: "escape"
    case .space: "space"
    case .function(let number): "f\(number)"
    case .character(let character): String(character)
    case .unknown(let bytes):
      "unknown("
        + bytes.map { byte in
          let hex = String(byte, radix: 16)
          return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: " ") + ")"
    }
  }
}
