public import PhotoSession
public import TerminalUI

extension PhotoCullScreen {
  /// The frame for the current state: the header with the session id; on the deck the card's
  /// details and the next photos (or the end of the library), room for a picture below them;
  /// in the review list the decided photos with a cursor; and at the bottom the last message,
  /// the progress line and the keys.
  ///
  /// ```
  /// offloadctl photos cull · session 20240501-100000
  ///
  ///   b.jpg
  ///   JPEG · 2.1 MB · 4000×3000 · orientation up
  /// ```
  ///
  /// A card whose header could not be read, or that has no picture the screen can offer,
  /// shows its lines only.
  ///
  /// - Parameter size: The terminal size; the review list's height follows it.
  /// - Returns: The frame to draw.
  /// - Complexity: O(*r*·*c*) for a terminal of *r* rows and *c* columns, whatever the
  ///   number of photos.
  public mutating func frame(size: TerminalSize) -> Frame {
    let stats = session.statistics
    var header: [FrameLine] = [
      FrameLine("offloadctl photos cull · session \(sessionID)", style: .bold)
    ]
    let counts =
      " · trash \(stats.trash) · favorite \(stats.favorite) · keep \(stats.keep) · pending \(stats.pending)"
    let status = FrameLine(PhotoText.progressLine(stats) + counts, style: .reverse)
    var footer: [FrameLine] = [FrameLine(message ?? "", style: .dim), status]
    switch mode {
    case .deck, .confirmCommit:
      footer.append(FrameLine(mode == .deck ? Self.deckHelp : Self.confirmHelp))
      header.append("")
      if let card = session.current {
        let lines = PhotoText.describe(card)
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
        FrameLine(
          "Review: \(PhotoText.counting(reviewItems.count, "decided photo"))", style: .bold))
      viewport.setHeight(
        Frame.listHeight(for: size, header: header.count, footer: footer.count))
      let items = reviewItems
      let cursor = viewport.cursor
      return Frame.list(size: size, header: header, footer: footer, viewport: viewport) {
        index in
        let text = PhotoText.reviewLine(items[index])
        return FrameLine(
          (index == cursor ? ">" : " ") + text, style: index == cursor ? .reverse : .plain)
      }
    }
  }

  /// The header at the top, the footer at the bottom, blank lines between; when the rows do
  /// not hold both, the footer wins.
  static func pin(_ header: [FrameLine], _ footer: [FrameLine], rows: Int) -> [FrameLine] {
    let footerShown = Array(footer.suffix(rows))
    var lines = Array(header.prefix(rows - footerShown.count))
    while lines.count < rows - footerShown.count { lines.append("") }
    return lines + footerShown
  }

  // MARK: What the terminal shows besides the text

  /// The formats the screen offers a picture of: still images, whose file (or the JPEG a RAW
  /// embeds) a terminal can draw. A card of any other kind shows its details only.
  public static let previewableFormats: Set<ImageFormat> = [
    .jpeg, .png, .gif, .webp, .tiff, .heif,
    .cr2, .cr3, .nef, .arw, .dng, .raf, .orf, .rw2,
  ]

  /// The cells free for a picture of the card on screen, below its details and the next
  /// photos, or nil while reviewing, at the end of the library, or when fewer than four rows
  /// are left.
  ///
  /// - Parameter size: The terminal size.
  /// - Returns: The area, two columns in from the left edge and two from the right.
  public func pictureArea(size: TerminalSize) -> PhotoCullPreview.Area? {
    guard mode != .review, let card = session.current else { return nil }
    // The title, a blank, the card's lines, a blank, the next photos and a blank above; the
    // message, the progress line, the keys and a blank below.
    let top = 2 + PhotoText.describe(card).count + 3
    let rows = size.rows - top - 4
    guard rows >= 4 else { return nil }
    return PhotoCullPreview.Area(row: top, column: 2, rows: rows, columns: max(size.columns - 4, 1))
  }

  /// What the terminal around the screen should show besides the frame's text, and what
  /// changed since the last call: call it once per redraw, before ``frame(size:)`` (a
  /// viewer's failure noted with ``note(_:)`` then shows in that frame).
  ///
  /// - Parameter size: The terminal size the frame will be drawn at.
  /// - Returns: The photo on screen, whether it is new, and the picture to draw, if any.
  /// - Complexity: O(1), plus reading the card's header when the session has not yet.
  public mutating func display(size: TerminalSize) -> PhotoCullDisplay {
    let card = mode == .review ? nil : session.current
    let photo = card?.photo
    let photoChanged = photo != nil && photo != shown.photo
    if photoChanged { shown.photo = photo }
    var preview: PhotoCullPreview?
    if let card, let format = card.metadata?.format, Self.previewableFormats.contains(format),
      let area = pictureArea(size: size)
    {
      preview = PhotoCullPreview(photo: card.photo, format: format, area: area)
    }
    let picture = Shown.Picture(photo: photo, preview: preview)
    let previewChanged = picture != (shown.preview ?? Shown.Picture(photo: nil, preview: nil))
    shown.preview = picture
    return PhotoCullDisplay(
      photo: photo, photoChanged: photoChanged, previewChanged: previewChanged, preview: preview)
  }

  /// What ``display(size:)`` reported last.
  struct Shown: Hashable {
    /// What the picture area holds: a card's photo (with its picture, if it has one).
    struct Picture: Hashable {
      var photo: String?
      var preview: PhotoCullPreview?
    }
    /// The last photo reported as new, for an external viewer.
    var photo: String?
    /// What the picture area holds; nil before the first call and after a resize, when the
    /// terminal holds nothing there.
    var preview: Picture?
  }
}

/// What the terminal around the cull screen shows besides the frame's text: the photo on
/// screen, for an external viewer, and its picture, for a terminal that draws images.
///
/// ``PhotoCullScreen/display(size:)`` returns it before each frame. The screen decides what
/// is shown and where; the terminal decides how (which escape sequence, which program), so
/// the screen stays free of bytes and processes.
public struct PhotoCullDisplay: Hashable, Sendable {
  /// The photo on screen (its id: a path relative to the library's folder), or nil while
  /// reviewing and when every photo has a decision.
  public var photo: String?
  /// Whether ``photo`` is another photo than the last one reported: an external viewer
  /// should show it now. Leaving the review list back to the same photo is no change.
  public var photoChanged: Bool
  /// Whether the picture area changed since the last call (another card, the card's lines
  /// moved it, the review list came or went, the terminal was resized): clear what was drawn
  /// there, then draw ``preview`` if there is one.
  public var previewChanged: Bool
  /// The picture to draw, or nil when there is none: no card, the review list, a card whose
  /// header could not be read or whose kind has no picture, or too small a terminal.
  public var preview: PhotoCullPreview?
}

/// A picture of the card on screen: which file, in which format, and the cells it fits in.
public struct PhotoCullPreview: Hashable, Sendable {
  /// A block of terminal cells, 0-based from the top left corner.
  public struct Area: Hashable, Sendable {
    /// The first row.
    public var row: Int
    /// The first column.
    public var column: Int
    /// The number of rows.
    public var rows: Int
    /// The number of columns.
    public var columns: Int
  }

  /// The photo's id: a path relative to the library's folder.
  public var photo: String
  /// The format its header names.
  public var format: ImageFormat
  /// Where it goes.
  public var area: Area
}
