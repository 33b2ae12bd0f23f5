// Shared by the organize pages: haptics, messages, announcements and the undo key.

// The Gestures haptic cues as vibration patterns (on, off, on ... in ms): light on grab,
// medium on a drop or a delete, the error and two light taps on a refused drop.
const patterns = { grab: [8], drop: [15], commit: [15], refusedDrop: [25, 35, 8, 52, 8] };

/** Plays a haptic cue where the device can. */
export function feedback(cue) {
  if (navigator.vibrate && patterns[cue]) navigator.vibrate(patterns[cue]);
}

let hideTimer = null;

/** Shows a message in the page's alert region for a few seconds. */
export function showMessage(text) {
  const message = document.getElementById("message");
  message.textContent = text;
  message.hidden = false;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => {
    message.hidden = true;
  }, 6000);
}

/** Says what happened in the polite status region. */
export function announce(text) {
  document.getElementById("status").textContent = text || "";
}

/** Calls `undo` on U or Ctrl+Z (Cmd+Z) when no text field has the focus. */
export function onUndoKey(undo) {
  document.addEventListener("keydown", (event) => {
    const field = event.target.closest && event.target.closest("input, select, textarea");
    if (field) return;
    const z = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "z";
    const u = !event.ctrlKey && !event.metaKey && !event.altKey && event.key === "u";
    if (z || u) {
      event.preventDefault();
      undo();
    }
  });
}
