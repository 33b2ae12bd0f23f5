import Foundation
import Offload

/// The JSON documents of the organize pages (sorted keys, no control characters).
enum OrganizeShapes {
  /// The collections page: the inbox, then the lists and plans in their order.
  struct Collections: Codable, Equatable {
    struct Entry: Codable, Equatable {
      var id: String
      var name: String
      var kind: String
      var itemCount: Int
      var isInbox: Bool
    }
    var collections: [Entry]
    /// The version of this view; a change posted with another one is refused.
    var version: String
    var canUndo: Bool
  }

  /// One row of a collection, in outline order.
  struct Row: Codable, Equatable {
    var id: String
    var text: String
    var done: Bool
    var depth: Int
    var number: String
    var parent: String?
    var childCount: Int
    /// Whether the collection's rules keep the row where it is (an itinerary's day headers and games).
    var fixed: Bool
    /// The role the collection's rules read for the row (stored, or given by the text
    /// convention), in the words of `--role`: `day`, `day:2`, `fixed`, `segment:1-3`, `free`;
    /// absent when it has none.
    var role: String?
  }

  /// A collection page.
  struct Collection: Codable, Equatable {
    var id: String
    var name: String
    var kind: String
    /// Whether a trip itinerary's rules apply.
    var itinerary: Bool
    var rows: [Row]
    /// The version of this view; a change posted with another one is refused.
    var version: String
    var canUndo: Bool
  }

  /// What a change did, with the view after it.
  struct Changed<View: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    var done: String
    var view: View
    /// The item a change created, if any.
    var id: String?
    /// The history sequence of the change, when it can be undone: the page keeps it for its
    /// undo (`Workspace.undo(madeHere:)`).
    var made: UInt64?
    /// The history sequence an undo took back.
    var undone: UInt64?
  }
}

/// A command posted by an organize page.
struct OrganizeCommand: Decodable {
  /// What to do: `create`, `rename`, `delete`, `move`, `capture` (collections page); `add`,
  /// `edit`, `done`, `delete`, `move`, `undo` (a collection page).
  var action: String
  /// The version of the view the page showed.
  var version: String?
  /// The collection (a collection page), by id.
  var collection: String?
  /// Items or collections by id.
  var ids: [String]?
  var id: String?
  var name: String?
  var kind: String?
  var text: String?
  var done: Bool?
  /// `up`, `down`, `indent`, `outdent` (a keyboard move).
  var direction: String?
  /// Where a new row goes: after this item (nil: last).
  var after: String?
  /// With `undo`: the history sequences of the changes made on this page, oldest first.
  var made: [UInt64]?
  /// With `ids`: every row of the collection (select all), except `except`.
  var all: Bool?
  var except: [String]?
  /// The collection `moveTo` moves the rows into, by id.
  var target: String?
  /// Rows whose children the page hides (session-only collapse), for keyboard moves.
  var collapsed: [String]?
}
