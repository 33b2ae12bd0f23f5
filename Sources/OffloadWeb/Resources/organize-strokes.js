// @ts-check
// Strokes on a collection page: drag (handle, long press) and swipe (touch), sent as pointer
// samples; the server's arena decides.
import { reduceMotion } from "./dom.js";
import { drawAnswer, measureMove, placeReason, settle } from "./organize-answers.js";
import { channel } from "./organize-socket.js";
import { INDENT, ORIGIN, RAW_MOVES, id, list, predictions, probe, rowElement, rowsElement, state } from "./organize-state.js";

export function listPoint(event) {
  const rect = list.getBoundingClientRect();
  return { x: event.clientX - rect.left, y: event.clientY - rect.top };
}

export function geometry() {
  const rect = list.getBoundingClientRect();
  const frames = [];
  const top = -rect.top;
  const bottom = innerHeight - rect.top;
  const elements = /** @type {HTMLCollectionOf<HTMLElement>} */ (rowsElement.children);
  // The rows lie in order down the list: the first near the view is found by halving, and the
  // walk stops below it (not every row's offsetTop read on a long list).
  let low = 0;
  let high = elements.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const element = elements[middle];
    if (element.offsetTop + element.offsetHeight < top - 200) low = middle + 1;
    else high = middle;
  }
  for (let index = low; index < elements.length; index += 1) {
    const element = elements[index];
    const y = element.offsetTop;
    const h = element.offsetHeight;
    if (y > bottom + 200) break;
    const depth = Number(element.dataset.depth);
    const open = element.getAttribute("aria-expanded") === "true";
    frames.push({ i: element.dataset.id, y, h, d: depth, o: open });
    if (frames.length >= 70) break;
  }
  return { rows: frames, top, bottom, originX: ORIGIN, indent: INDENT };
}

/**
 * Starts a stroke on a row: its samples go to the server's arena.
 * @param {PointerEvent} event
 * @param {import("./types.js").Row} row
 * @param {"row" | "handle"} surface
 * @param {boolean} [capture] whether the row captures the pointer (not on a quick action's
 *   button, whose tap must stay its own: a touch keeps its target, the samples bubble up)
 */
export function startStroke(event, row, surface, capture = true) {
  // In edit mode only the reorder handles take strokes (a tap on the row ticks it).
  if ((state.editing && surface !== "handle") || event.button > 0 || (state.stroke && !state.stroke.ended)) return;
  if (state.stroke) settle(state.stroke.element);
  if (surface === "handle") event.preventDefault();
  const element = rowElement(row.id);
  if (capture) element.setPointerCapture(event.pointerId);
  const point = listPoint(event);
  state.strokes += 1;
  state.stroke = {
    number: state.strokes, id: row.id, element, pointer: event.pointerId, start: point, last: point,
    client: { x: event.clientX, y: event.clientY }, lifted: false, swiping: false, speed: 0,
  };
  channel.send({
    type: "sample", phase: "began", n: ++state.sent, t: event.timeStamp, ...point, pointer: event.pointerId,
    surface, id: row.id, stroke: state.strokes, collection: id, version: state.view.version, reduceMotion: reduceMotion.matches,
    ...geometry(),
  });
  // Time passes while the finger rests: the arena's long press fires on the server's clock.
  const began = performance.now();
  state.stroke.timer = setTimeout(() => {
    if (state.stroke && state.stroke.element === element) {
      channel.send({ type: "advance", n: ++state.sent, t: event.timeStamp + (performance.now() - began) });
    }
  }, 520);
  element.addEventListener("pointermove", onMove);
  if (RAW_MOVES) element.addEventListener("pointerrawupdate", sendMove);
  element.addEventListener("pointerup", onEnd);
  element.addEventListener("pointercancel", onEnd);
}

// Once a frame: the lifted row follows the pointer (and, without raw updates, the sample goes).
export function onMove(event) {
  if (!state.stroke || event.pointerId !== state.stroke.pointer) return;
  const point = listPoint(event);
  state.stroke.last = point;
  state.stroke.client = { x: event.clientX, y: event.clientY };
  if (state.stroke.lifted) {
    state.stroke.element.style.setProperty("--dy", `${point.y - state.stroke.start.y}px`);
    placeReason();
    if (probe) {
      const at = event.timeStamp;
      requestAnimationFrame(() => probe.rows.push(performance.now() - at));
    }
  }
  if (!RAW_MOVES) sendMove(event);
}

