// A collection page: rows as a tree (plan) or a list, keyboard, drag, swipe and edit mode.
// The page draws; the server decides (the Gestures arena, the drop-target resolver with the
// collection's placement rules, the workspace).
import { getJSON, postJSON, Channel } from "./api.js";
import { feedback, showMessage, announce, onUndoKey } from "./organize-common.js";

const id = decodeURIComponent(location.pathname.split("/")[2] || "");
const list = document.getElementById("list");
const rowsElement = document.getElementById("rows");
const line = document.getElementById("line");
const undoButton = document.getElementById("undo");
const editButton = document.getElementById("edit");
const toolbar = document.getElementById("toolbar");
const reasonBox = document.getElementById("drop-reason");
const reduceMotion = matchMedia("(prefers-reduced-motion: reduce)");
const INDENT = 24;
const ORIGIN = 8;

let view = null;
const collapsed = new Set(); // session-only: collapse is how a person looks, not data
let focusId = null;
let editing = false;
// Select all is "all except": `all` with exceptions, else the picked ids.
let selection = { all: false, ids: new Set() };
let stroke = null;
let strokes = 0; // numbers strokes, so a late answer to an earlier one is not taken for this one
let sent = 0; // numbers every stroke message, so an answer's predictions are used only right after it
// The next sample's line, drawn at once from the server's last answer (its `next` cells, valid
// for the sample sent right after that answer's request); the server's own answer confirms it.
// The browser tests read these counts.
const predictions = { drawn: 0, confirmed: 0, corrected: 0 };
window.offloadPredictions = predictions;
// Latency probes, only with ?measure in the address (Tools/Benchmarks/web/organize_latency.py
// reads them): pointer move to the insertion line drawn, pointer move to the lifted row drawn
// (the browser's own floor), drop to saved, and drop to the new rows drawn.
const probe = new URLSearchParams(location.search).has("measure")
  ? { moves: [], rows: [], drops: [], drawn: [], sent: new Map(), dropAt: null }
  : null;
// Pointer samples go to the server as soon as the browser has them. `pointerrawupdate` fires
// on arrival, where `pointermove` waits for the next frame; so the server's answer usually
// lands before that frame, and the insertion line moves in the same frame as the row. Pages
// without it (not a secure context) send from `pointermove`.
const RAW_MOVES = "onpointerrawupdate" in window;
if (probe) window.offloadLatency = probe;

// MARK: Loading and drawing

async function load() {
  try {
    view = await getJSON(`/api/collection?id=${encodeURIComponent(id)}`);
    draw();
    channel.send({ type: "watch", collection: id, version: view.version });
  } catch (error) {
    showMessage(error.message);
  }
}

function visibleRows() {
  const shown = [];
  let hiddenBelow = null;
  for (const row of view.rows) {
    if (hiddenBelow !== null && row.depth > hiddenBelow) continue;
    hiddenBelow = null;
    shown.push(row);
    if (row.childCount > 0 && collapsed.has(row.id)) hiddenBelow = row.depth;
  }
  return shown;
}

function isSelected(rowId) {
  return selection.all ? !selection.ids.has(rowId) : selection.ids.has(rowId);
}

function selectedCount() {
  return selection.all ? view.rows.length - selection.ids.size : selection.ids.size;
}

function draw() {
  document.getElementById("title").textContent = view.name;
  document.title = `Offload · ${view.name}`;
  const plan = view.kind === "plan";
  rowsElement.setAttribute("role", plan ? "tree" : "list");
  rowsElement.setAttribute("aria-label", view.name);
  rowsElement.classList.toggle("editing", editing);
  undoButton.disabled = !view.canUndo;
  const shown = visibleRows();
  if (!shown.some((row) => row.id === focusId)) focusId = shown.length ? shown[0].id : null;
  const hadFocus = rowsElement.contains(document.activeElement);
  placeRows(shown.map((row) => rowFor(row, plan)));
  if (hadFocus && focusId) rowElement(focusId)?.focus();
  drawToolbar();
}

