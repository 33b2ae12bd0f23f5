import Foundation
import OffloadTestSupport
import Testing

/// `offloadctl undo` after random item commands (single and bulk) gives every collection back
/// byte for byte, as `collection show --json` prints it.
@Suite("offloadctl undo: back to the start through the editor")
struct UndoCommandTests {
  /// The ids `collection show --json` lists.
  static func ids(_ fixture: StoreFixture, _ collection: String) throws -> [String] {
    let shown = try fixture.run("collection", "show", collection, "--json")
    let document =
      try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
    return (document?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
  }

  @Test("random item commands, then undo until the history is as it was", arguments: [5, 6, 7])
  func roundTrip(seed: Int) throws {
    let fixture = try StoreFixture()
    defer { fixture.remove() }
    try fixture.ok("collection", "create", "Trip", "--kind", "plan")
    try fixture.ok("collection", "create", "Shop")
    for text in ["Pack", "Tent", "Drive"] { try fixture.ok("item", "add", "Trip", text) }
    for text in ["Bread", "Eggs"] { try fixture.ok("item", "add", "Shop", text) }
    try fixture.ok("capture", "Call the plumber")
    func shown() throws -> [String] {
      try ["Trip", "Shop", "Inbox"].map { try fixture.ok("collection", "show", $0, "--json") }
    }
    let start = try shown()
    let history = try fixture.ok("history", "--limit", "100")
    var random = SplitMix64(seed: UInt64(seed))
    var succeeded = 0
    for step in 0..<14 {
      let items = try Self.ids(fixture, "Trip") + (try Self.ids(fixture, "Shop"))
      func pick() -> String { items[random.index(below: items.count)] }
      let command: [String] =
        switch random.index(below: 10) {
        case 0: ["item", "add", "Trip", "new \(step)", "--into", pick()]
        case 1: ["item", "move", pick(), "--into", pick(), "--first"]
        case 2: ["item", "move", pick(), "--to", "Shop", "--root", "--last"]
        case 3: ["item", "indent", pick()]
        case 4: ["item", "outdent", pick()]
        case 5: ["item", "done", pick(), pick()]
        case 6: ["item", "edit", pick(), "edited \(step)"]
        case 7: ["item", "remove", pick(), pick()]
        case 8: ["capture", "thought \(step)"]
        default: ["item", "move", pick(), "--after", pick()]
        }
      if try fixture.run(command).status == 0 { succeeded += 1 }
    }
    #expect(succeeded > 4, "seed \(seed)")
    var undos = 0
    while try fixture.ok("history", "--limit", "100") != history, undos < 40 {
      try fixture.ok("undo")
      undos += 1
    }
    #expect(try shown() == start, "seed \(seed): \(undos) undos")
  }
}
