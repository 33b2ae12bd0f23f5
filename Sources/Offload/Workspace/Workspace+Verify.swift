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
  /// Checks every file of the store and the forest invariants of every collection, under the
  /// shared store lock (so a change in another process is never seen half-way).
  ///
  /// Nothing is written: a damaged file is reported, not moved aside.
  ///
  /// - Throws: ``WorkspaceError/Code/notFound`` when the folder holds no store.
  /// - Complexity: O(*n* log *n*), where *n* is the number of items in the store.
  public func verify() throws(WorkspaceError) -> VerifyReport {
    try requireStore()
    return try locked(shared: true) { () throws(WorkspaceError) in try inspect().report }
  }

  /// Applies what ``verify()`` proposes under the exclusive store lock, held for the whole run,
  /// after copying the whole store to `backups/<time>[-n]/` inside the store folder.
  ///
  /// Repair never drops an item it can read: records with missing fields are filled in, an
  /// item the index places in a collection that lost it is brought back from that collection's
  /// backup or quarantined copies, an item listed in two collections stays where the index puts
  /// it, and two different items with one id keep both (the second gets a fresh id). A second
  /// repair finds nothing.
  ///
  /// - Returns: The report of what was repaired and the backup folder.
  /// - Throws: ``WorkspaceError/Code/notFound`` when the folder holds no store, or an I/O error.
  /// - Complexity: O(*n* log *n*), where *n* is the number of items in the store.
  public func repair() throws(WorkspaceError) -> (report: VerifyReport, backup: String?) {
    try requireStore()
    return try locked(shared: false) { () throws(WorkspaceError) in
      var inspection = try inspect()
      guard !inspection.report.isClean else { return (inspection.report, nil) }
      let backup = try backUp()
      try Self.persisting { () throws(PersistenceError) in
        // Keep the valid prefix of a damaged journal (the rest is kept aside, not lost).
        if inspection.journalDamaged {
          _ = try JSONLinesJournal<StoreChange, StoreIndex>.keepValidPrefix(
            directory: root, name: Self.journalName, format: Self.indexFormat,
            lockTimeout: lockTimeout, fileSystem: fileSystem)
        }
        // Bytes that are not JSON (or not a file at all) are moved aside, never overwritten.
        for path in inspection.unreadable {
          try fileSystem.rename(path, to: path + ".unreadable-\(backupStamp())")
        }
        for collection in inspection.collections {
          try collectionStore(collection.id).save(collection)
        }
        for entry in inspection.tailHistory { try historyStore(entry.sequence).save(entry) }
      }
      if inspection.indexDamaged {
        // A snapshot that cannot be read cannot be compacted over: start a fresh journal.
        try Self.persisting { () throws(PersistenceError) in
          for name in try fileSystem.listDirectory(root)
          where name.hasPrefix(Self.journalName + ".") && !name.hasSuffix(".lock") {
            if name.hasSuffix(".jsonl") || name == Self.journalName + ".snapshot.json" {
              try fileSystem.rename(root + "/" + name, to: backup + "/" + name + ".damaged")
            }
          }
        }
      }
      let journal = try openJournal()
      defer { try? journal.close() }
      inspection.index.history.removeAll { !inspection.liveHistory.contains($0) }
      try Self.persisting { () throws(PersistenceError) in
        try journal.compact(inspection.index)
        try fileSystem.unlinkIfPresent(legacyIndexPath)
        try fileSystem.unlinkIfPresent(legacyIndexPath + ".backup")
      }
      removeStaleTemporaryFiles()
      return (inspection.report, backup)
    }
  }

  /// Throws unless the folder holds a store.
  private func requireStore() throws(WorkspaceError) {
    guard exists else {
      throw WorkspaceError(.notFound, "there is no store at \(root)")
    }
  }

  private struct Inspection {
    var report: VerifyReport
    /// The index repair writes.
    var index: StoreIndex
    /// Every collection as repair writes it.
    var collections: [ItemCollection]
    /// History entries recorded in the journal's tail (written as files by repair).
    var tailHistory: [HistoryEntry]
    /// History entries whose record can be read.
    var liveHistory: Set<UInt64>
    /// Whether the journal is damaged before its last line.
    var journalDamaged = false
    /// Whether the index snapshot cannot be read.
    var indexDamaged = false
    /// Files that are not JSON (copied aside before repair replaces them).
    var unreadable: [String] = []
  }

  /// Reads every file of the store and works out the repaired state. Writes nothing.
  private func inspect() throws(WorkspaceError) -> Inspection {
    var problems: [VerifyReport.Problem] = []
    var journalDamaged = false
    var indexDamaged = false
    var state: StoreState
    do {
      let contents = try JSONLinesJournal<StoreChange, StoreIndex>.read(
        directory: root, name: Self.journalName, format: Self.indexFormat, fileSystem: fileSystem)
      if let damage = contents.damage {
        journalDamaged = true
        problems.append(
          .init(
            file: damage.path ?? root, issue: damage.description,
            fix: "keep the changes before the damage and set the rest aside"))
      }
      state = try self.state(from: contents)
    } catch {
      indexDamaged = true
      problems.append(
        .init(
          file: indexPath, issue: "\(error)",
          fix: "rebuild the index from the collection files"))
      state = StoreState(index: .empty(now: now()), tail: [])
    }
    var index = state.index
    var unreadable: [String] = []

    // Every collection the index lists, then every collection file it does not list.
    var ids = index.collections.map(\.id)
    // A collection the journal's tail deletes keeps its file until the next checkpoint.
    var listed = Set(ids)
    for change in state.tail {
      for collectionChange in change.changes where collectionChange.after == nil {
        if !index.collections.contains(where: { $0.id == collectionChange.collection }) {
          listed.insert(collectionChange.collection)
        }
      }
    }
    let files = ((try? fileSystem.listDirectory(collectionsFolder)) ?? []).sorted()
    for file in files where file.hasSuffix(".json") {
      if let id = ShortID(String(file.dropLast(5))), listed.insert(id).inserted {
        ids.append(id)
        if !indexDamaged {
          problems.append(
            .init(
              file: collectionPath(id), issue: "the index does not list this collection",
              fix: "list it again"))
        }
      }
    }
    // Items every readable copy of a collection holds: its backup and quarantined copies.
    func spareCopies(_ id: ShortID) -> [Item] {
      let prefix = "\(id.rawValue).json."
      var items: [Item] = []
      for file in files where file.hasPrefix(prefix) {
        guard let data = try? fileSystem.readAll(collectionsFolder + "/" + file),
          let salvaged = CollectionSalvage.salvage(
            data, id: id, fallbackDate: Date(timeIntervalSince1970: 0),
            maximumPlanDepth: maximumPlanDepth)
        else { continue }
        items += salvaged.collection.items
      }
      return items
    }

    var collections: [ItemCollection] = []
    for id in ids {
      let entry = index.collections.first { $0.id == id }
      let path = collectionPath(id)
      var collection: ItemCollection?
      do throws(PersistenceError) {
        collection = try collectionStore(id).read()
      } catch  where error.code == .damaged {
        // Read the bytes again to salvage them; a failure to read is an error, not damage.
        let data = try Self.persisting { () throws(PersistenceError) in
          try fileSystem.readAll(path)
        }
        if let salvaged = CollectionSalvage.salvage(
          data, id: id, fallbackDate: entry?.created ?? Date(timeIntervalSince1970: 0),
          maximumPlanDepth: maximumPlanDepth)
        {
          for note in salvaged.notes {
            problems.append(.init(file: path, issue: note, fix: "rewrite the file"))
          }
          if salvaged.notes.isEmpty {
            problems.append(.init(file: path, issue: error.description, fix: "rewrite the file"))
          }
          collection = salvaged.collection
        } else {
          unreadable.append(path)
          let backup = try? collectionStore(id).loadBackup()
          problems.append(
            .init(
              file: path, issue: error.description,
              fix: backup == nil
                ? "keep the file aside and start the collection empty"
                : "keep the file aside and restore the backup"))
          collection = backup ?? nil
        }
      } catch
        where error.code == .ioFailure && error.operation == "open" && error.errorNumber == nil
      {
        // A FIFO, folder or device where the file belongs.
        unreadable.append(path)
        problems.append(
          .init(file: path, issue: error.description, fix: "move it aside and restore the backup"))
        collection = nil
      } catch {
        throw WorkspaceError(error)
      }
      // The journal's tail, replayed over the file.
      let changes = state.tail.changes(to: id)
      let replayed = !changes.isEmpty
      if replayed { collection = .applying(changes, to: collection) }
      if collection == nil, !replayed, let entry {
        if id != Self.inboxID {
          problems.append(
            .init(
              file: path, issue: "the file is missing",
              fix: "rebuild it from its backup and the items the index places in it"))
        }
        collection = ItemCollection(
          id: id, name: entry.name, kind: entry.kind, created: entry.created)
      }
      guard var collection else { continue }
      if let entry, collection.kind != entry.kind || collection.name != entry.name {
        problems.append(
          .init(
            file: indexPath, issue: "the entry of \"\(collection.name)\" is stale",
            fix: "refresh it"))
      }
      // Items the index places here that the file lost: from the backup or quarantined copies.
      let held = Set(collection.items.map(\.id))
      let lost = index.itemLocations.filter { $0.value == id && !held.contains($0.key) }
      if !lost.isEmpty {
        var found: [ShortID: Item] = [:]
        for item in spareCopies(id) where lost[item.id] != nil && found[item.id] == nil {
          found[item.id] = item
        }
        for itemID in found.keys.sorted() {
          guard let item = found[itemID] else { continue }
          problems.append(
            .init(
              file: path, issue: "item \(itemID) is indexed here but missing from the file",
              fix: "bring it back from a spare copy of the file"))
          collection.items.append(item)
        }
      }
      collections.append(collection)
    }

    // One id, one item: an item listed twice stays where the index puts it (else in the first
    // collection); two different items with one id both stay, the second with a fresh id.
    var owner: [ShortID: (collection: Int, item: Item)] = [:]
    for position in collections.indices {
      let id = collections[position].id
      var kept: [Item] = []
      for item in collections[position].items {
        guard let first = owner[item.id] else {
          owner[item.id] = (position, item)
          kept.append(item)
          continue
        }
        let firstID = collections[first.collection].id
        if first.item == item || first.item.text == item.text {
          let indexedHere = index.itemLocations[item.id] == id
          problems.append(
            .init(
              file: collectionPath(id),
              issue: "item \(item.id) is also in collection \(firstID)",
              fix: indexedHere ? "keep it here, where the index puts it" : "keep it in \(firstID)"))
          if indexedHere {
            collections[first.collection].items.removeAll { $0.id == item.id }
            owner[item.id] = (position, item)
            kept.append(item)
          }
        } else {
          var fresh = item
          var transaction = Transaction(workspace: self, state: StoreState(index: index, tail: []))
          fresh.id = (try? transaction.nextID()) ?? item.id
          index.nextSequence = transaction.index.nextSequence
          index.itemLocations[fresh.id] = id
          problems.append(
            .init(
              file: collectionPath(id),
              issue: "item \(item.id) names another item in collection \(firstID) too",
              fix: "give this one the new id \(fresh.id)"))
          owner[fresh.id] = (position, fresh)
          kept.append(fresh)
        }
      }
      collections[position].items = kept
    }

    // Names unique regardless of case; forests repaired; the index rebuilt from the files.
    var entries: [StoreIndex.Entry] = []
    var locations: [ShortID: ShortID] = [:]
    var itemCount = 0
    for position in collections.indices {
      var collection = collections[position]
      let path = collectionPath(collection.id)
      var name = collection.name
      while entries.contains(where: { $0.name.lowercased() == name.lowercased() }) {
        name += " (recovered)"
      }
      if name != collection.name {
        problems.append(
          .init(
            file: path, issue: "another collection is named \"\(collection.name)\"",
            fix: "rename it \"\(name)\""))
        collection.name = name
      }
      let tree = CollectionTree(collection, maximumPlanDepth: maximumPlanDepth)
      if !tree.repairs.isClean {
        for repair in tree.repairs.repairs {
          problems.append(
            .init(file: path, issue: repair.description, fix: "rewrite item \(repair.id)"))
        }
        var place: [ShortID: Int] = [:]
        for (index, item) in collection.items.enumerated() { place[item.id] = index }
        for record in tree.forest.records {
          guard let position = place[record.id], case .key(let text) = record.order,
            let key = OrderKey(rawValue: text)
          else { continue }
          collection.items[position].parent = record.parent
          collection.items[position].order = key
        }
      }
      // Text a hand edit left with control characters would drive the terminal when printed.
      for index in collection.items.indices {
        let item = collection.items[index]
        let text = Self.escapingControlCharacters(item.text, keepingNewlines: false)
        let note = item.note.map { Self.escapingControlCharacters($0, keepingNewlines: true) }
        if text != item.text || note != item.note {
          problems.append(
            .init(
              file: path, issue: "item \(item.id) holds control characters",
              fix: "write them as \\u{…} escapes"))
          collection.items[index].text = text
          collection.items[index].note = note
        }
      }
      for item in collection.items {
        locations[item.id] = collection.id
        if index.itemLocations[item.id] != collection.id && !indexDamaged {
          problems.append(
            .init(
              file: indexPath, issue: "item \(item.id) is not indexed in \(collection.id)",
              fix: "index it"))
        }
      }
      itemCount += collection.items.count
      let fresh = StoreIndex.Entry(
        id: collection.id, name: collection.name, kind: collection.kind,
        created: collection.created, itemCount: collection.items.count)
      if let old = index.collections.first(where: { $0.id == collection.id }), old != fresh,
        old.name == fresh.name, old.kind == fresh.kind
      {
        problems.append(
          .init(
            file: indexPath, issue: "the entry of \"\(collection.name)\" is stale",
            fix: "refresh it"))
      }
      entries.append(fresh)
      collections[position] = collection
    }
    for (item, collection) in index.itemLocations where locations[item] == nil {
      problems.append(
        .init(
          file: indexPath,
          issue: "item \(item) is indexed in \(collection) but no file or copy holds it",
          fix: "unindex it"))
    }

    // The id counter and the history.
    if index.nextSequence == UInt64.max {
      problems.append(
        .init(
          file: indexPath, issue: "the id counter is at its limit",
          fix: "restart it past the ids in use"))
      index.nextSequence = UInt64(locations.count + entries.count + 1)
    }
    if index.nextHistorySequence == UInt64.max {
      problems.append(
        .init(
          file: indexPath, issue: "the history counter is at its limit",
          fix: "restart it after the last entry"))
      index.nextHistorySequence = (index.history.max() ?? 0) + 1
    }
    var tailHistory: [HistoryEntry] = []
    var live: Set<UInt64> = []
    for sequence in index.history {
      if let change = state.tail.last(where: { $0.history?.sequence == sequence }),
        let entry = change.historyEntry
      {
        tailHistory.append(entry)
        live.insert(sequence)
      } else if (try? historyStore(sequence).read()) != nil {
        live.insert(sequence)
      } else {
        problems.append(
          .init(
            file: historyPath(sequence), issue: "the undo entry is missing or damaged",
            fix: "drop it from the history"))
      }
    }
    if !state.tail.isEmpty && problems.isEmpty {
      // A tail alone is no problem: every command replays it. Nothing to report.
    }
    problems.sort { ($0.file, $0.issue) < ($1.file, $1.issue) }
    var fixed = index
    fixed.collections = entries
    fixed.itemLocations = locations
    let report = VerifyReport(collections: entries.count, items: itemCount, problems: problems)
    return Inspection(
      report: report, index: fixed, collections: collections, tailHistory: tailHistory,
      liveHistory: live, journalDamaged: journalDamaged, indexDamaged: indexDamaged,
      unreadable: unreadable)
  }

  /// The text with every control character (C0, DEL, C1) and bidirectional override written
  /// as a `\u{…}` escape, line breaks kept where `keepingNewlines` says.
  ///
  /// - Complexity: O(*m*), where *m* is the length of `text`.
  static func escapingControlCharacters(_ text: String, keepingNewlines: Bool) -> String {
    guard
      text.unicodeScalars.contains(where: {
        ($0.value == 0x0A && !keepingNewlines) || isRefusedInNote($0)
      })
    else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if (scalar.value == 0x0A && !keepingNewlines) || isRefusedInNote(scalar) {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// `20261121T222115Z`: the time in a file or folder name.
  private func backupStamp() -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate, .withTime, .withTimeZone]
    return formatter.string(from: now()).replacingOccurrences(of: ":", with: "")
      .replacingOccurrences(of: "-", with: "")
  }

  /// Copies a file, skipping what is not a regular file (a FIFO or folder in its place).
  private func copyUnlessSpecial(_ source: String, to destination: String)
    throws(PersistenceError)
  {
    do throws(PersistenceError) {
      try fileSystem.copyFile(source, to: destination)
    } catch  where error.operation == "open" && error.path == source && error.errorNumber == nil {
    }
  }

  /// Copies every file of the store into a new `backups/<time>[-n]` folder and returns it.
  private func backUp() throws(WorkspaceError) -> String {
    let base = root + "/backups/" + backupStamp()
    do throws(PersistenceError) {
      try fileSystem.makeDirectory(root + "/backups")
      let taken = Set(try fileSystem.listDirectory(root + "/backups"))
      var folder = base
      var attempt = 1
      while taken.contains(String(folder.dropFirst(root.count + 9))) {
        attempt += 1
        folder = base + "-\(attempt)"
      }
      try fileSystem.makeDirectory(folder + "/collections")
      try fileSystem.makeDirectory(folder + "/history")
      for name in try fileSystem.listDirectory(root).sorted()
      where name.hasSuffix(".json") || name.hasSuffix(".jsonl") || name.hasSuffix(".backup") {
        try copyUnlessSpecial(root + "/" + name, to: folder + "/" + name)
      }
      for sub in ["collections", "history"] {
        for name in ((try? fileSystem.listDirectory(root + "/" + sub)) ?? []).sorted()
        where !name.contains(".tmp-") {
          try copyUnlessSpecial(root + "/\(sub)/" + name, to: folder + "/\(sub)/" + name)
        }
      }
      return folder
    } catch {
      throw WorkspaceError(
        .cannotCreate, "cannot back up the store to \(base): \(error.description)")
    }
  }
}
