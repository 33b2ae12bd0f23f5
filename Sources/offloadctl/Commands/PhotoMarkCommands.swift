import ArgumentParser
import Foundation
import Offload
import PhotoSession
import TerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `photos rate`, `flag`, `label` and `skip`: marks on the card on screen.
extension PhotosCommand {
  // MARK: rate, flag, label, skip

  /// Opens the session, runs `action` on it (it returns the queue index of the card it acted
  /// on) and prints that card: the document `json` makes of the card's shape, the shape of
  /// the card now on screen and the figures, or, unless quiet, what `text` prints.
  static func actOnCard<Shape: Encodable>(
    _ global: GlobalOptions, _ selection: SessionSelection,
    _ action: (CullingSession) throws(PhotoSessionError) -> Int,
    json: (PhotoShapes.CardShape, PhotoShapes.CardShape?, SessionStatistics) -> Shape,
    text: (PhotoCard, CullingSession) -> Void
  ) throws {
    let opened = try selection.open(global)
    let session = opened.session
    let index = try failing { () throws(PhotoSessionError) in try action(session) }
    let card = session.card(at: index)
    if global.json {
      try Output.document(
        json(
          PhotoShapes.CardShape(card, opened.library),
          session.current.map { PhotoShapes.CardShape($0, opened.library) },
          session.statistics))
    } else if !global.quiet {
      text(card, session)
    }
  }

  /// Runs a mark (or skip) on the card on screen and prints the result.
  static func mark(
    _ global: GlobalOptions, _ selection: SessionSelection, verb: String,
    _ action: (CullingSession) throws(PhotoSessionError) -> Void
  ) throws {
    try actOnCard(global, selection) { (session) throws(PhotoSessionError) in
      let before = session.state.cursor
      let photo = session.current?.photo
      try action(session)
      return photo.flatMap { session.state.photos.firstIndex(of: $0) } ?? before
    } json: {
      PhotoShapes.Marked(photo: $0, current: $1, statistics: $2)
    } text: { card, _ in
      Output.line("\(card.photo): \(verb)" + (PhotoOutput.marksText(card).map { " (\($0))" } ?? ""))
    }
  }

  struct Rate: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rate",
      abstract: "Rate the photo on screen 0 to 5 stars (written as xmp:Rating at commit).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: ArgumentHelp("0 to 5.", valueName: "stars"))
    var stars: Int

    func validate() throws {
      guard (0...5).contains(stars) else {
        throw ValidationError("a rating is 0 to 5 stars, not \(stars)")
      }
    }

    func run() throws {
      try PhotosCommand.mark(global, selection, verb: "rated \(stars)") {
        (session) throws(PhotoSessionError) in try session.rate(stars)
      }
    }
  }

  struct FlagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "flag",
      abstract: "Flag the photo on screen: pick, or reject (written as xmp:Rating -1).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: ArgumentHelp("pick or reject.", valueName: "flag"))
    var flag: PhotoMarks.Flag

    func run() throws {
      try PhotosCommand.mark(global, selection, verb: "flagged \(flag.rawValue)") {
        (session) throws(PhotoSessionError) in try session.flag(flag)
      }
    }
  }

  struct LabelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "label",
      abstract: "Give the photo on screen a colour label (written as xmp:Label at commit).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: ArgumentHelp("red, yellow, green, blue or purple.", valueName: "colour"))
    var colour: PhotoMarks.ColorLabel

    func run() throws {
      try PhotosCommand.mark(global, selection, verb: "labelled \(colour.rawValue)") {
        (session) throws(PhotoSessionError) in try session.label(colour)
      }
    }
  }

  struct Skip: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "skip",
      abstract: "Move the photo on screen to the end of the queue without a decision.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    func run() throws {
      try PhotosCommand.mark(global, selection, verb: "skipped to the end of the queue") {
        (session) throws(PhotoSessionError) in try session.skip()
      }
    }
  }
}
