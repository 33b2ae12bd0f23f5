import Foundation
import PhotoSession
import TerminalUI

/// The `photos cull` screen: one photo at a time, arrow keys decide, `u` undoes, `r` reviews,
/// `c` commits after a confirmation, `q` quits.
///
/// The screen is a value: its state (mode, review list, message) changes only in
/// ``handle(_:)``, and ``frame(size:)`` draws it, so tests drive it with keys and read the
/// frame's text without a terminal. Every decision goes through the ``CullingSession``, which
/// journals it durably before the key is acknowledged; quitting needs no save.
struct PhotoCullScreen: TerminalScreen {
  /// What the screen shows.
  enum Mode: Hashable {
    /// The photo on screen (or the end of the library).
    case deck
    /// The list of decided photos, with a cursor.
    case review
    /// The commit question, waiting for y or n.
    case confirmCommit
  }

  /// The session the keys act on.
  let session: CullingSession
  /// The session id, shown in the header.
  let sessionID: String
  /// The inline image protocol the terminal advertised, if any (shown in the header).
  let inlineImages: InlineImageProtocol?
  /// What the screen shows.
  private(set) var mode: Mode = .deck
  /// The last outcome or error, one line.
  private(set) var message: String?

  /// Shows `text` as the last outcome (a viewer's failure, for one).
  mutating func note(_ text: String) { message = text }
  /// The decided photos while reviewing.
  private(set) var reviewItems: [ReviewItem] = []
  /// The review list's cursor and scroll position.
  private(set) var viewport = ListViewport(rowCount: 0, height: 0)
  /// The number of commits made from this screen.
  private(set) var commits = 0

  init(session: CullingSession, sessionID: String, inlineImages: InlineImageProtocol? = nil) {
    self.session = session
    self.sessionID = sessionID
    self.inlineImages = inlineImages
  }

  /// The key help of each mode.
  static let deckHelp =
    "← trash · → favorite · ↑ keep · 0-5 rate · s skip · u undo · r review · c commit · q quit"
  static let reviewHelp = "↑↓ move · t/← trash · f/→ favorite · k keep · u undo · esc back · q quit"
  static let confirmHelp = "y commit · n cancel"

  // MARK: Events

  mutating func handle(_ event: TerminalEvent) -> ScreenAction {
    switch event {
    case .endOfInput: return .quit
    case .resize: return .continue
    case .key(let press):
      if press == .controlC { return .quit }
      switch mode {
      case .deck: return handleDeck(press)
      case .review: return handleReview(press)
      case .confirmCommit: return handleConfirm(press)
      }
    }
  }

  private mutating func handleDeck(_ press: KeyPress) -> ScreenAction {
    switch press.key {
    case .left, .character("h"): decide(.left)
    case .right, .character("l"): decide(.right)
    case .up, .character("k"): decide(.up)
    case .character("u"): undo()
    case .character("r"): openReview()
    case .character("c"): askCommit()
    case .character("s"): skip()
    case .character(let digit) where ("0"..."5").contains(digit): rate(digit)
    case .character("q"): return .quit
    default: message = "\(press.description) does nothing here: \(Self.deckHelp)"
    }
    return .continue
  }

  private mutating func handleReview(_ press: KeyPress) -> ScreenAction {
    switch press.key {
    case .up: viewport.moveCursor(by: -1)
    case .down: viewport.moveCursor(by: 1)
    case .pageUp: viewport.pageUp()
    case .pageDown: viewport.pageDown()
    case .home: viewport.moveCursor(to: 0)
    case .end: viewport.moveCursor(to: viewport.rowCount - 1)
    case .character("t"), .left: changeSelected(to: .trash)
    case .character("f"), .right: changeSelected(to: .favorite)
    case .character("k"): changeSelected(to: .keep)
    case .character("u"):
      undo()
      reloadReview()
    case .escape, .character("r"), .enter:
      mode = .deck
      message = nil
    case .character("q"): return .quit
    default: message = "\(press.description) does nothing here: \(Self.reviewHelp)"
    }
    return .continue
  }

  private mutating func handleConfirm(_ press: KeyPress) -> ScreenAction {
    mode = .deck
    switch press.key {
    case .character("y"), .character("Y"): commit()
    default: message = "Commit cancelled; nothing was changed."
    }
    return .continue
  }

