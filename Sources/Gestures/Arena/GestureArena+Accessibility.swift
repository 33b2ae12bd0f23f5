extension GestureArena {
  /// Performs a named accessibility action: drives the action's gesture to its outcome
  /// without a touch, producing the same events a successful gesture would.
  ///
  /// `delete` ends a row swipe with `.delete`, `trash`, `favorite` and `keep` end a deck swipe
  /// with the matching commit, `reorder` and `nest` begin and end a reorder (resolve the move
  /// with ``DropTargetResolver/keyboardMove(_:of:in:rules:configuration:)``). A touch being
  /// followed is cancelled first.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - time: When it happens, on the samples' clock.
  /// - Returns: The events, also in ``events``.
  /// - Throws: ``GestureError/Code/actionUnavailable`` when the surface lacks the gesture.
  @discardableResult
  public mutating func perform(_ action: AccessibilityAction, at time: Double) throws(GestureError)
    -> [GestureEvent]
  {
    defer { assert(invariantsHold(), "GestureArena invariants broken") }
    let kind = action.kind
    guard surface.contains(kind) else {
      throw GestureError(
        .actionUnavailable,
        description:
          "the accessibility action \"\(action.name)\" needs the \(kind.rawValue) gesture, which this surface does not have"
      )
    }
    cancelForAccessibility(at: time)
    events.append(.accessibility(action, time: time))
    record(kind, at: time)
    events.append(.decided(kind, time: time, distance: 0))
    events.append(.state(kind, .began, time: time))
    switch action {
    case .delete:
      let distance = configuration.rowSwipeCommitDistance
      events.append(
        .rowSwipe(
          RowSwipeFrame(offset: -distance, release: .delete, configuration: configuration),
          time: time))
      events.append(.state(kind, .ended, time: time))
      events.append(.rowSwipeFinished(.delete, time: time))
      events.append(.haptic(.commit, time: time))
    case .trash, .favorite, .keep:
      let direction: SwipeDirection = action == .trash ? .left : action == .favorite ? .right : .up
      let distance = configuration.deckCommitFraction * configuration.deckContainerWidth
      let offset: TouchPoint =
        switch direction {
        case .left: TouchPoint(x: -distance, y: 0)
        case .right: TouchPoint(x: distance, y: 0)
        default: TouchPoint(x: 0, y: -distance)
        }
      events.append(
        .deck(
          DeckFrame(
            offset: offset, direction: direction, progress: configuration.deckCommitFraction,
            rotation: 0,
            scale: DeckSwipeRecognizer.scale(
              direction, progress: configuration.deckCommitFraction, configuration: configuration),
            overlayOpacity: 1), time: time))
      events.append(.state(kind, .ended, time: time))
      events.append(.deckFinished(.commit(direction, byFling: false), time: time))
      events.append(.haptic(.commit, time: time))
      events.append(.motion(.cardExit, time: time))
    case .reorder, .nest:
      events.append(.state(kind, .ended, time: time))
    }
    return events
  }
}
