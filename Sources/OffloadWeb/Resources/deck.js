// The photo deck: the card follows the pointer here; the server's Gestures arena decides.
import { Channel, count, getJSON, postJSON } from "/assets/api.js";

const $ = (id) => document.getElementById(id);
const card = $("card");
const frame = $("frame");
const photo = $("photo");
const overlay = $("overlay");
const progress = $("progress");
const undoButton = $("undo");
const message = $("message");
const reduceMotion = matchMedia("(prefers-reduced-motion: reduce)");
const MAX_TILT = 15; // degrees, reached at the commit distance (the deck's motion spec)
const COMMIT_FRACTION = 0.5;

let deck = null; // the server's last deck document
let busy = false; // a decision is on its way to the journal
let drag = null; // the stroke under way
const preloaded = new Map(); // image address -> decoded Image (the next three)

const channel = new Channel(onServerMessage, (up) => {
  document.body.dataset.channel = up ? "open" : "closed";
});

function sessionQuery() {
  const id = new URLSearchParams(location.search).get("session");
  return id ? `?session=${encodeURIComponent(id)}` : "";
}

async function load() {
  try {
    show(await getJSON(`/api/state${sessionQuery()}`));
  } catch (error) {
    say(error.message);
  }
}

function say(text) {
  message.textContent = text || "";
  message.hidden = !text;
  if (text) setTimeout(() => { if (message.textContent === text) message.hidden = true; }, 4000);
}

// MARK: drawing

function show(next) {
  deck = next;
  const session = deck.session;
  $("start").hidden = !!session;
  if (!session) {
    card.hidden = true;
    $("done").hidden = true;
    progress.textContent = "No photo session";
    setButtons(false);
    undoButton.disabled = true;
    loadFolders(0, "");
    return;
  }
  const position = session.isAtEnd ? session.total : session.reviewed + 1;
  progress.textContent = `Session: ${count(position)} / ${count(session.total)}`;
  undoButton.disabled = !session.canUndo;
  $("done").hidden = !session.isAtEnd;
  setButtons(!session.isAtEnd);
  const current = deck.current;
  if (!current) {
    card.hidden = true;
    card.dataset.index = "";
    document.body.dataset.ready = "end";
    return;
  }
  card.hidden = false;
  card.dataset.index = String(current.index);
  card.dataset.state = "idle";
  card.style.transform = "";
  card.style.opacity = "";
  setOverlay(null, 0);
  $("caption").textContent = `${current.name}${current.captureDate ? " · " + current.captureDate : ""}`;
  const problem = $("problem");
  problem.hidden = !current.problem;
  problem.textContent = current.problem || "";
  // A video alone has no image: its metadata takes the photo's place.
  const video = $("video");
  video.hidden = !current.video;
  video.textContent = current.video || "";
  if (current.image) {
    const ready = preloaded.get(current.image);
    document.body.dataset.preloaded = ready && ready.complete ? "yes" : "no";
    photo.alt = `Photo ${position} of ${session.total}: ${current.name}`;
    photo.src = current.image;
    photo.hidden = false;
  } else {
    photo.removeAttribute("src");
    photo.alt = "";
    photo.hidden = true;
  }
  card.setAttribute("aria-label", photo.alt || current.name);
  fit(current);
  preload(deck.next);
  document.body.dataset.ready = String(current.index);
}

/** Sizes the frame to the largest box the stage allows, keeping the photo's aspect ratio. */
function fit(current) {
  const stage = $("stage").getBoundingClientRect();
  const natural = photo.naturalWidth && photo.complete ? [photo.naturalWidth, photo.naturalHeight] : null;
  const [w, h] = natural || [current.width || 4, current.height || 3];
  const room = [Math.max(stage.width - 16, 50), Math.max(stage.height - 48, 50)];
  const scale = Math.min(room[0] / w, room[1] / h);
  frame.style.width = `${Math.round(w * scale)}px`;
  frame.style.height = `${Math.round(h * scale)}px`;
}
photo.addEventListener("load", () => deck && deck.current && fit(deck.current));
// A format this browser cannot draw (HEIC outside Safari): say so on the card.
photo.addEventListener("error", () => {
  if (!deck || !deck.current || !photo.getAttribute("src")) return;
  const format = (deck.current.format || "this").toUpperCase();
  const problem = $("problem");
  problem.textContent = `This browser cannot show ${format} photos${format === "HEIF" ? " (Safari can)" : ""}; decide by the name below.`;
  problem.hidden = false;
});
addEventListener("resize", () => deck && deck.current && fit(deck.current));

