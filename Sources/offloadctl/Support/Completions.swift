import ArgumentParser
import Foundation
import Offload
import TerminalUI

/// Shell completions that know the store: collection names and item ids.
///
/// The shell calls `offloadctl ---completion …` with the words typed so far; these closures
/// read the store those words name (`--store PATH`, else the usual environment), and offer
/// what matches the word under the cursor. A store that cannot be read offers nothing: a
/// completion never prints an error into the command line.
enum StoreCompletion {
  /// Collection names (names with control characters are left out).
  static var collections: CompletionKind {
    .custom { words, _, prefix in collectionNames(words: words, prefix: prefix) }
  }

  /// Item ids: of the collection the words name (`--in`, `--to`, or the collection argument
  /// of `item add` and `collection show`), else of every collection.
  static var items: CompletionKind {
    .custom { words, _, prefix in itemIDs(words: words, prefix: prefix) }
  }

  /// The collection names starting with `prefix`, ignoring case, in index order.
  static func collectionNames(words: [String], prefix: String) -> [String] {
    guard let workspace = workspace(words), let entries = try? workspace.collections() else {
      return []
    }
    let prefix = unquoted(prefix).lowercased()
    return entries.map(\.name).filter { name in
      name.lowercased().hasPrefix(prefix)
        && !name.unicodeScalars.contains(where: TerminalText.isControl)
    }
  }

  /// The item ids starting with `prefix`, in outline order.
  static func itemIDs(words: [String], prefix: String) -> [String] {
    guard let workspace = workspace(words), let entries = try? workspace.collections() else {
      return []
    }
    let named = value(after: ["--in", "--to"], in: words) ?? collectionArgument(words)
    let references = named.map { [$0] } ?? entries.map(\.id.rawValue)
    let prefix = unquoted(prefix)
    var ids: [String] = []
    for reference in references {
      guard let tree = try? workspace.tree(of: reference) else { continue }
      ids += tree.rows().map(\.item.id.rawValue).filter { $0.hasPrefix(prefix) }
    }
    return ids
  }

  /// The workspace of `--store` in the words, else of the environment.
  static func workspace(_ words: [String]) -> Workspace? {
    let explicit = value(after: ["--store"], in: words)
    guard
      let location = try? StoreLocation.resolve(
        explicit: explicit, environment: ProcessInfo.processInfo.environment),
      FileManager.default.fileExists(atPath: location.path)
    else { return nil }
    return Workspace(root: location.path)
  }

  /// The value of the last of `options` in the words (`--in X` or `--in=X`), unquoted.
  static func value(after options: [String], in words: [String]) -> String? {
    var found: String?
    for (index, word) in words.enumerated() {
      if options.contains(word), index + 1 < words.count {
        found = unquoted(words[index + 1])
      } else if let option = options.first(where: { word.hasPrefix($0 + "=") }) {
        found = unquoted(String(word.dropFirst(option.count + 1)))
      }
    }
    return found.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The collection argument of `item add COLLECTION …` and `collection show COLLECTION …`:
  /// the first word after the subcommand that is not an option.
  static func collectionArgument(_ words: [String]) -> String? {
    for (group, command) in [("item", "add"), ("collection", "show")] {
      guard let start = words.firstIndex(of: group), start + 2 < words.count,
        words[start + 1] == command
      else { continue }
      var index = start + 2
      while index < words.count && words[index].hasPrefix("-") {
        // Skip an option and, for --store, its value.
        index += words[index] == "--store" ? 2 : 1
      }
      guard index < words.count, !words[index].isEmpty else { return nil }
      return unquoted(words[index])
    }
    return nil
  }

  /// A shell word without the quotes or backslashes a user typed around it.
  static func unquoted(_ word: String) -> String {
    ShellWords.read(word, splitting: false).words.joined()
  }
}
