import Gestures
import Offload

/// The changes the organize pages post, each told apart by its `action` member and carrying
/// what that action needs; the members sit beside `action` in one JSON object, as the pages
/// write them.
///
/// A body is refused while it is read, with one line: when it has no `action` or a member of
/// the wrong kind ("the body must be a JSON command"); otherwise (a ``DeckFailure`` with status
/// 400) when its action is not one the page has, when a collection page's change names no
/// `collection`, or when the action lacks a member that says what it changes or how: the `id`
/// of `rename`, `edit` and `move`, the `ids` (or `id`) of the collections page's `delete`, the
/// `target` of `moveTo`, the `direction` (or, on the collections page, `after`) of `move`, a
/// `kind` other than `list` or `plan`. Any other member left out takes its default: `done`,
/// `delete` and `moveTo` of a collection page without `ids`, `id` or `all` select no row, which
/// the change refuses, and a missing `name` or `text` is "", which the store refuses.
enum OrganizeCommand {
  /// A change of the collections page (`POST /api/collections`).
  struct Collections: Decodable {
    enum Action {
      /// A new collection, named `name` (the store refuses an empty one), a list unless
      /// `kind` says `plan`.
      case create(name: String, kind: CollectionKind)
      case rename(id: String, name: String)
      /// The collections `ids` (or the one `id`), with their items.
      case delete(ids: [String])
      case move(id: String, to: Step)
      /// A thought into the inbox (`text`), at its end whatever the page shows.
      case capture(text: String)
      /// Takes back the newest change made on this page (`made`: the history sequences of
      /// its changes, oldest first).
      case undo(made: [UInt64])
    }

    /// Where `move` takes a collection: one place up or down among the collections after the
    /// inbox, first after it (`direction`), or after another collection (`after`: a drag).
    enum Step {
      case up, down, first
      case after(String)
    }

    /// The version of the view the page showed; `capture` and `undo` need none.
    var version: String?
    var action: Action
  }

  /// A change of a collection page (`POST /api/items`).
  struct Items: Decodable {
    enum Action {
      /// A new row with `text` (the store refuses an empty one), after the row `after` or last.
      case add(text: String, after: String?)
      case edit(id: String, text: String)
      /// Marks the rows done (`done`, true unless it says false) or not done.
      case done(Selection, Bool)
      case delete(Selection)
      /// Moves the rows into the collection `target` (by id), last.
      case moveTo(Selection, target: String)
      /// A keyboard move of one row (`direction`); `collapsed` names the rows whose children
      /// the page hides (a session-only collapse), which an up or down move steps over.
      case move(id: String, KeyboardMove, collapsed: [String])
      /// As the collections page's undo.
      case undo(made: [UInt64])
    }

    /// The rows a change names: `ids` (or the one `id`), or every row of the collection
    /// (`all`: select all) except `except`.
    enum Selection {
      case ids([String])
      case all(except: [String])
    }

    /// The collection the page shows, by id or name.
    var collection: String
    /// The version of the view the page showed; `undo` needs none.
    var version: String?
    var action: Action
  }

  /// The members of both pages' changes.
  enum Member: String, CodingKey {
    case action, version, collection, id, ids, name, kind, text, after, direction, made, done
    case all, except, target, collapsed
  }
}

// The decoding sits in extensions, so the commands keep their memberwise initializers.
extension OrganizeCommand.Collections {
  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: OrganizeCommand.Member.self)
    version = try c.decodeIfPresent(String.self, forKey: .version)
    switch try c.decode(String.self, forKey: .action) {
    case "create":
      guard let kind = CollectionKind(rawValue: try c.string(.kind) ?? "list") else {
        throw DeckFailure(status: 400, "kind must be list or plan")
      }
      action = .create(name: try c.string(.name) ?? "", kind: kind)
    case "rename":
      action = .rename(
        id: try c.required(.id, "rename needs a collection id"), name: try c.string(.name) ?? "")
    case "delete":
      let ids = try c.ids()
      guard !ids.isEmpty else { throw DeckFailure(status: 400, "delete needs collection ids") }
      action = .delete(ids: ids)
    case "move":
      let id = try c.required(.id, "move needs a collection id")
      let step: Step
      switch (try c.string(.after), try c.string(.direction)) {
      case (let after?, _): step = .after(after)
      case (nil, "up"): step = .up
      case (nil, "down"): step = .down
      case (nil, "first"): step = .first
      default: throw DeckFailure(status: 400, "move needs direction up, down or first, or after")
      }
      action = .move(id: id, to: step)
    case "capture":
      action = .capture(text: try c.string(.text) ?? "")
    case "undo":
      action = .undo(made: try c.made())
    case let other:
      throw c.unknown(other)
    }
  }
}

extension OrganizeCommand.Items {
  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: OrganizeCommand.Member.self)
    // The action first: a body without one is no command at all, whatever else it lacks.
    let named = try c.decode(String.self, forKey: .action)
    collection = try c.required(.collection, "the command names no collection")
    version = try c.decodeIfPresent(String.self, forKey: .version)
    func selection() throws -> Selection {
      guard try c.decodeIfPresent(Bool.self, forKey: .all) == true else {
        return .ids(try c.ids())
      }
      return .all(except: try c.decodeIfPresent([String].self, forKey: .except) ?? [])
    }
    switch named {
    case "add":
      action = .add(text: try c.string(.text) ?? "", after: try c.string(.after))
    case "edit":
      action = .edit(
        id: try c.required(.id, "edit needs an item id"), text: try c.string(.text) ?? "")
    case "done":
      action = .done(try selection(), try c.decodeIfPresent(Bool.self, forKey: .done) ?? true)
    case "delete":
      action = .delete(try selection())
    case "moveTo":
      let rows = try selection()
      action = .moveTo(rows, target: try c.required(.target, "Move to needs a collection"))
    case "move":
      let id = try c.required(.id, "move needs an item id")
      guard let step = try c.string(.direction).flatMap(KeyboardMove.init) else {
        throw DeckFailure(status: 400, "move needs direction up, down, indent or outdent")
      }
      let collapsed = try c.decodeIfPresent([String].self, forKey: .collapsed) ?? []
      action = .move(id: id, step, collapsed: collapsed)
    case "undo":
      action = .undo(made: try c.made())
    case let other:
      throw c.unknown(other)
    }
  }
}

extension KeyedDecodingContainer<OrganizeCommand.Member> {
  fileprivate func string(_ key: Key) throws -> String? {
    try decodeIfPresent(String.self, forKey: key)
  }

  /// A member the action cannot go without: present and not empty, else refused with `message`.
  fileprivate func required(_ key: Key, _ message: String) throws -> String {
    guard let value = try string(key), !value.isEmpty else {
      throw DeckFailure(status: 400, message)
    }
    return value
  }

  /// `ids`, or the one `id`, or none.
  fileprivate func ids() throws -> [String] {
    try decodeIfPresent([String].self, forKey: .ids) ?? string(.id).map { [$0] } ?? []
  }

  /// With `undo`: the history sequences of the changes made on this page, oldest first.
  fileprivate func made() throws -> [UInt64] {
    try decodeIfPresent([UInt64].self, forKey: .made) ?? []
  }

  /// The refusal of an action the page does not have.
  fileprivate func unknown(_ action: String) -> DeckFailure {
    DeckFailure(status: 400, "unknown action \"\(Printable.clean(action))\"")
  }
}
