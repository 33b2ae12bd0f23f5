/// A card's rating, flag and colour label, set during culling and written into the XMP of
/// every image of the card at commit (unless the card is trashed).
///
/// The marks are separate from the ``PhotoDecision``: a favorite is written as rating 5 (the
/// library's favorite rating) unless the user set another rating; a reject is written as
/// `xmp:Rating="-1"`, as Lightroom and darktable read it, whatever the rating.
public struct PhotoMarks: Hashable, Sendable, Codable {
  /// A pick or reject flag.
  public enum Flag: String, Hashable, Sendable, CaseIterable, Codable {
    /// Picked: kept in the session; XMP has no pick field, so it clears a reject and writes
    /// nothing by itself.
    case pick
    /// Rejected: written as `xmp:Rating="-1"`.
    case reject
  }

  /// A colour label, written as `xmp:Label` with the capitalised English name.
  public enum ColorLabel: String, Hashable, Sendable, CaseIterable, Codable {
    /// `Red`.
    case red
    /// `Yellow`.
    case yellow
    /// `Green`.
    case green
    /// `Blue`.
    case blue
    /// `Purple`.
    case purple

    /// The `xmp:Label` value (`Red`, `Yellow`, ...), as Lightroom, Bridge and darktable write it.
    public var xmpValue: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// The label for an `xmp:Label` value, case-insensitively, or nil for any other text.
    public init?(xmpValue: some StringProtocol) {
      self.init(rawValue: xmpValue.lowercased())
    }
  }

  /// The star rating the user set, 0 to 5.
  public var rating: Int?
  /// The flag the user set.
  public var flag: Flag?
  /// The colour label the user set.
  public var label: ColorLabel?

  /// Marks with nothing set.
  public init(rating: Int? = nil, flag: Flag? = nil, label: ColorLabel? = nil) {
    self.rating = rating
    self.flag = flag
    self.label = label
  }

  /// Whether nothing is set.
  public var isEmpty: Bool { rating == nil && flag == nil && label == nil }

  /// The `xmp:Rating` commit writes for a card with `decision`: -1 for a reject, else the
  /// rating set, else `favoriteRating` for a favorite, else nil (nothing written).
  public func xmpRating(for decision: PhotoDecision, favoriteRating: Int) -> Int? {
    if flag == .reject { return -1 }
    if let rating { return rating }
    return decision == .favorite ? favoriteRating : nil
  }

  private enum CodingKeys: String, CodingKey {
    case rating = "r"
    case flag = "f"
    case label = "l"
  }
}
