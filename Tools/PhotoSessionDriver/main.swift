// photo-session-driver: a child process for the PhotoSession kill -9 trials.
//
//   photo-session-driver swipe STORE SESSION STEPS SEED
//       performs STEPS seeded swipes, undos and changes; announces each as `do ...` before
//       calling the session and `ok` or `err CODE` after it returns.
//   photo-session-driver deck STORE SESSION STEPS SEED
//       the same through a `PhotoDeck` (the lock per change), forgotten and reopened every 50 steps.
//   photo-session-driver commit STORE SESSION BATCH
//       commits the session, printing `done PHOTO` after every photo, then `finished`.
//   photo-session-driver restore STORE SESSION
//       restores every card the session trashed, printing `done PHOTO` after each (and after
//       the folders are synced, `finished`).
//   photo-session-driver rescan STORE SESSION
//       rescans the session's folder, printing `do rescan`, then `ok N` (N cards added).
//
// The Trash is `$XDG_DATA_HOME/Trash`. Output is unbuffered so a SIGKILL loses nothing printed.

import Foundation
import PhotoSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func say(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  var done = 0
  while done < bytes.count {
    let count = bytes[done...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    if count <= 0 { exit(3) }
    done += count
  }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(2)
}

struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
  fail("usage: photo-session-driver swipe|deck|commit|restore|rescan STORE SESSION ...")
}
let store = PhotoSessionStore(folder: arguments[2])
if arguments[1] == "deck" {
  guard arguments.count == 6, let steps = Int(arguments[4]), let seed = UInt64(arguments[5]) else {
    fail("usage: photo-session-driver deck STORE SESSION STEPS SEED")
  }
  let deck = PhotoDeck(store: store)
  let id = arguments[3]
  var rng = SplitMix64(state: seed)
  for step in 0..<steps {
    let roll = Int.random(in: 0..<10, using: &rng)
    do {
      let state = try deck.session(id).state
      if roll < 7 {
        let direction = SwipeDirection.allCases[Int.random(in: 0..<3, using: &rng)]
        say("do swipe \(direction.rawValue)")
        try deck.swipe(id, at: state.cursor, direction)
      } else if roll < 9 || state.cursor == 0 {
        say("do undo")
        try deck.undo(id)
      } else {
        let index = Int.random(in: 0..<state.cursor, using: &rng)
        let decision = PhotoDecision.allCases[Int.random(in: 0..<3, using: &rng)]
        say("do change \(index) \(decision.rawValue)")
        try deck.change(id, at: index, to: decision)
      }
      say("ok")
    } catch {
      say("err \(error.code.rawValue)")
    }
    if step % 50 == 49 { deck.forget(id) }
  }
  say("finished")
  exit(0)
}
let opened: PhotoSessionStore.Opened
do {
  opened = try store.open(arguments[3])
} catch {
  fail("cannot open: \(error)")
}
let session = opened.session

switch arguments[1] {
case "swipe":
  guard arguments.count == 6, let steps = Int(arguments[4]), let seed = UInt64(arguments[5]) else {
    fail("usage: photo-session-driver swipe STORE SESSION STEPS SEED")
  }
  var rng = SplitMix64(state: seed)
  let directions = SwipeDirection.allCases
  for _ in 0..<steps {
    let roll = Int.random(in: 0..<10, using: &rng)
    do {
      if roll < 7 {
        let direction = directions[Int.random(in: 0..<3, using: &rng)]
        say("do swipe \(direction.rawValue)")
        try session.swipe(direction)
      } else if roll < 9 {
        say("do undo")
        try session.undo()
      } else {
        let decided = session.state.cursor
        guard decided > 0 else {
          say("do undo")
          try session.undo()
          say("ok")
          continue
        }
        let index = Int.random(in: 0..<decided, using: &rng)
        let decision = PhotoDecision.allCases[Int.random(in: 0..<3, using: &rng)]
        say("do change \(index) \(decision.rawValue)")
        try session.change(session.state.photos[index], to: decision)
      }
      say("ok")
    } catch {
      say("err \(error.code.rawValue)")
    }
  }
  say("finished")
case "commit":
  guard arguments.count == 5, let batch = Int(arguments[4]) else {
    fail("usage: photo-session-driver commit STORE SESSION BATCH")
  }
  do {
    try session.commit(batchSize: batch) { progress in say("done \(progress.photo)") }
    say("finished")
  } catch {
    fail("commit failed: \(error)")
  }
case "restore":
  let trashed = session.review(.trash).filter { $0.commitState == .applied }
  for item in trashed {
    do {
      _ = try opened.library.restore(item.photo)
      say("done \(item.photo)")
    } catch {
      say("err \(item.photo) \(error.code.rawValue)")
    }
  }
  do {
    try opened.library.flush()
    say("finished")
  } catch {
    fail("flush failed: \(error)")
  }
case "rescan":
  say("do rescan")
  do {
    let report = try opened.rescan()
    say("ok \(report.change.added.count)")
  } catch {
    fail("rescan failed: \(error)")
  }
default:
  fail("unknown mode \(arguments[1])")
}
