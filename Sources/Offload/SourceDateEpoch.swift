/// `SOURCE_DATE_EPOCH`, the reproducible-builds convention: when the environment sets it (a
/// number of seconds since 1970), every clock that writes a timestamp reads that moment
/// instead, so two runs write the same bytes. The store and the photo sessions both honour it.
public enum SourceDateEpoch {
  /// The variable's name.
  public static let name = "SOURCE_DATE_EPOCH"

  /// The seconds since 1970 that `environment` fixes the clock at, or nil when the variable is
  /// unset or not a number.
  public static func seconds(in environment: [String: String]) -> Double? {
    environment[name].flatMap(Double.init)
  }
}