/** Loads and decodes the next photos (seed NFR-1: three), so the next card shows at once. */
function preload(cards) {
  const wanted = new Set(cards.filter((c) => c.image).map((c) => c.image));
  for (const key of [...preloaded.keys()]) if (!wanted.has(key) && key !== photo.getAttribute("src")) preloaded.delete(key);
  for (const address of wanted) {
    if (preloaded.has(address)) continue;
    const image = new Image();
    image.decoding = "async";
    image.src = address;
    image.decode().catch(() => {});
    preloaded.set(address, image);
  }
}

function setButtons(enabled) {
  for (const id of ["trash", "favorite", "keep"]) $(id).disabled = !enabled;
}

function setOverlay(direction, opacity) {
  if (direction) overlay.dataset.direction = direction;
  else delete overlay.dataset.direction;
  overlay.style.opacity = String(direction ? Math.min(1, opacity) * 0.55 : 0);
}

function lean(dx, dy, width) {
  const horizontal = Math.abs(dx) >= Math.abs(dy);
  const direction = horizontal ? (dx < 0 ? "left" : dx > 0 ? "right" : null) : dy < 0 ? "up" : null;
  const distance = direction === "left" ? -dx : direction === "right" ? dx : direction === "up" ? -dy : 0;
  const progressValue = Math.max(0, distance / width);
  return { direction, progress: progressValue, overlay: progressValue / COMMIT_FRACTION };
}

function place(dx, dy, width) {
  const tilt = Math.max(-1, Math.min(1, dx / (width * COMMIT_FRACTION))) * MAX_TILT;
  card.style.transform = `translate(${dx}px, ${dy}px) rotate(${reduceMotion.matches ? 0 : tilt}deg)`;
  const l = lean(dx, dy, width);
  setOverlay(l.direction, l.overlay);
}

/** Sends the card off in `direction`, then draws the next deck. */
function leave(direction, next) {
  const width = $("stage").clientWidth;
  const height = $("stage").clientHeight;
  const target = { left: [-1.5 * width, 0], right: [1.5 * width, 0], up: [0, -1.5 * height] }[direction] || [0, 0];
  setOverlay(direction, 1);
  card.dataset.state = "leaving";
  if (!reduceMotion.matches) {
    card.style.transform = `translate(${target[0]}px, ${target[1]}px) rotate(${direction === "left" ? -MAX_TILT : direction === "right" ? MAX_TILT : 0}deg)`;
  }
  const delay = reduceMotion.matches ? 150 : 300;
  setTimeout(() => {
    busy = false;
    show(next);
  }, delay);
}

function snapBack() {
  card.dataset.state = "settling";
  card.style.transform = "";
  setOverlay(null, 0);
  for (const li of document.querySelectorAll(".marks li")) li.classList.remove("on");
  setTimeout(() => { if (card.dataset.state === "settling") card.dataset.state = "idle"; }, 260);
}

// MARK: the server's answers

function onServerMessage(m) {
  switch (m.type) {
    case "mark": {
      const li = document.querySelector(`.marks li[data-mark="${m.mark}"]`);
      if (li) li.classList.toggle("on", m.rising);
      break;
    }
    case "tick":
      if (navigator.vibrate) navigator.vibrate(12);
      overlay.classList.add("tick");
      setTimeout(() => overlay.classList.remove("tick"), 120);
      break;
    case "decided":
      for (const li of document.querySelectorAll(".marks li")) li.classList.remove("on");
      leave(m.direction, m.deck);
      break;
    case "snapBack":
      busy = false;
      snapBack();
      break;
    case "refused":
      busy = false;
      say(m.error);
      snapBack();
      if (m.deck) show(m.deck);
      break;
    case "error":
      busy = false;
      say(m.error);
      snapBack();
      break;
  }
}

