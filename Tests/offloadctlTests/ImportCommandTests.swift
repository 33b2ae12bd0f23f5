import Foundation
import OffloadTestSupport
import Testing

@Suite(
  "offloadctl collection import: Markdown as editors write it, end to end", .timeLimit(.minutes(5)))
struct ImportCommandTests {
  @Test func windowsFileWithHeadingsAndProse() throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    let lines = [
      "\u{FEFF}# Weekend", "", "## Errands", "- [ ] Post office", "  Bring the parcel slip.",
      "1. [x] Bank", "## Home", "* [~] Fix shelf", "---", "```", "- not an item", "```",
    ]
    let file = fixture.folder.appending("weekend.md")
    try Data(lines.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: file))
    let result = try fixture.run("collection", "import", "Weekend", file)
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == "imported 5 items into plan \"Weekend\"\n")
    #expect(
      result.stderr.hasSuffix(
        """
        offloadctl: warning: \(file): line 9: rule skipped
        offloadctl: warning: \(file): lines 10–12: code block skipped

        """), "\(result)")
    #expect(
      try fixture.ok("collection", "export", "Weekend") == """
        # Weekend

        - [ ] Errands
          - [ ] Post office
            Bring the parcel slip.
          - [x] Bank
        - [ ] Home
          - [ ] Fix shelf

        """)
    #expect(
      try fixture.ok("collection", "show", "Weekend", "--json").contains(
        #""note" : "Bring the parcel slip.""#))
    // As a list, the headings are reported instead.
    let list = try fixture.run("collection", "import", "Flat", file, "--kind", "list", "--quiet")
    #expect(list.status == 0, "\(list)")
    #expect(list.stderr.isEmpty)
    let shown = try fixture.ok("collection", "show", "Flat")
    #expect(shown.contains("Post office") && !shown.contains("Errands"), "\(shown)")
    let one = fixture.folder.appending("one.md")
    try Data("- only\n".utf8).write(to: URL(fileURLWithPath: one))
    #expect(
      try fixture.ok("collection", "import", "One", one) == "imported 1 item into list \"One\"\n")
    let bad = fixture.folder.appending("bad.md")
    try Data("- a\r\n- b\u{1B}]0;x\u{7}\r\n".utf8).write(to: URL(fileURLWithPath: bad))
    let refused = try fixture.run("collection", "import", "Bad", bad)
    #expect(refused.status == 65)
    #expect(
      refused.stderr
        == "offloadctl: error: \(bad): line 2: the text holds the control character U+001B at column 2\n"
    )
  }
}
