import Foundation
import OrderingCore
import Persistence

// Reading every file of the store for `store verify` and `store repair`.
extension Workspace {
  struct Inspection {
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
  func inspect() throws(WorkspaceError) -> Inspection {
    var problems: [VerifyReport.Problem] = []
    var journalDamaged = false
    var indexDamaged = false
    var state: StoreState
    do {
      let contents = try JSONLinesJournal<StoreChange, StoreIndex>.read(
        directory: cacheRoot, name: Self.journalName, format: Self.indexFormat,
        fileSystem: fileSystem)
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
      // Items the index places here that the file lost: from the backup or quarantined copies,
      // else from the undo history.
      let held = Set(collection.items.map(\.id))
      let lost = index.itemLocations.filter { $0.value == id && !held.contains($0.key) }
      if !lost.isEmpty {
        var found: [ShortID: (item: Item, fix: String)] = [:]
        for item in spareCopies(id) where lost[item.id] != nil && found[item.id] == nil {
          found[item.id] = (item, "bring it back from a spare copy of the file")
        }
        let unfound = Set(lost.keys.filter { found[$0] == nil })
        for (itemID, item) in recordedItems(
          unfound, in: id, history: index.history, tail: state.tail)
        {
          found[itemID] = (item, "bring it back as the undo history's newest record of it left it")
        }
        for itemID in found.keys.sorted() {
          guard let (item, fix) = found[itemID] else { continue }
          problems.append(
            .init(
              file: path, issue: "item \(itemID) is indexed here but missing from the file",
              fix: fix))
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
      let fresh = StoreIndex.Entry(collection)
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
}

extension Workspace {
  /// The newest record the undo history holds of each of `ids` in collection `collection`:
  /// what an item was after the last recorded change to it, for an item whose file lost it.
  /// An item whose newest record in the collection is a removal is left out.
  ///
  /// - Complexity: O(*h* · *c*), *h* history entries of *c* changed items each.
  func recordedItems(
    _ ids: Set<ShortID>, in collection: ShortID, history: [UInt64], tail: [StoreChange]
  ) -> [ShortID: Item] {
    guard !ids.isEmpty else { return [:] }
    var settled: Set<ShortID> = []
    var found: [ShortID: Item] = [:]
    for sequence in history.sorted(by: >) where settled.count < ids.count {
      let entry =
        tail.last(where: { $0.history?.sequence == sequence })?.historyEntry
        ?? (try? historyStore(sequence).read()) ?? nil
      for change in entry?.changes ?? [] where change.collection == collection {
        for item in change.items {
          guard let id = item.after?.id ?? item.before?.id, ids.contains(id),
            !settled.contains(id)
          else { continue }
          settled.insert(id)
          if let after = item.after { found[id] = after }
        }
      }
    }
    return found
  }
}
