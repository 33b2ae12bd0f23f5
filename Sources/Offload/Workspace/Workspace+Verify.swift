import Foundation
import OrderingCore
import Persistence

/// What `store verify` found.
public struct VerifyReport: Hashable, Sendable {
  /// One problem and what repair does about it.
  public struct Problem: Hashable, Sendable, CustomStringConvertible {
    /// The file the problem is in.
    public var file: String
    /// What is wrong.
    public var issue: String
    /// What `store repair` does about it.
    public var fix: String

    /// `file: issue (repair: fix)`.
    public var description: String { "\(file): \(issue) (repair: \(fix))" }
  }

  /// How many collections were checked.
  public var collections: Int
  /// How many items they hold.
  public var items: Int
  /// Every problem found; empty for a healthy store.
  public var problems: [Problem]

  /// Whether the store is healthy.
  public var isClean: Bool { problems.isEmpty }
}

extension Workspace {
  /// Checks every file of the store and the forest invariants of every collection.
  ///
  /// Nothing is written, except that Persistence moves a damaged file aside to a quarantine
  /// name when it is read (it is never overwritten).
  ///
  /// - Complexity: O(*n* log *n*), where *n* is the number of items in the store.
  public func verify() throws(WorkspaceError) -> VerifyReport {
    try inspect().report
  }

  /// Applies what ``verify()`` proposes, after copying the whole store to
  /// `backups/<date>/` inside the store folder.
  ///
  /// - Returns: The report of what was repaired and the backup folder.
  public func repair() throws(WorkspaceError) -> (report: VerifyReport, backup: String?) {
    let inspection = try inspect()
    guard !inspection.report.isClean else { return (inspection.report, nil) }
    let backup = try backUp()
    let store = indexStore
    do {
      try lock.withLock {
        for collection in inspection.repaired {
          try collectionStore(collection.id).save(collection)
        }
        try store.save(inspection.index)
      }
    } catch let error as PersistenceError {
      throw WorkspaceError(error)
    } catch {
      throw WorkspaceError(.ioFailure, "\(error)")
    }
    return (inspection.report, backup)
  }

  private struct Inspection {
    var report: VerifyReport
    var index: StoreIndex
    var repaired: [ItemCollection]
  }

