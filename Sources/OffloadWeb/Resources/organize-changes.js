// @ts-check
// Changes to a collection page, one after another: load, send, delete, undo, rename, add.
import { getJSON } from "./api.js";
import { byId, editInPlace, showMessage } from "./dom.js";
import { announce, postChange } from "./organize-common.js";
import { draw, focusRow } from "./organize-draw.js";
import { watch } from "./organize-socket.js";
import { id, rowElement, state, undoButton, visibleRows } from "./organize-state.js";

export async function load() {
  try {
    state.view = await getJSON(`/api/collection?id=${encodeURIComponent(id)}`);
    draw();
    watch();
  } catch (error) {
    showMessage(error.message);
  }
}



// Changes go one after another, each with the version the previous one left.
let queue = Promise.resolve();

export function change(command, options) {
  const next = queue.then(() => send(command, options));
  queue = next.catch(() => null);
  return next;
}

// A command goes to `/api/items` unless `path` names another route (a row's role).
export function send(command, { quiet = false, path = "/api/items" } = {}) {
  const body = { ...command, collection: id, version: state.view.version };
  return postChange(path, body, (answer) => {
    state.view = answer.view;
    draw();
    if (state.focusId) focusRow(state.focusId);
    watch();
    if (!quiet) announce(answer.done);
  }, load);
}

export async function remove(ids) {
  const shown = visibleRows();
  const index = shown.findIndex((row) => row.id === ids[0]);
  const answer = await change({ action: "delete", ids });
  if (answer) {
    const rows = visibleRows();
    if (rows.length) focusRow(rows[Math.min(index, rows.length - 1)].id);
    offerUndo(answer.done);
  }
}

export function offerUndo(done) {
  announce(`${done}. Press U or Undo to bring it back.`);
  undoButton.focus({ preventScroll: true });
  if (state.focusId) focusRow(state.focusId);
}

export async function undo() {
  await change({ action: "undo" });
}

export function startEditing(rowId) {
  const element = rowElement(rowId);
  const row = state.view.rows.find((candidate) => candidate.id === rowId);
  if (!element || !row) return;
  editInPlace(element.querySelector(".text"), row.text, `Edit ${row.text}`, async (text) => {
    if (text !== null) await change({ action: "edit", id: rowId, text });
    else draw();
    focusRow(rowId);
  });
}


byId("add").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = byId("add-text", HTMLInputElement);
  if (!input.value.trim()) return;
  const answer = await change({ action: "add", text: input.value });
  if (answer) {
    input.value = "";
    state.focusId = answer.id;
    input.focus();
  }
});
