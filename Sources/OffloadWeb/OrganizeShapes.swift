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