// The row elements drawn, by id, with the data each was drawn from. A redraw keeps every row
// whose data is unchanged and moves only the rows whose place changed, so a drop on a
// 1,000-row plan touches a handful of elements instead of building a thousand.
const drawnRows = new Map();

function rowFor(row, plan) {
  const key = JSON.stringify([
    row.text, row.depth, row.done, row.childCount, row.fixed, plan, editing,
    collapsed.has(row.id), editing && isSelected(row.id),
  ]);
  const kept = drawnRows.get(row.id);
  // A row in the middle of a motion (lifted, swiped, settling) is drawn afresh, at rest.
  if (kept && kept.key === key && !kept.element.matches(".lifted, .swiping, .settling, .invalid")) {
    return kept.element;
  }
  const element = drawRow(row, plan);
  drawnRows.set(row.id, { key, element });
  return element;
}

// Puts `elements` in order as the list's children with as few moves as it takes: elements no
// longer shown go as the walk meets them (so they never hold the others up), and a row that
// moved k places costs at most k moves.
function placeRows(elements) {
  const wanted = new Set(elements);
  let cursor = rowsElement.firstElementChild;
  const skipStale = () => {
    while (cursor && !wanted.has(cursor)) {
      const next = cursor.nextElementSibling;
      cursor.remove();
      cursor = next;
    }
  };
  for (const element of elements) {
    skipStale();
    if (element === cursor) cursor = cursor.nextElementSibling;
    else rowsElement.insertBefore(element, cursor);
  }
  skipStale();
  const shown = new Set(elements.map((element) => element.dataset.id));
  for (const rowId of drawnRows.keys()) if (!shown.has(rowId)) drawnRows.delete(rowId);
  setTabStop(elements);
}

// One row is in the Tab order: the focused one. Attributes only, so nothing asks the browser
// for a style or a layout in the middle of a redraw.
function setTabStop(elements) {
  for (const element of elements) {
    const tabIndex = element.dataset.id === focusId ? "0" : "-1";
    if (element.getAttribute("tabindex") !== tabIndex) element.setAttribute("tabindex", tabIndex);
  }
}

function button(label, name, className, action) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = label;
  element.setAttribute("aria-label", name);
  element.tabIndex = -1;
  element.addEventListener("click", (event) => {
    event.stopPropagation();
    action();
  });
  return element;
}

function drawRow(row, plan) {
  const item = document.createElement("li");
  item.className = "row";
  item.dataset.id = row.id;
  item.dataset.depth = row.depth;
  item.setAttribute("role", plan ? "treeitem" : "listitem");
  item.setAttribute("aria-label", row.text);
  if (plan) {
    item.setAttribute("aria-level", String(row.depth + 1));
    if (row.childCount > 0) item.setAttribute("aria-expanded", String(!collapsed.has(row.id)));
  }
  if (editing) item.setAttribute("aria-selected", String(isSelected(row.id)));
  item.tabIndex = row.id === focusId ? 0 : -1;
  item.classList.toggle("done", row.done);
  item.classList.toggle("fixed", row.fixed);

  const trash = document.createElement("span");
  trash.className = "swipe-trash";
  trash.setAttribute("aria-hidden", "true");
  trash.textContent = "Delete";
  const body = document.createElement("div");
  body.className = "row-body";
  body.style.paddingLeft = `${ORIGIN + row.depth * INDENT}px`;

  if (editing) {
    const mark = document.createElement("span");
    mark.className = "checkmark";
    mark.setAttribute("aria-hidden", "true");
    body.append(mark);
  }
  if (plan) {
    if (row.childCount > 0) {
      const open = !collapsed.has(row.id);
      body.append(
        button(open ? "▾" : "▸", `${open ? "Collapse" : "Expand"} ${row.text}`, "toggle", () =>
          toggle(row.id),
        ),
      );
    } else {
      const spacer = document.createElement("span");
      spacer.className = "toggle-space";
      body.append(spacer);
    }
  }
  const done = document.createElement("input");
  done.type = "checkbox";
  done.checked = row.done;
  done.tabIndex = -1;
  done.setAttribute("aria-label", `Done: ${row.text}`);
  done.addEventListener("click", (event) => event.stopPropagation());
  done.addEventListener("change", () => change({ action: "done", id: row.id, done: done.checked }));
  const text = document.createElement("span");
  text.className = "text";
  text.textContent = row.text;
  body.append(done, text);
  if (!editing) {
    body.append(button("Delete", `Delete ${row.text}`, "row-delete", () => remove([row.id])));
  }
  const handle = button("≡", `Reorder ${row.text}`, "handle", () => {});
  handle.disabled = row.fixed;
  handle.title = row.fixed ? "This row stays where it is" : "Drag to reorder (or Alt+↑/↓)";
  handle.addEventListener("pointerdown", (event) => startStroke(event, row, "handle"));
  body.append(handle);
  item.append(trash, body);

  item.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "touch" && !event.target.closest("button, input")) {
      startStroke(event, row, "row");
    }
  });
  item.addEventListener("click", (event) => {
    if (event.target.closest("button, input")) return;
    focusRow(row.id);
    if (editing) toggleSelected(row.id);
    else if (!stroke) startEditing(row.id);
  });
  item.addEventListener("focus", () => {
    focusId = row.id;
  });
  return item;
}

