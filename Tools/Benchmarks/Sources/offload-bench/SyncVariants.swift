#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ways a journal line can be made durable before a decision is answered, each timed on
/// the disk holding `folder`: `appends` lines of `lineBytes` bytes (121, a journal entry's
/// size), one write then its sync per line, as the session journal appends.
///
/// - `fsync`: append to a growing file, then `fsync` (what the journal does today).
/// - `fdatasync`: append to a growing file, then `fdatasync` (the size changes, so the inode
///   is written too).
/// - `fallocate + fdatasync`: the file's space reserved with `fallocate` (unwritten extents),
///   each line written in place, then `fdatasync`.
/// - `zero-filled + fdatasync`: the region written with zeros and synced once, each line
///   written in place, then `fdatasync`: neither the size nor the extents change per line.
/// - `O_DSYNC append` and `O_DSYNC zero-filled`: the same two files opened with `O_DSYNC`, so
///   each `write` returns once the data is on stable storage.
///
/// Every variant keeps the same promise: when the call returns, the line survives a power
/// loss (on Linux; Apple platforms need `F_FULLFSYNC` for that, which none of these use).
enum SyncVariants {
  /// One variant's latencies in milliseconds, sorted.
  struct Result {
    var name: String
    var milliseconds: [Double]
    /// The `q` quantile (0...1) of the sorted latencies.
    func quantile(_ q: Double) -> Double {
      milliseconds[min(milliseconds.count - 1, Int(Double(milliseconds.count) * q))]
    }
  }

  enum Failure: Error, CustomStringConvertible {
    case io(String, Int32)
    var description: String {
      switch self {
      case .io(let what, let code): "\(what): \(String(cString: strerror(code)))"
      }
    }
  }

  /// Times every variant: `appends` lines each, in `rounds` rounds that run every variant in
  /// turn on a fresh file, so that the machine's changing load falls on all of them alike.
  static func measure(
    folder: String, appends: Int, lineBytes: Int = 121, rounds: Int = 10
  ) throws -> [Result] {
    let line = [UInt8](repeating: UInt8(ascii: "x"), count: lineBytes - 1) + [10]
    let appends = max(1, appends / rounds)
    let region = appends * lineBytes
    let variants: [(String, (String) throws -> [Double])] = [
      ("append + fsync", { try appendLines($0, line, appends, flags: 0, sync: fsync) }),
      ("append + fdatasync", { try appendLines($0, line, appends, flags: 0, sync: fdatasync) }),
      (
        "fallocate'd region + fdatasync",
        { try inPlace($0, line, appends, region: region, zeroFill: false, flags: 0) }
      ),
      (
        "zero-filled region + fdatasync",
        { try inPlace($0, line, appends, region: region, zeroFill: true, flags: 0) }
      ),
      ("O_DSYNC append", { try appendLines($0, line, appends, flags: O_DSYNC, sync: nil) }),
      (
        "O_DSYNC zero-filled region",
        { try inPlace($0, line, appends, region: region, zeroFill: true, flags: O_DSYNC) }
      ),
    ]
    var results = variants.map { Result(name: $0.0, milliseconds: []) }
    for round in 0..<rounds {
      for (index, variant) in variants.enumerated() {
        let path = "\(folder)/sync-variant-\(index)-\(round)"
        unlink(path)
        defer { unlink(path) }
        results[index].milliseconds += try variant.1(path)
      }
    }
    for index in results.indices { results[index].milliseconds.sort() }
    return results
  }

  private static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
  }

  private static func openFile(_ path: String, _ flags: Int32) throws -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0o644)
    guard fd >= 0 else { throw Failure.io("open \(path)", errno) }
    return fd
  }

  private static func appendLines(
    _ path: String, _ line: [UInt8], _ count: Int, flags: Int32,
    sync: ((Int32) -> Int32)?
  ) throws -> [Double] {
    let fd = try openFile(path, O_APPEND | flags)
    defer { close(fd) }
    var latencies: [Double] = []
    latencies.reserveCapacity(count)
    for _ in 0..<count {
      let start = now()
      let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      guard written == line.count else { throw Failure.io("write \(path)", errno) }
      if let sync, sync(fd) != 0 { throw Failure.io("sync \(path)", errno) }
      latencies.append(now() - start)
    }
    return latencies
  }

  private static func inPlace(
    _ path: String, _ line: [UInt8], _ count: Int, region: Int, zeroFill: Bool, flags: Int32
  ) throws -> [Double] {
    let setup = try openFile(path, 0)
    if zeroFill {
      let zeros = [UInt8](repeating: 0, count: region)
      let written = zeros.withUnsafeBytes { write(setup, $0.baseAddress, $0.count) }
      guard written == region else { throw Failure.io("zero-fill \(path)", errno) }
    } else {
      #if os(Linux)
        // posix_fallocate returns the error number instead of setting errno.
        let code = posix_fallocate(setup, 0, off_t(region))
        guard code == 0 else { throw Failure.io("fallocate \(path)", code) }
      #else
        guard ftruncate(setup, off_t(region)) == 0 else {
          throw Failure.io("ftruncate \(path)", errno)
        }
      #endif
    }
    guard fsync(setup) == 0 else { throw Failure.io("fsync \(path)", errno) }
    close(setup)
    let fd = try openFile(path, flags)
    defer { close(fd) }
    var latencies: [Double] = []
    latencies.reserveCapacity(count)
    for index in 0..<count {
      let start = now()
      let written = line.withUnsafeBytes {
        pwrite(fd, $0.baseAddress, $0.count, off_t(index * line.count))
      }
      guard written == line.count else { throw Failure.io("pwrite \(path)", errno) }
      if flags & O_DSYNC == 0, fdatasync(fd) != 0 { throw Failure.io("fdatasync \(path)", errno) }
      latencies.append(now() - start)
    }
    return latencies
  }
}
