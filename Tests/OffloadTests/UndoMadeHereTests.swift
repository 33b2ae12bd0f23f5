import Foundation
import OffloadTestSupport
import Testing

@testable import Offload

/// `Workspace.undo(madeHere:)`: the one rule every surface's undo follows (the terminal
/// screen's `u`, a page's Undo): take back only the changes made there, and only while the
/// newest of them is still the store's newest.
@Suite("Undo of the changes made here")
struct UndoMadeHereTests {
  static let nothing =
    "nothing is left to undo here: undo here takes back only the changes made here"

  /// Checks that `body` throws a workspace error with this code and text.
  func refuses(
    _ code: WorkspaceError.Code, _ text: String, _ body: () throws -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(sourceLocation: sourceLocation) {
      try body()
    } throws: { error in
      let error = error as? WorkspaceError
      return error?.code == code && error?.description == text
    }
  }

  func texts(_ workspace: Workspace) throws -> [String] {
    try workspace.tree(of: "Inbox").rows().map(\.item.text)
  }

  @Test func recordsOnlyChangesThatCanBeUndone() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let made = ChangesMadeHere()
    let here = workspace.recording(in: made)
    let item = try here.capture("A")
    try here.capture("B")
    #expect(made.sequences.count == 2)
    #expect(made.sequences == (try workspace.history(limit: 2).map(\.sequence).reversed()))
    // A change that changes nothing records nothing; neither does the undo itself.
    _ = try? here.editText(item.id, to: "A")
    #expect(made.sequences.count == 2)
    try here.undo(madeHere: made.sequences)
    #expect(made.sequences.count == 1)
    #expect(try texts(workspace) == ["A"])
  }

  @Test func refusesWhatWasMadeElsewhereWithOneReason() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let made = ChangesMadeHere()
    let here = workspace.recording(in: made)
    refuses(.nothingToUndo, Self.nothing) {
      try here.undo(madeHere: made.sequences)
    }
    try workspace.capture("made elsewhere")
    refuses(.nothingToUndo, Self.nothing) {
      try here.undo(madeHere: made.sequences)
    }
    try here.capture("made here")
    try workspace.capture("elsewhere again")
    let newest = try #require(workspace.history(limit: 1).first)
    let refusal =
      "the store's last change (\(newest.summary)) was made elsewhere: undo here takes back only the changes made here, and offloadctl undo takes it back"
    refuses(.conflict, refusal) { try here.undo(madeHere: made.sequences) }
    #expect(try texts(workspace) == ["made elsewhere", "made here", "elsewhere again"])
    try workspace.undo()  // Taken back where it was made.
    try here.undo(madeHere: made.sequences)
    #expect(try texts(workspace) == ["made elsewhere"])
    #expect(made.sequences.isEmpty)
  }

  @Test func forgetsChangesUndoneElsewhere() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    let made = ChangesMadeHere()
    let here = workspace.recording(in: made)
    try here.capture("one")
    try here.capture("two")
    try workspace.undo()  // "two", taken back by a command.
    try here.undo(madeHere: made.sequences)  // "one": the newest still in the history.
    #expect(try texts(workspace).isEmpty)
    refuses(.nothingToUndo, Self.nothing) {
      try here.undo(madeHere: made.sequences)
    }
  }

  /// Seeded runs of two screens and a command line changing one store: each screen's undo
  /// takes back exactly its own newest change or refuses, and the store never loses a change
  /// another surface made.
  @Test(arguments: 0..<12)
  func seededScreensTakeBackOnlyTheirOwn(seed: Int) throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    var random = SplitMix64(seed: UInt64(seed))
    let records = [ChangesMadeHere(), ChangesMadeHere()]
    let screens = records.map { workspace.recording(in: $0) }
    var expected: [String] = []
    var owners: [Int] = []  // Who made each entry of `expected`: 0, 1 or 2 (the command line).
    for step in 0..<30 {
      let who = random.index(below: 3)
      if random.index(below: 3) == 0, who < 2 {
        let canUndo = owners.last == who
        do {
          try screens[who].undo(madeHere: records[who].sequences)
          #expect(canUndo, "seed \(seed) step \(step): undid another surface's change")
          expected.removeLast()
          owners.removeLast()
        } catch {
          #expect(!canUndo, "seed \(seed) step \(step): refused its own newest change")
        }
      } else {
        let text = "s\(step)"
        try (who < 2 ? screens[who] : workspace).capture(text)
        expected.append(text)
        owners.append(who)
      }
      #expect(try texts(workspace) == expected, "seed \(seed) step \(step)")
    }
  }
}
