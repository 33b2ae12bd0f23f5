// @ts-check
// Shared by the organize pages: haptics, announcements, the undo key and posting a change.

import { postJSON } from "./api.js";
import { inField, showMessage } from "./dom.js";

// The Gestures haptic cues as vibration patterns (on, off, on ... in ms): light on grab,
// medium on a drop or a delete, the error and two light taps on a refused drop.
/** @type {Record<string, number[]>} */
const patterns = { grab: [8], drop: [15], commit: [15], refusedDrop: [25, 35, 8, 52, 8] };

/**
 * Plays a haptic cue where the device can.
 * @param {string} cue grab, drop, commit or refusedDrop
 */
export function feedback(cue) {
  if (navigator.vibrate && patterns[cue]) navigator.vibrate(patterns[cue]);
}

/**
 * Says what happened in the polite status region.
 * @param {string} text
 */
export function announce(text) {
  document.getElementById("status").textContent = text || "";
}

/**
 * Calls `undo` on U or Ctrl+Z (Cmd+Z) when no text field has the focus.
 * @param {() => void} undo
 */
export function onUndoKey(undo) {
  document.addEventListener("keydown", (event) => {
    if (inField(event)) return;
    const z = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "z";
    const u = !event.ctrlKey && !event.metaKey && !event.altKey && event.key === "u";
    if (z || u) {
      event.preventDefault();
      undo();
    }
  });
}

// The history sequences of the changes made in this tab, oldest first: what Undo here may
// take back (the server's one rule, `Workspace.undo(madeHere:)`, as the terminal screen's u).
// Kept in the tab's session storage, so a reload or the other organize page keeps them.
const MADE = "offload.madeHere";

/** @returns {number[]} */
export function madeHere() {
  try {
    const made = JSON.parse(sessionStorage.getItem(MADE) || "[]");
    return Array.isArray(made) ? made.filter((sequence) => Number.isSafeInteger(sequence)) : [];
  } catch {
    return [];
  }
}

/**
 * Notes what an answer made (`made`) or took back (`undone`, with what came after it).
 * @param {{made?: number, undone?: number} | null} answer
 */
export function noteMade(answer) {
  const made = madeHere();
  if (typeof answer?.made === "number") made.push(answer.made);
  if (typeof answer?.undone === "number" && made.includes(answer.undone)) made.length = made.indexOf(answer.undone);
  try {
    sessionStorage.setItem(MADE, JSON.stringify(made.slice(-500)));
  } catch {
    // Storage off: Undo here then finds nothing made here, and says so.
  }
}

/**
 * Posts a change with the page marked busy. The answer goes to `took` (the page draws and
 * announces it); a refusal is shown, and a stale view (409) is loaded again.
 * @param {string} path
 * @param {object} body
 * @param {(answer: any) => void} took
 * @param {() => Promise<void>} reload
 * @returns {Promise<any>} the answer, or null when the change was refused
 */
export async function postChange(path, body, took, reload) {
  document.body.dataset.busy = "true";
  try {
    const answer = await postJSON(path, body.action === "undo" ? { ...body, made: madeHere() } : body);
    noteMade(answer);
    took(answer);
    return answer;
  } catch (error) {
    showMessage(error.message);
    if (error.status === 409) await reload();
    return null;
  } finally {
    document.body.dataset.busy = "false";
  }
}
