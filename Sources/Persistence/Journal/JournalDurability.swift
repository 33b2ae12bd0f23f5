/// When a journal fsyncs its appends.
///
/// With ``everyEntry`` and ``batched(entries:interval:)`` every append is written to the
/// operating system before ``JSONLinesJournal/append(_:)`` returns, so a crash of the process
/// never loses an acknowledged entry; the policy decides what a crash of the whole machine
/// (power loss, kernel panic) may lose. ``never`` also buffers appends in memory.
public enum JournalDurability: Sendable, Hashable {
  /// fsync after every entry: `append` returns only when the entry is on stable storage.
  case everyEntry
  /// fsync once `entries` appends are pending or `interval` has passed since the first pending
  /// one (checked at each append; ``JSONLinesJournal/sync()`` and `close` flush the rest).
  case batched(entries: Int, interval: Duration)
  /// Never fsync on append, and buffer appends in memory (up to 64 KiB) until the buffer fills
  /// or ``JSONLinesJournal/sync()``, compaction or `close` writes them: the fastest policy, for
  /// data that can be rebuilt, since a crash of the process loses the buffered entries.
  case never
}
