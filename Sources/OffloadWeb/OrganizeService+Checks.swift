import Foundation
import Offload

// The organize service's checks (the view's version, here and under the store lock), the
// rows a command names, and the mapping of workspace errors to statuses.
extension OrganizeService {
  /// Refuses a command without a version (400) or with another one than the view's (409).
  static func checkVersion(_ given: String?, _ current: String, what: String) throws(DeckFailure) {
    guard let given else { throw DeckFailure(status: 400, "the command carries no view version") }
    guard given == current else { throw DeckFailure(status: 409, stale(what)) }
  }

  /// Why a change against an older view is refused.
  static func stale(_ what: String) -> String {
    "\(what.prefix(1).uppercased() + what.dropFirst()) changed since the page showed it (in another tab or from the command line); nothing was changed. The page now shows the current rows."
  }

  /// The check a change of a collection page runs under the store lock: the collection is
  /// still at the version the page showed (`run` maps the conflict to 409).
  ///
  /// - Complexity: O(*n* log *n*) per change, where *n* is the number of the collection's items.
  static func expecting(_ version: String, of collection: ShortID) -> ChangeExpectation {
    { (base: inout ChangeBase) throws(WorkspaceError) in
      guard Self.version(of: try base.collection(collection)) == version else {
        throw WorkspaceError(.conflict, Self.stale("this list"))
      }
    }
  }

  /// The check a change of the collections page runs under the store lock.
  ///
  /// - Complexity: O(*c*) per change, where *c* is the number of collections.
  static func expecting(collections version: String) -> ChangeExpectation {
    { (base: inout ChangeBase) throws(WorkspaceError) in
      guard Self.version(of: base.collections) == version else {
        throw WorkspaceError(.conflict, Self.stale("the collections"))
      }
    }
  }

  /// The rows a command names, each of which must be in the collection the page shows.
  static func selection(
    _ rows: OrganizeCommand.Items.Selection, in tree: CollectionTree
  ) throws(DeckFailure) -> ItemSelection {
    switch rows {
    case .all(let except):
      for id in except { _ = try item(id, in: tree) }
      return ItemSelection(terms: [], includesAll: true, exceptions: except.map { .id($0) })
    case .ids(let ids):
      for id in ids { _ = try item(id, in: tree) }
      guard !ids.isEmpty else { throw DeckFailure(status: 400, "select at least one item") }
      return ItemSelection(terms: ids.map { .id($0) })
    }
  }

  static func count(_ items: Int) -> String { items == 1 ? "1 item" : "\(items) items" }

  static func required(_ value: String?, _ message: String) throws(DeckFailure) -> String {
    guard let value, !value.isEmpty else { throw DeckFailure(status: 400, message) }
    return value
  }

  /// An item id the page named, which must be in the collection it shows.
  static func item(_ id: String?, in tree: CollectionTree) throws(DeckFailure) -> String {
    try shortID(id, in: tree).rawValue
  }

  /// The id of an item the page named, which must be in the collection it shows.
  static func shortID(_ id: String?, in tree: CollectionTree) throws(DeckFailure) -> ShortID {
    guard let id, let short = ShortID(id), tree.items[short] != nil else {
      throw DeckFailure(status: 404, "no such item in this collection")
    }
    return short
  }

  /// Runs a workspace call, mapping its error to a status.
  @discardableResult
  func run<T>(_ body: () throws(WorkspaceError) -> T) throws(DeckFailure) -> T {
    do {
      return try body()
    } catch {
      let status: Int
      switch error.code {
      case .notFound: status = 404
      case .ambiguous, .invalidRequest, .badInput: status = 400
      case .refused, .alreadyExists, .notEmpty, .nothingToUndo, .conflict: status = 409
      case .storeBusy: status = 503
      default: status = 500
      }
      throw DeckFailure(status: status, Printable.clean(error.description))
    }
  }
}

/// A 64-bit FNV-1a digest of lines, as 16 hexadecimal digits (a view's version).
struct Digest {
  private var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ line: String) { field(line, separator: 0x0a) }

  /// Adds one field's bytes and a separator (by default a unit separator, which no text
  /// holds; a line break for ``add(_:)``).
  mutating func field(_ text: String, separator: UInt8 = 0x1f) {
    for byte in text.utf8 {
      value ^= UInt64(byte)
      value = value &* 0x100_0000_01b3
    }
    value ^= UInt64(separator)
    value = value &* 0x100_0000_01b3
  }

  /// The digest, its bits spread (SplitMix64's finalizer), so sums of digests do not cancel.
  var mixed: UInt64 {
    var z = value &+ 0x9e37_79b9_7f4a_7c15
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
