// @ts-check
// Drawing a collection page: its rows (kept and moved, not rebuilt), focus and the edit toolbar.
import { button, byId } from "./dom.js";
import { change, remove, startEditing } from "./organize-changes.js";
import { madeHere } from "./organize-common.js";
import { moveOne, toggleSelected } from "./organize-edit.js";
import { openRoleMenu } from "./organize-roles.js";
import { INDENT, ORIGIN, collapsed, drawnRows, isSelected, rowElement, rowsElement, selectedCount, state, toolbar, undoButton, visibleRows } from "./organize-state.js";
import { checkOpen, isOpen, requestClose } from "./organize-reveal.js";
import { startStroke } from "./organize-strokes.js";

export function draw() {
  byId("title").textContent = state.view.name;
  document.title = `Offload · ${state.view.name}`;
  const plan = state.view.kind === "plan";
  rowsElement.setAttribute("role", plan ? "tree" : "list");
  rowsElement.setAttribute("aria-label", state.view.name);
  rowsElement.classList.toggle("editing", state.editing);
  undoButton.disabled = !state.view.canUndo || !madeHere().length;
  const shown = visibleRows();
  if (!shown.some((row) => row.id === state.focusId)) state.focusId = shown.length ? shown[0].id : null;
  const hadFocus = rowsElement.contains(document.activeElement);
  placeRows(shown.map((row) => rowFor(row, plan)));
  if (hadFocus && state.focusId) rowElement(state.focusId)?.focus();
  drawToolbar();
  checkOpen();
}

// A redraw keeps every row whose data is unchanged (`drawnRows`: the elements drawn, by id,
// with the data each was drawn from) and moves only the rows whose place changed, so a drop
// on a 1,000-row plan touches a handful of elements instead of building a thousand.

export function rowFor(row, plan) {
  const key = JSON.stringify([
    row.text, row.depth, row.done, row.childCount, row.fixed, plan, state.editing,
    collapsed.has(row.id), state.editing && isSelected(row.id),
  ]);
  const kept = drawnRows.get(row.id);
  // A row in the middle of a motion (lifted, swiped, settling) is drawn afresh, at rest.
  // A row resting open on its quick actions is kept open while its data is the same.
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
export function placeRows(elements) {
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

// One row is in the Tab order: the focused one (`tabStop`). Attributes only, so nothing asks
// the browser for a style or a layout in the middle of a redraw.
/** @type {HTMLElement | null} */
let tabStop = null;
export function setTabStop(elements) {
  tabStop = null;
  for (const element of elements) {
    const tabIndex = element.dataset.id === state.focusId ? "0" : "-1";
    if (element.getAttribute("tabindex") !== tabIndex) element.setAttribute("tabindex", tabIndex);
    if (tabIndex === "0") tabStop = element;
  }
}


export function drawRow(row, plan) {
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
  if (state.editing) item.setAttribute("aria-selected", String(isSelected(row.id)));
  item.tabIndex = row.id === state.focusId ? 0 : -1;
  item.classList.toggle("done", row.done);
  item.classList.toggle("fixed", row.fixed);

  // The quick actions a swipe left uncovers (the row's own buttons and keys do the same for
  // a keyboard or a screen reader, so these stay out of the accessibility tree). Using one
  // closes the row in the arena too.
  const trash = document.createElement("div");
  trash.className = "swipe-trash";
  trash.setAttribute("aria-hidden", "true");
  trash.append(
    button("Move", `Move ${row.text}`, "swipe-move", () => {
      requestClose();
      moveOne(row.id);
    }),
    button("Delete", `Delete ${row.text}`, "swipe-delete", () => {
      requestClose();
      remove([row.id]);
    }),
  );
  const body = document.createElement("div");
  body.className = "row-body";
  body.style.paddingLeft = `${ORIGIN + row.depth * INDENT}px`;

  if (state.editing) {
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
  if (!state.editing) {
    body.append(button("Delete", `Delete ${row.text}`, "row-delete", () => remove([row.id])));
    if (plan) {
      const role = button("Role", `Role of ${row.text}`, "row-role", () => openRoleMenu(row, role));
      role.setAttribute("aria-keyshortcuts", "R");
      body.append(role);
    }
  }
  const handle = button("≡", `Reorder ${row.text}`, "handle", () => {});
  handle.disabled = row.fixed;
  handle.title = row.fixed ? "This row stays where it is" : "Drag to reorder (or Alt+↑/↓)";
  handle.addEventListener("pointerdown", (event) => startStroke(event, row, "handle"));
  body.append(handle);
  item.append(trash, body);

  // A touch anywhere on the row is the arena's (swipe, long press, tap, scroll). A tap on a
  // row resting open only closes it (the arena's rule), so its click edits nothing.
  let tapCloses = false;
  // On an open row the quick actions are the row's too: a swipe that starts on them moves the
  // row (a tap still presses the button).
  item.addEventListener("pointerdown", (event) => {
    tapCloses = isOpen(item);
    const onActions = tapCloses && trash.contains(/** @type {Node} */ (event.target));
    if (event.pointerType === "touch" && (onActions || !onControl(event))) {
      startStroke(event, row, "row", !onActions);
    }
  });
  item.addEventListener("click", (event) => {
    if (onControl(event) || tapCloses) return;
    focusRow(row.id);
    if (state.editing) toggleSelected(row.id);
    else if (!state.stroke) startEditing(row.id);
  });
  item.addEventListener("focus", () => {
    state.focusId = row.id;
  });
  return item;
}

// Moves the one tab stop from the row that had it (not a walk of every row: a click that
// ends a drag on 10,000 rows lands here).
export function focusRow(rowId) {
  state.focusId = rowId;
  const element = rowElement(rowId);
  if (tabStop && tabStop !== element) tabStop.setAttribute("tabindex", "-1");
  tabStop = element;
  if (element && element.getAttribute("tabindex") !== "0") element.setAttribute("tabindex", "0");
  if (element && document.activeElement !== element) element.focus();
}

export function toggle(rowId) {
  if (collapsed.has(rowId)) collapsed.delete(rowId);
  else collapsed.add(rowId);
  draw();
  focusRow(rowId);
}


export function drawToolbar() {
  toolbar.hidden = !state.editing;
  if (!state.editing) return;
  const count = selectedCount();
  byId("selected-count").textContent = `${count} selected`;
  const all = count === state.view.rows.length && state.view.rows.length > 0;
  byId("select-all").textContent = all ? "Deselect all" : "Select all";
  for (const name of ["bulk-done", "bulk-delete", "move-to", "bulk-export"]) {
    /** @type {HTMLButtonElement | HTMLSelectElement} */ (byId(name)).disabled = count === 0;
  }
  byId("bulk-rename", HTMLButtonElement).disabled = count !== 1;
}

/**
 * Whether an event began on a row's button or checkbox (which handle it themselves).
 * @param {Event} event
 */
function onControl(event) {
  return !!/** @type {Element} */ (event.target).closest("button, input");
}
