import Foundation

/// The per-device folders of a store that several devices share through a synced folder:
/// `replicas/<replica-id>/`, each written by its own device only (decision 0010).
///
/// A device appends to its own operation log (a ``JSONLinesJournal`` named `ops`, whose
/// fsync'd append is the commit point) and reads the others' logs without ever writing
/// to them: a torn or half-copied last line is left for later, a log in a newer format is
/// named in a one-line problem and left out, and files a sync engine leaves are ignored.
///
/// ```swift
/// let folders = ReplicaFolders(store: storePath)
/// let log: JSONLinesJournal<ChangeRecord, Checkpoint> = try folders.openOwnLog(
///   replica: "k7q", format: checkpointFormat)
/// try log.append(change)  // the commit point
/// let reads: [ReplicaLogRead<ChangeRecord, Checkpoint>] = folders.readLogs(
///   except: "k7q", format: checkpointFormat)
/// for read in reads {
///   if let problem = read.problem { warn(problem) }
///   merge(read.contents?.entries ?? [])
/// }
/// ```
public struct ReplicaFolders: Sendable {
  /// The store's folder.
  public let store: String
  /// The file operations.
  public let fileSystem: any FileSystem

  /// The journal name of every device's operation log.
  public static let logName = "ops"

  /// Folders of a store; nothing is read or written until asked.
  ///
  /// - Parameters:
  ///   - store: The store's folder.
  ///   - fileSystem: The file operations; the real ones by default.
  public init(store: String, fileSystem: any FileSystem = POSIXFileSystem()) {
    self.store = store
    self.fileSystem = fileSystem
  }

  /// `replicas/` inside the store.
  public var root: String { PathName.join(store, "replicas") }

  /// The folder of one device.
  ///
  /// - Parameter replica: The device's replica id.
  /// - Returns: `replicas/<replica>` inside the store.
  public func folder(of replica: String) -> String { PathName.join(root, replica) }

  /// Whether a file name is one a sync engine leaves in a synced folder (a temporary file of
  /// a transfer in progress, a conflict copy, a marker or ignore list): never read as data.
  ///
  /// - Parameter name: A file or folder name, without its folder.
  /// - Returns: `true` for `.syncthing.*.tmp`, `~syncthing~*.tmp`, `*.sync-conflict-*`,
  ///   `.stfolder`, `.stignore`, `.stversions`, `.dropbox*` and `*.icloud`.
  public static func isSyncEngineFile(_ name: String) -> Bool {
    if name == ".stfolder" || name == ".stignore" || name == ".stversions" { return true }
    if name.hasPrefix(".syncthing.") && name.hasSuffix(".tmp") { return true }
    if name.hasPrefix("~syncthing~") && name.hasSuffix(".tmp") { return true }
    if name.contains(".sync-conflict-") || name.hasPrefix(".dropbox") { return true }
    return name.hasSuffix(".icloud")
  }

  /// The replica ids that have a folder: names of lowercase letters and digits, sync-engine
  /// files and anything else left out.
  ///
  /// - Returns: The ids, sorted; empty when there is no `replicas/` folder yet.
  /// - Throws: ``PersistenceError`` with code ``PersistenceError/Code/ioFailure``.
  /// - Complexity: O(*f* log *f*), *f* entries in `replicas/`.
  public func replicaIDs() throws(PersistenceError) -> [String] {
    let names: [String]
    do {
      names = try fileSystem.listDirectory(root)
    } catch  where error.code == .notFound {
      return []
    }
    return names.filter { name in
      !Self.isSyncEngineFile(name) && !name.isEmpty
        && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
    }.sorted()
  }

  /// Opens this device's own operation log for appending (creating its folder and log).
  ///
  /// - Parameters:
  ///   - replica: This device's replica id.
  ///   - format: The format of the log's snapshot (a base checkpoint), named in its header.
  ///   - durability: When appends are fsynced; every entry by default (the commit point).
  /// - Returns: The open journal; its `recovered` contents are this device's operations.
  /// - Throws: The errors of ``JSONLinesJournal/open(directory:name:format:durability:lockTimeout:fileSystem:)``.
  /// - Complexity: O(*n*), the log's size.
  public func openOwnLog<Entry: Codable, Snapshot: Codable>(
    replica: String, format: DocumentFormat<Snapshot>,
    durability: JournalDurability = .everyEntry
  ) throws(PersistenceError) -> JSONLinesJournal<Entry, Snapshot> {
    try fileSystem.makeDirectory(root)
    let generation = currentGeneration(of: replica)
    if generation > 0 {
      return try openGeneration(replica: replica, generation: generation, format: format)
    }
    return try JSONLinesJournal.open(
      directory: folder(of: replica), name: Self.logName, format: format,
      durability: durability, fileSystem: fileSystem)
  }

  /// Reads every other device's log, read-only, never failing as a whole.
  ///
  /// - Parameters:
  ///   - own: This device's replica id, left out.
  ///   - format: The format of the logs' snapshots.
  /// - Returns: One read per other device folder, sorted by replica id.
  /// - Complexity: O(*n*), the size of the logs read.
  public func readLogs<Entry: Codable, Snapshot: Codable>(
    except own: String, format: DocumentFormat<Snapshot>
  ) -> [ReplicaLogRead<Entry, Snapshot>] {
    let ids = (try? replicaIDs()) ?? []
    return ids.filter { $0 != own }.map { readLog(of: $0, format: format) }
  }

  /// Reads one device's log without writing anything.
  ///
  /// - Parameters:
  ///   - replica: The device's replica id.
  ///   - format: The format of the log's snapshot.
  /// - Returns: Its entries up to the last whole line, and a one-line problem when a line
  ///   waits to be whole, a line is damaged or the log is in a newer format.
  /// - Complexity: O(*n*), the log's size.
  public func readLog<Entry: Codable, Snapshot: Codable>(
    of replica: String, format: DocumentFormat<Snapshot>
  ) -> ReplicaLogRead<Entry, Snapshot> {
    let generation = currentGeneration(of: replica)
    if generation > 0 {
      return readGeneration(of: replica, generation: generation, format: format).read
    }
    let directory = folder(of: replica)
    do {
      let contents = try JSONLinesJournal<Entry, Snapshot>.read(
        directory: directory, name: Self.logName, format: format, fileSystem: fileSystem)
      return ReplicaLogRead(
        replica: replica, contents: contents,
        problem: Self.problem(replica, damage: contents.damage, torn: contents.tornTail))
    } catch {
      return ReplicaLogRead(replica: replica, contents: nil, problem: error.description)
    }
  }
}

/// One other device's log as read: its entries (a prefix of the log) and any problem.
public struct ReplicaLogRead<Entry, Snapshot> {
  /// The device's replica id.
  public let replica: String
  /// What was read; `nil` when the log was left out (a newer format, unreadable).
  public let contents: JournalContents<Entry, Snapshot>?
  /// One line for the user when a line waits to be whole, the log is damaged or refused.
  public let problem: String?
}
