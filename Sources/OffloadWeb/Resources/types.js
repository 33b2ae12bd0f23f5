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

export {};
