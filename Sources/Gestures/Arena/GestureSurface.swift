/// The gestures that compete for touches on one kind of view, with their priorities and
/// require-to-fail relations.
///
/// Four surfaces come ready: ``listRow`` (a row that taps, long-press reorders, scrolls
/// its list and swipes left to delete), ``photoDeck`` (a card that taps and swipes),
/// ``reorderHandle`` (a handle that drags its row at once) and ``plainList`` (tap, long press,
/// scroll). Build your own for other views:
///
/// ```swift
/// let surface = GestureSurface(members: [
///   .init(.tap),
///   .init(.deckSwipe, priority: 2),
///   .init(.scroll, priority: 1),
/// ])
/// ```
public struct GestureSurface: Hashable, Sendable {
  /// One competing gesture.
  public struct Member: Hashable, Sendable {
    /// The gesture.
    public var kind: GestureKind
    /// When several gestures claim the touch at the same sample, the highest priority wins;
    /// equal priorities break by ``GestureKind`` order.
    public var priority: Int
    /// Gestures that must fail before this one may begin (UIKit's `require(toFail:)`): while
    /// any of them is still possible, this one waits even if it claims the touch.
    public var requiresFailureOf: [GestureKind]
    /// Whether a press gesture (``GestureKind/longPress`` or ``GestureKind/reorder``) claims
    /// the touch as soon as the finger goes down, without resting for the long-press duration:
    /// the view is itself the affordance, as a reorder handle is. Other kinds ignore it.
    public var startsOnTouchDown: Bool

    /// Creates a member.
    public init(
      _ kind: GestureKind, priority: Int = 0, requiresFailureOf: [GestureKind] = [],
      startsOnTouchDown: Bool = false
    ) {
      self.kind = kind
      self.priority = priority
      self.requiresFailureOf = requiresFailureOf
      self.startsOnTouchDown = startsOnTouchDown
    }
  }

  /// The competing gestures, each kind at most once.
  public var members: [Member]

  /// Creates a surface.
  ///
  /// - Precondition: No kind appears twice, and no member requires the failure of itself.
  /// - Complexity: O(*m*²), where *m* is the number of members.
  public init(members: [Member]) {
    for (index, member) in members.enumerated() {
      precondition(
        !members[..<index].contains { $0.kind == member.kind },
        "GestureSurface lists \(member.kind) twice")
      precondition(
        !member.requiresFailureOf.contains(member.kind),
        "\(member.kind) cannot require its own failure")
    }
    self.members = members
  }

  /// Whether the surface has the gesture.
  ///
  /// - Complexity: O(*m*), where *m* is the number of members.
  public func contains(_ kind: GestureKind) -> Bool {
    members.contains { $0.kind == kind }
  }

  /// A list row: tap, long-press reorder, vertical scroll and swipe left to delete.
  ///
  /// Scroll and row swipe require the reorder to fail, so once the row lifts no swipe and no
  /// scroll can take the touch; the direction lock decides between scroll and swipe.
  public static let listRow = GestureSurface(members: [
    Member(.tap),
    Member(.reorder, priority: 2),
    Member(.scroll, priority: 1, requiresFailureOf: [.reorder]),
    Member(.rowSwipe, priority: 1, requiresFailureOf: [.reorder]),
  ])

  /// A photo card: tap and swipe left (trash), right (favorite) or up (keep).
  public static let photoDeck = GestureSurface(members: [
    Member(.tap),
    Member(.deckSwipe, priority: 1),
  ])

  /// A row's reorder handle (the edit mode of lists that show minus buttons and reorder
  /// handles): a touch on the handle lifts the row at once and drags it, without
  /// the long press, since the handle is the affordance.
  public static let reorderHandle = GestureSurface(members: [
    Member(.reorder, priority: 2, startsOnTouchDown: true)
  ])

  /// A list without row actions: tap, long press (press then drag) and vertical scroll.
  public static let plainList = GestureSurface(members: [
    Member(.tap),
    Member(.longPress, priority: 2),
    Member(.scroll, priority: 1, requiresFailureOf: [.longPress]),
  ])
}