  private func inspect() throws(WorkspaceError) -> Inspection {
    var problems: [VerifyReport.Problem] = []
    var index: StoreIndex
    do {
      index = try indexStore.load() ?? .empty(now: now())
    } catch {
      let fix =
        error.backupPath != nil
        ? "restore \(indexPath).backup" : "rebuild the index from the collection files"
      problems.append(.init(file: indexPath, issue: error.description, fix: fix))
      index = (try? indexStore.loadBackup()) ?? nil ?? .empty(now: now())
    }
    var repaired: [ItemCollection] = []
    var locations: [ShortID: ShortID] = [:]
    var itemCount = 0
    var entries: [StoreIndex.Entry] = []
    // Collection files the index does not list are adopted, not ignored.
    let files = (try? FileManager.default.contentsOfDirectory(atPath: collectionsFolder)) ?? []
    var ids = index.collections.map(\.id)
    for file in files.sorted() where file.hasSuffix(".json") {
      if let id = ShortID(String(file.dropLast(5))), !ids.contains(id) {
        ids.append(id)
        problems.append(
          .init(
            file: collectionPath(id), issue: "the index does not list this collection",
            fix: "list it again"))
      }
    }
    for id in ids {
      let entry = index.collections.first { $0.id == id }
      var collection: ItemCollection
      do {
        if let loaded = try collectionStore(id).load() {
          collection = loaded
        } else if let backup = try? collectionStore(id).loadBackup() {
          problems.append(
            .init(file: collectionPath(id), issue: "the file is missing", fix: "restore the backup")
          )
          collection = backup
          repaired.append(collection)
        } else if id == Self.inboxID, let entry {
          collection = ItemCollection(id: id, name: entry.name, kind: .list, created: entry.created)
        } else {
          problems.append(
            .init(
              file: collectionPath(id), issue: "the file is missing",
              fix: "drop the collection from the index"))
          continue
        }
      } catch {
        guard let backup = try? collectionStore(id).loadBackup() else {
          problems.append(
            .init(
              file: collectionPath(id), issue: error.description,
              fix: "drop the collection from the index"))
          continue
        }
        problems.append(
          .init(file: collectionPath(id), issue: error.description, fix: "restore the backup"))
        collection = backup
        repaired.append(collection)
      }
      var name = collection.name
      while entries.contains(where: { $0.name.lowercased() == name.lowercased() }) {
        name += " (recovered)"
      }
      if name != collection.name {
        problems.append(
          .init(
            file: collectionPath(id), issue: "another collection is named \"\(collection.name)\"",
            fix: "rename it \"\(name)\""))
        collection.name = name
        repaired.append(collection)
      }
      let tree = CollectionTree(collection, maximumPlanDepth: maximumPlanDepth)
      if !tree.repairs.isClean {
        for repair in tree.repairs.repairs {
          problems.append(
            .init(
              file: collectionPath(id), issue: repair.description, fix: "rewrite item \(repair.id)")
          )
        }
        for record in tree.forest.records {
          guard let position = collection.items.firstIndex(where: { $0.id == record.id }),
            case .key(let text) = record.order, let key = OrderKey(rawValue: text)
          else { continue }
          collection.items[position].parent = record.parent
          collection.items[position].order = key
        }
        repaired.removeAll { $0.id == id }
        repaired.append(collection)
      }
      for item in collection.items {
        if let other = locations[item.id] {
          problems.append(
            .init(
              file: collectionPath(id), issue: "item \(item.id) is also in collection \(other)",
              fix: "keep the first"))
          continue
        }
        locations[item.id] = id
        if index.itemLocations[item.id] != id {
          problems.append(
            .init(
              file: indexPath, issue: "item \(item.id) is not indexed in \(id)", fix: "index it"))
        }
      }
      itemCount += collection.items.count
      let fresh = StoreIndex.Entry(
        id: id, name: collection.name, kind: collection.kind, created: collection.created,
        itemCount: collection.items.count)
      if entry != fresh && entry != nil {
        problems.append(
          .init(
            file: indexPath, issue: "the entry of \"\(collection.name)\" is stale",
            fix: "refresh it"))
      }
      entries.append(fresh)
    }
    for (item, collection) in index.itemLocations where locations[item] == nil {
      problems.append(
        .init(
          file: indexPath,
          issue: "item \(item) is indexed in \(collection) but no collection holds it",
          fix: "unindex it"))
    }
    problems.sort { ($0.file, $0.issue) < ($1.file, $1.issue) }
    var fixed = index
    fixed.collections = entries
    fixed.itemLocations = locations
    let report = VerifyReport(collections: entries.count, items: itemCount, problems: problems)
    return Inspection(report: report, index: fixed, repaired: repaired)
  }

  private func backUp() throws(WorkspaceError) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate, .withTime, .withTimeZone]
    let stamp = formatter.string(from: now()).replacingOccurrences(of: ":", with: "")
    let folder = root + "/backups/" + stamp
    do {
      try FileManager.default.createDirectory(
        atPath: folder + "/collections", withIntermediateDirectories: true)
      for name in ["index.json", "history"]
      where FileManager.default.fileExists(atPath: root + "/" + name) {
        try FileManager.default.copyItem(atPath: root + "/" + name, toPath: folder + "/" + name)
      }
      for file in try FileManager.default.contentsOfDirectory(atPath: collectionsFolder) {
        try FileManager.default.copyItem(
          atPath: collectionsFolder + "/" + file, toPath: folder + "/collections/" + file)
      }
    } catch {
      throw WorkspaceError(
        .cannotCreate, "cannot back up the store to \(folder): \(error.localizedDescription)")
    }
    return folder
  }
}
