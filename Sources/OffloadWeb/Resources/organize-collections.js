// @ts-check
// The collections page: the inbox, lists and plans; create, rename, delete, reorder (keys
// and drag on the handle), capture into the inbox. Every change is one workspace change.
import { Channel, getJSON, postJSON } from "./api.js";
import { button, byId, inField, showMessage } from "./dom.js";
import { announce, onUndoKey } from "./organize-common.js";

const listElement = byId("collections");
const undoButton = byId("undo", HTMLButtonElement);
let view = null;
let focusId = null;
let drag = null;

async function load() {
  try {
    view = await getJSON("/api/collections");
    draw();
    channel.send({ type: "watch", version: view.version });
  } catch (error) {
    showMessage(error.message);
  }
}

function draw() {
  undoButton.disabled = !view.canUndo;
  if (!view.collections.some((entry) => entry.id === focusId)) focusId = view.collections[0]?.id;
  const hadFocus = listElement.contains(document.activeElement);
  listElement.replaceChildren(
    ...view.collections.map((entry) => {
      const item = document.createElement("li");
      item.className = "row collection";
      item.dataset.id = entry.id;
      item.setAttribute("role", "listitem");
      item.setAttribute("aria-label", entry.name);
      item.tabIndex = entry.id === focusId ? 0 : -1;
      const body = document.createElement("div");
      body.className = "row-body";
      const link = document.createElement("a");
      link.className = "text";
      link.href = `/collections/${encodeURIComponent(entry.id)}`;
      link.textContent = entry.name;
      link.tabIndex = -1;
      const about = document.createElement("span");
      about.className = "about";
      about.textContent = `${entry.isInbox ? "inbox" : entry.kind} · ${entry.itemCount} item${entry.itemCount === 1 ? "" : "s"}`;
      body.append(link, about);
      if (!entry.isInbox) {
        body.append(
          button("Rename", `Rename ${entry.name}`, "row-rename", () => rename(entry)),
          button("Delete", `Delete ${entry.name}`, "row-delete", () => remove(entry)),
        );
        const handle = button("≡", `Reorder ${entry.name}`, "handle", () => {});
        handle.addEventListener("pointerdown", (event) => startDrag(event, entry, item));
        body.append(handle);
      }
      item.append(body);
      item.addEventListener("focus", () => {
        focusId = entry.id;
      });
      return item;
    }),
  );
  if (hadFocus && focusId) rowOf(focusId)?.focus();
}

/** The drawn rows. @returns {HTMLElement[]} */
function rows() {
  return /** @type {HTMLElement[]} */ ([...listElement.children]);
}

/**
 * The drawn row of `rowId`, if shown.
 * @param {string} rowId
 * @returns {HTMLElement | null}
 */
function rowOf(rowId) {
  return listElement.querySelector(`[data-id="${CSS.escape(rowId)}"]`);
}

function focusRow(rowId) {
  focusId = rowId;
  for (const element of rows()) element.tabIndex = element.dataset.id === rowId ? 0 : -1;
  const element = rowOf(rowId);
  if (element) element.focus();
}

// Changes go one after another, each with the version the previous one left.
let queue = Promise.resolve();

function change(command) {
  const next = queue.then(() => send(command));
  queue = next.catch(() => null);
  return next;
}

async function send(command) {
  document.body.dataset.busy = "true";
  try {
    const answer = await postJSON("/api/collections", { ...command, version: view.version });
    view = answer.view;
    draw();
    if (focusId) focusRow(focusId);
    channel.send({ type: "watch", version: view.version });
    announce(answer.done);
    return answer;
  } catch (error) {
    showMessage(error.message);
    if (error.status === 409) await load();
    return null;
  } finally {
    document.body.dataset.busy = "false";
  }
}

function rename(entry) {
  const element = listElement.querySelector(`[data-id="${CSS.escape(entry.id)}"] .text`);
  const input = document.createElement("input");
  input.className = "edit-text";
  input.value = entry.name;
  input.setAttribute("aria-label", `New name for ${entry.name}`);
  element.replaceWith(input);
  input.focus();
  input.select();
  let finished = false;
  const finish = async (save) => {
    if (finished) return;
    finished = true;
    if (save && input.value.trim() && input.value !== entry.name) {
      await change({ action: "rename", id: entry.id, name: input.value });
    } else {
      draw();
    }
    focusRow(entry.id);
  };
  input.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Enter") finish(true);
    if (event.key === "Escape") finish(false);
  });
  input.addEventListener("blur", () => finish(true));
}

