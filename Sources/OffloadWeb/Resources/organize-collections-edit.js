// @ts-check
// The collections page's edit mode (the seeds' collections list): Edit shows a checkmark on
// each list and plan, a tap toggles it, and the bottom toolbar deletes the selected ones in
// one change (one undo brings them all back) or moves the one selected up or down. Done
// leaves edit mode and clears the selection.
import { byId } from "./dom.js";
import { change, draw, focusRow, page } from "./organize-collections.js";
import { announce } from "./organize-common.js";

const editButton = byId("edit", HTMLButtonElement);
const toolbar = byId("toolbar");
const list = byId("collections");

/** @param {boolean} on */
function setEditing(on) {
  page.editing = on;
  page.selected = new Set();
  editButton.textContent = on ? "Done" : "Edit";
  editButton.setAttribute("aria-pressed", String(on));
  list.setAttribute("aria-multiselectable", String(on));
  list.classList.toggle("editing", on);
  draw();
}

/**
 * Ticks or unticks collection `id`.
 * @param {string} id
 */
export function toggleSelected(id) {
  if (page.selected.has(id)) page.selected.delete(id);
  else page.selected.add(id);
  draw();
  focusRow(id);
}

/** The lists and plans (the inbox cannot be selected). @returns {any[]} */
function selectable() {
  return page.view ? page.view.collections.filter((/** @type {any} */ entry) => !entry.isInbox) : [];
}

/** Shows the toolbar in edit mode, with what the selection allows. */
export function drawToolbar() {
  toolbar.hidden = !page.editing;
  if (!page.editing) return;
  const entries = selectable();
  // A collection deleted elsewhere leaves the selection.
  for (const id of [...page.selected]) if (!entries.some((entry) => entry.id === id)) page.selected.delete(id);
  const count = page.selected.size;
  byId("selected-count").textContent = `${count} selected`;
  const all = count === entries.length && count > 0;
  byId("select-all").textContent = all ? "Deselect all" : "Select all";
  byId("bulk-delete", HTMLButtonElement).disabled = count === 0;
  const only = count === 1 ? entries.findIndex((entry) => page.selected.has(entry.id)) : -1;
  byId("move-up", HTMLButtonElement).disabled = only <= 0;
  byId("move-down", HTMLButtonElement).disabled = only < 0 || only === entries.length - 1;
}

editButton.addEventListener("click", () => setEditing(!page.editing));

byId("select-all").addEventListener("click", () => {
  const entries = selectable();
  const all = page.selected.size === entries.length;
  page.selected = new Set(all ? [] : entries.map((entry) => entry.id));
  draw();
});

byId("bulk-delete").addEventListener("click", async () => {
  const answer = await change({ action: "delete", ids: [...page.selected] });
  if (answer) {
    setEditing(false);
    announce(`${answer.done}. Press U or Undo to bring them back.`);
  }
});

/** @param {"up" | "down"} direction */
async function moveSelected(direction) {
  const [id] = page.selected;
  if (id) await change({ action: "move", id, direction });
}
byId("move-up").addEventListener("click", () => moveSelected("up"));
byId("move-down").addEventListener("click", () => moveSelected("down"));
