// @ts-check
// A row's quick actions (Move, Delete), uncovered by a swipe left on a touch screen. The
// server's arena decides when they open and close, and keeps the row revealed between strokes
// (its next touch starts from the open row); this module draws those answers and forwards what
// the arena cannot see: a touch elsewhere, or a quick action used.
import { channel } from "./organize-socket.js";
import { rowElement } from "./organize-state.js";

/** @type {HTMLElement | null} the row resting open on its quick actions */
let open = null;

/**
 * Draws `element` resting open, its quick actions `width` px wide covering the row's end (the
 * row's text stays where it is, so a short one is still read).
 * @param {HTMLElement} element
 * @param {number} width
 * @param {{duration: number} | undefined} motion
 */
export function drawOpen(element, width, motion) {
  if (open && open !== element) drawClosed(open);
  element.style.setProperty("--actions", `${width}px`);
  slide(element, -width, motion);
  element.classList.add("open");
  open = element;
}

/**
 * Draws `element` closed (its quick actions slide away).
 * @param {HTMLElement} element
 * @param {{duration: number} | undefined} [motion]
 */
export function drawClosed(element, motion) {
  element.classList.remove("open");
  slide(element, 0, motion);
  if (open === element) open = null;
}

/**
 * The server's `closed` answer: the arena closed a revealed row (a tap on it, a touch
 * elsewhere, a quick action used, a press or a scroll on it).
 * @param {{id: string, motion?: {duration: number}}} message
 */
export function onClosed(message) {
  const element = rowElement(message.id);
  if (element) drawClosed(element, message.motion);
  else if (open && !open.isConnected) open = null;
}

/** @param {HTMLElement} element */
export function isOpen(element) {
  return open === element;
}

/**
 * Asks the arena to close the open row (answered with `closed`).
 * @param {number} [time] the event's time stamp, on the strokes' clock
 */
export function requestClose(time = performance.now()) {
  if (open) channel.send({ type: "close", t: time });
}

/** After a redraw: an open row drawn afresh (its data changed) is closed on the server too. */
export function checkOpen() {
  if (open && !open.isConnected) {
    requestClose();
    open = null;
  }
}

/**
 * Animates the row's quick actions to `offset` (0: hidden).
 * @param {HTMLElement} element
 * @param {number} offset
 * @param {{duration: number} | undefined} motion
 */
function slide(element, offset, motion) {
  const duration = motion ? motion.duration * 1000 : 200;
  element.style.setProperty("--settle", `${duration}ms`);
  element.classList.add("settling");
  element.classList.remove("swiping", "armed");
  element.style.setProperty("--dx", `${offset}px`);
  setTimeout(() => element.classList.remove("settling"), duration + 50);
}

/** Whether the press under way began away from the open row (its click only closes it). */
let swallow = false;

// A touch anywhere but on the open row closes it, and does nothing else (as on iOS): its click
// is not passed on. A touch on the row is the arena's (a tap closes it, a swipe moves it).
document.addEventListener(
  "pointerdown",
  (event) => {
    swallow = Boolean(open && !open.contains(/** @type {Node} */ (event.target)));
    if (swallow) requestClose(event.timeStamp);
  },
  true,
);
document.addEventListener(
  "click",
  (event) => {
    if (!swallow) return;
    swallow = false;
    event.stopPropagation();
    event.preventDefault();
  },
  true,
);