function rowElement(rowId) {
  return rowsElement.querySelector(`[data-id="${CSS.escape(rowId)}"]`);
}

function focusRow(rowId) {
  focusId = rowId;
  setTabStop(rowsElement.children);
  const element = rowElement(rowId);
  if (element && document.activeElement !== element) element.focus();
}

function toggle(rowId) {
  if (collapsed.has(rowId)) collapsed.delete(rowId);
  else collapsed.add(rowId);
  draw();
  focusRow(rowId);
}

// MARK: Changes

// Changes go one after another, each with the version the previous one left.
let queue = Promise.resolve();

function change(command, options) {
  const next = queue.then(() => send(command, options));
  queue = next.catch(() => null);
  return next;
}

async function send(command, { quiet = false } = {}) {
  document.body.dataset.busy = "true";
  try {
    const answer = await postJSON("/api/items", { ...command, collection: id, version: view.version });
    view = answer.view;
    draw();
    if (focusId) focusRow(focusId);
    channel.send({ type: "watch", collection: id, version: view.version });
    if (!quiet) announce(answer.done);
    return answer;
  } catch (error) {
    showMessage(error.message);
    if (error.status === 409) await load();
    return null;
  } finally {
    document.body.dataset.busy = "false";
  }
}

async function remove(ids) {
  const shown = visibleRows();
  const index = shown.findIndex((row) => row.id === ids[0]);
  const answer = await change({ action: "delete", ids });
  if (answer) {
    const rows = visibleRows();
    if (rows.length) focusRow(rows[Math.min(index, rows.length - 1)].id);
    offerUndo(answer.done);
  }
}

function offerUndo(done) {
  announce(`${done}. Press U or Undo to bring it back.`);
  undoButton.focus({ preventScroll: true });
  if (focusId) focusRow(focusId);
}

async function undo() {
  await change({ action: "undo" });
}

function startEditing(rowId) {
  const element = rowElement(rowId);
  const row = view.rows.find((candidate) => candidate.id === rowId);
  if (!element || !row) return;
  const text = element.querySelector(".text");
  const input = document.createElement("input");
  input.className = "edit-text";
  input.value = row.text;
  input.setAttribute("aria-label", `Edit ${row.text}`);
  text.replaceWith(input);
  input.focus();
  input.select();
  let finished = false;
  const finish = async (save) => {
    if (finished) return;
    finished = true;
    if (save && input.value.trim() && input.value !== row.text) {
      await change({ action: "edit", id: rowId, text: input.value });
    } else {
      draw();
    }
    focusRow(rowId);
  };
  input.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Enter") finish(true);
    if (event.key === "Escape") finish(false);
  });
  input.addEventListener("blur", () => finish(true));
}

