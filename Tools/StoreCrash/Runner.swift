// Runs the built offloadctl as a child process (posix_spawn, output to files, so a child that
// is killed never leaves a pipe half-read), optionally SIGKILLing it after a delay.

import Foundation
import OffloadTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a child ended and what it printed.
struct Finished {
  /// The exit status, or nil when a signal ended it.
  var status: Int32?
  /// Everything written to standard output.
  var stdout: String
  /// Everything written to standard error.
  var stderr: String

  /// Whether the command exited 0: it acknowledged its change.
  var acknowledged: Bool { status == 0 }
  /// Whether the kill ended it before it exited.
  var killed: Bool { status == nil }

  /// `exit N: stderr` or `killed`, for problem reports.
  var summary: String {
    guard let status else { return "killed" }
    let line = stderr.split(separator: "\n").first.map(String.init) ?? ""
    return "exit \(status)" + (line.isEmpty ? "" : ": " + line)
  }
}

/// Runs offloadctl against one store.
struct Runner: Sendable {
  /// The offloadctl executable.
  let executable: String
  /// The store folder every command is given with `--store`.
  let store: String
  /// A folder for the children's output files.
  let scratch: String
  /// The children's environment as `NAME=value` (this process's when nil).
  var environment: [String]? = nil

  /// Starts `offloadctl ARGUMENTS --store STORE` with its output in `scratch/<tag>.out|err`.
  func start(_ arguments: [String], tag: String) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, scratch + "/\(tag).out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(
      &actions, 2, scratch + "/\(tag).err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let words = [executable] + arguments + ["--store", store]
    let argv = words.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let variables = environment.map { $0.map { strdup($0) } + [nil] }
    defer { for pointer in variables ?? [] { free(pointer) } }
    var pid: pid_t = 0
    let result =
      variables.map { posix_spawn(&pid, executable, &actions, nil, argv, $0) }
      ?? posix_spawn(&pid, executable, &actions, nil, argv, environ)
    if result != 0 { fail("cannot start \(executable): \(String(cString: strerror(result)))") }
    return pid
  }

  /// Waits for a child started with `tag` and reads its output.
  func finish(_ pid: pid_t, tag: String) -> Finished {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      if errno != EINTR { fail("waitpid: \(String(cString: strerror(errno)))") }
    }
    let signal = status & 0x7f
    func read(_ name: String) -> String {
      let data = FileManager.default.contents(atPath: scratch + "/\(tag).\(name)") ?? Data()
      return String(decoding: data, as: UTF8.self)
    }
    return Finished(
      status: signal == 0 ? (status >> 8) & 0xff : nil, stdout: read("out"), stderr: read("err"))
  }

  /// Runs a command to its end.
  func run(_ arguments: [String], tag: String = "run") -> Finished {
    finish(start(arguments, tag: tag), tag: tag)
  }

  /// Runs a command and SIGKILLs it `delay` microseconds after it started (a child that has
  /// already exited is a zombie until it is waited for, so the kill never hits another process).
  func run(_ arguments: [String], killingAfter delay: UInt32, tag: String = "run") -> Finished {
    let pid = start(arguments, tag: tag)
    if delay > 0 { usleep(delay) }
    kill(pid, SIGKILL)
    return finish(pid, tag: tag)
  }
}

/// Prints an error and leaves with status 2 (the driver itself failed, not the store).
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("store-crash: \(message)\n".utf8))
  exit(2)
}

extension SplitMix64 {
  /// A number in `0..<bound` (0 when `bound` is 0).
  mutating func below(_ bound: Int) -> Int {
    bound <= 0 ? 0 : index(below: bound)
  }

  /// One element of a non-empty array.
  mutating func pick<T>(_ elements: [T]) -> T {
    elements[index(below: elements.count)]
  }
}
