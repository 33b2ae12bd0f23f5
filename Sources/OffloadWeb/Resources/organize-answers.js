// @ts-check
// The server's answers to a stroke: the lift, the insertion line or the refusal, the swipe, the
// drop, the snap-back.
import { showMessage } from "./dom.js";
import { load, offerUndo } from "./organize-changes.js";
import { announce, feedback } from "./organize-common.js";
import { draw, focusRow } from "./organize-draw.js";
import { watch } from "./organize-socket.js";
import { line, list, predictions, probe, reasonBox, rowElement, state } from "./organize-state.js";
import { answerKey, autoScroll, keepNext } from "./organize-strokes.js";

export function onStrokeMessage(message) {
  if (state.stroke && message.stroke !== state.stroke.number) {
    // An earlier stroke's answer: only a saved change's rows matter now.
    if (message.type === "deleted" || message.type === "view") {
      state.view = message.view;
      draw();
    }
    return;
  }
  const element = state.stroke ? state.stroke.element : message.id ? rowElement(message.id) : null;
  switch (message.type) {
    case "lift":
      if (!state.stroke) return;
      state.stroke.lifted = true;
      element.classList.add("lifted");
      element.style.setProperty("--lift-scale", message.motion.scale);
      element.style.setProperty("--lift-tilt", `${message.motion.rotation}deg`);
      element.style.setProperty("--dy", `${state.stroke.last.y - state.stroke.start.y}px`);
      keepNext(message);
      feedback(message.haptic);
      announce("Lifted. Move to choose a place; the line shows where it lands.");
      break;
    case "liftRefused":
      feedback(message.haptic);
      showMessage(message.reason);
      break;
    case "target": {
      if (!state.stroke) return;
      const predicted = state.stroke.predicted;
      state.stroke.predicted = null;
      if (predicted && predicted.n === message.sample && predicted.key === answerKey(message)) {
        predictions.confirmed += 1;
      } else {
        if (predicted && predicted.n === message.sample) predictions.corrected += 1;
        drawAnswer(message);
        if (probe) measureMove(message.sample, message);
      }
      setSpeed(message.autoScroll || 0);
      keepNext(message);
      break;
    }
    case "swipe":
      if (!state.stroke) return;
      state.stroke.swiping = true;
      element.classList.add("swiping");
      element.style.setProperty("--dx", `${message.offset}px`);
      element.style.setProperty("--trash", message.opacity);
      state.stroke.offset = message.offset;
      break;
    case "swipeBack":
      // A partial swipe (let go between 40 and 100 pt) leaves the row open on its quick
      // actions; a slow drag past 100 pt deletes nothing and closes.
      if (element && state.stroke && state.stroke.offset <= -OPEN_AT && state.stroke.offset > -DELETE_AT) {
        openActions(element);
      } else if (element) settle(element, message.motion);
      state.stroke = null;
      break;
    case "ended":
      if (element) settle(element, message.motion);
      state.stroke = null;
      break;
    case "deleted":
      state.stroke = null;
      state.view = message.view;
      feedback(message.haptic);
      draw();
      watch();
      offerUndo(message.done);
      break;
    case "dropped":
      // Saved: the move is on stable storage. The rows that show it come next ("view").
      if (probe && probe.dropAt !== null) probe.drops.push(performance.now() - probe.dropAt);
      hideTarget();
      feedback(message.haptic);
      announce(message.done);
      break;
    case "view":
      state.stroke = null;
      state.view = message.view;
      draw();
      focusRow(message.id);
      watch();
      if (probe && probe.dropAt !== null) {
        const at = probe.dropAt;
        probe.dropAt = null;
        requestAnimationFrame(() => probe.drawn.push(performance.now() - at));
      }
      break;
    case "snapBack":
      hideTarget();
      if (message.haptic) feedback(message.haptic);
      if (message.reason) showMessage(`Not moved: ${message.reason}`);
      if (element) settle(element, message.motion);
      state.stroke = null;
      if (message.error && /changed since/.test(message.error)) load();
      break;
    default:
      break;
  }
}

