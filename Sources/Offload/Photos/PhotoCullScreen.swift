public import PhotoSession
public import TerminalUI

/// The photo cull screen's state machine: keys in, session calls made, frames out.
///
/// One photo at a time: ← (or `h`) trashes, → (or `l`) favorites, ↑ (or `k`) keeps, `0`–`5`
/// rate the card on screen, `s` skips it to the end of the queue, `u` undoes, `r` opens the
/// review list (↑/↓ move, `t`/← trash, `f`/→ favorite, `k` keep the photo under the cursor,
/// Esc back), `c` asks before committing (how many photos go where, and the bytes the Trash
/// gets), and `q` or Ctrl-C quits. The bottom line always shows the keys of the mode.
///
/// Every key that decides goes straight to the `CullingSession`, which journals it durably
/// before it returns, so quitting needs no save. The screen knows nothing of a terminal: it
/// writes no bytes and starts no process. ``frame(size:)`` draws its text, and
/// ``display(size:)`` tells the terminal around it which photo is on screen and where a
/// picture of it fits, so a terminal that draws images inline, or an external viewer, can
/// show it. Tests drive it with lists of keys and read its frames.
///
/// ```swift
/// let session = try CullingSession(photos: ["a.jpg", "b.jpg"], journal: MemorySessionJournal())
/// var screen = PhotoCullScreen(session: session, sessionID: "20240501-100000")
/// _ = screen.handle(KeyPress(.left))  // a.jpg goes to the Trash at commit
/// print(screen.frame(size: TerminalSize(columns: 80, rows: 24)).text)
/// ```
public struct PhotoCullScreen {
  /// What the screen shows.
  public enum Mode: Hashable, Sendable {
    /// The photo on screen (or the end of the library).
    case deck
    /// The list of decided photos, with a cursor.
    case review
    /// The commit question, waiting for `y` or any other key.
    case confirmCommit
  }

  /// The session the keys act on.
  public let session: CullingSession
  /// The session id, shown in the header.
  public let sessionID: String
  /// What the screen shows.
  public internal(set) var mode: Mode = .deck
  /// The last outcome or error, one line.
  public internal(set) var message: String?
  /// The decided photos while reviewing.
  public internal(set) var reviewItems: [ReviewItem] = []
  /// The review list's cursor and scroll position.
  public internal(set) var viewport = ListViewport(rowCount: 0, height: 0)
  /// The number of commits made from this screen.
  public internal(set) var commits = 0
  /// What ``display(size:)`` last reported, to tell what changed since.
  var shown = Shown()

  /// Creates the screen over a session, on the deck, with nothing said yet.
  ///
  /// - Parameters:
  ///   - session: The session the keys act on; the screen shows its current card.
  ///   - sessionID: The session's id, shown in the header.
  public init(session: CullingSession, sessionID: String) {
    self.session = session
    self.sessionID = sessionID
  }

  /// The keys of the deck, on the bottom line.
  public static let deckHelp =
    "← trash · → favorite · ↑ keep · 0-5 rate · s skip · u undo · r review · c commit · q quit"
  /// The keys of the review list, on the bottom line.
  public static let reviewHelp =
    "↑↓ move · t/← trash · f/→ favorite · k keep · u undo · esc back · q quit"
  /// The keys of the commit question, on the bottom line.
  public static let confirmHelp = "y commit · n cancel"

  /// Shows `text` as the last outcome: what the terminal around the screen has to say (an
  /// external viewer that failed, for one).
  ///
  /// - Parameter text: One line.
  public mutating func note(_ text: String) { message = text }

  // MARK: Keys

  /// Handles one key: makes the session call it stands for and says what happened in
  /// ``message``.
  ///
  /// - Parameter press: The key.
  /// - Returns: ``PhotoCullAction/quit`` for `q` and Ctrl-C (and `q` in the review list),
  ///   else ``PhotoCullAction/redraw``.
  /// - Complexity: O(1) plus one journal append for a key that decides, rates, skips or
  ///   undoes; O(*d*) for keys that open or change the review list and for the commit
  ///   question, where *d* is the number of decided photos; a commit is O(*d*) file
  ///   operations.
  public mutating func handle(_ press: KeyPress) -> PhotoCullAction {
    if press == .controlC { return .quit }
    switch mode {
    case .deck: return handleDeck(press)
    case .review: return handleReview(press)
    case .confirmCommit: return handleConfirm(press)
    }
  }

  /// Takes note that the terminal changed size: the next ``display(size:)`` reports the
  /// picture area as changed, since a terminal clears it when it redraws everything.
  public mutating func resized() {
    shown.preview = nil
  }

  private mutating func handleDeck(_ press: KeyPress) -> PhotoCullAction {
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
    return .redraw
  }

  private mutating func handleReview(_ press: KeyPress) -> PhotoCullAction {
    if viewport.moveCursor(for: press.key) { return .redraw }
    switch press.key {
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
    return .redraw
  }

  private mutating func handleConfirm(_ press: KeyPress) -> PhotoCullAction {
    mode = .deck
    switch press.key {
    case .character("y"), .character("Y"): commit()
    default: message = "Commit cancelled; nothing was changed."
    }
    return .redraw
  }

  // MARK: Session calls

  private static let endOfLibrary = "Every photo has a decision: r reviews, c commits."

  private mutating func decide(_ direction: SwipeDirection) {
    do throws(PhotoSessionError) {
      let index = try session.swipe(direction)
      message = "\(session.state.photos[index]) → \(PhotoDecision(swipe: direction).rawValue)"
    } catch {
      message = error.code == .endOfLibrary ? Self.endOfLibrary : error.description
    }
  }

  private mutating func rate(_ digit: Character) {
    guard let stars = digit.wholeNumberValue, let photo = session.current?.photo else {
      message = Self.endOfLibrary
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
      message = Self.endOfLibrary
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

  /// The commit question: how many photos go where, the bytes the Trash gets when the
  /// session's library is a folder, and the keys that answer.
  ///
  /// - Parameter session: The session about to commit.
  /// - Returns: `Commit 23 photos (3 to the Trash: 12,345 bytes, 2 favorites, 18 kept)? y / n`.
  /// - Complexity: O(*d*) for *d* decided photos, plus one `stat` per photo to trash.
  public static func commitQuestion(_ session: CullingSession) -> String {
    "Commit \(PhotoText.commitSummary(session, library: session.library as? FolderLibrary))? y / n"
  }

  private mutating func commit() {
    do throws(PhotoSessionError) {
      let report = try session.commit()
      commits += 1
      let failed = report.failed.first.map {
        "; \(report.failed.count) failed and stay pending (\($0.photo): \($0.detail))"
      }
      message = "Committed \(PhotoText.counting(report.applied.count, "photo"))" + (failed ?? ".")
    } catch {
      message = "Commit stopped: \(error.description)"
    }
  }
}

/// What the cull screen wants after a key.
public enum PhotoCullAction: Hashable, Sendable {
  /// Draw the screen again (``PhotoCullScreen/display(size:)``, then
  /// ``PhotoCullScreen/frame(size:)``).
  case redraw
  /// Leave the screen; every decision is already saved.
  case quit
}
