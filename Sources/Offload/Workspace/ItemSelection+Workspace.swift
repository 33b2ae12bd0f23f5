// `ItemSelection` lives in the pure `Editing` module; these are its forms over a workspace's
// collections: ids checked as `ShortID`s, rows from a `CollectionTree`, refusals as
// `WorkspaceError`s with the same sentences.

extension ItemSelection {
  /// Parses command-line words (see `ItemSelection.parse(_:all:except:isID:)` in Editing),
  /// reading id prefixes as `ShortID`s.
  ///
  /// - Parameters:
  ///   - words: Ids, id prefixes, outline numbers and ranges.
  ///   - all: Whether `--all` was given.
  ///   - except: The words after `--except`.
  /// - Returns: The selection.
  /// - Throws: ``WorkspaceError/Code/badInput`` for a word that is none of these, and
  ///   ``WorkspaceError/Code/invalidRequest`` when nothing is selected at all.
  /// - Complexity: O(*w*), where *w* is the total length of the words.
  public static func parse(_ words: [String], all: Bool = false, except: [String] = [])
    throws(WorkspaceError) -> ItemSelection
  {
    try workspaceError { () throws(EditRefusal) in
      try parse(words, all: all, except: except, isID: { ShortID($0) != nil })
    }
  }

  /// Parses one word.
  ///
  /// - Parameter word: The word.
  /// - Returns: The term.
  /// - Throws: ``WorkspaceError/Code/badInput`` naming the word.
  /// - Complexity: O(*w*), where *w* is the length of the word.
  public static func term(_ word: String) throws(WorkspaceError) -> Term {
    try workspaceError { () throws(EditRefusal) in
      try term(word, isID: { ShortID($0) != nil })
    }
  }

  /// Resolves the selection against a collection's rows.
  ///
  /// - Parameters:
  ///   - tree: The collection, arranged.
  ///   - locate: Where an id prefix that is not in this collection lives, for the error
  ///     message (the collection's name), or `nil`.
  /// - Returns: The selected rows in displayed preorder, and the topmost of them.
  /// - Throws: ``WorkspaceError/Code/notFound`` for an outline number or an id not in the
  ///   collection, ``WorkspaceError/Code/ambiguous`` for an id prefix matching several
  ///   items, ``WorkspaceError/Code/invalidRequest`` for a range whose ends are reversed or a
  ///   selection that comes out empty.
  /// - Complexity: O(*n* + *t* · *n*) in the worst case, where *n* is the number of rows and
  ///   *t* the number of terms.
  public func resolve(
    in tree: CollectionTree, locate: (String) -> String? = { _ in nil }
  ) throws(WorkspaceError) -> Resolved<ShortID> {
    try Self.workspaceError { () throws(EditRefusal) in
      try resolve(
        in: tree.forest, named: tree.collection.name,
        candidates: tree.collection.items.map(\.id), locate: locate)
    }
  }

  /// A selection's refusal as the workspace's error, with the same sentence.
  static func workspaceError<T>(_ body: () throws(EditRefusal) -> T) throws(WorkspaceError) -> T {
    do {
      return try body()
    } catch {
      let code: WorkspaceError.Code =
        switch error.code {
        case "bad-input": .badInput
        case "invalid": .invalidRequest
        case "not-found": .notFound
        case "ambiguous": .ambiguous
        default: .damagedStore
        }
      throw WorkspaceError(code, error.reason)
    }
  }
}
