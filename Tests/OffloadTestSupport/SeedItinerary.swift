/// The seed itinerary every surface's scenario test builds: three days with games, a travel
/// segment and free items, roles given as the command line's `--role` words. The texts do not
/// follow the old text convention (no `Game:`, no `(days 1-2)`), so only stored roles can
/// make the rules.
public enum SeedItinerary {
  /// Each day header with its items: text and role word (nil for a free item).
  public static let days: [(text: String, items: [(text: String, role: String?)])] = [
    (
      "Boston",
      [("Red Sox at Fenway", "fixed"), ("Drive to New York", "segment:1-2"), ("Lobster roll", nil)]
    ),
    ("New York", [("Museum", nil)]),
    ("Philadelphia", [("Phillies game", "fixed"), ("Cheesesteak", nil)]),
  ]

  /// The game every surface tries to move onto another day.
  public static let game = "Red Sox at Fenway"
  /// The travel segment every surface tries to move outside its days.
  public static let travel = "Drive to New York"
  /// Why the game stays where it is.
  public static let fixedReason = "day headers and games stay where they are"
  /// Why the segment may not go on day 3.
  public static let placementReason =
    "items go on a day (a travel segment only on a day of its range), never beside a day header"
  /// Why an item's text may not be blank, on every surface.
  public static let emptyTextReason = "an item's text cannot be empty"
  /// The list every surface moves a row out of and into the itinerary.
  public static let groceries = "Groceries"
  /// The list's one row.
  public static let milk = "Milk"
}