async function remove(entry) {
  const answer = await change({ action: "delete", id: entry.id });
  if (answer) announce(`${answer.done}. Press U or Undo to bring it back.`);
}

listElement.addEventListener("keydown", (event) => {
  if (!view || inField(event)) return;
  const index = view.collections.findIndex((entry) => entry.id === focusId);
  const entry = view.collections[index];
  if (!entry) return;
  let handled = true;
  if (event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
    if (!entry.isInbox) change({ action: "move", id: entry.id, direction: event.key === "ArrowUp" ? "up" : "down" });
  } else if (event.key === "ArrowUp" && index > 0) focusRow(view.collections[index - 1].id);
  else if (event.key === "ArrowDown" && index + 1 < view.collections.length) focusRow(view.collections[index + 1].id);
  else if (event.key === "Enter") location.href = `/collections/${encodeURIComponent(entry.id)}`;
  else if (event.key === "F2" && !entry.isInbox) rename(entry);
  else if ((event.key === "Delete" || event.key === "Backspace") && !entry.isInbox) remove(entry);
  else handled = false;
  if (handled) event.preventDefault();
});

// A drag on a collection's handle: the row follows the pointer; the drop places it after
// the row above the pointer (or first after the inbox).
function startDrag(event, entry, item) {
  if (event.button > 0) return;
  event.preventDefault();
  item.setPointerCapture(event.pointerId);
  drag = { entry, item, startY: event.clientY, pointer: event.pointerId };
  item.classList.add("lifted");
  item.addEventListener("pointermove", onDragMove);
  item.addEventListener("pointerup", onDragEnd);
  item.addEventListener("pointercancel", onDragEnd);
}

function dropAfter(dragged, clientY) {
  let after = null;
  for (const element of rows()) {
    if (element === dragged) continue;
    const rect = element.getBoundingClientRect();
    if (rect.top + rect.height / 2 < clientY) after = element.dataset.id;
  }
  return after;
}

function onDragMove(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  drag.item.style.setProperty("--dy", `${event.clientY - drag.startY}px`);
}

async function onDragEnd(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const { entry, item } = drag;
  drag = null;
  item.removeEventListener("pointermove", onDragMove);
  item.removeEventListener("pointerup", onDragEnd);
  item.removeEventListener("pointercancel", onDragEnd);
  item.classList.remove("lifted");
  item.style.setProperty("--dy", "0px");
  if (event.type === "pointercancel") return;
  const after = dropAfter(item, event.clientY);
  const inbox = view.collections.find((candidate) => candidate.isInbox);
  const index = view.collections.findIndex((candidate) => candidate.id === entry.id);
  const before = index > 0 ? view.collections[index - 1].id : null;
  if (after === before || after === entry.id) return;
  focusId = entry.id;
  if (after === null || (inbox && after === inbox.id)) await change({ action: "move", id: entry.id, direction: "first" });
  else await change({ action: "move", id: entry.id, after });
}

byId("capture").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = byId("capture-text", HTMLInputElement);
  if (!input.value.trim()) return;
  if (await change({ action: "capture", text: input.value })) input.value = "";
});

byId("create").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = byId("create-name", HTMLInputElement);
  const kind = byId("create-kind", HTMLSelectElement).value;
  if (!input.value.trim()) return;
  const answer = await change({ action: "create", name: input.value, kind });
  if (answer) {
    input.value = "";
    focusRow(answer.id);
  }
});

onUndoKey(() => change({ action: "undo" }));
undoButton.addEventListener("click", () => change({ action: "undo" }));

const channel = new Channel(
  (message) => {
    if (message.type === "changed" && view && message.version !== view.version) {
      load();
      announce("Updated: the collections were changed elsewhere");
    }
  },
  (open) => {
    document.body.dataset.connected = String(open);
    if (open && view) channel.send({ type: "watch", version: view.version });
  },
  "/ws/organize",
);

load();
