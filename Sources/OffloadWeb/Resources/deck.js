// @ts-check
// The photo deck: the card follows the pointer here; the server's Gestures arena decides.
// Every key, button and swipe goes through one queue (deck-queue.js), in order, each on the
// card it was meant for; none is dropped because an earlier one is still on its way.
import { Channel, getJSON } from "./api.js";
import { DeckQueue } from "./deck-queue.js";
import { folderPicker } from "./deck-start.js";
import { drawChange, measureDrawn, place, snapBack } from "./deck-view.js";
import { byId, inField, reduceMotion, showMessage } from "./dom.js";

/** @typedef {import("./types.js").Deck} Deck */
/** @typedef {import("./types.js").DeckServerMessage} DeckServerMessage */
/** @typedef {import("./types.js").DeckClientMessage} DeckClientMessage */

const card = byId("card");
const frame = byId("frame");
const overlay = byId("overlay");

/** @type {number | null} when the input now being drawn was given (performance.now) */
let inputAt = null;

const queue = new DeckQueue({
  draw(change) {
    drawChange(change, queue.steps.length > 1);
    if (!change.view.session) loadFolders(0, "");
    if (inputAt !== null && change.leaving) {
      measureDrawn(inputAt);
      inputAt = null;
    }
  },
  fail: (text) => showMessage(text, 4),
  idle: (idle) => (document.body.dataset.queue = idle ? "idle" : "busy"),
  reload: load,
  skip: (session, index) =>
    new Promise((resolve, reject) => {
      if (!channel.send(/** @type {DeckClientMessage} */ ({ type: "skip", session, index }))) return reject(new Error("Not connected to the server; try again."));
      skipping = { resolve, reject };
    }),
});

/** @type {{resolve: (deck: Deck) => void, reject: (error: Error) => void} | null} the skip on its way */
let skipping = null;

const loadFolders = folderPicker((deck) => queue.reset(deck));

const channel = new Channel(onServerMessage, (up) => {
  document.body.dataset.channel = up ? "open" : "closed";
  // A stroke whose answer was lost with the socket ends as a snap-back; a skip is refused.
  if (!up && stroke) strokeDone(null, null);
  if (!up && skipping) {
    skipping.reject(new Error("The connection to the server was lost; the deck is read again."));
    skipping = null;
  }
});

function sessionQuery() {
  const id = new URLSearchParams(location.search).get("session");
  return id ? `?session=${encodeURIComponent(id)}` : "";
}

/** Reads the deck from the server and draws it (when nothing is queued). */
export async function load() {
  try {
    const deck = await getJSON(`/api/state${sessionQuery()}`);
    if (queue.idle) queue.reset(deck);
  } catch (error) {
    showMessage(error instanceof Error ? error.message : String(error), 4);
  }
}

// MARK: the server's answers to a stroke

/** @param {DeckServerMessage} m */
function onServerMessage(m) {
  switch (m.type) {
    case "mark": {
      const li = document.querySelector(`.marks li[data-mark="${m.mark}"]`);
      if (li) li.classList.toggle("on", m.rising);
      break;
    }
    case "tick":
      if (navigator.vibrate) navigator.vibrate(12);
      overlay.classList.add("tick");
      setTimeout(() => overlay.classList.remove("tick"), 120);
      break;
    case "decided":
      if (inputAt !== null) performance.measure("deck:input-to-answer", { start: inputAt, end: performance.now() });
      strokeDone(m.deck, m.direction);
      break;
    case "snapBack":
      strokeDone(null, null);
      break;
    case "skipped":
      if (skipping) skipping.resolve(m.deck);
      skipping = null;
      break;
    case "refused":
    case "error":
      if (skipping) {
        skipping.reject(new Error(m.error));
        skipping = null;
        return;
      }
      if (!stroke) return showMessage(m.error, 4);
      stroke = null;
      snapBack();
      queue.refused(m.error);
      break;
  }
}

/**
 * @param {Deck | null} deck
 * @param {string | null} direction
 */
