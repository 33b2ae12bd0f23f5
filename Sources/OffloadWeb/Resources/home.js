// @ts-check
// The home page: the photo session's progress, and the lists and plans, each a link.
import { count, getJSON } from "./api.js";
import { byId, showMessage } from "./dom.js";

/** @typedef {import("./types.js").Deck} Deck */
/** @typedef {{id: string, name: string, kind: string, itemCount: number, isInbox: boolean}} Entry */

/** @param {Deck} deck */
function drawPhotos(deck) {
  const session = deck.session;
  const text = byId("photos-progress");
  const bar = /** @type {HTMLProgressElement} */ (byId("photos-bar"));
  const link = byId("photos-link");
  if (!session) {
    text.textContent = "No photo session yet.";
    link.textContent = "Start a photo session";
    bar.hidden = true;
    return;
  }
  const left = session.total - session.reviewed;
  text.textContent =
    `${count(session.reviewed)} of ${count(session.total)} photos decided` +
    (left > 0 ? ` · ${count(left)} to go` : " · every photo has a decision") +
    (session.pending > 0 ? ` · ${count(session.pending)} to commit` : "");
  bar.hidden = false;
  bar.max = Math.max(1, session.total);
  bar.value = session.reviewed;
  link.textContent = session.isAtEnd ? "Back to the photos" : session.reviewed > 0 ? "Continue culling" : "Cull photos";
  byId("review-link").hidden = session.reviewed === 0;
}

/** @param {Entry[]} entries */
function drawCollections(entries) {
  const list = byId("collections");
  list.replaceChildren();
  for (const entry of entries) {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/collections/${encodeURIComponent(entry.id)}`;
    link.className = "home-row";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = entry.name;
    const about = document.createElement("span");
    about.className = "about";
    const kind = entry.isInbox ? "inbox" : entry.kind;
    about.textContent = `${kind} · ${count(entry.itemCount)} ${entry.itemCount === 1 ? "item" : "items"}`;
    link.append(name, about);
    li.append(link);
    list.append(li);
  }
}

async function load() {
  const [deck, collections] = await Promise.allSettled([getJSON("/api/state"), getJSON("/api/collections")]);
  if (deck.status === "fulfilled") drawPhotos(deck.value);
  else byId("photos-progress").textContent = deck.reason.message;
  if (collections.status === "fulfilled") drawCollections(collections.value.collections);
  else showMessage(collections.reason.message);
  document.body.dataset.ready = "yes";
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) load();
});
load();
