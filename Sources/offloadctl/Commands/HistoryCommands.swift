import ArgumentParser
import Foundation
import Offload

/// `offloadctl undo`: revert the last change.
struct UndoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "undo", abstract: "Revert the last change.")

  @OptionGroup var global: GlobalOptions

  func run() throws {
    let entry = try global.changing { (workspace) throws(WorkspaceError) in try workspace.undo() }
    struct Undone: Encodable { var sequence: UInt64; var summary: String; var items: Int }
    try global.report(
      Undone(sequence: entry.sequence, summary: entry.summary, items: entry.itemCount)
    ) {
      "undid: \(entry.summary)"
    }
  }
}

/// `offloadctl history`: recent changes.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history", abstract: "List recent changes, newest first (undo reverts the first).")

  @OptionGroup var global: GlobalOptions

  @Option(help: "How many changes to list.") var limit = 20

  func run() throws {
    let entries = try global.reading { (workspace) throws(WorkspaceError) in
      try workspace.history(limit: limit)
    }
    if global.json {
      struct Entry: Encodable {
        var sequence: UInt64; var date: Date; var summary: String; var items: Int
      }
      struct Listing: Encodable { var changes: [Entry] }
      try Output.document(
        Listing(
          changes: entries.map {
            Entry(sequence: $0.sequence, date: $0.date, summary: $0.summary, items: $0.itemCount)
          }))
      return
    }
    if entries.isEmpty && !global.quiet { Output.line("No changes yet.") }
    let formatter = ISO8601DateFormatter()
    for entry in entries {
      Output.line("\(entry.sequence)  \(formatter.string(from: entry.date))  \(entry.summary)")
    }
  }
}

/// `offloadctl store`: check and repair the store.
struct StoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "store", abstract: "Check, repair and share the store's files.",
    subcommands: [
      Verify.self, Repair.self, Share.self, DevicesCommand.self, CompactCommand.self,
      RetireCommand.self,
    ])

  struct Share: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "share",
      abstract:
        "Let devices share this store through a synced folder: each device writes its own log.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
      let shared = try global.changing { (workspace) throws(WorkspaceError) in
        try workspace.share()
      }
      // Its name in device.json, for the other devices; a copied identity moves here too.
      let (claimed, notice) = (try? shared.claimingOwnFolder()) ?? (shared, nil)
      if let notice { Output.error("offloadctl: \(notice)") }
      let device = claimed.deviceDescription
      struct Shown: Encodable { var replica: String; var device: String }
      try global.report(Shown(replica: device?.replica ?? "", device: device?.name ?? "")) {
        "shared: this device is \(device?.name ?? "") (\(device?.replica ?? "")); "
          + "put the store folder in your sync engine"
      }
    }
  }

  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "verify",
      abstract:
        "Check every file and the tree of every collection; exits 65 when something needs repair.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
      let report = try global.reading { (workspace) throws(WorkspaceError) in try workspace.verify()
      }
      try print(report, global: global, backup: nil)
      if !report.isClean { throw OffloadExitCode.dataError.exitCode }
    }
  }

  struct Repair: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "repair",
      abstract: "Apply what verify proposes, after backing the store up inside it.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
      let (report, backup) = try global.reading { (workspace) throws(WorkspaceError) in
        try workspace.repair()
      }
      try print(report, global: global, backup: backup)
    }
  }

  static func print(_ report: VerifyReport, global: GlobalOptions, backup: String?) throws {
    if global.json {
      struct Problem: Encodable { var file: String; var issue: String; var fix: String }
      struct Shown: Encodable {
        var collections: Int
        var items: Int
        var clean: Bool
        var problems: [Problem]
        var backup: String?
      }
      try Output.document(
        Shown(
          collections: report.collections, items: report.items, clean: report.isClean,
          problems: report.problems.map { Problem(file: $0.file, issue: $0.issue, fix: $0.fix) },
          backup: backup))
      return
    }
    if global.quiet && report.isClean { return }
    Output.line(
      "\(report.collections) collections, \(report.items) items: "
        + (report.isClean ? "all good" : "\(report.problems.count) problems"))
    for problem in report.problems { Output.line("- \(problem)") }
    if let backup { Output.line("repaired; the store as it was is in \(backup)") }
  }
}