// MARK: pointer input (mouse, pen, touch, trackpad)

function sample(phase, event) {
  return { type: "sample", phase, t: event.timeStamp, x: event.clientX, y: event.clientY, pointer: event.pointerId };
}

card.addEventListener("pointerdown", (event) => {
  if (busy || drag || !deck || !deck.current || event.button > 0) return;
  // The commit distance is half the card's width (the deck's container), as on a phone.
  const width = Math.max(100, frame.getBoundingClientRect().width);
  const began = { ...sample("began", event), session: deck.session.id, index: deck.current.index, width, reduceMotion: reduceMotion.matches };
  if (!channel.send(began)) {
    say("Reconnecting to the server; use the buttons or keys meanwhile.");
    return;
  }
  card.setPointerCapture(event.pointerId);
  drag = { id: event.pointerId, x: event.clientX, y: event.clientY, width };
  card.dataset.state = "dragging";
});

card.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.id) return;
  const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
  for (const e of events.length ? events : [event]) channel.send(sample("moved", e));
  place(event.clientX - drag.x, event.clientY - drag.y, drag.width);
});

function release(phase, event) {
  if (!drag || event.pointerId !== drag.id) return;
  drag = null;
  busy = true; // until the server answers with a decision or a snap-back
  card.dataset.state = "waiting";
  if (!channel.send(sample(phase, event))) {
    busy = false;
    snapBack();
  }
}
card.addEventListener("pointerup", (event) => release("ended", event));
card.addEventListener("pointercancel", (event) => release("cancelled", event));

// MARK: buttons and keys (seed NFR-2)

const directions = { trash: "left", favorite: "right", keep: "up" };

async function decide(decision) {
  if (busy || drag || !deck || !deck.current) return;
  busy = true;
  try {
    const next = await postJSON("/api/decide", { session: deck.session.id, index: deck.current.index, decision });
    leave(directions[decision], next);
  } catch (error) {
    busy = false;
    say(error.message);
    if (error.status === 409) load();
  }
}

async function undo() {
  if (busy || drag || !deck || !deck.session || !deck.session.canUndo) return;
  busy = true;
  try {
    show(await postJSON("/api/undo", { session: deck.session.id }));
  } catch (error) {
    say(error.message);
    load();
  } finally {
    busy = false;
  }
}

$("trash").addEventListener("click", () => decide("trash"));
$("favorite").addEventListener("click", () => decide("favorite"));
$("keep").addEventListener("click", () => decide("keep"));
undoButton.addEventListener("click", undo);

addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
  if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
  const action = { ArrowLeft: "trash", ArrowRight: "favorite", ArrowUp: "keep" }[event.key];
  if (action) {
    event.preventDefault();
    decide(action);
  } else if (event.key === "u" || event.key === "U") {
    event.preventDefault();
    undo();
  }
});

// MARK: starting a session

let picking = { root: 0, folder: "" };

async function loadFolders(root, folder) {
  try {
    const listing = await getJSON(`/api/folders?root=${root}&folder=${encodeURIComponent(folder)}`);
    picking = { root, folder };
    $("start-path").textContent = listing.roots[root] + (folder ? "/" + folder : "");
    const list = $("folders");
    list.replaceChildren();
    if (folder) list.append(folderButton("⬑ up", folder.split("/").slice(0, -1).join("/")));
    for (const name of listing.folders) list.append(folderButton(name, folder ? `${folder}/${name}` : name));
  } catch (error) {
    say(error.message);
  }
}

function folderButton(label, target) {
  const li = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.addEventListener("click", () => loadFolders(picking.root, target));
  li.append(button);
  return li;
}

$("start-here").addEventListener("click", async () => {
  try {
    show(await postJSON("/api/start", picking));
  } catch (error) {
    say(error.message);
  }
});

// Another process (the terminal) may change the session: look again when the page comes back.
document.addEventListener("visibilitychange", () => { if (!document.hidden && !busy && !drag) load(); });

load();
