// @ts-check
// The deck's input queue: every decision, skip and undo, in the order given, each on the card that
// was on screen when it was given. The page draws the outcome at once from the cards it holds;
// the server applies the steps one at a time (the journal makes each durable) and its answers
// are the truth the page settles on once nothing is left to send.
import { postJSON } from "./api.js";

/** @typedef {import("./types.js").Deck} Deck */
/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./types.js").Figures} Figures */
/** @typedef {import("./types.js").DeckStep} Step */
/** @typedef {import("./types.js").DeckChange} Change */

/** @type {Record<string, string>} */
export const DIRECTIONS = { trash: "left", favorite: "right", keep: "up" };

export class DeckQueue {
  /**
   * @param {object} hooks
   * @param {(change: Change) => void} hooks.draw draws a view (and the card leaving, if any)
   * @param {(message: string) => void} hooks.fail says why a step was refused
   * @param {() => void} hooks.reload reads the deck again from the server
   * @param {(idle: boolean) => void} hooks.idle hears the queue empty and busy again
   * @param {(session: string, index: number) => Promise<Deck>} hooks.skip sends a skip
   */
  constructor(hooks) {
    this.hooks = hooks;
    /** @type {Figures | null} the figures as the page predicts them */
    this.figures = null;
    /** @type {number} the index of the card the page shows (the session's predicted cursor) */
    this.cursor = 0;
    /** @type {Map<number, Card>} every card the server described lately, by index */
    this.cards = new Map();
    /** @type {Array<{index: number, decision: string}>} decisions made here, newest last */
    this.decided = [];
    /** @type {Step[]} steps not yet answered, oldest first; the first may be on its way */
    this.steps = [];
    this.sending = false;
    /** @type {Array<{kind: string, decision: string}>} input held while a stroke is undecided */
    this.held = [];
    /** @type {number | null} when the queue last went from empty to busy (performance.now) */
    this.busySince = null;
  }

  /** Whether nothing is queued or on its way. */
  get idle() {
    return this.steps.length === 0 && !this.sending;
  }

  /** The view the page draws now. @returns {Deck} */
  view() {
    const figures = this.figures;
    if (!figures) return { session: null, current: null, next: [] };
    const at = figures.isAtEnd ? null : this.card(this.cursor);
    const next = [];
    for (let i = this.cursor + 1; i <= this.cursor + 3 && i < figures.total; i++) {
      const card = this.cards.get(i);
      if (card) next.push(card);
    }
    return { session: figures, current: at, next };
  }

  /** @param {number} index @returns {Card} the card, or a placeholder until the server says */
  card(index) {
    return this.cards.get(index) || { index, name: "", image: undefined };
  }

  /**
   * Takes the server's deck as the truth (when nothing is queued) and learns its cards.
   * @param {Deck} deck
   */
  reset(deck) {
    this.steps = [];
    this.sending = false;
    this.learn(deck);
    this.figures = deck.session;
    this.cursor = deck.current ? deck.current.index : deck.session ? deck.session.reviewed : 0;
    this.hooks.draw({ view: this.view(), leaving: null, direction: null });
    this.hooks.idle(true);
  }

  /**
   * Learns the server's cards. A photo's address names its queue position, which a skip gives
   * to another photo, so the page asks for it with the photo's name too (a skip never shows a
   * photo cached under the old position).
   * @param {Deck} deck
   */
  learn(deck) {
    for (const card of [deck.current, ...(deck.next || [])]) {
      if (!card) continue;
      const image = card.image && !card.image.includes("?") ? `${card.image}?name=${encodeURIComponent(card.name)}` : card.image;
      this.cards.set(card.index, { ...card, image });
    }
    const low = this.cursor - 64;
    const high = this.cursor + 64;
    for (const index of this.cards.keys()) if (index < low || index > high) this.cards.delete(index);
  }

  /**
   * A decision, a skip or an undo, given now: queued and drawn at once, or held while a stroke
   * is undecided (the card it is for depends on the stroke's outcome).
   * @param {"decide" | "undo" | "skip"} kind
   * @param {string} [decision]
   * @returns {boolean} whether it was taken (false: no session, at the end, nothing to undo)
   */
  input(kind, decision = "") {
    if (!this.figures) return false;
    if (this.steps.some((step) => step.kind === "stroke")) {
      this.held.push({ kind, decision });
      return true;
    }
    const figures = this.figures;
    if (kind === "decide") {
      if (figures.isAtEnd || !DIRECTIONS[decision]) return false;
      const leaving = this.card(this.cursor);
      this.push({ kind: "decide", decision, index: this.cursor });
      this.decided.push({ index: this.cursor, decision });
      this.advance(decision, 1);
      this.hooks.draw({ view: this.view(), leaving, direction: DIRECTIONS[decision] });
    } else if (kind === "skip") {
      // The card goes to the end of the queue; the cards after it move up, so the page waits
      // for the server's (placeholders meanwhile) rather than guess their places.
      if (figures.isAtEnd) return false;
      this.push({ kind: "skip", index: this.cursor });
      this.decided.push({ index: this.cursor, decision: "skip" });
      this.forgetFrom(this.cursor);
      this.figures = { ...figures, canUndo: true };
      this.hooks.draw({ view: this.view(), leaving: null, direction: null });
    } else if (this.lastIsSkip()) {
      // Undo takes the skip back, as `offloadctl photos undo` does: the card returns.
      this.push({ kind: "undo", index: this.cursor });
      this.decided.pop();
      this.forgetFrom(this.cursor);
      this.hooks.draw({ view: this.view(), leaving: null, direction: null });
    } else {
      if (!figures.canUndo || figures.reviewed === 0) return false;
      this.push({ kind: "undo", index: this.cursor });
      const last = this.decided.pop();
      this.advance(last && last.index === this.cursor - 1 ? last.decision : "", -1);
      this.hooks.draw({ view: this.view(), leaving: null, direction: null });
    }
    this.pump();
    return true;
  }

