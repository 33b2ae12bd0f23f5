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
    var report = try locked(shared: true) { () throws(WorkspaceError) in try inspect().report }
    if device != nil && report.isClean {
      // In a shared store the files checked are this device's cache; what it shows is the
      // merge of every device's log, which the counts describe.
      let merged = try readState().index
      report.collections = merged.collections.count
      report.items = merged.collections.reduce(0) { $0 + $1.itemCount }
    }
    return report
  }

  /// Applies what ``verify()`` proposes under the exclusive store lock, held for the whole run,
  /// after copying the whole store to `backups/<time>[-n]/` inside the store folder.
  ///
  /// Repair never drops an item it can read: records with missing fields are filled in, an
  /// item the index places in a collection that lost it is brought back from that collection's
  /// backup or quarantined copies (else as the undo history's newest record of it left it), an
  /// item listed in two collections stays where the index puts it, and two different items
  /// with one id keep both (the second gets a fresh id). In a shared store the files repaired
  /// are this device's cache, and the repair then brings it back to the merge of every
  /// device's log, so what a damaged cache file held is restored from the logs. A second
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
            directory: cacheRoot, name: Self.journalName, format: Self.indexFormat,
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
          for name in try fileSystem.listDirectory(cacheRoot)
          where name.hasPrefix(Self.journalName + ".") && !name.hasSuffix(".lock") {
            if name.hasSuffix(".jsonl") || name == Self.journalName + ".snapshot.json" {
              try fileSystem.rename(cacheRoot + "/" + name, to: backup + "/" + name + ".damaged")
            }
          }
        }
      }
      let journal = try openJournal()
      defer { try? journal.close() }
      inspection.index.history.removeAll { !inspection.liveHistory.contains($0) }
      // In a shared store these files are this device's cache of the merged logs: what the
      // repair could not read back (a truncated collection file) comes back from the logs.
      if device != nil { inspection.index.covers = nil }
      try Self.persisting { () throws(PersistenceError) in
        try journal.compact(inspection.index)
        try fileSystem.unlinkIfPresent(legacyIndexPath)
        try fileSystem.unlinkIfPresent(legacyIndexPath + ".backup")
      }
      if device != nil {
        let cache = StoreState(index: inspection.index, tail: [])
        if let refresh = try refreshChange(cache, merged: mergedReplicaState(own: nil)) {
          try Self.persisting { () throws(PersistenceError) in _ = try journal.append(refresh) }
        }
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
    let base = cacheRoot + "/backups/" + backupStamp()
    do throws(PersistenceError) {
      try fileSystem.makeDirectory(cacheRoot + "/backups")
      let taken = Set(try fileSystem.listDirectory(cacheRoot + "/backups"))
      var folder = base
      var attempt = 1
      while taken.contains(String(folder.dropFirst(cacheRoot.count + 9))) {
        attempt += 1
        folder = base + "-\(attempt)"
      }
      try fileSystem.makeDirectory(folder + "/collections")
      try fileSystem.makeDirectory(folder + "/history")
      for name in try fileSystem.listDirectory(cacheRoot).sorted()
      where name.hasSuffix(".json") || name.hasSuffix(".jsonl") || name.hasSuffix(".backup") {
        try copyUnlessSpecial(cacheRoot + "/" + name, to: folder + "/" + name)
      }
      for sub in ["collections", "history"] {
        for name in ((try? fileSystem.listDirectory(cacheRoot + "/" + sub)) ?? []).sorted()
        where !name.contains(".tmp-") {
          try copyUnlessSpecial(cacheRoot + "/\(sub)/" + name, to: folder + "/\(sub)/" + name)
        }
      }
      return folder
    } catch {
      throw WorkspaceError(
        .cannotCreate, "cannot back up the store to \(base): \(error.description)")
    }
  }
}
