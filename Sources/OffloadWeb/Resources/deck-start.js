// @ts-check
// Starting a photo session from the deck page: a folder picker under the server's roots.
import { getJSON, postJSON } from "./api.js";
import { byId, showMessage } from "./dom.js";

/** @typedef {import("./types.js").Deck} Deck */

let picking = { root: 0, folder: "" };

/**
 * Wires the picker; `started` gets the new session's deck.
 * @param {(deck: Deck) => void} started
 * @returns {(root: number, folder: string) => Promise<void>} lists the folders of `folder`
 */
export function folderPicker(started) {
  byId("start-here").addEventListener("click", async () => {
    try {
      started(await postJSON("/api/start", picking));
    } catch (error) {
      showMessage(error instanceof Error ? error.message : String(error), 4);
    }
  });
  return loadFolders;
}

/**
 * Lists the subfolders of `folder` in root `root`.
 * @param {number} root
 * @param {string} folder
 */
async function loadFolders(root, folder) {
  try {
    const listing = await getJSON(`/api/folders?root=${root}&folder=${encodeURIComponent(folder)}`);
    picking = { root, folder };
    byId("start-path").textContent = listing.roots[root] + (folder ? "/" + folder : "");
    const list = byId("folders");
    list.replaceChildren();
    if (folder) list.append(folderButton("⬑ up", folder.split("/").slice(0, -1).join("/")));
    for (const name of listing.folders) list.append(folderButton(name, folder ? `${folder}/${name}` : name));
  } catch (error) {
    showMessage(error instanceof Error ? error.message : String(error), 4);
  }
}

/**
 * @param {string} label
 * @param {string} target
 */
function folderButton(label, target) {
  const li = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.addEventListener("click", () => loadFolders(picking.root, target));
  li.append(button);
  return li;
}
