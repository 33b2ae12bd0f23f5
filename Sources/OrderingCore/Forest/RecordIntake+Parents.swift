// The parent passes of a build: every stored parent id looked up in the id table, then every
// parent cycle cut.

extension RecordIntake {
  /// Each entry's parent entry, or -1 for a root; a parent that does not exist makes a root,
  /// reported and marked rewritten.
  ///
  /// Like the table's filling, the lookups go block by block: a block's parent ids are
  /// hashed first, and then a tight loop probes the table for each, so their misses overlap.
  ///
  /// - Complexity: O(*n*) expected.
  @inlinable
  mutating func resolveParents(rewritten: inout [Bool]) -> [Int32] {
    let count = self.count
    var parents = [Int32](repeating: -1, count: count)
    var missing: [Int] = []
    var hashes = [Int](repeating: 0, count: Self.blockSize)
    ids.withUnsafeBufferPointer { ids in
      storedParents.withUnsafeBufferPointer { storedParents in
        buckets.withUnsafeBufferPointer { table in
          parents.withUnsafeMutableBufferPointer { parents in
            hashes.withUnsafeMutableBufferPointer { hashes in
              let hashOf = { (entry: Int) in storedParents[entry]?.hashValue ?? 0 }
              Self.inBlocks(count, hashes: hashes, hash: hashOf) { entry, hash in
                guard let parent = storedParents[entry] else { return }
                if let found = Self.probe(table, hash: hash, isMatch: { ids[$0] == parent }).entry {
                  parents[entry] = Int32(truncatingIfNeeded: found)
                } else {
                  missing.append(entry)
                }
              }
            }
          }
        }
      }
    }
    for entry in missing {
      if let parent = storedParents[entry] {
        repairs.append(Repair(id: ids[entry], kind: .missingParent(parent)))
      }
      rewritten[entry] = true
    }
    storedParents = []
    return parents
  }

  /// Cuts every parent cycle at its smallest id, which becomes a root, reported and marked
  /// rewritten.
  ///
  /// Walks up from every entry not seen yet; a walk that meets itself found a cycle.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  mutating func cutCycles(_ parents: inout [Int32], rewritten: inout [Bool]) {
    var state = [UInt8](repeating: 0, count: count)  // 0 new, 1 on the walk, 2 done
    var path: [Int] = []
    for start in 0..<count where state[start] == 0 {
      // Most walks end at once: a root, or a parent already walked.
      let parent = Int(parents[start])
      if parent < 0 || state[parent] == 2 {
        state[start] = 2
        continue
      }
      var length = 0
      var current = start
      while current >= 0 && state[current] == 0 {
        state[current] = 1
        if length < path.count { path[length] = current } else { path.append(current) }
        length += 1
        current = Int(parents[current])
      }
      if current >= 0 && state[current] == 1, let first = path[..<length].lastIndex(of: current) {
        let cut = path[first..<length].min { ids[$0] < ids[$1] } ?? current
        var members = [ids[cut]]
        var member = Int(parents[cut])
        while member != cut {
          members.append(ids[member])
          member = Int(parents[member])
        }
        parents[cut] = -1
        rewritten[cut] = true
        repairs.append(Repair(id: ids[cut], kind: .cycle(members)))
      }
      for entry in path[..<length] { state[entry] = 2 }
    }
  }
}