  // MARK: Actions

  private mutating func decide(_ direction: SwipeDirection) {
    do throws(PhotoSessionError) {
      let index = try session.swipe(direction)
      message = "\(session.state.photos[index]) → \(PhotoDecision(swipe: direction).rawValue)"
    } catch {
      message =
        error.code == .endOfLibrary
        ? "Every photo has a decision: r reviews, c commits." : error.description
    }
  }

  private mutating func rate(_ digit: Character) {
    guard let stars = digit.wholeNumberValue, let photo = session.current?.photo else {
      message = "Every photo has a decision: r reviews, c commits."
      return
    }
    do throws(PhotoSessionError) {
      try session.rate(stars)
      message = "\(photo) rated \(stars)"
    } catch {
      message = error.description
    }
  }

  private mutating func skip() {
    guard let photo = session.current?.photo else {
      message = "Every photo has a decision: r reviews, c commits."
      return
    }
    do throws(PhotoSessionError) {
      try session.skip()
      message = "\(photo) skipped to the end of the queue"
    } catch {
      message = error.description
    }
  }

  private mutating func undo() {
    do throws(PhotoSessionError) {
      let index = try session.undo()
      let photo = session.state.photos[index]
      if let decision = session.state.decision(at: index) {
        message = "Undone: \(photo) is \(decision.rawValue) again."
      } else {
        message = "Undone: \(photo) is back on screen."
      }
    } catch {
      message = error.code == .nothingToUndo ? "Nothing to undo." : error.description
    }
  }

  private mutating func openReview() {
    reloadReview()
    viewport.moveCursor(to: viewport.rowCount - 1)
    mode = .review
    message = reviewItems.isEmpty ? "No photo has a decision yet." : nil
  }

  private mutating func reloadReview() {
    reviewItems = session.review()
    viewport.setRowCount(reviewItems.count)
  }

  private mutating func changeSelected(to decision: PhotoDecision) {
    guard viewport.cursor < reviewItems.count else {
      message = "No photo to change."
      return
    }
    let item = reviewItems[viewport.cursor]
    do throws(PhotoSessionError) {
      try session.change(item.photo, to: decision)
      message = "\(item.photo) → \(decision.rawValue)"
    } catch {
      message = error.description
    }
    reloadReview()
  }

  private mutating func askCommit() {
    let stats = session.statistics
    guard stats.pending > 0 || session.state.commitRunning else {
      message = "Nothing to commit."
      return
    }
    mode = .confirmCommit
    message = Self.commitQuestion(session)
  }

  /// The confirmation question: how many photos go where, and the bytes the Trash gets.
  static func commitQuestion(_ session: CullingSession) -> String {
    "Commit \(PhotoOutput.commitSummary(session, library: session.library as? FolderLibrary))? y / n"
  }

  private mutating func commit() {
    do throws(PhotoSessionError) {
      let report = try session.commit()
      commits += 1
      message =
        "Committed \(report.applied.count.counting("photo"))"
        + (report.failed.isEmpty
          ? "."
          : "; \(report.failed.count) failed and stay pending (\(report.failed[0].photo): \(report.failed[0].detail))")
    } catch {
      message = "Commit stopped: \(error.description)"
    }
  }

  // MARK: Drawing

  mutating func frame(size: TerminalSize) -> Frame {
    let stats = session.statistics
    var header: [FrameLine] = [
      FrameLine("offloadctl photos cull · session \(sessionID)", style: .bold)
    ]
    let status = FrameLine(
      PhotoOutput.progressLine(stats)
        + " · trash \(stats.trash) · favorite \(stats.favorite) · keep \(stats.keep) · pending \(stats.pending)",
      style: .reverse)
    var footer: [FrameLine] = [FrameLine(message ?? "", style: .dim), status]
    switch mode {
    case .deck, .confirmCommit:
      footer.append(FrameLine(mode == .deck ? Self.deckHelp : Self.confirmHelp))
      header.append("")
      if let card = session.current {
        let lines = PhotoOutput.describe(card)
        header.append(FrameLine("  " + lines[0], style: .bold))
        for line in lines.dropFirst() { header.append(FrameLine("  " + line)) }
        let next = session.preloadWindow.map(\.photo)
        if !next.isEmpty {
          header.append("")
          header.append(FrameLine("  next: " + next.joined(separator: ", "), style: .dim))
        }
      } else {
        header.append(FrameLine("  Every photo has a decision.", style: .bold))
        header.append("  r reviews them, c commits, u undoes the last one, q quits.")
      }
      return Frame(size: size, lines: Self.pin(header, footer, rows: size.rows))
    case .review:
      footer.append(FrameLine(Self.reviewHelp))
      header.append(
        FrameLine("Review: \(reviewItems.count.counting("decided photo"))", style: .bold))
      viewport.setHeight(
        Frame.listHeight(for: size, header: header.count, footer: footer.count))
      let items = reviewItems
      let cursor = viewport.cursor
      return Frame.list(size: size, header: header, footer: footer, viewport: viewport) {
        index in
        let text = PhotoOutput.reviewLine(items[index])
        return FrameLine(
          (index == cursor ? ">" : " ") + text, style: index == cursor ? .reverse : .plain)
      }
    }
  }

