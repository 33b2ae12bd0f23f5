// @ts-check
// A collection page: rows as a tree (plan) or a list, keyboard, drag, swipe and edit mode.
// The page draws; the server decides (the Gestures arena, the drop-target resolver with the
// collection's placement rules, the workspace). The page's modules, by concern:
// organize-state.js (what the page holds), organize-draw.js (rows and toolbar),
// organize-changes.js (commands, one after another), organize-edit.js (edit mode),
// organize-strokes.js (pointer input), organize-answers.js (the server's answers to a stroke),
// organize-socket.js (the WebSocket). This one wires the keys and loads the collection.
import { change, load, remove, startEditing, undo } from "./organize-changes.js";
import { onUndoKey } from "./organize-common.js";
import { focusRow, toggle } from "./organize-draw.js";
import { toggleSelected } from "./organize-edit.js";
import { openRoleMenu } from "./organize-roles.js";
import { collapsed, rowElement, rowsElement, state, undoButton, visibleRows } from "./organize-state.js";

// MARK: Keyboard

rowsElement.addEventListener("keydown", (event) => {
  if (!state.view || /** @type {HTMLElement} */ (event.target).tagName === "INPUT" || !state.focusId) return;
  const shown = visibleRows();
  const index = shown.findIndex((row) => row.id === state.focusId);
  const row = shown[index];
  if (!row) return;
  const plan = state.view.kind === "plan";
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
  else if (event.key === " " && state.editing) toggleSelected(row.id);
  else if (event.key === " ") change({ action: "done", id: row.id, done: !row.done });
  else if (event.key === "Enter" || event.key === "F2") startEditing(row.id);
  else if (plan && !state.editing && event.key.toLowerCase() === "r" && !event.ctrlKey && !event.metaKey && !event.altKey) {
    const element = rowElement(row.id);
    if (element) openRoleMenu(row, element.querySelector(".row-role") ?? element);
  }
  else handled = false;
  if (handled) event.preventDefault();
});
// The row's look follows the pointer in use, not the screen's width: on a touch the row belongs
// to the gestures (no Delete button, no handle outside edit mode); a mouse or a pen shows them
// on hover and focus.
document.addEventListener(
  "pointerdown",
  (event) => document.documentElement.classList.toggle("touch", event.pointerType === "touch"),
  true,
);
onUndoKey(undo);
undoButton.addEventListener("click", undo);

load();
