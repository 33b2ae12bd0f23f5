import Foundation
import OffloadTestSupport
import Testing

/// One command of a console example and what it prints (standard error, then standard
/// output, as a terminal shows them for these commands).
struct ConsoleStep: Hashable, CustomStringConvertible {
  var arguments: [String]
  var expected: String
  var description: String { "$ offloadctl " + arguments.joined(separator: " ") }
}

/// Reads console examples and replays them through the built `offloadctl`.
enum ConsoleExamples {
  /// The store path the examples show.
  static let shownStore = "/home/ada/.local/share/offload"
  /// The repository's root folder.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The part of a Markdown file from a `## ` heading to the next one of its level.
  static func section(_ markdown: String, heading: String) throws -> String {
    let start = try #require(markdown.range(of: "\n## " + heading + "\n"))
    let rest = markdown[start.upperBound...]
    return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
  }

  /// The ```` ```console ```` blocks of Markdown text, each as its lines.
  static func consoleBlocks(_ markdown: String) -> [[String]] {
    var blocks: [[String]] = []
    var current: [String]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil {
        if line == "```console" { current = [] }
      } else if line == "```" {
        blocks.append(current ?? [])
        current = nil
      } else {
        current?.append(String(line))
      }
    }
    return blocks
  }

  /// The commands of console lines: `$ offloadctl …` lines and the lines under each.
  static func steps(_ lines: [String]) throws -> [ConsoleStep] {
    var steps: [ConsoleStep] = []
    for line in lines {
      if line.hasPrefix("$ ") {
        let words = try shellWords(String(line.dropFirst(2)))
        try #require(words.first == "offloadctl", "not an offloadctl command: \(line)")
        steps.append(ConsoleStep(arguments: Array(words.dropFirst()), expected: ""))
      } else {
        let last = try #require(steps.indices.last, "output before any command: \(line)")
        steps[last].expected += line + "\n"
      }
    }
    return steps
  }

  /// Splits a command line as a POSIX shell does for these examples: blanks separate words,
  /// single and double quotes group them, `#` after a blank starts a comment.
  static func shellWords(_ line: String) throws -> [String] {
    var words: [String] = []
    var word: String?
    var quote: Character?
    for character in line {
      if let open = quote {
        if character == open { quote = nil } else { word?.append(character) }
      } else if character == "'" || character == "\"" {
        quote = character
        word = word ?? ""
      } else if character == " " {
        if let finished = word { words.append(finished) }
        word = nil
      } else if character == "#" && word == nil {
        break
      } else {
        word = (word ?? "") + String(character)
      }
    }
    try #require(quote == nil, "unclosed quote in \(line)")
    if let word { words.append(word) }
    return words
  }

  /// Runs the steps in order on one fresh store and checks each one's output.
  static func replay(_ steps: [ConsoleStep], from source: String) throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    for step in steps {
      let result = try fixture.run(step.arguments)
      let shown = (result.stderr + result.stdout).replacingOccurrences(
        of: fixture.store, with: shownStore)
      #expect(shown == step.expected, "\(source): \(step)")
    }
  }
}

@Suite("Docs: console examples replay on a fresh store", .timeLimit(.minutes(5)))
struct DocsReplayTests {
  @Test func readmeUsingOffloadctl() throws {
    let section = try ConsoleExamples.section(
      try ConsoleExamples.text("README.md"), heading: "Using `offloadctl`")
    let blocks = ConsoleExamples.consoleBlocks(section)
    // Photo culling needs a folder of pictures and the installation of completions writes
    // the user's shell files: those two blocks are not list-store examples and are left out.
    let listStore = blocks.filter { block in
      !block.contains { $0.contains("offloadctl photos ") }
        && !block.contains { $0.contains("--generate-completion-script") }
    }
    #expect(blocks.count - listStore.count == 2, "\(blocks.count) console blocks")
    let steps = try listStore.flatMap(ConsoleExamples.steps)
    #expect(steps.count >= 15)
    try ConsoleExamples.replay(steps, from: "README.md")
  }

  @Test func workspaceGuideExample() throws {
    let section = try ConsoleExamples.section(
      try ConsoleExamples.text("Docs/Guides/Workspace.md"), heading: "Example")
    let blocks = ConsoleExamples.consoleBlocks(section)
    #expect(blocks.count == 1)
    try ConsoleExamples.replay(
      try blocks.flatMap(ConsoleExamples.steps), from: "Docs/Guides/Workspace.md")
  }

  /// Each demo step's commands, run in order on a fresh store, print the step's tree: the
  /// demo's output is its own console example, three spaces in.
  @Test func demoReplays() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let demo = try fixture.ok("demo")
    var steps: [ConsoleStep] = []
    var demoSteps = 0
    for line in demo.split(separator: "\n") {
      if line.first?.isNumber == true {
        demoSteps += 1
        continue
      }
      try #require(line.hasPrefix("   "), "demo line not indented: \(line)")
      if line.hasPrefix("   $ ") {
        steps += try ConsoleExamples.steps([String(line.dropFirst(3))])
      } else {
        let last = try #require(steps.indices.last)
        steps[last].expected += String(line.dropFirst(3)) + "\n"
      }
    }
    #expect(demoSteps == 7)
    // Only each step's last command (collection show) prints what the demo shows.
    let fresh = try StoreFixture()
    defer { fresh.remove() }
    var checked = 0
    for step in steps {
      let result = try fresh.run(step.arguments)
      #expect(result.status == 0, "demo: \(step): \(result)")
      if !step.expected.isEmpty {
        #expect(result.stdout == step.expected, "demo: \(step)")
        checked += 1
      }
    }
    #expect(checked == demoSteps)
  }
}
