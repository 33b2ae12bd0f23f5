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
 * Selects the row's role in the menu, when the row says it (`role` in `--role` syntax:
 * `free`, `day` or `day:2`, `fixed`, `segment:1-3`; null for none). A row without the field
 * (an older server) leaves the first choice.
 * @param {string | null | undefined} role
 * @param {HTMLSelectElement} select
 * @param {HTMLInputElement} from
 * @param {HTMLInputElement} to
 */
export function preselect(role, select, from, to) {
  if (role === undefined) return;
  const match = /^([a-z]+)(?::(\d+)(?:-(\d+))?)?$/.exec(role || "none");
  const word = match && CHOICES.some(([value]) => value === match[1]) ? match[1] : "none";
  select.value = word;
  if (word === "segment" && match[2]) {
    from.value = match[2];
    to.value = match[3] || match[2];
  }
}

/**
 * Opens the Role menu for a row, under the button that asked for it, its current role chosen.
 * @param {{ id: string, text: string, role?: string | null }} row
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
  preselect(row.role, select, from, to);
  days.hidden = select.value !== "segment";
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