// Draws an answer: the insertion line, or the invalid tint and the reason.
export function drawAnswer(message) {
  state.stroke.element.classList.toggle("invalid", Boolean(message.blocked));
  list.dataset.reason = message.blocked ? message.reason || "" : "";
  if (message.blocked) showReason(`Cannot drop here: ${message.reason}`);
  else hideReason();
  if (message.line) {
    line.hidden = false;
    line.style.top = `${message.line.y}px`;
    line.style.left = `${message.line.x}px`;
    line.dataset.depth = message.line.depth;
    line.classList.add("shown");
  } else {
    hideTarget(true);
  }
}

export function setSpeed(speed) {
  state.stroke.speed = speed;
  if (speed !== 0 && !state.stroke.scrolling) {
    state.stroke.scrolling = true;
    state.stroke.scrolledAt = performance.now();
    requestAnimationFrame(autoScroll);
  }
}

export function hideTarget(keepTint) {
  line.classList.remove("shown");
  line.hidden = true;
  if (!keepTint) hideReason();
  if (!keepTint && state.stroke) state.stroke.element.classList.remove("invalid");
}

// Why the drop is refused: a live region at the viewport's edge away from the lifted row (at
// the top while the row is in the lower half, else at the bottom), so the row never covers it.
export function showReason(text) {
  if (reasonBox.textContent !== text) reasonBox.textContent = text;
  placeReason();
}

export function placeReason() {
  if (!reasonBox.textContent || !state.stroke) return;
  const rect = state.stroke.element.getBoundingClientRect();
  const edge = rect.top + rect.height / 2 > innerHeight / 2 ? "top" : "bottom";
  if (reasonBox.dataset.edge !== edge) reasonBox.dataset.edge = edge;
}

export function hideReason() {
  if (reasonBox.textContent) reasonBox.textContent = "";
}

// The time from a pointer move to the frame that draws its answer (the insertion line at its
// new place, or the tint): taken in the first animation frame after the line's style changed.
export function measureMove(n, message, predicted = false) {
  const entry = probe.sent.get(n);
  if (entry === undefined) return;
  // A move sent before the lift's answer came draws the stroke's first line with the lift.
  const { at, lifted } = entry;
  for (const key of probe.sent.keys()) if (key <= n) probe.sent.delete(key);
  const place = message.line ? `${message.line.x},${message.line.y}` : "none";
  const moved = place !== probe.place;
  probe.place = place;
  requestAnimationFrame(() => probe.moves.push({ ms: performance.now() - at, moved, predicted, lifted }));
}

/** How far left (px) a swipe that snaps back must have gone to leave the actions open. */
const OPEN_AT = 40;
/** The list row's delete distance (the Gestures `listRow` swipe threshold, 100 pt). */
const DELETE_AT = 100;
/** How wide the quick actions are (px): Move and Delete. */
const ACTIONS_WIDTH = 150;
/** @type {HTMLElement | null} the row standing open on its quick actions */
let open = null;

/**
 * Leaves `element` open on its quick actions (Move, Delete) until a tap elsewhere.
 * @param {HTMLElement} element
 */
function openActions(element) {
  closeActions();
  settle(element);
  element.classList.add("open");
  element.style.setProperty("--dx", `${-ACTIONS_WIDTH}px`);
  element.style.setProperty("--trash", "1");
  open = element;
}

/** Closes the row standing open, if any. */
export function closeActions() {
  if (!open) return;
  const element = open;
  open = null;
  element.classList.remove("open");
  if (element.isConnected) settle(element);
}

// A tap anywhere but on the open row's actions closes them.
document.addEventListener("pointerdown", (event) => {
  if (open && !open.querySelector(".swipe-trash")?.contains(/** @type {Node} */ (event.target))) closeActions();
}, true);

export function settle(element, motion) {
  hideReason();
  const duration = motion ? motion.duration * 1000 : 200;
  element.style.setProperty("--settle", `${duration}ms`);
  element.classList.add("settling");
  element.classList.remove("lifted", "swiping", "invalid");
  element.style.setProperty("--dx", "0px");
  element.style.setProperty("--dy", "0px");
  element.style.setProperty("--trash", 0);
  setTimeout(() => element.classList.remove("settling"), duration + 50);
}
