import ArgumentParser
import Offload
import TerminalUI

/// `offloadctl organize COLLECTION`: a full-screen view to browse, check, reorder, nest,
/// complete and delete a collection's items.
struct OrganizeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "organize",
    abstract: "Organize a collection in a full-screen view (needs a terminal).",
    discussion: """
      Normal mode: ↑/↓ move, x ticks the item done (or not done), a or o adds an item below \
      it (type the text; Enter saves, Esc cancels), Enter shows an item's details, Delete or \
      Backspace deletes the item (an item with nested items asks first: y deletes), ←/→ \
      collapse and expand. e toggles edit mode: space checks an item, shift+↑/↓ extends the \
      checks, a checks all, x marks the checked items done (or not done), d deletes them, \
      Tab and Shift-Tab indent and outdent, r renames the one checked item, m moves the \
      checked items to another collection; the bottom bar shows which actions apply. In both \
      modes alt+↑/↓, or K/J on a terminal without Alt, move the checked items (or the one \
      under the cursor) among their siblings; / filters the rows by text (Esc clears), h \
      hides done items, u undoes the last change made on this screen (never one made \
      elsewhere) and q quits. Every change is saved at once, as one undoable change.
      """)

  @OptionGroup var global: GlobalOptions
  @Argument(help: "The collection's name or id.", completion: StoreCompletion.collections)
  var collection: String

  func run() throws {
    // What opening the store says goes on the screen's first status line: a line on stderr
    // would be drawn over when the screen clears the terminal.
    let opened = try global.opened(forChange: true)
    let session: OrganizeSession
    let terminal: TerminalSession
    do {
      session = try failing { () throws(WorkspaceError) in
        try OrganizeSession(
          workspace: opened.workspace, collection: collection, notices: opened.notices)
      }
      terminal = try TerminalSession.start()
    } catch {
      // No screen after all: the lines go where the other commands put them.
      for line in opened.notices { Output.error("offloadctl: \(line)") }
      throw error
    }
    var screen = OrganizeTerminalScreen(session: session)
    var loop = TerminalEventLoop(session: terminal)
    loop.run(&screen)
    terminal.finish()
    if !global.quiet {
      let tree = screen.session.screen.tree
      Output.line(
        "organize: left \"\(tree.collection.name)\" with \(tree.items.count == 1 ? "1 item" : "\(tree.items.count) items")"
      )
    }
  }
}

/// The organize session as a terminal screen.
struct OrganizeTerminalScreen: TerminalScreen {
  var session: OrganizeSession

  mutating func frame(size: TerminalSize) -> Frame { session.frame(size: size) }

  mutating func handle(_ event: TerminalEvent) -> ScreenAction {
    switch event {
    case .endOfInput: return .quit
    case .resize: return .continue
    case .key(let key): return session.handle(key) ? .quit : .continue
    }
  }
}
