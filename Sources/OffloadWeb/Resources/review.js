// @ts-check
// The review: the decided photos in a grid, a decision changed, the commit with its progress.
import { Channel, count, getJSON, postJSON } from "./api.js";
import { byId } from "./dom.js";

const $ = byId;
const grid = $("grid");
const filter = $("filter", HTMLSelectElement);
const bar = $("commit-progress", HTMLProgressElement);
const commitButton = $("commit", HTMLButtonElement);
let review = null;

const channel = new Channel(onServerMessage, (up) => {
  document.body.dataset.channel = up ? "open" : "closed";
});

function say(text) {
  $("message").textContent = text || "";
  $("message").hidden = !text;
}

function sessionQuery(extra) {
  const params = new URLSearchParams();
  const id = new URLSearchParams(location.search).get("session");
  if (id) params.set("session", id);
  if (extra) params.set("decision", extra);
  const text = params.toString();
  return text ? `?${text}` : "";
}

async function load() {
  try {
    show(await getJSON(`/api/review${sessionQuery(filter.value)}`));
  } catch (error) {
    say(error.message);
  }
}

function show(next) {
  review = next;
  const s = review.session;
  $("progress").textContent = `Reviewed ${count(s.reviewed)} of ${count(s.total)}`;
  $("plan").textContent =
    s.pending > 0
      ? `${count(s.pending)} to commit: ${count(s.trash)} to the Trash, ${count(s.favorite)} rated as favorites, ${count(s.keep)} kept. Nothing is deleted.`
      : "Nothing to commit.";
  commitButton.disabled = s.pending === 0;
  const shown = filter.value ? review.items.filter((item) => item.decision === filter.value) : review.items;
  grid.replaceChildren(...shown.map(tile));
  document.body.dataset.ready = String(shown.length);
}

function tile(item) {
  const li = document.createElement("li");
  li.dataset.decision = item.decision;
  li.dataset.index = String(item.index);
  if (item.image) {
    const img = document.createElement("img");
    img.loading = "lazy";
    img.decoding = "async";
    // The grid shows the embedded EXIF or raw thumbnail (same session and index, same checks),
    // which the server replaces by the photo itself where there is none.
    const thumb = item.image.replace(/^\/photo\//, "/thumb/");
    // Addresses name a queue position, which a skip gives to another photo: the name keeps
    // the browser's cache from showing the photo that held the position before.
    img.src = thumb.includes("?") ? thumb : `${thumb}?name=${encodeURIComponent(item.name)}`;
    img.alt = item.name;
    li.append(img);
  } else {
    const none = document.createElement("div");
    none.className = "noimage";
    none.textContent = "no preview";
    li.append(none);
  }
  const meta = document.createElement("div");
  meta.className = "meta";
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = item.name;
  name.title = item.name;
  meta.append(name);
  if (item.committed) {
    const done = document.createElement("span");
    done.textContent = `${item.decision} · committed`;
    meta.append(done);
  } else {
    const select = document.createElement("select");
    select.setAttribute("aria-label", `Decision for ${item.name}`);
    for (const d of ["trash", "favorite", "keep"]) {
      const option = document.createElement("option");
      option.value = d;
      option.textContent = d;
      option.selected = d === item.decision;
      select.append(option);
    }
    select.addEventListener("change", async () => {
      try {
        await postJSON("/api/change", { session: review.session.id, index: item.index, decision: select.value });
        await load();
      } catch (error) {
        say(error.message);
        load();
      }
    });
    meta.append(select);
  }
  li.append(meta);
  return li;
}

/** @param {import("./types.js").DeckServerMessage} m */
function onServerMessage(m) {
  if (m.type === "progress") {
    bar.hidden = false;
    bar.max = Math.max(1, m.total);
    bar.value = m.done;
    $("summary").textContent = `Committing ${count(m.done)} / ${count(m.total)}…`;
  } else if (m.type === "committed") {
    const c = m.committed;
    bar.value = bar.max;
    $("summary").textContent =
      `Committed: ${count(c.trashed)} moved to the Trash, ${count(c.rated)} rated as favorites, ${count(c.kept)} kept.` +
      (c.failed.length ? ` ${c.failed.length} could not be committed and stay pending: ${c.failed.join("; ")}` : "");
    document.body.dataset.committed = "yes";
    load();
  } else if (m.type === "error") {
    say(m.error);
    commitButton.disabled = false;
  }
}

$("commit").addEventListener("click", () => {
  if (!review) return;
  commitButton.disabled = true;
  bar.hidden = false;
  bar.value = 0;
  if (!channel.send(/** @type {import("./types.js").DeckClientMessage} */ ({ type: "commit", session: review.session.id }))) {
    say("Not connected to the server; try again in a moment.");
    commitButton.disabled = false;
  }
});

filter.addEventListener("change", load);
load();