// MARK: Keyboard

rowsElement.addEventListener("keydown", (event) => {
  if (!view || event.target.tagName === "INPUT" || !focusId) return;
  const shown = visibleRows();
  const index = shown.findIndex((row) => row.id === focusId);
  const row = shown[index];
  if (!row) return;
  const plan = view.kind === "plan";
  const move = (direction) => change({ action: "move", id: row.id, direction, collapsed: [...collapsed] });
  let handled = true;
  if (event.altKey && event.key === "ArrowUp") move("up");
  else if (event.altKey && event.key === "ArrowDown") move("down");
  else if (plan && ((event.key === "Tab" && !event.shiftKey) || (event.altKey && event.key === "ArrowRight"))) move("indent");
  else if (plan && ((event.key === "Tab" && event.shiftKey) || (event.altKey && event.key === "ArrowLeft"))) move("outdent");
  else if (event.key === "ArrowUp" && index > 0) focusRow(shown[index - 1].id);
  else if (event.key === "ArrowDown" && index + 1 < shown.length) focusRow(shown[index + 1].id);
  else if (event.key === "Home") focusRow(shown[0].id);
  else if (event.key === "End") focusRow(shown[shown.length - 1].id);
  else if (event.key === "ArrowRight" && row.childCount > 0 && collapsed.has(row.id)) toggle(row.id);
  else if (event.key === "ArrowLeft" && row.childCount > 0 && !collapsed.has(row.id)) toggle(row.id);
  else if (event.key === "Delete" || event.key === "Backspace") remove([row.id]);
  else if (event.key === " " && editing) toggleSelected(row.id);
  else if (event.key === " ") change({ action: "done", id: row.id, done: !row.done });
  else if (event.key === "Enter" || event.key === "F2") startEditing(row.id);
  else handled = false;
  if (handled) event.preventDefault();
});
onUndoKey(undo);
undoButton.addEventListener("click", undo);

document.getElementById("add").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = document.getElementById("add-text");
  if (!input.value.trim()) return;
  const answer = await change({ action: "add", text: input.value });
  if (answer) {
    input.value = "";
    focusId = answer.id;
    input.focus();
  }
});

// MARK: Edit mode

editButton.addEventListener("click", () => setEditing(!editing));

function setEditing(on) {
  editing = on;
  selection = { all: false, ids: new Set() }; // Done clears the selection.
  editButton.textContent = on ? "Done" : "Edit";
  editButton.setAttribute("aria-pressed", String(on));
  rowsElement.setAttribute("aria-multiselectable", String(on));
  draw();
}

function toggleSelected(rowId) {
  if (selection.ids.has(rowId)) selection.ids.delete(rowId);
  else selection.ids.add(rowId);
  draw();
  focusRow(rowId);
}

function selectionCommand() {
  return selection.all ? { all: true, except: [...selection.ids] } : { ids: [...selection.ids] };
}

function drawToolbar() {
  toolbar.hidden = !editing;
  if (!editing) return;
  const count = selectedCount();
  document.getElementById("selected-count").textContent = `${count} selected`;
  const all = count === view.rows.length && view.rows.length > 0;
  document.getElementById("select-all").textContent = all ? "Deselect all" : "Select all";
  for (const name of ["bulk-done", "bulk-delete", "move-to", "bulk-export"]) {
    document.getElementById(name).disabled = count === 0;
  }
  document.getElementById("bulk-rename").disabled = count !== 1;
}

