import Foundation
import Gestures
import Hummingbird
import HummingbirdWebSocket
import Offload
import Synchronization

/// One organize page's WebSocket: the change feed (the watched view's version, sent when
/// another tab or the command line changed it) and the row strokes (pointer samples in, the
/// arena's and the drop resolver's answers out; a drop or a swipe-delete as one change).
///
/// The feed is pushed, not polled: it sleeps until the server's ``StoreChanges`` says the
/// store changed (a change saved by this server, or one the store's watch saw another process
/// make) or the page names what it watches, then learns the watched version: from the
/// service's memory while the store's change stamp is the one it was read or made at (the
/// wake-ups a change of this server causes, its own and the watch's, read nothing), else by
/// reading the store once (``OrganizeService/version(_:)``).
struct OrganizeChannel {
  /// The most visible rows one message may describe.
  static let visibleRows = 80

  let service: OrganizeService

  func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
    let outbox = Outbox(outbound)
    let listener = service.changes.listen()
    let watched = Watched(listener: listener)
    let checkpoint = QuietCheckpoint(service: service)
    defer {
      service.changes.stop(listener)
      Task { await checkpoint.close() }
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        try await feed(watched: watched, outbox: outbox)
      }
      group.addTask {
        try await read(inbound, watched: watched, outbox: outbox, checkpoint: checkpoint)
      }
      try await group.next()
      group.cancelAll()
    }
  }

  /// What a page watches: a collection (by id) or the collections page (nil), and the
  /// version it was last told.
  struct Watch: Sendable {
    var collection: String?
    var version: String?
  }

  /// The watch, shared by the reader and the feed; and whether a change of this page's own is
  /// being carried out (the feed then waits for it, so it does not report the page's own
  /// change back to it before the page is told its new version).
  final class Watched: Sendable {
    let watch = Mutex<Watch?>(nil)
    let busy = Mutex(false)
    let listener: StoreChanges.Listener

    init(listener: StoreChanges.Listener) {
      self.listener = listener
    }

    func withLock<T>(_ body: (inout Watch?) -> T) -> T {
      watch.withLock { body(&$0) }
    }
  }

  private func feed(watched: Watched, outbox: Outbox) async throws {
    // What arrived from other devices since the page opened goes with each push.
    var mark = service.workspace.arrivals(since: nil)?.mark
    for await _ in watched.listener.stream {
      guard let watch = watched.withLock({ $0 }), !watched.busy.withLock({ $0 }) else {
        continue
      }
      let version: String?
      if let collection = watch.collection {
        version = service.version(collection)
      } else {
        version = try? await service.collections().version
      }
      guard let version, version != watch.version else { continue }
      watched.withLock { $0?.version = version }
      let arrivals = service.workspace.arrivals(since: mark)
      mark = arrivals?.mark ?? mark
      try await outbox.send(
        .changed(version: version, arrivals: arrivals?.summary))
    }
  }

  private func read(
    _ inbound: WebSocketInboundStream, watched: Watched, outbox: Outbox,
    checkpoint: QuietCheckpoint
  ) async throws {
    var stroke: OrganizeStroke?
    /// The last stroke's arena while its row rests revealed (its quick actions open): the
    /// row's next stroke continues it; a touch elsewhere or `close` closes it.
    var revealed: OrganizeStroke?
    var last = (x: 0.0, y: 0.0, pointer: 0)
    var clock = 0.0
    let decoder = JSONDecoder()
    for try await message in inbound.messages(maxSize: WebLimits.message) {
      guard case .text(let text) = message else {
        try await outbox.send(.error("not an organize message"))
        continue
      }
      let input: OrganizeInput
      do {
        input = try decoder.decode(OrganizeInput.self, from: Data(text.utf8))
      } catch let refusal as OrganizeInput.Refusal {
        try await outbox.send(.error(refusal.message))
        continue
      } catch {
        try await outbox.send(.error("not an organize message"))
        continue
      }
      var phase: TouchPhase?
      let t: Double
      let n: Int?
      switch input {
      case .watch(let collection, let version):
        watched.withLock { $0 = Watch(collection: collection, version: version) }
        watched.listener.poke()
        continue
      case .close(let time):
        if var kept = revealed {
          revealed = nil
          for message in kept.close(milliseconds: time ?? clock) {
            try await outbox.send(message)
          }
        }
        continue
      case .rows(let geometry, let x, let y, let number):
        guard var current = stroke else { continue }
        current.update(geometry)
        let answer = current.retarget(x: x ?? last.x, y: y ?? last.y)
        stroke = current
        // The answer names its stroke and message, as a sample's does, so the page takes it.
        if let answer {
          try await outbox.send(answer, stroke: current.number, sample: number)
        }
        continue
      case .advance(let time, let number):
        (t, n) = (time, number)
      case .sample(let sample):
        (t, n) = (sample.t, sample.n)
        phase = sample.phase
        last = (sample.x, sample.y, sample.pointer)
        if sample.phase == .began {
          checkpoint.strokeBegan()
          stroke = nil
          if var kept = revealed {
            revealed = nil
            if kept.continues(sample.begin) {
              kept.resume(sample.begin, geometry: sample.geometry)
              stroke = kept
            } else {
              for message in kept.close(milliseconds: t) { try await outbox.send(message) }
            }
          }
          do {
            if stroke == nil { stroke = try await begin(sample, time: t / 1000) }
          } catch let failure as DeckFailure {
            stroke = nil
            try await outbox.send(
              .snapBack(.notBegun(error: failure.description)), stroke: sample.begin.stroke)
            continue
          }
        } else if var current = stroke {
          current.update(sample.geometry)
          stroke = current
        }
      }
      guard var current = stroke else { continue }
      let (messages, effect) = current.feed(
        phase: phase, milliseconds: t, x: last.x, y: last.y, pointer: last.pointer)
      stroke = current
      clock = t
      if phase == .ended || phase == .cancelled, current.arena.isRowRevealed {
        revealed = current
      }
      for message in messages {
        try await outbox.send(message, stroke: current.number, sample: n)
      }
      if phase == .ended || phase == .cancelled { stroke = nil }
      if let effect {
        watched.busy.withLock { $0 = true }
        let saved = try await carryOut(effect, current, outbox, watched)
        watched.busy.withLock { $0 = false }
        watched.listener.poke()
        if saved { await checkpoint.changed() }
      }
      if phase == .ended || phase == .cancelled { checkpoint.strokeEnded() }
    }
  }

  /// A stroke on a row of the collection the page shows, at the version it shows.
  private func begin(_ sample: OrganizeInput.Sample, time: Double) async throws -> OrganizeStroke {
    let input = sample.begin
    guard let collection = input.collection, let version = input.version, let row = input.id else {
      throw DeckFailure(status: 400, "a stroke begins on a row of a collection")
    }
    let (tree, rules, current) = try await service.load(collection)
    try OrganizeService.checkVersion(version, current, what: "this list")
    let id = try OrganizeService.shortID(row, in: tree)
    var stroke = OrganizeStroke(
      collection: collection, version: version, id: id, rules: rules,
      handle: input.surface == "handle", begin: input, geometry: sample.geometry, time: time)
    stroke.shown = tree
    return stroke
  }

  /// Carries out a drop or a swipe-delete and answers. The new view's version becomes the
  /// watched one at once, so the change feed does not report the page's own change as one
  /// made elsewhere before the page names it.
  ///
  /// - Returns: Whether a change was saved (the store's checkpoint then follows when the page
  ///   is still, `QuietCheckpoint`).
  private func carryOut(
    _ effect: OrganizeStroke.Effect, _ stroke: OrganizeStroke, _ outbox: Outbox,
    _ watched: Watched
  ) async throws -> Bool {
    func watching(_ version: String) {
      watched.withLock { watch in
        if watch?.collection == stroke.collection { watch?.version = version }
      }
    }
    let outbox = StrokeOutbox(outbox: outbox, number: stroke.number)
    let id = stroke.id.rawValue
    do {
      switch effect {
      case .delete:
        let (done, view, made) = try await service.remove(
          id, in: stroke.collection, version: stroke.version)
        watching(view.version)
        try await outbox.send(.deleted(id: id, done: done, view: view, made: made))
        return true
      case .drop(let target):
        if case .blocked(let refusal, _) = target {
          try await outbox.send(
            .snapBack(.blocked(id: id, reason: refusal.reason, motion: stroke.motion(.snapBack))))
          return false
        }
        // Saved first: `dropped` goes out once the move is durable, then the view that
        // shows it; the checkpoint waits for the page to be still.
        let saved = try await service.drop(
          target, moving: id, in: stroke.collection, version: stroke.version,
          shown: stroke.shown)
        try await outbox.send(.dropped(id: id, made: saved.made))
        let view = service.view(after: saved, of: stroke.collection)
        watching(view.version)
        try await outbox.send(.view(id: id, view: view))
        return true
      }
    } catch let failure as DeckFailure {
      try await outbox.send(
        .snapBack(
          .failed(id: id, error: failure.description, motion: stroke.motion(.snapBack))))
      return false
    }
  }
}

/// An outbox that stamps each answer with its stroke's number.
struct StrokeOutbox {
  let outbox: Outbox
  let number: Int?

  func send(_ message: OrganizeOutput) async throws {
    try await outbox.send(message, stroke: number)
  }
}

/// Serializes the writes of the feed and the strokes onto one socket.
actor Outbox {
  let outbound: WebSocketOutboundWriter

  init(_ outbound: WebSocketOutboundWriter) {
    self.outbound = outbound
  }

  /// Sends a message, with its stroke's and sample's numbers when given.
  func send(_ message: OrganizeOutput, stroke: Int? = nil, sample: Int? = nil) async throws {
    let stamped = OrganizeOutput.Stamped(output: message, stroke: stroke, sample: sample)
    try await outbound.write(.text(String(decoding: WebShapes.encode(stamped), as: UTF8.self)))
  }
}