function strokeDone(deck, direction) {
  if (!stroke) return;
  stroke = null;
  if (!deck) snapBack();
  queue.strokeEnded(deck, direction);
}

// MARK: pointer input (mouse, pen, touch, trackpad)

/**
 * The stroke under way: its samples wait in `buffer` until the steps queued before it were
 * answered (`live`), so the server sees the stroke after them.
 * @type {{id: number, x: number, y: number, width: number, live: boolean, lifted: boolean,
 *   buffer: DeckClientMessage[]} | null}
 */
let stroke = null;

/**
 * @param {string} phase
 * @param {PointerEvent} event
 * @returns {Extract<DeckClientMessage, {type: "sample"}>}
 */
function sample(phase, event) {
  return { type: "sample", phase, t: event.timeStamp, x: event.clientX, y: event.clientY, pointer: event.pointerId };
}

/** @param {DeckClientMessage} message */
function send(message) {
  if (!stroke) return;
  if (!stroke.live) stroke.buffer.push(message);
  else if (!channel.send(message)) strokeDone(null, null);
}

card.addEventListener("pointerdown", (event) => {
  const view = queue.view();
  if (stroke || !view.session || !view.current || event.button > 0) return;
  if (!channel.ready) {
    showMessage("Reconnecting to the server; use the buttons or keys meanwhile.", 4);
    return;
  }
  // The commit distance is half the card's width (the deck's container), as on a phone.
  const width = Math.max(100, frame.getBoundingClientRect().width);
  const began = { ...sample("began", event), session: view.session.id, index: view.current.index, width, reduceMotion: reduceMotion.matches };
  const current = { id: event.pointerId, x: event.clientX, y: event.clientY, width, live: false, lifted: false, buffer: [began] };
  stroke = current;
  card.setPointerCapture(event.pointerId);
  card.dataset.state = "dragging";
  queue.beginStroke(() => {
    current.live = true;
    for (const message of current.buffer.splice(0)) {
      if (!channel.send(message)) return strokeDone(null, null);
    }
  });
});

card.addEventListener("pointermove", (event) => {
  if (!stroke || stroke.lifted || event.pointerId !== stroke.id) return;
  const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
  for (const e of events.length ? events : [event]) send(sample("moved", e));
  place(event.clientX - stroke.x, event.clientY - stroke.y, stroke.width);
});

/**
 * @param {string} phase
 * @param {PointerEvent} event
 */
function release(phase, event) {
  if (!stroke || stroke.lifted || event.pointerId !== stroke.id) return;
  stroke.lifted = true;
  inputAt = event.timeStamp;
  card.dataset.state = "waiting";
  send(sample(phase, event));
}
card.addEventListener("pointerup", (event) => release("ended", event));
card.addEventListener("pointercancel", (event) => release("cancelled", event));

// MARK: buttons and keys (seed NFR-2)

/**
 * @param {"decide" | "undo" | "skip"} kind
 * @param {string} [decision]
 */
function input(kind, decision) {
  inputAt = performance.now();
  queue.input(kind, decision);
}

byId("trash").addEventListener("click", () => input("decide", "trash"));
byId("favorite").addEventListener("click", () => input("decide", "favorite"));
byId("keep").addEventListener("click", () => input("decide", "keep"));
byId("skip").addEventListener("click", () => input("skip"));
byId("undo").addEventListener("click", () => input("undo"));

addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.repeat || inField(event)) return;
  /** @type {Record<string, string>} */
  const keys = { ArrowLeft: "trash", ArrowRight: "favorite", ArrowUp: "keep" };
  const action = keys[event.key];
  if (action) {
    event.preventDefault();
    input("decide", action);
  } else if (event.key === "u" || event.key === "U") {
    event.preventDefault();
    input("undo");
  } else if (event.key === "s" || event.key === "S") {
    event.preventDefault();
    input("skip");
  }
});

// Another process (the terminal) may change the session: look again when the page comes back.
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && !stroke && queue.idle) load();
});

load();
