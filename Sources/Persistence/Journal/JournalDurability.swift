/// When a journal fsyncs its appends.
///
/// Every append is written to the operating system before ``JSONLinesJournal/append(_:)``
/// returns, so a crash of the process never loses an acknowledged entry. The policy decides what
/// a crash of the whole machine (power loss, kernel panic) may lose.
public enum JournalDurability: Sendable, Hashable {
  /// fsync after every entry: `append` returns only when the entry is on stable storage.
  case everyEntry
  /// fsync once `entries` appends are pending or `interval` has passed since the first pending
  /// one (checked at each append; ``JSONLinesJournal/sync()`` and `close` flush the rest).
  case batched(entries: Int, interval: Duration)
  /// Never fsync on append; only ``JSONLinesJournal/sync()``, compaction and `close` do.
  case never
}
