// @ts-check
// A row's Role menu on a plan (its Role button, or R on the focused row): free item, day header, fixed entry, segment on days N–M, or
// none. The page sends the chosen word as it is; the server reads it with the library's one
// parser and sets it as `offloadctl item edit ID --role ROLE` does, then the page redraws
// from the answer.
import { change } from "./organize-changes.js";
import { focusRow } from "./organize-draw.js";

/** @type {HTMLFormElement | null} */
let open = null;

/** The menu's choices: a role word (`segment` takes its days from the inputs), or `none`. */
const CHOICES = [
  ["free", "Free item"],
  ["day", "Day header"],
  ["fixed", "Fixed entry"],
  ["segment", "Segment on days…"],
  ["none", "None"],
];

/**
 * Labels a control.
 * @param {string} text
 * @param {HTMLElement} control
 * @returns {HTMLLabelElement}
 */
function labeled(text, control) {
  const label = document.createElement("label");
  label.append(`${text} `, control);
  return label;
}

/**
 * A day number input.
 * @param {string} name
 * @returns {HTMLInputElement}
 */
function dayInput(name) {
  const input = document.createElement("input");
  input.type = "number";
  input.min = "1";
  input.step = "1";
  input.value = "1";
  input.name = name;
  input.className = "role-day";
  return input;
}

/** Closes the open menu, if any. */
export function closeRoleMenu() {
  open?.remove();
  open = null;
}

/**
 * Opens the Role menu for a row, under the button that asked for it.
 * @param {{ id: string, text: string }} row
 * @param {Element} anchor
 */
export function openRoleMenu(row, anchor) {
  closeRoleMenu();
  const form = document.createElement("form");
  form.className = "role-menu";
  form.setAttribute("role", "dialog");
  form.setAttribute("aria-label", `Role of ${row.text}`);
  const select = document.createElement("select");
  select.name = "role";
  for (const [value, text] of CHOICES) select.append(new Option(text, value));
  const from = dayInput("from");
  const to = dayInput("to");
  const days = document.createElement("span");
  days.className = "role-days";
  days.append(labeled("From day", from), labeled("to day", to));
  days.hidden = true;
  select.addEventListener("change", () => (days.hidden = select.value !== "segment"));
  const apply = document.createElement("button");
  apply.type = "submit";
  apply.textContent = "Set role";
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => finish(row.id));
  form.append(labeled("Role", select), days, apply, cancel);
  form.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Escape") finish(row.id);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const word = select.value === "segment" ? `segment:${from.value}-${to.value}` : select.value;
    const answer = await change({ id: row.id, role: word === "none" ? null : word }, { path: "/api/items/role" });
    if (answer) finish(row.id);
  });
  const box = anchor.getBoundingClientRect();
  form.style.top = `${window.scrollY + box.bottom + 4}px`;
  form.style.left = `${Math.max(8, window.scrollX + box.right - 280)}px`;
  document.body.append(form);
  open = form;
  select.focus();
}

/**
 * Closes the menu and gives the row its focus back.
 * @param {string} rowId
 */
function finish(rowId) {
  closeRoleMenu();
  focusRow(rowId);
}