document.getElementById("select-all").addEventListener("click", () => {
  const all = selectedCount() === view.rows.length;
  selection = { all: !all, ids: new Set() };
  draw();
});
document.getElementById("bulk-done").addEventListener("click", async () => {
  if (await change({ action: "done", done: true, ...selectionCommand() })) setEditing(false);
});
document.getElementById("bulk-delete").addEventListener("click", async () => {
  const answer = await change({ action: "delete", ...selectionCommand() });
  if (answer) {
    setEditing(false);
    offerUndo(answer.done);
  }
});
document.getElementById("bulk-rename").addEventListener("click", () => {
  const only = view.rows.find((row) => isSelected(row.id));
  setEditing(false);
  if (only) startEditing(only.id);
});
document.getElementById("bulk-export").addEventListener("click", () => {
  const lines = view.rows
    .filter((row) => isSelected(row.id))
    .map((row) => `${"  ".repeat(row.depth)}- [${row.done ? "x" : " "}] ${row.text}`);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([lines.join("\n") + "\n"], { type: "text/markdown" }));
  link.download = `${view.name}.md`;
  link.click();
  announce(`Exported ${lines.length} rows`);
});
const moveTo = document.getElementById("move-to");
moveTo.addEventListener("focus", fillMoveTargets);
moveTo.addEventListener("pointerdown", fillMoveTargets);
async function fillMoveTargets() {
  const answer = await getJSON("/api/collections");
  const options = answer.collections.filter((entry) => entry.id !== id);
  moveTo.replaceChildren(new Option("Move to…", ""), ...options.map((entry) => new Option(entry.name, entry.id)));
}
moveTo.addEventListener("change", async () => {
  if (!moveTo.value) return;
  const target = moveTo.value;
  moveTo.value = "";
  if (await change({ action: "moveTo", target, ...selectionCommand() })) setEditing(false);
});

// MARK: Strokes: drag (handle, long press) and swipe (touch), decided by the server

function listPoint(event) {
  const rect = list.getBoundingClientRect();
  return { x: event.clientX - rect.left, y: event.clientY - rect.top };
}

function geometry() {
  const rect = list.getBoundingClientRect();
  const frames = [];
  const top = -rect.top;
  const bottom = innerHeight - rect.top;
  for (const element of rowsElement.children) {
    const y = element.offsetTop;
    const h = element.offsetHeight;
    if (y + h < top - 200 || y > bottom + 200) continue;
    const depth = Number(element.dataset.depth);
    const open = element.getAttribute("aria-expanded") === "true";
    frames.push({ i: element.dataset.id, y, h, d: depth, o: open });
    if (frames.length >= 70) break;
  }
  return { rows: frames, top, bottom, originX: ORIGIN, indent: INDENT };
}

function startStroke(event, row, surface) {
  if (editing || event.button > 0 || (stroke && !stroke.ended)) return;
  if (stroke) settle(stroke.element);
  if (surface === "handle") event.preventDefault();
  const element = rowElement(row.id);
  element.setPointerCapture(event.pointerId);
  const point = listPoint(event);
  strokes += 1;
  stroke = {
    number: strokes, id: row.id, element, pointer: event.pointerId, start: point, last: point,
    client: { x: event.clientX, y: event.clientY }, lifted: false, swiping: false, speed: 0,
  };
  channel.send({
    type: "sample", phase: "began", n: ++sent, t: event.timeStamp, ...point, pointer: event.pointerId,
    surface, id: row.id, stroke: strokes, collection: id, version: view.version, reduceMotion: reduceMotion.matches,
    ...geometry(),
  });
  // Time passes while the finger rests: the arena's long press fires on the server's clock.
  const began = performance.now();
  stroke.timer = setTimeout(() => {
    if (stroke && stroke.element === element) {
      channel.send({ type: "advance", n: ++sent, t: event.timeStamp + (performance.now() - began) });
    }
  }, 520);
  element.addEventListener("pointermove", onMove);
  if (RAW_MOVES) element.addEventListener("pointerrawupdate", sendMove);
  element.addEventListener("pointerup", onEnd);
  element.addEventListener("pointercancel", onEnd);
}

