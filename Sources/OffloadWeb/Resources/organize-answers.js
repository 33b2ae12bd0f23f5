// @ts-check
// The server's answers to a stroke: the lift, the insertion line or the refusal, the swipe, the
// drop, the snap-back.
import { showMessage } from "./dom.js";
import { load, offerUndo } from "./organize-changes.js";
import { announce, feedback, noteMade } from "./organize-common.js";
import { draw, focusRow } from "./organize-draw.js";
import { watch } from "./organize-socket.js";
import { drawClosed, drawOpen, onClosed } from "./organize-reveal.js";
import { line, list, predictions, probe, reasonBox, rowElement, state } from "./organize-state.js";
import { answerKey, autoScroll, keepNext } from "./organize-strokes.js";

export function onStrokeMessage(message) {
  if (message.type === "closed") {
    // The arena closed a revealed row: any stroke's answer (a touch elsewhere closes it).
    onClosed(message);
    if (state.stroke && message.stroke === state.stroke.number) state.stroke = null;
    return;
  }
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
      document.body.classList.add("lifting");
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
      // The quick actions follow the finger; past the delete distance, at a quick pace, Delete
      // fills them (`past`: letting go now deletes).
      if (!state.stroke) return;
      if (probe) measureSwipe(message.sample, !state.stroke.swiping);
      state.stroke.swiping = true;
      element.classList.add("swiping");
      element.classList.toggle("armed", Boolean(message.past));
      element.style.setProperty("--dx", `${message.offset}px`);
      break;
    case "reveal":
      // Let go at least half the actions' width out, not a delete: the row rests open.
      if (element) drawOpen(element, -message.offset, message.motion);
      if (probe) measureRelease();
      state.stroke = null;
      break;
    case "swipeBack":
      if (element) drawClosed(element, message.motion);
      if (probe) measureRelease();
      state.stroke = null;
      break;
    case "ended":
      if (element) settle(element, message.motion);
      state.stroke = null;
      break;
    case "deleted":
      state.stroke = null;
      document.body.classList.remove("lifting");
      state.view = message.view;
      feedback(message.haptic);
      noteMade(message);
      draw();
      watch();
      offerUndo(message.done);
      break;
    case "dropped":
      // Saved: the move is on stable storage. The rows that show it come next ("view").
      if (probe && probe.dropAt !== null) probe.drops.push(performance.now() - probe.dropAt);
      hideTarget();
      document.body.classList.remove("lifting");
      feedback(message.haptic);
      noteMade(message);
      announce(message.done);
      break;
    case "view":
      state.stroke = null;
      document.body.classList.remove("lifting");
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

export function settle(element, motion) {
  hideReason();
  document.body.classList.remove("lifting");
  const duration = motion ? motion.duration * 1000 : 200;
  element.style.setProperty("--settle", `${duration}ms`);
  element.classList.add("settling");
  element.classList.remove("lifted", "swiping", "invalid", "armed", "open");
  element.style.setProperty("--dx", "0px");
  element.style.setProperty("--dy", "0px");
  setTimeout(() => element.classList.remove("settling"), duration + 50);
}

// The row-swipe figures (Tools/Benchmarks/web/row_swipe_latency.py): the time from a touch
// move to the frame that draws the row's swipe for it (`first`: the move the arena decided the
// swipe on; `answered`: to the server's answer), and from the lift to the frame that draws the
// row open or closed.
/**
 * @param {number} n
 * @param {boolean} first
 */
function measureSwipe(n, first) {
  const entry = probe.sent.get(n);
  if (entry === undefined) return;
  for (const key of probe.sent.keys()) if (key <= n) probe.sent.delete(key);
  const answered = performance.now() - entry.at;
  requestAnimationFrame(() => probe.swipes.push({ ms: performance.now() - entry.at, answered, first }));
}

function measureRelease() {
  const at = probe.releaseAt;
  probe.releaseAt = null;
  if (typeof at === "number") requestAnimationFrame(() => probe.releases.push(performance.now() - at));
}
