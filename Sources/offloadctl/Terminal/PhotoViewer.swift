import Foundation

/// `photos cull --viewer CMD`: runs CMD with the current photo's path as its last argument on
/// every card change, for terminals that show no images (an image viewer that reloads, a
/// script). No shell is involved: CMD is split into arguments (spaces separate them; single
/// or double quotes and backslashes group them); a program without a slash is looked up in
/// `PATH`. Its standard streams are `/dev/null`, so it never draws over the screen. A failure
/// (not found, not startable, a non-zero exit) is reported once; the screen keeps going.
struct PhotoViewer {
  /// The program and its arguments, before the photo's path.
  let arguments: [String]
  /// Whether a failure was already reported.
  private(set) var reported = false
  /// The last process started, checked for a non-zero exit at the next card change.
  private var last: Process?

  /// Splits `command` into arguments.
  ///
  /// - Throws: A message naming the problem: an empty command or an unclosed quote.
  init(command: String) throws(ViewerError) {
    arguments = try Self.split(command)
    guard !arguments.isEmpty else { throw ViewerError("--viewer needs a command, not \"\"") }
  }

  /// A problem with the `--viewer` command.
  struct ViewerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// `command` split into arguments: whitespace separates; `'...'` keeps everything,
  /// `"..."` keeps everything but `\"` and `\\`; a backslash outside quotes escapes the next
  /// character.
  ///
  /// - Complexity: O(*m*) for a command of *m* characters.
  static func split(_ command: String) throws(ViewerError) -> [String] {
    let (words, unclosed) = ShellWords.read(command)
    if unclosed {
      throw ViewerError("the --viewer command \"\(command)\" has an unclosed quote")
    }
    return words
  }

  /// The program's path: as given when it has a slash, else the first executable in `PATH`.
  static func resolve(_ program: String, path: String?) -> String? {
    if program.contains("/") {
      return FileManager.default.isExecutableFile(atPath: program) ? program : nil
    }
    for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = folder + "/" + program
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs the viewer on `photo` (an absolute path) without waiting for it.
  ///
  /// - Returns: A one-line failure message the first time something fails, else nil.
  mutating func show(_ photo: String) -> String? {
    var failure: String?
    if let last, !last.isRunning, last.terminationReason == .exit, last.terminationStatus != 0 {
      failure = "the viewer \(arguments[0]) exited with status \(last.terminationStatus)"
    }
    last = nil
    if failure == nil {
      let environment = ProcessInfo.processInfo.environment
      if let program = Self.resolve(arguments[0], path: environment["PATH"]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(arguments.dropFirst()) + [photo]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
          try process.run()
          last = process
        } catch {
          failure = "the viewer \(arguments[0]) could not be started: \(error.localizedDescription)"
        }
      } else {
        failure = "the viewer \(arguments[0]) was not found or is not executable"
      }
    }
    guard let failure, !reported else { return nil }
    reported = true
    return failure + "; the screen goes on without it"
  }
}
