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
  /// on) and prints that card: with `--json` the card (under `key`), the card now on screen
  /// and the figures, or, unless quiet, what `text` prints.
  static func actOnCard(
    _ global: GlobalOptions, _ selection: SessionSelection, key: PhotoShapes.ActedOn.Key,
    _ action: (CullingSession) throws(PhotoSessionError) -> Int,
    text: (PhotoCard, CullingSession) -> Void
  ) throws {
    let opened = try selection.open(global)
    let session = opened.session
    let index = try failing { () throws(PhotoSessionError) in try action(session) }
    let card = session.card(at: index)
    if global.json {
      try Output.document(
        PhotoShapes.ActedOn(
          key: key, card: PhotoShapes.CardShape(card, opened.library),
          current: session.current.map { PhotoShapes.CardShape($0, opened.library) },
          statistics: session.statistics))
    } else if !global.quiet {
      text(card, session)
    }
  }

  /// Runs a mark (or skip) on the card on screen and prints the result.
  static func mark(
    _ global: GlobalOptions, _ selection: SessionSelection, verb: String,
    _ action: (CullingSession) throws(PhotoSessionError) -> Void
  ) throws {
    try actOnCard(global, selection, key: .photo) { (session) throws(PhotoSessionError) in
      let before = session.state.cursor
      let photo = session.current?.photo
      try action(session)
      return photo.flatMap { session.state.photos.firstIndex(of: $0) } ?? before
    } text: { card, _ in
      Output.line("\(card.photo): \(verb)" + (PhotoOutput.marksText(card).map { " (\($0))" } ?? ""))
    }
  }

  /// `photos rate`, `flag` or `label`: puts the mark its argument names on the card on
  /// screen.
  struct Mark<Value: PhotoMark>: ParsableCommand {
    static var configuration: CommandConfiguration { Value.words.configuration }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: SessionSelection

    @Argument(help: Value.words.argument)
    var value: Value

    func validate() throws { try value.validate() }

    func run() throws {
      let verb = "\(Value.words.verb) \(value.word)"
      try PhotosCommand.mark(global, selection, verb: verb) {
        (session) throws(PhotoSessionError) in try value.put(on: session)
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

/// A mark `photos rate`, `flag` or `label` puts on a card: its command's words, the check of
/// its value and the session's call.
protocol PhotoMark: ExpressibleByArgument {
  /// The command's name and abstract, its argument's help and the verb it prints.
  static var words: MarkWords { get }
  /// The value as the command line writes it, printed after the verb (`pick`).
  var word: String { get }
  /// Throws a `ValidationError` when the value is not one the mark takes (by default, none).
  func validate() throws
  /// Puts the mark on the card on screen.
  func put(on session: CullingSession) throws(PhotoSessionError)
}

extension PhotoMark {
  func validate() throws {}
}

extension PhotoMark where Self: RawRepresentable<String> {
  var word: String { rawValue }
}

/// The words of a mark's command: its configuration, its argument's help, and the verb it
/// prints before the value as the command line writes it (`flagged pick`).
struct MarkWords {
  var configuration: CommandConfiguration
  var argument: ArgumentHelp
  var verb: String

  init(_ name: String, _ abstract: String, argument: ArgumentHelp, verb: String) {
    configuration = CommandConfiguration(commandName: name, abstract: abstract)
    self.argument = argument
    self.verb = verb
  }
}

/// `photos rate`'s argument: 0 to 5 stars.
struct Stars: PhotoMark {
  static let words = MarkWords(
    "rate", "Rate the photo on screen 0 to 5 stars (written as xmp:Rating at commit).",
    argument: ArgumentHelp("0 to 5.", valueName: "stars"), verb: "rated")

  var count: Int

  init?(argument: String) {
    guard let count = Int(argument) else { return nil }
    self.count = count
  }

  var word: String { "\(count)" }

  func validate() throws {
    guard (0...5).contains(count) else {
      throw ValidationError("a rating is 0 to 5 stars, not \(count)")
    }
  }

  func put(on session: CullingSession) throws(PhotoSessionError) { try session.rate(count) }
}

extension PhotoMarks.Flag: PhotoMark {
  static let words = MarkWords(
    "flag", "Flag the photo on screen: pick, or reject (written as xmp:Rating -1).",
    argument: ArgumentHelp("pick or reject.", valueName: "flag"), verb: "flagged")

  func put(on session: CullingSession) throws(PhotoSessionError) { try session.flag(self) }
}

extension PhotoMarks.ColorLabel: PhotoMark {
  static let words = MarkWords(
    "label", "Give the photo on screen a colour label (written as xmp:Label at commit).",
    argument: ArgumentHelp("red, yellow, green, blue or purple.", valueName: "colour"),
    verb: "labelled")

  func put(on session: CullingSession) throws(PhotoSessionError) { try session.label(self) }
}
