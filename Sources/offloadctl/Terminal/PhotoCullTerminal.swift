import Offload
import TerminalUI

/// The cull screen on a terminal: reads keys and resizes, hands them to the
/// ``PhotoCullScreen`` state machine, and draws what it says: the frame's changed lines, the
/// photo inline when the terminal advertises an image protocol, and the `--viewer` command
/// on every new photo.
///
/// The screen (in `Offload`) decides what is shown and where; this type owns the bytes and
/// the processes.
struct PhotoCullTerminal {
  /// The state machine.
  var screen: PhotoCullScreen
  /// The library's folder: photo ids are paths relative to it.
  let root: String
  /// The inline image protocol the terminal advertised, if any.
  let inlineImages: InlineImageProtocol?
  /// The `--viewer` command, if any.
  var viewer: PhotoViewer?
  private var renderer = ScreenRenderer()

  /// Creates the terminal side of a cull screen.
  init(
    screen: PhotoCullScreen, root: String, inlineImages: InlineImageProtocol?,
    viewer: PhotoViewer?
  ) {
    self.screen = screen
    self.root = root
    self.inlineImages = inlineImages
    self.viewer = viewer
  }

  /// Draws the screen and handles keys until it quits or the input ends.
  mutating func run(on terminal: TerminalSession) {
    var loop = TerminalEventLoop(session: terminal)
    var size = terminal.size
    draw(size: size, write: terminal.write)
    while true {
      for event in loop.nextEvents() {
        if case .resize(let newSize) = event {
          size = newSize
          renderer.invalidate()
        }
        if Self.handle(event, on: &screen) == .quit { return }
      }
      draw(size: size, write: terminal.write)
    }
  }

  /// A terminal event for the screen: a key goes to it, a resize is noted, the end of the
  /// input quits.
  static func handle(_ event: TerminalEvent, on screen: inout PhotoCullScreen) -> ScreenAction {
    switch event {
    case .endOfInput: return .quit
    case .resize:
      screen.resized()
      return .continue
    case .key(let press): return screen.handle(press) == .quit ? .quit : .continue
    }
  }

  /// One redraw: the viewer on a new photo (its failure becomes the screen's message), the
  /// frame's changed lines, and the photo inline when its area changed.
  ///
  /// - Parameters:
  ///   - size: The terminal size.
  ///   - write: Where the bytes go (the terminal; a test collects them).
  mutating func draw(size: TerminalSize, write: (String) -> Void) {
    let display = screen.display(size: size)
    if display.photoChanged, let photo = display.photo,
      let failure = viewer?.show(root + "/" + photo)
    {
      screen.note(failure)
    }
    let frame = screen.frame(size: size)
    let redrawPicture = inlineImages != nil && display.previewChanged
    if redrawPicture {
      renderer.invalidate()
      write(inlineImages?.clearSequence ?? "")
    }
    write(renderer.render(frame))
    if redrawPicture, let inline = inlineImages, let preview = display.preview,
      let image = InlinePreview.image(path: root + "/" + preview.photo, format: preview.format),
      let sequence = inline.sequence(
        bytes: image.bytes, format: image.format, columns: preview.area.columns,
        rows: preview.area.rows)
    {
      write("\u{1B}[\(preview.area.row + 1);\(preview.area.column + 1)H" + sequence)
    }
  }
}
