import ArgumentParser
import Foundation
import Offload

extension GlobalOptions {
  /// The workspace in the store folder these options choose, with what opening it said
  /// printed on stderr (see ``opened(forChange:)``).
  ///
  /// - Parameter forChange: Whether a change follows (a new store in a synced folder is then
  ///   made shared).
  func workspace(forChange: Bool = false) throws -> Workspace {
    let opened = try opened(forChange: forChange)
    for line in opened.notices { Output.error("offloadctl: \(line)") }
    return opened.workspace
  }

  /// The workspace in the store folder these options choose, and the lines opening it has
  /// to show: that the store became shared because it lies in a folder a sync engine carries,
  /// a device's move to a new replica id, and (unless `--quiet`) what arrived from other
  /// devices. A surface that owns the screen (organize) shows them there; the others print
  /// them on stderr.
  ///
  /// When `SOURCE_DATE_EPOCH` is set (seconds since 1970), every timestamp written is that
  /// time, so runs are byte-for-byte reproducible (the convention of reproducible builds).
  ///
  /// - Parameter forChange: Whether a change follows.
  /// - Returns: The workspace, whether a store existed before it was opened, and the lines.
  func opened(forChange: Bool) throws -> (workspace: Workspace, existed: Bool, notices: [String]) {
    let root = try storeLocation().path
    let plain: Workspace
    if let seconds = SourceDateEpoch.seconds(in: ProcessInfo.processInfo.environment) {
      let fixed = Date(timeIntervalSince1970: seconds)
      plain = Workspace(root: root, now: { fixed })
    } else {
      plain = Workspace(root: root)
    }
    let existed = plain.exists
    let synced = try failing { () throws(WorkspaceError) in
      try plain.sharedIfSynced(forChange: forChange)
    }
    var notices = synced.notice.map { [$0] } ?? []
    let (claimed, notice) = (try? synced.workspace.claimingOwnFolder()) ?? (synced.workspace, nil)
    if let notice { notices.append(notice) }
    if !quiet, let line = claimed.reportArrivals() { notices.append(line) }
    return (claimed, existed, notices)
  }

  /// Runs a change on the workspace, saying so on stderr when it created the store.
  func changing<T>(_ body: (Workspace) throws(WorkspaceError) -> T) throws -> T {
    let opened = try opened(forChange: true)
    for line in opened.notices { Output.error("offloadctl: \(line)") }
    let workspace = opened.workspace
    let result = try failing { () throws(WorkspaceError) in try body(workspace) }
    if !opened.existed && workspace.exists && !quiet {
      Output.error("offloadctl: created a new store at \(workspace.root)")
    }
    warnAboutLeftOutLogs(workspace)
    return result
  }

  /// Names, on standard error, each other device's log the merge left out.
  func warnAboutLeftOutLogs(_ workspace: Workspace) {
    for problem in workspace.leftOutLogs() { Output.error("offloadctl: warning: \(problem)") }
  }

  /// Runs a read of the workspace.
  func reading<T>(_ body: (Workspace) throws(WorkspaceError) -> T) throws -> T {
    let workspace = try workspace()
    let result = try failing { () throws(WorkspaceError) in try body(workspace) }
    warnAboutLeftOutLogs(workspace)
    return result
  }
}

/// JSON shapes printed by `--json`: data only, sorted keys, dates in ISO 8601.
enum JSONShapes {
  /// An item as `--json` prints it: the item's own keys, as the store writes them (`id`,
  /// `text`, `done`, `created`, `order`, and `parent`, `note` and `role` when it has them),
  /// with where a listing shows it beside them.
  struct ItemShape: Encodable {
    var item: Item
    var place: Place

    /// The item's collection, depth and outline number; each absent when not given.
    struct Place: Encodable {
      var collection: String?
      var depth: Int?
      var number: String?
    }

    init(_ item: Item, collection: String? = nil, depth: Int? = nil, number: String? = nil) {
      self.item = item
      place = Place(collection: collection, depth: depth, number: number)
    }

    func encode(to encoder: any Encoder) throws {
      try item.encode(to: encoder)
      try place.encode(to: encoder)
    }
  }

  struct Envelope<Body: Encodable>: Encodable {
    var schemaVersion = Output.schemaVersion
    var body: Body

    func encode(to encoder: any Encoder) throws {
      try body.encode(to: encoder)
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(schemaVersion, forKey: .schemaVersion)
    }

    enum Key: String, CodingKey { case schemaVersion }
  }
}

extension Output {
  /// Prints one JSON document with a `schemaVersion` beside the body's keys.
  static func document<Body: Encodable>(_ body: Body) throws {
    try json(JSONShapes.Envelope(body: body))
  }
}