  /// The header at the top, the footer at the bottom, blank lines between.
  static func pin(_ header: [FrameLine], _ footer: [FrameLine], rows: Int) -> [FrameLine] {
    let footerShown = Array(footer.suffix(rows))
    var lines = Array(header.prefix(rows - footerShown.count))
    while lines.count < rows - footerShown.count { lines.append("") }
    return lines + footerShown
  }

  /// The first row (0-based) and the height free for an inline image under the photo's lines.
  func imageArea(size: TerminalSize) -> (row: Int, rows: Int)? {
    guard mode != .review, session.current != nil else { return nil }
    let top = 2 + (session.current.map { PhotoOutput.describe($0).count } ?? 0) + 3
    let rows = size.rows - top - 4
    return rows >= 4 ? (top, rows) : nil
  }
}

/// An inline image protocol a terminal advertises.
enum InlineImageProtocol: String, Hashable {
  /// kitty's graphics protocol (PNG files only are sent as they are).
  case kitty
  /// iTerm2's inline images (any format the terminal decodes).
  case iTerm2

  /// The protocol the environment advertises: `TERM=xterm-kitty` (or `KITTY_WINDOW_ID`), or
  /// `TERM_PROGRAM=iTerm.app` (or `WezTerm`, which speaks it too). Nil otherwise: text only.
  static func detect(environment: [String: String]) -> InlineImageProtocol? {
    if environment["TERM"] == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil {
      return .kitty
    }
    if ["iTerm.app", "WezTerm"].contains(environment["TERM_PROGRAM"] ?? "") { return .iTerm2 }
    return nil
  }

  /// The largest file sent inline (a preview of a huge raw would stall the terminal).
  static let maximumBytes = 8 * 1024 * 1024

  /// The escape sequence that draws `bytes` (a file of `format`) in `columns`×`rows` cells at
  /// the cursor, or nil when this protocol cannot show the format.
  func sequence(bytes: [UInt8], format: ImageFormat, columns: Int, rows: Int) -> String? {
    guard bytes.count <= Self.maximumBytes, columns > 0, rows > 0 else { return nil }
    let base64 = Data(bytes).base64EncodedString()
    switch self {
    case .kitty:
      guard format == .png else { return nil }
      // Chunks of at most 4096 base64 bytes; m=1 on every chunk but the last.
      var output = ""
      var start = base64.startIndex
      var first = true
      while start < base64.endIndex {
        let end = base64.index(start, offsetBy: 4096, limitedBy: base64.endIndex) ?? base64.endIndex
        let more = end < base64.endIndex ? 1 : 0
        let control = first ? "a=T,f=100,q=2,c=\(columns),r=\(rows),m=\(more)" : "m=\(more)"
        output += "\u{1B}_G\(control);\(base64[start..<end])\u{1B}\\"
        first = false
        start = end
      }
      return output
    case .iTerm2:
      guard [.jpeg, .png, .gif, .tiff, .webp, .heif].contains(format) else { return nil }
      return
        "\u{1B}]1337;File=inline=1;size=\(bytes.count);width=\(columns);height=\(rows);preserveAspectRatio=1:\(base64)\u{07}"
    }
  }

  /// The sequence that removes images drawn before (kitty keeps them above the text).
  var clearSequence: String {
    switch self {
    case .kitty: "\u{1B}_Ga=d,q=2\u{1B}\\"
    case .iTerm2: ""
    }
  }
}
