import Foundation
import OffloadTestSupport
import OrderingCore
import Synchronization
import Testing

@testable import Offload

/// A value shared between a test and the checks it hands the workspace.
final class Shared<Value: Sendable>: Sendable {
  private let value: Mutex<Value>
  init(_ value: Value) { self.value = Mutex(value) }
  func withLock<T>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
}

/// `Workspace.changing(expecting:)`: the check runs under the change's exclusive lock, over
/// the state the change starts from, and a refusal writes nothing.
@Suite("Workspace: a change checked against what it expects, under the lock")
struct ChangeExpectationTests {
  @Test("the check holds the exclusive lock: another writer cannot commit while it runs")
  func checkRunsUnderTheLock() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "House", kind: .plan)
    let other = Workspace(root: workspace.root, lockTimeout: .milliseconds(50))
    let outcome = Shared<String>("")
    let checked = workspace.changing { _ throws(WorkspaceError) in
      // A second process would wait here; a second workspace in this process on another
      // thread waits too, and gives up after its timeout.
      let thread = Thread {
        do throws(WorkspaceError) {
          try other.capture("slipped in")
          outcome.withLock { $0 = "committed" }
        } catch {
          outcome.withLock { $0 = "\(error.code)" }
        }
      }
      thread.start()
      while outcome.withLock({ $0.isEmpty }) { usleep(1_000) }
    }
    try checked.addItem(to: "House", text: "Paint")
    #expect(outcome.withLock { $0 } == "storeBusy")
    #expect(try workspace.tree(of: Workspace.inboxName).collection.items.isEmpty)
  }

  @Test("a refused change writes nothing and records no history; an accepted one is one change")
  func refusalWritesNothing() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "Groceries", kind: .list)
    for text in ["Milk", "Eggs", "Bread"] { try workspace.addItem(to: "Groceries", text: text) }
    let before = try folderDigest(workspace.root)
    let history = try workspace.history(limit: 1_000).count
    let refusing = workspace.changing { _ throws(WorkspaceError) in
      throw WorkspaceError(.conflict, "the list changed since it was shown")
    }
    let milk = try workspace.tree(of: "Groceries").rows()[0].item.id.rawValue
    let attempts: [(String, () throws(WorkspaceError) -> Void)] = [
      (
        "add",
        { () throws(WorkspaceError) in _ = try refusing.addItem(to: "Groceries", text: "Tea") }
      ),
      ("move", { () throws(WorkspaceError) in try refusing.moveItem(milk, to: .lastRoot) }),
      ("edit", { () throws(WorkspaceError) in try refusing.editText(milk, to: "Oat milk") }),
      (
        "rename",
        { () throws(WorkspaceError) in try refusing.renameCollection("Groceries", to: "Food") }
      ),
      (
        "create",
        { () throws(WorkspaceError) in
          _ = try refusing.createCollection(named: "Books", kind: .list)
        }
      ),
      ("undo", { () throws(WorkspaceError) in _ = try refusing.undo() }),
    ]
    for (name, attempt) in attempts {
      do {
        try attempt()
        Issue.record("\(name) went through a refusing check")
      } catch {
        #expect(
          error.code == .conflict && error.description == "the list changed since it was shown",
          "\(name)")
      }
    }
    #expect(try folderDigest(workspace.root) == before)
    #expect(try workspace.history(limit: 1_000).count == history)
    // Checks add up: both run, in order; the collection a check loads is the one changed.
    let seen = Shared<[String]>([])
    let chained = workspace.changing { base throws(WorkspaceError) in
      seen.withLock { $0.append("first \(base.collections.count)") }
    }.changing { base throws(WorkspaceError) in
      guard let id = base.collections.last?.id else {
        throw WorkspaceError(.notFound, "no collection")
      }
      let items = try base.collection(id).items.count
      seen.withLock { $0.append("second \(items)") }
    }
    try chained.addItem(to: "Groceries", text: "Tea")
    #expect(seen.withLock { $0 } == ["first 2", "second 3"])
    #expect(try workspace.history(limit: 1_000).count == history + 1)
    #expect(
      try workspace.tree(of: "Groceries").rows().map(\.item.text) == [
        "Milk", "Eggs", "Bread", "Tea",
      ])
  }
}
