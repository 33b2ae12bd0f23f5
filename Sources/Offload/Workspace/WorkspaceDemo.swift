import Foundation

/// A scripted walk through the workspace on a sample store: what `offloadctl demo` shows.
///
/// It runs real workspace operations in a folder it is given (never the user's store) with a
/// fixed clock, so every run prints the same steps, ids and trees.
public enum WorkspaceDemo {
  /// One step: the command it stands for and what the store looks like after it.
  public struct Step: Hashable, Sendable {
    /// The equivalent `offloadctl` command line.
    public var command: String
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
    let workspace = Workspace(root: folder) {
      tick += 60
      return start.addingTimeInterval(tick)
    }
    var steps: [Step] = []
    func show(_ reference: String) throws(WorkspaceError) -> [String] {
      let tree = try workspace.tree(of: reference)
      return [tree.collection.name + " (\(tree.collection.kind.rawValue))"]
        + CollectionTree.lines(tree.rows()).map { "  " + $0 }
    }
    func step(_ command: String, _ note: String, show reference: String) throws(WorkspaceError) {
      steps.append(Step(command: command, note: note, lines: try show(reference)))
    }

    let flights = try workspace.capture("Book flights to Lisbon")
    let passport = try workspace.capture("Renew passport")
    let socks = try workspace.capture("Buy wool socks")
    try step(
      "offloadctl capture Book flights to Lisbon  (and two more)",
      "Thoughts land in the inbox first, each with a short id.", show: Workspace.inboxName)

    try workspace.createCollection(named: "Trip", kind: .plan)
    try workspace.moveItem(flights.id.rawValue, toCollection: "Trip", to: .lastRoot)
    try workspace.moveItem(passport.id.rawValue, toCollection: "Trip", to: .lastRoot)
    try workspace.moveItem(socks.id.rawValue, toCollection: "Trip", to: .lastRoot)
    try step(
      "offloadctl collection create Trip --kind plan; offloadctl item move \(flights.id) --to Trip",
      "Organize: the inbox items move into a plan.", show: "Trip")

    let pack = try workspace.addItem(to: "Trip", text: "Pack", at: .firstRoot)
    try workspace.moveItem(socks.id.rawValue, to: .firstChild(of: pack.id.rawValue))
    try step(
      "offloadctl item add Trip Pack --first; offloadctl item move \(socks.id) --into \(pack.id)",
      "Nest: socks go under Pack, which moved nothing else.", show: "Trip")

    let seat = try workspace.addItem(to: "Trip", text: "Choose a window seat", at: .lastRoot)
    try workspace.indent(seat.id.rawValue)
    try workspace.setDone(passport.id.rawValue, true)
    try step(
      "offloadctl item indent \(seat.id); offloadctl item done \(passport.id)",
      "Indent nests an item under the one above it; done ticks it off.", show: "Trip")

    try workspace.moveItem(flights.id.rawValue, to: .before(pack.id.rawValue))
    try step(
      "offloadctl item move \(flights.id) --before \(pack.id)",
      "Move reorders: only the moved item gets a new order key.", show: "Trip")

    try workspace.convertCollection("Trip", to: .list)
    try step(
      "offloadctl collection convert Trip --to list",
      "Convert: a plan flattens into a list in outline order.", show: "Trip")

    try workspace.undo()
    try step(
      "offloadctl undo", "Undo: the conversion is reverted exactly.", show: "Trip")
    return steps
  }
}
