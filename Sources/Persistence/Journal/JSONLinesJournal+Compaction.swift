extension JSONLinesJournal {
  /// Replaces the snapshot and the journal with `snapshot` and an empty journal, atomically.
  ///
  /// `snapshot` must be the state after every entry appended so far (through
  /// ``lastSequence``). The protocol, with *g* the current generation:
  ///
  /// 1. write `<name>.<g+1>.jsonl` holding only a header (generation *g*+1, base sequence
  ///    ``lastSequence``), fsync it and the folder;
  /// 2. save the snapshot atomically (temporary file, fsync, rename, folder fsync) with
  ///    generation *g*+1 in its envelope: the rename is the commit point;
  /// 3. remove `<name>.<g>.jsonl`.
  ///
  /// A crash before the rename leaves the old snapshot, which names generation *g*: the old
  /// journal is read and the new one is removed on the next open. A crash after it leaves the
  /// new snapshot, which names generation *g*+1, whose journal already exists: the old journal is
  /// removed on the next open. Either way the old pair or the new pair, never a mix.
  ///
  /// - Parameter snapshot: The state that includes every entry appended so far.
  /// - Throws: ``PersistenceError``. When the failure came before the commit point the journal
  ///   stays usable on the old pair; after it, the journal refuses appends until reopened.
  /// - Complexity: O(*s*), where *s* is the size of the encoded snapshot.
  public func compact(_ snapshot: Snapshot) throws(PersistenceError) {
    _ = try usableFile()
    let next = JournalPosition(generation: generation + 1, lastSequence: lastSequence)
    let nextPath = Self.journalPath(directory, name, next.generation)
    let headerLength: Int
    do throws(PersistenceError) {
      headerLength = try Self.writeHeader(
        path: nextPath, position: next, format: format, fileSystem: fileSystem)
    } catch {
      AtomicFile.removeQuietly(nextPath, fileSystem: fileSystem)
      throw error
    }
    var committed = false
    do throws(PersistenceError) {
      try Self.snapshotStore(directory, name, format, fileSystem).save(
        snapshot, journal: next, renamed: &committed)
    } catch {
      if committed {
        markUnusable(after: error)
        detachFile()
      } else {
        AtomicFile.removeQuietly(nextPath, fileSystem: fileSystem)
      }
      throw error
    }
    let file: OpenFile
    do throws(PersistenceError) {
      file = try fileSystem.open(nextPath, .append)
    } catch {
      markUnusable(after: error)
      detachFile()
      throw error
    }
    let oldPath = journalPath
    switchTo(generation: next.generation, file: file, length: headerLength)
    // A leftover old journal is harmless: the next open removes it.
    AtomicFile.removeQuietly(oldPath, fileSystem: fileSystem)
  }
}
