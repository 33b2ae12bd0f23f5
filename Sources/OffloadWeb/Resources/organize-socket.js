// @ts-check
// A collection page's WebSocket: its strokes and the change feed.
import { Channel } from "./api.js";
import { load } from "./organize-changes.js";
import { onStrokeMessage } from "./organize-answers.js";
import { announce } from "./organize-common.js";
import { showMessage } from "./dom.js";
import { id, state } from "./organize-state.js";

export const channel = new Channel(
  (message) => {
    if (message.type === "changed") {
      if (state.view && message.version !== state.view.version) {
        load();
        // `done` says what arrived from other devices, when some did.
        announce(`Updated: ${message.done || "this list was changed elsewhere"}`);
      }
      return;
    }
    if (message.type === "error") {
      showMessage(message.error);
      return;
    }
    onStrokeMessage(message);
  },
  (open) => {
    document.body.dataset.connected = String(open);
    if (open && state.view) watch();
  },
  "/ws/organize",
);

/** Asks the server for the change feed of this collection at the version the page shows. */
export function watch() {
  if (state.view) channel.send({ type: "watch", collection: id, version: state.view.version });
}
