// @ts-check
// Drawing the deck: the card on screen, the one leaving, the overlay, the preloaded photos.
import { count } from "./api.js";
import { byId, reduceMotion } from "./dom.js";

/** @typedef {import("./types.js").Deck} Deck */
/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./deck-queue.js").Change} Change */

const card = byId("card");
const frame = byId("frame");
const photo = /** @type {HTMLImageElement} */ (byId("photo"));
const overlay = byId("overlay");
const stage = byId("stage");
const MAX_TILT = 15; // degrees, reached at the commit distance (the deck's motion spec)
export const COMMIT_FRACTION = 0.5;

/** @type {Card | null} the card drawn now */
let shown = null;
/** @type {HTMLElement[]} cards still flying off, oldest first */
const ghosts = [];
/** @type {Map<string, HTMLImageElement>} image address -> decoded Image (the next three) */
const preloaded = new Map();

/**
 * Draws a change: the leaving card flies off (a copy of it, so the next photo is drawn at
 * once underneath), then the view.
 * @param {Change} change
 * @param {boolean} hurried more input is queued: the flight is shortened
 */
export function drawChange(change, hurried) {
  if (change.leaving && change.direction && shown && shown.index === change.leaving.index && !card.hidden) {
    flyOff(change.direction, hurried);
  }
  show(change.view);
}

/** @param {Deck} deck */
function show(deck) {
  const session = deck.session;
  byId("start").hidden = !!session;
  const buttons = ["trash", "favorite", "keep"].map((id) => /** @type {HTMLButtonElement} */ (byId(id)));
  const undo = /** @type {HTMLButtonElement} */ (byId("undo"));
  if (!session) {
    card.hidden = true;
    byId("done").hidden = true;
    byId("progress").textContent = "No photo session";
    for (const b of buttons) b.disabled = true;
    undo.disabled = true;
    shown = null;
    return;
  }
  const position = session.isAtEnd ? session.total : session.reviewed + 1;
  byId("progress").textContent = `Session: ${count(position)} / ${count(session.total)}`;
  undo.disabled = !session.canUndo;
  byId("done").hidden = !session.isAtEnd;
  for (const b of buttons) b.disabled = session.isAtEnd;
  const current = deck.current;
  if (!current) {
    card.hidden = true;
    card.dataset.index = "";
    shown = null;
    document.body.dataset.ready = "end";
    return;
  }
  card.hidden = false;
  card.dataset.state = "idle";
  card.style.transform = "";
  setOverlay(null, 0);
  for (const li of document.querySelectorAll(".marks li")) li.classList.remove("on");
  const same = shown && shown.index === current.index && shown.name === current.name && shown.image === current.image;
  shown = current;
  card.dataset.index = String(current.index);
  if (!same) drawCard(current, position, session.total);
  preload(deck.next);
}

/**
 * @param {Card} current
 * @param {number} position
 * @param {number} total
 */
function drawCard(current, position, total) {
  byId("caption").textContent = current.name
    ? `${current.name}${current.captureDate ? " · " + current.captureDate : ""}`
    : "Loading…";
  const problem = byId("problem");
  problem.hidden = !current.problem;
  problem.textContent = current.problem || "";
  // A video alone has no image: its metadata takes the photo's place.
  const video = byId("video");
  video.hidden = !current.video;
  video.textContent = current.video || "";
  if (current.image) {
    const ready = preloaded.get(current.image);
    document.body.dataset.preloaded = ready && ready.complete ? "yes" : "no";
    photo.alt = `Photo ${position} of ${total}: ${current.name}`;
    photo.src = current.image;
    photo.hidden = false;
  } else {
    photo.removeAttribute("src");
    photo.alt = "";
    photo.hidden = true;
  }
  card.setAttribute("aria-label", photo.alt || current.name || `Photo ${position} of ${total}`);
  fit(current);
  // A placeholder (the server has not described the card yet) is not ready.
  if (current.name) document.body.dataset.ready = String(current.index);
}

/**
 * Sizes the frame to the largest box the stage allows, keeping the photo's aspect ratio.
 * @param {Card} current
 */
function fit(current) {
  const room = stage.getBoundingClientRect();
  const natural = photo.naturalWidth && photo.complete ? [photo.naturalWidth, photo.naturalHeight] : null;
  const [w, h] = natural || [current.width || 4, current.height || 3];
  const box = [Math.max(room.width - 16, 50), Math.max(room.height - 48, 50)];
  const scale = Math.min(box[0] / w, box[1] / h);
  frame.style.width = `${Math.round(w * scale)}px`;
  frame.style.height = `${Math.round(h * scale)}px`;
}
photo.addEventListener("load", () => shown && fit(shown));
// A photo the card cannot draw: a format this browser does not read (HEIC outside Safari), or
// the server's refusal (415 with its reason: a HEIC the decoder could not convert, a raw file
// without a preview), said on the card.
photo.addEventListener("error", async () => {
  const src = photo.getAttribute("src");
  if (!shown || !src) return;
  const format = (shown.format || "this").toUpperCase();
  const problem = byId("problem");
  problem.textContent = `This browser cannot show ${format} photos${format === "HEIF" ? " (Safari can)" : ""}; decide by the name below.`;
  problem.hidden = false;
  const reason = await refusal(src);
  if (reason && photo.getAttribute("src") === src) problem.textContent = `${reason}; decide by the name below.`;
});