// Once a frame: the lifted row follows the pointer (and, without raw updates, the sample goes).
function onMove(event) {
  if (!stroke || event.pointerId !== stroke.pointer) return;
  const point = listPoint(event);
  stroke.last = point;
  stroke.client = { x: event.clientX, y: event.clientY };
  if (stroke.lifted) {
    stroke.element.style.setProperty("--dy", `${point.y - stroke.start.y}px`);
    placeReason();
    if (probe) {
      const at = event.timeStamp;
      requestAnimationFrame(() => probe.rows.push(performance.now() - at));
    }
  }
  if (!RAW_MOVES) sendMove(event);
}

function sendMove(event) {
  if (!stroke || event.pointerId !== stroke.pointer || stroke.ended) return;
  const point = listPoint(event);
  const sample = { type: "sample", phase: "moved", n: ++sent, t: event.timeStamp, ...point, pointer: event.pointerId };
  if (probe) probe.sent.set(sample.n, { at: event.timeStamp, lifted: stroke.lifted });
  channel.send(sample);
  if (stroke.lifted) predict(point, sample.n);
}

// Draws the line the server will answer for this sample, when the last answer's cells hold it.
function predict(point, n) {
  const next = stroke.next;
  stroke.next = null; // good for one sample: the one after it resolves from this one's answer
  if (!next || next.after !== n - 1) return;
  for (const cell of next.cells) {
    if (point.x >= cell[0] && point.x <= cell[1] && point.y >= cell[2] && point.y <= cell[3]) {
      const answer = next.answers[cell[4]];
      drawAnswer(answer);
      stroke.predicted = { n, key: answerKey(answer) };
      predictions.drawn += 1;
      if (probe) measureMove(n, answer, true);
      return;
    }
  }
}

// Keeps an answer's cells for the move sent right after the message it answers.
function keepNext(message) {
  stroke.next = message.next ? { ...message.next, after: message.sample } : null;
}

function answerKey(answer) {
  const line = answer.line ? `${answer.line.x},${answer.line.y},${answer.line.depth}` : "";
  return `${line}|${Boolean(answer.blocked)}|${answer.reason || ""}`;
}

function onEnd(event) {
  if (!stroke || event.pointerId !== stroke.pointer) return;
  const phase = event.type === "pointercancel" ? "cancelled" : "ended";
  const point = phase === "ended" ? listPoint(event) : stroke.last;
  channel.send({ type: "sample", phase, n: ++sent, t: event.timeStamp, ...point, pointer: event.pointerId });
  if (probe && stroke.lifted && phase === "ended") probe.dropAt = event.timeStamp;
  finishStroke(false);
}

function finishStroke(now) {
  if (!stroke) return;
  const element = stroke.element;
  clearTimeout(stroke.timer);
  element.removeEventListener("pointermove", onMove);
  element.removeEventListener("pointerrawupdate", sendMove);
  element.removeEventListener("pointerup", onEnd);
  element.removeEventListener("pointercancel", onEnd);
  stroke.ended = true;
  if (now || (!stroke.lifted && !stroke.swiping)) stroke = null;
}

// While a row is lifted, a touch must not scroll the page (the arena has the touch).
document.addEventListener(
  "touchmove",
  (event) => {
    if (stroke && stroke.lifted) event.preventDefault();
  },
  { passive: false },
);

function autoScroll() {
  if (!stroke || !stroke.lifted || stroke.speed === 0 || stroke.ended) {
    if (stroke) stroke.scrolling = false;
    return;
  }
  const now = performance.now();
  const dt = Math.min(0.05, (now - stroke.scrolledAt) / 1000);
  stroke.scrolledAt = now;
  const before = scrollY;
  scrollBy(0, stroke.speed * dt);
  if (scrollY !== before) {
    const rect = list.getBoundingClientRect();
    const point = { x: stroke.client.x - rect.left, y: stroke.client.y - rect.top };
    stroke.element.style.setProperty("--dy", `${point.y - stroke.start.y}px`);
    stroke.last = point;
    placeReason();
    channel.send({ type: "rows", n: ++sent, ...point, ...geometry() });
  }
  requestAnimationFrame(autoScroll);
}

