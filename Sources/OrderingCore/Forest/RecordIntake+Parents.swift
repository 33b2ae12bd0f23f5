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
              let mask = table.count &- 1
              var blockStart = 0
              while blockStart < count {
                let blockEnd = min(blockStart &+ Self.blockSize, count)
                for entry in blockStart..<blockEnd {
                  hashes[entry &- blockStart] = storedParents[entry]?.hashValue ?? 0
                }
                for entry in blockStart..<blockEnd {
                  guard let parent = storedParents[entry] else { continue }
                  let hash = hashes[entry &- blockStart]
                  let tag = UInt64(UInt(bitPattern: hash)) & 0xFFFF_FFFF_0000_0000
                  var bucket = hash & mask
                  while true {
                    let value = table[bucket]
                    if value == Self.vacant {
                      missing.append(entry)
                      break
                    }
                    if value & 0xFFFF_FFFF_0000_0000 == tag {
                      let found = Int(truncatingIfNeeded: value & 0xFFFF_FFFF)
                      if ids[found] == parent {
                        parents[entry] = Int32(truncatingIfNeeded: found)
                        break
                      }
                    }
                    bucket = (bucket &+ 1) & mask
                  }
                }
                blockStart = blockEnd
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
