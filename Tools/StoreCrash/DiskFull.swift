// Disk-full trials: the store on a small tmpfs, filled to within a few KiB, commands run
// until they fail with exit 74; a failed command must have changed nothing, and once space is
// freed the store verifies clean and takes the next change.

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Bytes free on the file system holding `path`.
func freeBytes(_ path: String) -> Int {
  var info = statvfs()
  guard statvfs(path, &info) == 0 else { return 0 }
  return Int(info.f_bavail) * Int(info.f_bsize)
}

/// Writes zeros to `path` until `bytes` are written or the disk is full.
func fill(_ path: String, bytes: Int) {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  guard descriptor >= 0 else { fail("cannot create \(path): \(String(cString: strerror(errno)))") }
  defer { close(descriptor) }
  let chunk = [UInt8](repeating: 0, count: 4096)
  var left = bytes
  while left > 0 {
    let count = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, min(left, chunk.count)) }
    if count <= 0 { break }
    left -= count
  }
}

/// Runs `rounds` disk-full rounds on a tmpfs mounted at `mountPoint` and prints the summary
/// line; prints why and returns nil when the tmpfs cannot be mounted (it needs root).
///
/// - Returns: Whether every check passed, or nil when skipped.
func runDiskFullTrials(
  offloadctl: String, mountPoint: String, scratch: String, rounds: Int, seed: UInt64,
  layout: Layout = Layout()
) -> Bool? {
  try? FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
  #if os(Linux)
    let mounted = mount("tmpfs", mountPoint, "tmpfs", 0, "size=2m") == 0
  #else
    let mounted = false
    errno = ENOTSUP
  #endif
  guard mounted else {
    print(
      "disk full: skipped: cannot mount a tmpfs at \(mountPoint): \(String(cString: strerror(errno))) (it needs root)"
    )
    return nil
  }
  defer {
    #if os(Linux)
      umount2(mountPoint, Int32(MNT_DETACH))
    #endif
  }
  let runner = Runner(
    executable: offloadctl, store: mountPoint + "/store", scratch: scratch,
    environment: layout.environment)
  let filler = mountPoint + "/filler"
  var run = Trials(runner: runner, scratch: scratch, seed: seed)
  if layout.keep { run.tally.keepAt = (runner.store, scratch) }
  run.shared = layout.shared
  let devices = layout.devices(store: runner.store, offloadctl: offloadctl, label: "disk-full")
  run.setUp(devices: devices)
  var fullFailures = 0
  for round in 1...max(rounds, 1) {
    // Leave 0 to 12 KiB free, so the failure lands at different writes.
    unlink(filler)
    let slack = run.rng.below(13) * 1024
    fill(filler, bytes: max(0, freeBytes(mountPoint) - slack))
    var failuresThisRound = 0
    for command in 1...18 {
      if command == 13 && failuresThisRound == 0 {
        // The slack took twelve commands: leave no space at all.
        fill(filler + "-rest", bytes: freeBytes(mountPoint))
      }
      let result = run.trial("disk-full round \(round) command \(command)", delay: nil, full: true)
      if result.status == 74 {
        fullFailures += 1
        failuresThisRound += 1
      }
      if failuresThisRound == 3 || (command >= 12 && failuresThisRound > 0) { break }
    }
    // Space again: the store verifies clean, the next change works, nothing was lost.
    unlink(filler)
    unlink(filler + "-rest")
    run.trial("disk-full round \(round), space freed", delay: nil)
  }
  var tally = run.tally
  tally.keepAt = nil
  let others =
    tally.failed == fullFailures
    ? ""
    : " ("
      + tally.failures.filter { $0.key != 74 }.sorted { $0.key < $1.key }.map {
        "exit \($0.key): \($0.value)"
      }.joined(separator: ", ") + ")"
  print(
    "disk full: \(rounds) rounds on a 2 MiB tmpfs (seed \(seed)), commands: \(tally.commands), acknowledged changes: \(tally.acknowledged), failed with 74: \(fullFailures), other failures: \(tally.failed - fullFailures)\(others), lost: \(tally.lost), changed by a failed command: \(tally.split), stores failing verify: \(tally.failingVerify), refused next changes: \(tally.refusedNext); \(layout.describe(devices))"
  )
  return tally.isClean && fullFailures > 0
}
