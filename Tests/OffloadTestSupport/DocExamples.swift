public import Foundation

/// Keeps documentation examples compiled: every ```` ```swift ```` block in a module's doc
/// comments, its DocC catalog and its guides must appear, line for line, in a test file of
/// the module's test target, where the compiler builds it and the test runs it.
///
/// A block matches when its non-blank lines, each with its runs of spaces made one, occur one
/// after another among the test file's trimmed lines; the test around it may declare what
/// the example takes as given (a `selection`, some `rows`) before it and check results after.
/// `import` lines of a block are not looked for: the test file imports at its top.
public enum DocExamples {
  /// One example: where it is written and its lines.
  public struct Block: CustomStringConvertible, Sendable {
    /// The file, relative to the package root.
    public var file: String
    /// The 1-based line of the block's first code line.
    public var line: Int
    /// The code lines, as written (comment markers removed).
    public var lines: [String]

    public var description: String { "\(file):\(line)" }
  }

  /// The package root, found from a file path inside it (pass `#filePath`).
  public static func packageRoot(from filePath: String) -> URL {
    var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while url.path != "/" {
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        return url
      }
      url.deleteLastPathComponent()
    }
    return url
  }

  /// Every Swift example of `module`: in its sources' `///` comments and its DocC catalog's
  /// articles, and in the guides named (paths relative to the package root).
  ///
  /// - Complexity: O(n) in the bytes of the files read.
  public static func blocks(module: String, guides: [String], root: URL) -> [Block] {
    let sources = root.appendingPathComponent("Sources/\(module)")
    var found: [Block] = []
    for path in files(under: sources) {
      let relative = "Sources/\(module)/" + path
      let text = (try? String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8))
      guard let text else { continue }
      if path.hasSuffix(".swift") {
        found += scan(text, file: relative, docComments: true)
      } else if path.hasSuffix(".md") {
        found += scan(text, file: relative, docComments: false)
      }
    }
    for guide in guides {
      let url = root.appendingPathComponent(guide)
      guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
      found += scan(text, file: guide, docComments: false)
    }
    return found
  }

  /// The files of the adoption client (`Examples/AdoptionClient`), relative to the root: CI
  /// builds and runs that package and checks its results, and the "Adopting in an app"
  /// articles quote it verbatim, so its code counts as a compiled example of every module.
  static func adoptionClientFiles(root: URL) -> [String] {
    let client = "Examples/AdoptionClient"
    let sources = files(under: root.appendingPathComponent("\(client)/Sources"))
    return ["\(client)/Package.swift"]
      + sources.filter { $0.hasSuffix(".swift") }.map { "\(client)/Sources/\($0)" }
  }

  /// The blocks of `blocks` that do not appear in any of `testFiles` (paths relative to the
  /// root) or in the adoption client's files.
  ///
  /// - Complexity: O(b · t) line comparisons for b block lines and t test lines.
  public static func missing(_ blocks: [Block], in testFiles: [String], root: URL) -> [Block] {
    let tests = (testFiles + adoptionClientFiles(root: root)).map { file -> [String] in
      let text = (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8))
      return (text ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        .map(normalized)
    }
    return blocks.filter { block in
      // Import lines are left out: a test file has its imports at the top.
      let wanted = block.lines.map(normalized).filter {
        !$0.isEmpty && !$0.hasPrefix("import ")
      }
      guard !wanted.isEmpty else { return false }
      return !tests.contains { contains($0.filter { !$0.isEmpty }, run: wanted) }
    }
  }

  /// A line with its surrounding spaces cut and every inner run of spaces made one, so the
  /// formatter's alignment of trailing comments does not matter.
  static func normalized(_ line: some StringProtocol) -> String {
    line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
  }

  static func contains(_ lines: [String], run: [String]) -> Bool {
    guard lines.count >= run.count else { return false }
    for start in 0...(lines.count - run.count)
    where lines[start] == run[0] && Array(lines[start..<start + run.count]) == run {
      return true
    }
    return false
  }

  static func files(under folder: URL) -> [String] {
    guard
      let enumerator = FileManager.default.enumerator(
        at: folder, includingPropertiesForKeys: nil)
    else { return [] }
    var paths: [String] = []
    let base = folder.standardizedFileURL.path
    for case let url as URL in enumerator {
      let path = url.standardizedFileURL.path
      guard path.hasPrefix(base + "/") else { continue }
      paths.append(String(path.dropFirst(base.count + 1)))
    }
    return paths.sorted()
  }

  static func scan(_ text: String, file: String, docComments: Bool) -> [Block] {
    var blocks: [Block] = []
    var current: [String]?
    var start = 0
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = Substring(raw)
      if docComments {
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix("///") else {
          current = nil
          continue
        }
        line = trimmed.dropFirst(3)
        if line.hasPrefix(" ") { line = line.dropFirst() }
      }
      let marker = line.trimmingCharacters(in: .whitespaces)
      if current == nil {
        if marker == "```swift" {
          current = []
          start = index + 2
        }
      } else if marker == "```" {
        blocks.append(Block(file: file, line: start, lines: current ?? []))
        current = nil
      } else {
        current?.append(String(line))
      }
    }
    return blocks
  }
}
