import ArgumentParser
import Foundation
import Offload

extension GlobalOptions {
  /// The workspace in the store folder these options choose.
  ///
  /// When `SOURCE_DATE_EPOCH` is set (seconds since 1970), every timestamp written is that
  /// time, so runs are byte-for-byte reproducible (the convention of reproducible builds).
  func workspace() throws -> Workspace {
    let root = try storeLocation().path
    if let seconds = SourceDateEpoch.seconds(in: ProcessInfo.processInfo.environment) {
      let fixed = Date(timeIntervalSince1970: seconds)
      return arriving(Workspace(root: root, now: { fixed }))
    }
    return arriving(Workspace(root: root))
  }

  /// Runs a change on the workspace, saying so on stderr when it created the store.
  func changing<T>(_ body: (Workspace) throws(WorkspaceError) -> T) throws -> T {
    let workspace = try workspace()
    let existed = workspace.exists
    let result = try failing { () throws(WorkspaceError) in try body(workspace) }
    if !existed && workspace.exists && !quiet {
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
  struct ItemShape: Encodable {
    var id: String
    var text: String
    var done: Bool
    var created: Date
    var parent: String?
    var order: String
    var collection: String?
    var depth: Int?
    var number: String?
    var note: String?
    /// The item's role word in a plan; absent when it has none.
    var role: String?

    init(_ item: Item, collection: String? = nil, depth: Int? = nil, number: String? = nil) {
      id = item.id.rawValue
      text = item.text
      done = item.done
      created = item.created
      parent = item.parent?.rawValue
      order = item.order.rawValue
      self.collection = collection
      self.depth = depth
      self.number = number
      note = item.note
      role = item.role?.description
    }
  }

  struct CollectionShape: Encodable {
    var id: String
    var name: String
    var kind: String
    var created: Date
    var itemCount: Int

    init(_ entry: StoreIndex.Entry) {
      id = entry.id.rawValue
      name = entry.name
      kind = entry.kind.rawValue
      created = entry.created
      itemCount = entry.itemCount
    }

    init(_ collection: ItemCollection) {
      id = collection.id.rawValue
      name = collection.name
      kind = collection.kind.rawValue
      created = collection.created
      itemCount = collection.items.count
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
