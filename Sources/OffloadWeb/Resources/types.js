// @ts-check
// The shapes of the server's JSON documents, for JSDoc types (this module has no code).

/**
 * A session's figures, as `/api/state` and the deck's answers carry them.
 * @typedef {object} Figures
 * @property {string} id
 * @property {string} folder
 * @property {number} total
 * @property {number} reviewed
 * @property {number} trash
 * @property {number} favorite
 * @property {number} keep
 * @property {number} pending
 * @property {number} committed
 * @property {boolean} isAtEnd
 * @property {boolean} canUndo
 */

/**
 * One photo of the deck.
 * @typedef {object} Card
 * @property {number} index
 * @property {string} name
 * @property {string} [image]
 * @property {number} [width]
 * @property {number} [height]
 * @property {string} [format]
 * @property {string} [captureDate]
 * @property {string} [decision]
 * @property {string} [problem]
 * @property {string} [video]
 */

/**
 * The deck: the session's figures, the photo on screen and the next three.
 * @typedef {object} Deck
 * @property {Figures | null} session
 * @property {Card | null} current
 * @property {Card[]} next
 */

/**
 * A message the server sends over a WebSocket (the deck's, the review's or organize's).
 * @typedef {{type: string, [key: string]: any}} ServerMessage
 */

/**
 * A message the deck and review pages send over their WebSocket (`DeckClientMessage` on the
 * server): a pointer sample, the first of a stroke (`began`) naming its card; a skip; a commit.
 * @typedef {{type: "sample", phase: string, t: number, x: number, y: number, pointer?: number,
 *     session?: string, index?: number, width?: number, reduceMotion?: boolean}
 *   | {type: "skip", session: string, index: number}
 *   | {type: "commit", session?: string}} DeckClientMessage
 */

/**
 * What a commit did, counted (the `committed` message's member).
 * @typedef {{trashed: number, rated: number, kept: number, failed: string[], pending: number}}
 *   CommitSummary
 */

/**
 * A message the server sends to the deck and review pages (`DeckServerMessage`), told apart
 * by its `type`.
 * @typedef {{type: "mark", direction: string, mark: number, rising: boolean}
 *   | {type: "tick"}
 *   | {type: "snapBack"}
 *   | {type: "decided", direction: string, byFling: boolean, decision: string, deck: Deck}
 *   | {type: "refused", error: string, deck?: Deck}
 *   | {type: "skipped", deck: Deck}
 *   | {type: "progress", done: number, total: number}
 *   | {type: "committed", committed: CommitSummary}
 *   | {type: "error", error: string}} DeckServerMessage
 */

/**
 * One row of a collection page, in outline order.
 * @typedef {object} Row
 * @property {string} id
 * @property {string} text
 * @property {boolean} done
 * @property {number} depth
 * @property {string} number
 * @property {string} [parent]
 * @property {number} childCount
 * @property {boolean} fixed whether the collection's rules keep the row where it is
 * @property {string | null} [role] its role in `--role` syntax (`day:2`, `fixed`,
 *   `segment:1-3`, `free`), null for none; absent from a server that does not say
 */

/**
 * A collection page as the server sends it.
 * @typedef {object} CollectionView
 * @property {string} id
 * @property {string} name
 * @property {string} kind list or plan
 * @property {boolean} itinerary
 * @property {Row[]} rows
 * @property {string} version a change posted with another one is refused
 * @property {boolean} canUndo
 */

/**
 * One step of the deck's input queue. A stroke's samples go over the WebSocket once it reaches
 * the head of the queue (so it follows the steps before it); its end is the server's `decided`
 * or `snapBack`.
 * @typedef {{kind: "decide", decision: string, index: number}
 *   | {kind: "undo", index: number}
 *   | {kind: "skip", index: number}
 *   | {kind: "stroke", index: number, start: () => void}} DeckStep
 */

/**
 * How the deck page draws a change: the view to show and the card that leaves, if one does.
 * @typedef {{view: Deck, leaving: Card | null, direction: string | null}} DeckChange
 */

export {};
