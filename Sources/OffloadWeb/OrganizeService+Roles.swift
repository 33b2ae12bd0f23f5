import Offload

/// A collection page's request to set or clear one row's role in a plan (its Role menu).
struct OrganizeRoleCommand: Decodable, Sendable {
  /// The collection the page shows, by id.
  var collection: String
  /// The version of the view the page showed.
  var version: String?
  /// The row, by id.
  var id: String
  /// The role's word (`day`, `day:N`, `fixed`, `segment:N-M`, `free`), read by
  /// `PlacementRole(parsing:)`; nil clears the role.
  var role: String?
}

extension OrganizeService {
  /// Sets or clears a row's role as one change, through the collection's editor as
  /// `offloadctl item edit ID --role ROLE` does; a word that is not a role, or a role the rules
  /// refuse at the row's place, is refused with the library's one-line reason.
  ///
  /// - Parameter command: The decoded request.
  /// - Returns: What the page says and the collection as it now is.
  /// - Throws: 400 for a bad role word or a missing version, 404 for a row not in the
  ///   collection, 409 for a stale view or a role the rules refuse.
  /// - Complexity: O(*n* log *n*), where *n* is the number of the collection's items.
  func setRole(_ command: OrganizeRoleCommand) throws(DeckFailure)
    -> OrganizeShapes.Changed<OrganizeShapes.Collection>
  {
    let (tree, _, version) = try load(command.collection)
    try Self.checkVersion(command.version, version, what: "this list")
    let id = try Self.shortID(command.id, in: tree)
    let role: PlacementRole?
    do {
      role = try command.role.map { (word) throws(PlacementRoleError) in
        try PlacementRole(parsing: word)
      }
    } catch {
      throw DeckFailure(status: 400, error.message)
    }
    let workspace = workspace.changing(expecting: Self.expecting(version, of: tree.collection.id))
    try run { () throws(WorkspaceError) in try workspace.setRole(id, to: role) }
    let done = role.map { "Role set to \($0.description)" } ?? "Role cleared"
    return .init(done: done, view: try collection(command.collection), id: nil)
  }
}
