import ArgumentParser
import Offload
import OrderingCore
import PhotoSession

/// The exit codes of `offloadctl`: one table, shown in `--help` and README.
///
/// They follow the BSD `sysexits.h` values, so scripts can tell bad usage from bad data.
enum OffloadExitCode: Int32, CaseIterable {
  case success = 0
  case failure = 1
  case usage = 64
  case dataError = 65
  case noInput = 66
  case cannotCreate = 73
  case ioError = 74
  case temporaryFailure = 75

  /// What the code means, for the help table.
  var meaning: String {
    switch self {
    case .success: "success"
    case .failure: "failure"
    case .usage: "bad usage: unknown option, missing or malformed argument"
    case .dataError: "bad input data: an invalid key, outline or file content"
    case .noInput: "input not found: no such file, collection or item"
    case .cannotCreate: "cannot create an output file or folder"
    case .ioError: "I/O error while reading or writing"
    case .temporaryFailure: "temporarily unavailable: the store is locked by another process"
    }
  }

  /// The table as it appears in `--help`.
  static var helpTable: String {
    "EXIT CODES:\n"
      + allCases.map { code in
        let number = String(code.rawValue)
        return "  " + number + String(repeating: " ", count: 4 - number.count) + code.meaning
      }.joined(separator: "\n")
  }

  /// The ArgumentParser exit code.
  var exitCode: ExitCode { ExitCode(rawValue) }
}

/// A failure a command reports to the user: one line on stderr and an exit code.
struct CommandFailure: Error, CustomStringConvertible {
  /// The exit code to leave with.
  var code: OffloadExitCode
  /// One sentence naming what was wrong and where.
  var message: String

  var description: String { message }
}

/// A module's error that knows which exit status it stands for.
protocol ReportableError: Error, CustomStringConvertible {
  /// The exit status a command leaves with when this error ends it.
  var exitCode: OffloadExitCode { get }
}

/// Runs library code, turning its error into a one-line message and an exit status.
///
/// Every module's error type conforms to ``ReportableError`` below, in this one table, so this
/// one function serves them all.
func failing<T, Failure: ReportableError>(_ body: () throws(Failure) -> T) throws -> T {
  do {
    return try body()
  } catch {
    throw CommandFailure(code: error.exitCode, message: error.description)
  }
}

// MARK: - Each module's errors in the table

extension WorkspaceError: ReportableError {
  var exitCode: OffloadExitCode { code.exitCode }
}

extension WorkspaceError.Code {
  /// The exit status for this kind of failure.
  var exitCode: OffloadExitCode {
    switch self {
    case .notFound: .noInput
    case .ambiguous, .invalidRequest: .usage
    case .badInput, .damagedStore: .dataError
    case .storeBusy: .temporaryFailure
    case .cannotCreate: .cannotCreate
    case .ioFailure: .ioError
    // refused, alreadyExists, notEmpty, nothingToUndo, conflict, and any later code.
    default: .failure
    }
  }
}

extension OrderingError: ReportableError {
  /// Every ordering error a command meets comes from the keys it was given: bad input data.
  var exitCode: OffloadExitCode { .dataError }
}

extension PhotoSessionError: ReportableError {
  var exitCode: OffloadExitCode { code.exitCode }
}

extension PhotoSessionError.Code {
  /// The exit status for this kind of failure.
  var exitCode: OffloadExitCode {
    switch self {
    case .notAFolder, .emptyLibrary, .noSession, .unknownPhoto, .photoMissing: .noInput
    case .invalidArgument: .usage
    case .journalCorrupt, .sessionCorrupt, .corruptImage, .truncatedImage, .unsupportedFormat,
      .emptyFile:
      .dataError
    case .writeFailed, .trashFailed, .sidecarFailed, .crossDevice, .unreadable: .ioError
    case .sessionBusy: .temporaryFailure
    // photoChanged, restoreRefused, endOfLibrary, nothingToUndo, notDecided,
    // alreadyCommitted, and any later code.
    default: .failure
    }
  }
}