export function sendMove(event) {
  if (!state.stroke || event.pointerId !== state.stroke.pointer || state.stroke.ended) return;
  const point = listPoint(event);
  const sample = { type: "sample", phase: "moved", n: ++state.sent, t: event.timeStamp, ...point, pointer: event.pointerId };
  if (probe) probe.sent.set(sample.n, { at: event.timeStamp, lifted: state.stroke.lifted });
  channel.send(sample);
  if (state.stroke.lifted) predict(point, sample.n);
}

// Draws the line the server will answer for this sample, when the last answer's cells hold it.
export function predict(point, n) {
  const next = state.stroke.next;
  state.stroke.next = null; // good for one sample: the one after it resolves from this one's answer
  if (!next || next.after !== n - 1) return;
  for (const cell of next.cells) {
    if (point.x >= cell[0] && point.x <= cell[1] && point.y >= cell[2] && point.y <= cell[3]) {
      const answer = next.answers[cell[4]];
      drawAnswer(answer);
      state.stroke.predicted = { n, key: answerKey(answer) };
      predictions.drawn += 1;
      if (probe) measureMove(n, answer, true);
      return;
    }
  }
}

// Keeps an answer's cells for the move sent right after the message it answers.
export function keepNext(message) {
  state.stroke.next = message.next ? { ...message.next, after: message.sample } : null;
}

export function answerKey(answer) {
  const line = answer.line ? `${answer.line.x},${answer.line.y},${answer.line.depth}` : "";
  return `${line}|${Boolean(answer.blocked)}|${answer.reason || ""}`;
}

export function onEnd(event) {
  if (!state.stroke || event.pointerId !== state.stroke.pointer) return;
  const phase = event.type === "pointercancel" ? "cancelled" : "ended";
  // The drop's figure split: until the page runs this handler, and until the sample is sent.
  const handled = performance.now();
  const point = phase === "ended" ? listPoint(event) : state.stroke.last;
  channel.send({ type: "sample", phase, n: ++state.sent, t: event.timeStamp, ...point, pointer: event.pointerId });
  if (probe && state.stroke.lifted && phase === "ended") {
    probe.ends.push({ waited: handled - event.timeStamp, sent: performance.now() - event.timeStamp });
  }
  if (probe && state.stroke.lifted && phase === "ended") probe.dropAt = event.timeStamp;
  if (probe && state.stroke.swiping) probe.releaseAt = event.timeStamp;
  finishStroke(false);
}

export function finishStroke(now) {
  if (!state.stroke) return;
  const element = state.stroke.element;
  clearTimeout(state.stroke.timer);
  element.removeEventListener("pointermove", onMove);
  element.removeEventListener("pointerrawupdate", sendMove);
  element.removeEventListener("pointerup", onEnd);
  element.removeEventListener("pointercancel", onEnd);
  state.stroke.ended = true;
  if (now || (!state.stroke.lifted && !state.stroke.swiping)) state.stroke = null;
}

// While a row is lifted, a touch must not scroll the page (the arena has the touch).
document.addEventListener(
  "touchmove",
  (event) => {
    if (state.stroke && state.stroke.lifted) event.preventDefault();
  },
  { passive: false },
);

export function autoScroll() {
  if (!state.stroke || !state.stroke.lifted || state.stroke.speed === 0 || state.stroke.ended) {
    if (state.stroke) state.stroke.scrolling = false;
    return;
  }
  const now = performance.now();
  const dt = Math.min(0.05, (now - state.stroke.scrolledAt) / 1000);
  state.stroke.scrolledAt = now;
  const before = scrollY;
  scrollBy(0, state.stroke.speed * dt);
  if (scrollY !== before) {
    const rect = list.getBoundingClientRect();
    const point = { x: state.stroke.client.x - rect.left, y: state.stroke.client.y - rect.top };
    state.stroke.element.style.setProperty("--dy", `${point.y - state.stroke.start.y}px`);
    state.stroke.last = point;
    placeReason();
    channel.send({ type: "rows", n: ++state.sent, ...point, ...geometry() });
  }
  requestAnimationFrame(autoScroll);
}
