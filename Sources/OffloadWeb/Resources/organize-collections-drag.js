// @ts-check
// The collections page: a drag on a collection's handle. The row follows the pointer; the drop
// places it after the row above the pointer (or first after the inbox).
import { change, page, rows } from "./organize-collections.js";

/** @type {{entry: any, item: HTMLElement, startY: number, pointer: number} | null} */
let drag = null;
/** When the last drag ended (performance.now), so the click that follows it opens nothing. */
let endedAt = -Infinity;

/** Whether a drag ended just now (its pointerup's click is not a tap). */
export function justDragged() {
  return performance.now() - endedAt < 400;
}

/**
 * Lifts `item` (the row of `entry`) under the pointer of `event`.
 * @param {PointerEvent} event
 * @param {any} entry
 * @param {HTMLElement} item
 */
export function startDrag(event, entry, item) {
  if (event.button > 0) return;
  event.preventDefault();
  item.setPointerCapture(event.pointerId);
  drag = { entry, item, startY: event.clientY, pointer: event.pointerId };
  item.classList.add("lifted");
  document.body.classList.add("lifting");
  item.addEventListener("pointermove", onDragMove);
  item.addEventListener("pointerup", onDragEnd);
  item.addEventListener("pointercancel", onDragEnd);
}

/**
 * The row the dragged one lands after: the last whose middle is above the pointer.
 * @param {HTMLElement} dragged
 * @param {number} clientY
 */
function dropAfter(dragged, clientY) {
  let after = null;
  for (const element of rows()) {
    if (element === dragged) continue;
    const rect = element.getBoundingClientRect();
    if (rect.top + rect.height / 2 < clientY) after = element.dataset.id;
  }
  return after;
}

/** @param {PointerEvent} event */
function onDragMove(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  drag.item.style.setProperty("--dy", `${event.clientY - drag.startY}px`);
}

/** @param {PointerEvent} event */
async function onDragEnd(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const { entry, item } = drag;
  drag = null;
  endedAt = performance.now();
  item.removeEventListener("pointermove", onDragMove);
  item.removeEventListener("pointerup", onDragEnd);
  item.removeEventListener("pointercancel", onDragEnd);
  item.classList.remove("lifted");
  document.body.classList.remove("lifting");
  item.style.setProperty("--dy", "0px");
  if (event.type === "pointercancel") return;
  const after = dropAfter(item, event.clientY);
  const inbox = page.view.collections.find((candidate) => candidate.isInbox);
  const index = page.view.collections.findIndex((candidate) => candidate.id === entry.id);
  const before = index > 0 ? page.view.collections[index - 1].id : null;
  if (after === before || after === entry.id) return;
  page.focusId = entry.id;
  if (after === null || (inbox && after === inbox.id)) await change({ action: "move", id: entry.id, direction: "first" });
  else await change({ action: "move", id: entry.id, after });
}
