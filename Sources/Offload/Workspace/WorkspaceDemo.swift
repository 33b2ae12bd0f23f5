import Foundation

/// A scripted walk through the workspace on a sample store: what `offloadctl demo` shows.
///
/// It runs real workspace operations in a folder it is given (never the user's store) with a
/// fixed clock, so every run prints the same steps, ids and trees.
public enum WorkspaceDemo {
  /// One step: the commands it stands for and what the store looks like after them.
  public struct Step: Hashable, Sendable {
    /// The equivalent `offloadctl` command lines, in order; the last one shows the collection
    /// (`offloadctl collection show NAME`), and ``lines`` is what it prints. Run in order on a
    /// fresh store, they print exactly those lines (a test replays them).
    public var commands: [String]
    /// What the step did, in words.
    public var note: String
    /// The collection or inbox after the step, as `collection show` prints it.
    public var lines: [String]
  }

  /// Runs the walk-through in `folder` and returns its steps.
  ///
  /// - Parameter folder: An empty folder for the sample store.
  /// - Throws: ``WorkspaceError`` if a step fails (it should not).
  public static func run(in folder: String) throws(WorkspaceError) -> [Step] {
    let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    nonisolated(unsafe) var tick = 0.0
    // A throwaway store, one writer: no device identity, so the demo prints the same ids.
    let workspace = Workspace(
      root: folder,
      now: {
        tick += 60
        return start.addingTimeInterval(tick)
      }, stateDirectory: nil)
    var steps: [Step] = []
    func show(_ reference: String) throws(WorkspaceError) -> [String] {
      let tree = try workspace.tree(of: reference)
      let count = tree.collection.items.count
      return [
        "\(tree.collection.name) (\(tree.collection.kind.rawValue), \(count == 1 ? "1 item" : "\(count) items"))"
      ] + CollectionTree.lines(tree.rows())
    }
    func step(_ commands: [String], _ note: String, show reference: String)
      throws(WorkspaceError)
    {
      let shown = "collection show \(reference)"
      steps.append(
        Step(
          commands: (commands + [shown]).map { "offloadctl " + $0 }, note: note,
          lines: try show(reference)))
    }

    let texts = ["Book flights to Lisbon", "Renew passport", "Buy wool socks"]
    var captured: [Item] = []
    for text in texts { captured.append(try workspace.capture(text)) }
    let (flights, passport, socks) = (captured[0], captured[1], captured[2])
    try step(
      texts.map { "capture " + $0 }, "Thoughts land in the inbox first, each with a short id.",
      show: Workspace.inboxName)

    try workspace.createCollection(named: "Trip", kind: .plan)
    for item in captured {
      try workspace.moveItem(item.id.rawValue, toCollection: "Trip", to: .lastRoot)
    }
    try step(
      ["collection create Trip --kind plan"] + captured.map { "item move \($0.id) --to Trip" },
      "Organize: the inbox items move into a plan.", show: "Trip")

    let pack = try workspace.addItem(to: "Trip", text: "Pack", at: .firstRoot)
    try workspace.moveItem(socks.id.rawValue, to: .firstChild(of: pack.id.rawValue))
    try step(
      ["item add Trip Pack --first", "item move \(socks.id) --into \(pack.id)"],
      "Nest: socks go under Pack, which moved nothing else.", show: "Trip")

    let seat = try workspace.addItem(to: "Trip", text: "Choose a window seat", at: .lastRoot)
    try workspace.indent(seat.id.rawValue)
    try workspace.setDone(passport.id.rawValue, true)
    try step(
      [
        "item add Trip Choose a window seat", "item indent \(seat.id)",
        "item done \(passport.id)",
      ],
      "Indent nests an item under the one above it; done ticks it off with what is nested under it.",
      show: "Trip")

    try workspace.moveItem(flights.id.rawValue, to: .before(pack.id.rawValue))
    try step(
      ["item move \(flights.id) --before \(pack.id)"],
      "Move reorders: only the moved item gets a new order key.", show: "Trip")

    try workspace.convertCollection("Trip", to: .list)
    try step(
      ["collection convert Trip --to list --yes"],
      "Convert: a plan flattens into a list in outline order.", show: "Trip")

    try workspace.undo()
    try step(["undo"], "Undo: the conversion is reverted exactly.", show: "Trip")
    return steps
  }

  /// Fills the store in `folder` with sample collections, so every organize feature can be
  /// tried at once (`offloadctl serve --demo`): two thoughts in the inbox, a list, a nested
  /// plan and a trip itinerary (day headers and games, which stay where they are).
  ///
  /// - Parameter folder: The store folder; its workspace should have no collections yet.
  /// - Throws: ``WorkspaceError`` if a collection or an item cannot be written.
  public static func sample(in folder: String) throws(WorkspaceError) {
    let workspace = Workspace(root: folder, stateDirectory: nil)
    for text in ["Call the plumber", "Ideas for the garden"] { _ = try workspace.capture(text) }
    try workspace.createCollection(named: "Groceries", kind: .list)
    for text in ["Milk", "Eggs", "Bread", "Butter", "Cheese", "Apples"] {
      _ = try workspace.addItem(to: "Groceries", text: text)
    }
    let house: [(String, [String])] = [
      ("Paint the hall", ["Choose a colour", "Buy rollers"]), ("Fix the tap", []),
      ("Garden", ["Mow the lawn", "Plant bulbs"]), ("Clean the windows", []),
    ]
    try outline("House", house, in: workspace)
    let trip: [(String, [String])] = [
      ("Day 1 Boston", ["Game: Red Sox", "Travel (days 1-2): drive to New York", "Lobster roll"]),
      ("Day 2 New York", ["Museum", "Central Park walk"]),
      ("Day 3 Philadelphia", ["Game: Phillies", "Cheesesteak"]),
    ]
    try outline("Trip", trip, in: workspace)
  }

  /// Creates plan `name` with `rows`: each a root and the items under it.
  private static func outline(
    _ name: String, _ rows: [(String, [String])], in workspace: Workspace
  ) throws(WorkspaceError) {
    try workspace.createCollection(named: name, kind: .plan)
    for (root, children) in rows {
      let parent = try workspace.addItem(to: name, text: root)
      for child in children {
        _ = try workspace.addItem(
          to: name, text: child, at: .lastChild(of: parent.id.rawValue))
      }
    }
  }
}
