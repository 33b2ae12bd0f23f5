// @ts-check
// Edit mode on a collection page: checkmarks, the selection and the bottom toolbar.
import { getJSON } from "./api.js";
import { byId } from "./dom.js";
import { change, offerUndo, startEditing } from "./organize-changes.js";
import { announce } from "./organize-common.js";
import { draw, focusRow } from "./organize-draw.js";
import { editButton, id, isSelected, rowsElement, selectedCount, selectionCommand, state } from "./organize-state.js";

editButton.addEventListener("click", () => setEditing(!state.editing));

export function setEditing(on) {
  state.editing = on;
  state.selection = { all: false, ids: new Set() }; // Done clears the selection.
  editButton.textContent = on ? "Done" : "Edit";
  editButton.setAttribute("aria-pressed", String(on));
  rowsElement.setAttribute("aria-multiselectable", String(on));
  draw();
}

/**
 * Starts moving one row to another collection (a swiped row's Move): edit mode with the row
 * ticked, and the toolbar's Move to… focused.
 * @param {string} rowId
 */
export function moveOne(rowId) {
  setEditing(true);
  state.selection.ids.add(rowId);
  draw();
  moveTo.focus();
}

export function toggleSelected(rowId) {
  if (state.selection.ids.has(rowId)) state.selection.ids.delete(rowId);
  else state.selection.ids.add(rowId);
  draw();
  focusRow(rowId);
}


byId("select-all").addEventListener("click", () => {
  const all = selectedCount() === state.view.rows.length;
  state.selection = { all: !all, ids: new Set() };
  draw();
});
byId("bulk-done").addEventListener("click", async () => {
  if (await change({ action: "done", done: true, ...selectionCommand() })) setEditing(false);
});
byId("bulk-delete").addEventListener("click", async () => {
  const answer = await change({ action: "delete", ...selectionCommand() });
  if (answer) {
    setEditing(false);
    offerUndo(answer.done);
  }
});
byId("bulk-rename").addEventListener("click", () => {
  const only = state.view.rows.find((row) => isSelected(row.id));
  setEditing(false);
  if (only) startEditing(only.id);
});
byId("bulk-export").addEventListener("click", () => {
  const lines = state.view.rows
    .filter((row) => isSelected(row.id))
    .map((row) => `${"  ".repeat(row.depth)}- [${row.done ? "x" : " "}] ${row.text}`);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([lines.join("\n") + "\n"], { type: "text/markdown" }));
  link.download = `${state.view.name}.md`;
  link.click();
  announce(`Exported ${lines.length} rows`);
});
const moveTo = byId("move-to", HTMLSelectElement);
moveTo.addEventListener("focus", fillMoveTargets);
moveTo.addEventListener("pointerdown", fillMoveTargets);
export async function fillMoveTargets() {
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