function onStrokeMessage(message) {
  if (stroke && message.stroke !== stroke.number) {
    // An earlier stroke's answer: only a saved change's rows matter now.
    if (message.type === "deleted" || message.type === "view") {
      view = message.view;
      draw();
    }
    return;
  }
  const element = stroke ? stroke.element : message.id ? rowElement(message.id) : null;
  switch (message.type) {
    case "lift":
      if (!stroke) return;
      stroke.lifted = true;
      element.classList.add("lifted");
      element.style.setProperty("--lift-scale", message.motion.scale);
      element.style.setProperty("--lift-tilt", `${message.motion.rotation}deg`);
      element.style.setProperty("--dy", `${stroke.last.y - stroke.start.y}px`);
      keepNext(message);
      feedback(message.haptic);
      announce("Lifted. Move to choose a place; the line shows where it lands.");
      break;
    case "liftRefused":
      feedback(message.haptic);
      showMessage(message.reason);
      break;
    case "target": {
      if (!stroke) return;
      const predicted = stroke.predicted;
      stroke.predicted = null;
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
      if (!stroke) return;
      stroke.swiping = true;
      element.classList.add("swiping");
      element.style.setProperty("--dx", `${message.offset}px`);
      element.style.setProperty("--trash", message.opacity);
      break;
    case "swipeBack":
    case "ended":
      if (element) settle(element, message.motion);
      stroke = null;
      break;
    case "deleted":
      stroke = null;
      view = message.view;
      feedback(message.haptic);
      draw();
      channel.send({ type: "watch", collection: id, version: view.version });
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
      stroke = null;
      view = message.view;
      draw();
      focusRow(message.id);
      channel.send({ type: "watch", collection: id, version: view.version });
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
      stroke = null;
      if (message.error && /changed since/.test(message.error)) load();
      break;
    default:
      break;
  }
}

// Draws an answer: the insertion line, or the invalid tint and the reason.
function drawAnswer(message) {
  stroke.element.classList.toggle("invalid", Boolean(message.blocked));
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

function setSpeed(speed) {
  stroke.speed = speed;
  if (speed !== 0 && !stroke.scrolling) {
    stroke.scrolling = true;
    stroke.scrolledAt = performance.now();
    requestAnimationFrame(autoScroll);
  }
}

function hideTarget(keepTint) {
  line.classList.remove("shown");
  line.hidden = true;
  if (!keepTint) hideReason();
  if (!keepTint && stroke) stroke.element.classList.remove("invalid");
}

// Why the drop is refused: a live region at the viewport's edge away from the lifted row (at
// the top while the row is in the lower half, else at the bottom), so the row never covers it.
function showReason(text) {
  if (reasonBox.textContent !== text) reasonBox.textContent = text;
  placeReason();
}

function placeReason() {
  if (!reasonBox.textContent || !stroke) return;
  const rect = stroke.element.getBoundingClientRect();
  const edge = rect.top + rect.height / 2 > innerHeight / 2 ? "top" : "bottom";
  if (reasonBox.dataset.edge !== edge) reasonBox.dataset.edge = edge;
}

function hideReason() {
  if (reasonBox.textContent) reasonBox.textContent = "";
}

// The time from a pointer move to the frame that draws its answer (the insertion line at its
// new place, or the tint): taken in the first animation frame after the line's style changed.
function measureMove(n, message, predicted = false) {
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

function settle(element, motion) {
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

// MARK: The socket: strokes and the change feed

const channel = new Channel(
  (message) => {
    if (message.type === "changed") {
      if (view && message.version !== view.version) {
        load();
        announce("Updated: this list was changed elsewhere");
      }
      return;
    }
    if (message.type === "error") {
      showMessage(message.error);
      return;
    }
    onStrokeMessage(message);
  },
  (open) => {
    document.body.dataset.connected = String(open);
    if (open && view) channel.send({ type: "watch", collection: id, version: view.version });
  },
  "/ws/organize",
);

load();
