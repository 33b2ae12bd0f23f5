// @ts-check
// A collection page's state, shared by its modules: the view the server sent, the focus, the
// collapsed rows, edit mode and its selection, the stroke under way; and the page's elements.
import { byId } from "./dom.js";

/** @typedef {import("./types.js").Row} Row */
/** @typedef {import("./types.js").CollectionView} CollectionView */

/** The collection's id, from the address (`/collections/ID`). */
export const id = decodeURIComponent(location.pathname.split("/")[2] || "");
export const list = byId("list");
export const rowsElement = byId("rows");
export const line = byId("line");
export const undoButton = /** @type {HTMLButtonElement} */ (byId("undo"));
export const editButton = byId("edit");
export const toolbar = byId("toolbar");
export const reasonBox = byId("drop-reason");
export const INDENT = 24;
export const ORIGIN = 8;

export const state = {
  /** @type {CollectionView | null} the server's last view of the collection */
  view: null,
  /** @type {string | null} the row with the focus (the one tab stop) */
  focusId: null,
  editing: false,
  /** Select all is "all except": `all` with exceptions, else the picked ids. */
  selection: { all: false, ids: /** @type {Set<string>} */ (new Set()) },
  /** @type {any} the stroke under way (see organize-strokes.js), or null */
  stroke: null,
  /** Numbers strokes, so a late answer to an earlier one is not taken for this one. */
  strokes: 0,
  /** Numbers every stroke message, so an answer's predictions are used only right after it. */
  sent: 0,
};
/** @type {Set<string>} session-only: collapse is how a person looks, not data */
export const collapsed = new Set();
// The next sample's line, drawn at once from the server's last answer (its `next` cells, valid
// for the sample sent right after that answer's request); the server's own answer confirms it.
// The browser tests read these counts.
export const predictions = { drawn: 0, confirmed: 0, corrected: 0 };
/** @type {any} */ (window).offloadPredictions = predictions;
// Latency probes, only with ?measure in the address (Tools/Benchmarks/web/organize_latency.py
// reads them): pointer move to the insertion line drawn, pointer move to the lifted row drawn
// (the browser's own floor), drop to saved, drop to the new rows drawn, and a touch move to
// the row's swipe drawn, and a swipe's lift to the row drawn open or closed
// (Tools/Benchmarks/web/row_swipe_latency.py).
export const probe = new URLSearchParams(location.search).has("measure")
  ? { moves: [], rows: [], drops: [], drawn: [], swipes: [], releases: [], ends: [], sent: new Map(), dropAt: null, releaseAt: null }
  : null;
// Pointer samples go to the server as soon as the browser has them. `pointerrawupdate` fires
// on arrival, where `pointermove` waits for the next frame; so the server's answer usually
// lands before that frame, and the insertion line moves in the same frame as the row. Pages
// without it (not a secure context) send from `pointermove`.
export const RAW_MOVES = "onpointerrawupdate" in window;
if (probe) /** @type {any} */ (window).offloadLatency = probe;

/** The rows shown: those under a collapsed row are not. @returns {Row[]} */
export function visibleRows() {
  const shown = [];
  let hiddenBelow = null;
  for (const row of state.view.rows) {
    if (hiddenBelow !== null && row.depth > hiddenBelow) continue;
    hiddenBelow = null;
    shown.push(row);
    if (row.childCount > 0 && collapsed.has(row.id)) hiddenBelow = row.depth;
  }
  return shown;
}

/** @param {string} rowId */
export function isSelected(rowId) {
  return state.selection.all ? !state.selection.ids.has(rowId) : state.selection.ids.has(rowId);
}

export function selectedCount() {
  return state.selection.all ? state.view.rows.length - state.selection.ids.size : state.selection.ids.size;
}


/** The selection as a command's fields. */
export function selectionCommand() {
  const selection = state.selection;
  return selection.all ? { all: true, except: [...selection.ids] } : { ids: [...selection.ids] };
}

// The row elements drawn, by id, with the data each was drawn from (organize-draw.js keeps
// it): a row is found without a walk of the list's elements (110,000 on 10,000 rows).
/** @type {Map<string, { key: string, element: HTMLElement }>} */
export const drawnRows = new Map();

/**
 * The drawn row of `rowId`, if it is shown.
 * @param {string} rowId
 * @returns {HTMLElement | null}
 */
export function rowElement(rowId) {
  const drawn = drawnRows.get(rowId);
  return drawn && drawn.element.parentNode === rowsElement ? drawn.element : null;
}
