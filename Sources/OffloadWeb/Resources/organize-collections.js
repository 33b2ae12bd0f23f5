// @ts-check
// The collections page: the inbox, lists and plans; create, rename, delete, reorder (keys
// and drag on the handle), capture into the inbox. Every change is one workspace change.
import { Channel, getJSON } from "./api.js";
import { button, byId, editInPlace, inField, showMessage } from "./dom.js";
import { justDragged, startDrag } from "./organize-collections-drag.js";
import { drawToolbar, toggleSelected } from "./organize-collections-edit.js";
import { announce, madeHere, onUndoKey, postChange } from "./organize-common.js";

const listElement = byId("collections");
const undoButton = byId("undo", HTMLButtonElement);
/**
 * What the page holds: the server's view, the focused row, edit mode and its selection.
 * @type {{view: any, focusId: string | null, editing: boolean, selected: Set<string>}}
 */
export const page = { view: null, focusId: null, editing: false, selected: new Set() };

async function load() {
  try {
    page.view = await getJSON("/api/collections");
    draw();
    channel.send({ type: "watch", version: page.view.version });
  } catch (error) {
    showMessage(error.message);
  }
}

export function draw() {
  undoButton.disabled = !page.view.canUndo || !madeHere().length;
  if (!page.view.collections.some((entry) => entry.id === page.focusId)) page.focusId = page.view.collections[0]?.id;
  const hadFocus = listElement.contains(document.activeElement);
  listElement.replaceChildren(
    ...page.view.collections.map((entry) => {
      const item = document.createElement("li");
      item.className = "row collection";
      item.dataset.id = entry.id;
      item.setAttribute("role", "listitem");
      item.setAttribute("aria-label", entry.name);
      item.tabIndex = entry.id === page.focusId ? 0 : -1;
      const body = document.createElement("div");
      body.className = "row-body";
      const selectable = page.editing && !entry.isInbox;
      if (selectable) {
        item.setAttribute("aria-selected", String(page.selected.has(entry.id)));
        const mark = document.createElement("span");
        mark.className = "checkmark";
        mark.setAttribute("aria-hidden", "true");
        body.append(mark);
      }
      const link = document.createElement("a");
      link.className = "text";
      link.href = `/collections/${encodeURIComponent(entry.id)}`;
      link.textContent = entry.name;
      link.tabIndex = -1;
      const about = document.createElement("span");
      about.className = "about";
      about.textContent = `${entry.isInbox ? "inbox" : entry.kind} · ${entry.itemCount} item${entry.itemCount === 1 ? "" : "s"}`;
      body.append(link, about);
      if (!entry.isInbox && !page.editing) {
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
        page.focusId = entry.id;
      });
      // A tap anywhere on the row opens the collection; in edit mode it toggles its checkmark.
      item.addEventListener("click", (event) => {
        if (/** @type {Element} */ (event.target).closest("button, input") || justDragged()) return;
        event.preventDefault();
        if (page.editing) {
          if (selectable) toggleSelected(entry.id);
        } else {
          location.href = link.href;
        }
      });
      return item;
    }),
  );
  if (hadFocus && page.focusId) rowOf(page.focusId)?.focus();
  drawToolbar();
}

/** The drawn rows. @returns {HTMLElement[]} */
export function rows() {
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

/** @param {string} rowId */
export function focusRow(rowId) {
  page.focusId = rowId;
  for (const element of rows()) element.tabIndex = element.dataset.id === rowId ? 0 : -1;
  const element = rowOf(rowId);
  if (element) element.focus();
}

// Changes go one after another, each with the version the previous one left.
let queue = Promise.resolve();

/**
 * Sends `command` after the changes before it.
 * @param {object} command
 * @returns {Promise<any>} the answer, or null when refused
 */
export function change(command) {
  const next = queue.then(() => send(command));
  queue = next.catch(() => null);
  return next;
}

function send(command) {
  const body = { ...command, version: page.view.version };
  return postChange("/api/collections", body, (answer) => {
    page.view = answer.view;
    draw();
    if (page.focusId) focusRow(page.focusId);
    channel.send({ type: "watch", version: page.view.version });
    announce(answer.done);
  }, load);
}

/** @param {any} entry */
function rename(entry) {
  const element = listElement.querySelector(`[data-id="${CSS.escape(entry.id)}"] .text`);
  editInPlace(element, entry.name, `New name for ${entry.name}`, async (name) => {
    if (name !== null) await change({ action: "rename", id: entry.id, name });
    else draw();
    focusRow(entry.id);
  });
}

async function remove(entry) {
  const answer = await change({ action: "delete", id: entry.id });
  if (answer) announce(`${answer.done}. Press U or Undo to bring it back.`);
}

listElement.addEventListener("keydown", (event) => {
  if (!page.view || inField(event)) return;
  const index = page.view.collections.findIndex((entry) => entry.id === page.focusId);
  const entry = page.view.collections[index];
  if (!entry) return;
  let handled = true;
  if (event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
    if (!entry.isInbox) change({ action: "move", id: entry.id, direction: event.key === "ArrowUp" ? "up" : "down" });
  } else if (event.key === "ArrowUp" && index > 0) focusRow(page.view.collections[index - 1].id);
  else if (event.key === "ArrowDown" && index + 1 < page.view.collections.length) focusRow(page.view.collections[index + 1].id);
  else if (event.key === " " && page.editing && !entry.isInbox) toggleSelected(entry.id);
  else if (event.key === "Enter") location.href = `/collections/${encodeURIComponent(entry.id)}`;
  else if (event.key === "F2" && !entry.isInbox) rename(entry);
  else if ((event.key === "Delete" || event.key === "Backspace") && !entry.isInbox) remove(entry);
  else handled = false;
  if (handled) event.preventDefault();
});

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
    if (message.type === "changed" && page.view && message.version !== page.view.version) {
      load();
      announce("Updated: the collections were changed elsewhere");
    }
  },
  (open) => {
    document.body.dataset.connected = String(open);
    if (open && page.view) channel.send({ type: "watch", version: page.view.version });
  },
  "/ws/organize",
);

load();