/**
 * The server's reason for not serving a photo, when it refused it (a 4xx answer, its `error`).
 * @param {string} address
 * @returns {Promise<string | null>}
 */
async function refusal(address) {
  try {
    const answer = await fetch(address);
    if (answer.ok || answer.status >= 500) return null;
    const text = (await answer.text()).trim();
    let reason = text;
    try {
      reason = String(JSON.parse(text).error || "");
    } catch {
      // a plain text answer is its own reason
    }
    return reason ? reason.charAt(0).toUpperCase() + reason.slice(1) : null;
  } catch {
    return null;
  }
}
addEventListener("resize", () => shown && fit(shown));

/**
 * Loads and decodes the next photos (seed NFR-1: three), so the next card shows at once.
 * @param {Card[]} cards
 */
function preload(cards) {
  const wanted = new Set(cards.filter((c) => c.image).map((c) => /** @type {string} */ (c.image)));
  for (const key of [...preloaded.keys()]) if (!wanted.has(key) && key !== photo.getAttribute("src")) preloaded.delete(key);
  for (const address of wanted) {
    if (preloaded.has(address)) continue;
    const image = new Image();
    image.decoding = "async";
    image.src = address;
    image.decode().catch(() => {});
    preloaded.set(address, image);
  }
}

/**
 * Tints the photo toward a decision with its icon, stronger with the distance.
 * @param {string | null} direction left, right or up
 * @param {number} strength 0 to 1 (1 at the commit distance)
 */
export function setOverlay(direction, strength) {
  if (direction) overlay.dataset.direction = direction;
  else delete overlay.dataset.direction;
  const value = direction ? Math.max(0, Math.min(1, strength)) : 0;
  overlay.style.setProperty("--strength", value.toFixed(3));
}

/**
 * Moves the card with the pointer, tilting it toward the side it goes to.
 * @param {number} dx
 * @param {number} dy
 * @param {number} width the card's width (the commit distance is half of it)
 */
export function place(dx, dy, width) {
  const tilt = Math.max(-1, Math.min(1, dx / (width * COMMIT_FRACTION))) * MAX_TILT;
  card.style.transform = `translate(${dx}px, ${dy}px) rotate(${reduceMotion.matches ? 0 : tilt}deg)`;
  const horizontal = Math.abs(dx) >= Math.abs(dy);
  const direction = horizontal ? (dx < 0 ? "left" : dx > 0 ? "right" : null) : dy < 0 ? "up" : null;
  const distance = direction === "left" ? -dx : direction === "right" ? dx : direction === "up" ? -dy : 0;
  setOverlay(direction, distance / width / COMMIT_FRACTION);
}

/**
 * A copy of the card flies off in `direction` while the real one shows the next photo. When
 * input outruns the flights, they are shortened, and the oldest is dropped beyond two.
 * @param {string} direction
 * @param {boolean} hurried
 */
function flyOff(direction, hurried) {
  setOverlay(direction, 1);
  const ghost = /** @type {HTMLElement} */ (card.cloneNode(true));
  ghost.removeAttribute("id");
  for (const element of ghost.querySelectorAll("[id]")) element.removeAttribute("id");
  ghost.setAttribute("aria-hidden", "true");
  ghost.classList.add("ghost");
  ghost.style.left = `${card.offsetLeft}px`;
  ghost.style.top = `${card.offsetTop}px`;
  ghost.style.width = `${card.offsetWidth}px`;
  stage.append(ghost);
  ghosts.push(ghost);
  while (ghosts.length > 2) ghosts.shift()?.remove();
  const still = reduceMotion.matches;
  const duration = still ? 120 : hurried ? 140 : 280;
  const w = stage.clientWidth;
  const h = stage.clientHeight;
  const target = { left: [-1.5 * w, 0], right: [1.5 * w, 0], up: [0, -1.5 * h] }[direction] || [0, 0];
  const tilt = direction === "left" ? -MAX_TILT : direction === "right" ? MAX_TILT : 0;
  ghost.style.transition = `transform ${duration}ms ease-out, opacity ${duration}ms ease-out`;
  requestAnimationFrame(() => {
    if (!still) ghost.style.transform = `translate(${target[0]}px, ${target[1]}px) rotate(${tilt}deg)`;
    ghost.style.opacity = "0";
  });
  setTimeout(() => {
    ghost.remove();
    const at = ghosts.indexOf(ghost);
    if (at >= 0) ghosts.splice(at, 1);
  }, duration + 40);
}

/** The card goes back to its place (a swipe short of the threshold). */
export function snapBack() {
  card.dataset.state = "settling";
  card.style.transform = "";
  setOverlay(null, 0);
  for (const li of document.querySelectorAll(".marks li")) li.classList.remove("on");
  setTimeout(() => {
    if (card.dataset.state === "settling") card.dataset.state = "idle";
  }, 260);
}

/**
 * Records, once the next frame is painted, the time from an input (a `timeStamp` or
 * `performance.now()`) to the page showing its outcome: `deck:input-to-drawn` in the
 * page's performance timeline (the benchmark reads it).
 * @param {number} since
 */
export function measureDrawn(since) {
  requestAnimationFrame(() => {
    setTimeout(() => performance.measure("deck:input-to-drawn", { start: since, end: performance.now() }), 0);
  });
}