  /** Whether the newest step made here is a skip of the card on screen. */
  lastIsSkip() {
    const last = this.decided[this.decided.length - 1];
    return Boolean(last && last.decision === "skip" && last.index === this.cursor);
  }

  /** @param {number} index forgets the cards from `index` on (a skip moves them) */
  forgetFrom(index) {
    for (const key of [...this.cards.keys()]) if (key >= index) this.cards.delete(key);
  }

  /**
   * Predicts the figures after a decision (`step` 1) or an undo of one (`step` -1).
   * @param {string} decision
   * @param {number} step
   */
  advance(decision, step) {
    const f = /** @type {Figures} */ ({ ...this.figures });
    this.cursor = Math.max(0, this.cursor + step);
    f.reviewed = this.cursor;
    if (decision === "trash" || decision === "favorite" || decision === "keep") {
      f[decision] = Math.max(0, f[decision] + step);
    }
    f.pending = Math.max(0, f.pending + step);
    f.isAtEnd = this.cursor >= f.total;
    f.canUndo = this.cursor > 0;
    this.figures = f;
  }

  /**
   * A stroke that began on the card on screen: queued like the rest; `start` sends its
   * samples when every step before it was answered.
   * @param {() => void} start
   */
  beginStroke(start) {
    this.push({ kind: "stroke", index: this.cursor, start });
    this.pump();
  }

  /**
   * The server's answer to the stroke: `deck` when it decided, null when the card snapped
   * back (or the stroke was lost); then the input held meanwhile is taken in order.
   * @param {Deck | null} deck
   * @param {string | null} direction
   */
  strokeEnded(deck, direction) {
    // Usually the head; a stroke lost with the socket before its turn ends where it waits.
    const at = this.steps.findIndex((step) => step.kind === "stroke");
    if (at < 0) return;
    this.steps.splice(at, 1);
    if (at === 0) this.sending = false;
    if (deck && deck.session) {
      const leaving = this.card(this.cursor);
      const decision = Object.keys(DIRECTIONS).find((d) => DIRECTIONS[d] === direction) || "";
      this.decided.push({ index: this.cursor, decision });
      this.learn(deck);
      this.figures = deck.session;
      this.cursor = deck.current ? deck.current.index : deck.session.reviewed;
      this.hooks.draw({ view: this.view(), leaving, direction });
    }
    const held = this.held;
    this.held = [];
    for (const input of held) this.input(/** @type {"decide" | "undo" | "skip"} */ (input.kind), input.decision);
    this.pump();
    this.settleIfIdle(deck);
  }

  /** @param {Step} step */
  push(step) {
    if (this.idle && this.busySince === null) {
      this.busySince = performance.now();
      this.hooks.idle(false);
    }
    this.steps.push(step);
  }

  /** Sends the step at the head, if none is on its way. */
  pump() {
    if (this.sending || this.steps.length === 0 || !this.figures) return;
    const step = this.steps[0];
    this.sending = true;
    if (step.kind === "stroke") {
      step.start();
      return;
    }
    const session = this.figures.id;
    const request =
      step.kind === "decide"
        ? postJSON("/api/decide", { session, index: step.index, decision: step.decision })
        : step.kind === "skip"
          ? this.hooks.skip(session, step.index)
          : postJSON("/api/undo", { session });
    request.then(
      (deck) => this.answered(deck),
      (error) => this.refused(error.message),
    );
  }

  /** @param {Deck} deck */
  answered(deck) {
    this.steps.shift();
    this.sending = false;
    this.learn(deck);
    if (this.steps.length > 0) {
      // The cards the answer described may fill placeholders the page is showing.
      this.hooks.draw({ view: this.view(), leaving: null, direction: null });
      this.pump();
      return;
    }
    this.settleIfIdle(deck);
  }

  /**
   * Once every step is answered, the server's last deck is what the page shows.
   * @param {Deck | null} deck
   */
  settleIfIdle(deck) {
    if (!this.idle) return;
    if (deck && deck.session) {
      this.figures = deck.session;
      this.cursor = deck.current ? deck.current.index : deck.session.reviewed;
      this.hooks.draw({ view: this.view(), leaving: null, direction: null });
    }
    if (this.busySince !== null) {
      performance.measure("deck:queue-drained", { start: this.busySince, end: performance.now() });
      this.busySince = null;
    }
    this.hooks.idle(true);
  }

  /**
   * A step was refused (another page decided first, the session ended): the steps after it
   * were meant for cards the page can no longer promise, so they are dropped, the reason is
   * said, and the deck is read again.
   * @param {string} message
   */
  refused(message) {
    this.steps = [];
    this.held = [];
    this.sending = false;
    this.busySince = null;
    this.hooks.idle(true);
    this.hooks.fail(message);
    this.hooks.reload();
  }
}
