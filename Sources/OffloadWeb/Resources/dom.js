// @ts-check
// Small helpers every page uses: elements by id, buttons, the alert region.

/**
 * The element with `id`, of `type` (an input, a button...); a page's markup always has it.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{new (): T}} [type] the element's class: HTMLElement unless given
 * @returns {T}
 */
export function byId(id, type) {
  const element = document.getElementById(id);
  const expected = type || HTMLElement;
  if (!(element instanceof expected)) throw new Error(`the page has no ${expected.name} #${id}`);
  return /** @type {T} */ (element);
}

/**
 * A row's action button: `label` shown, `name` for screen readers, out of the tab order (the
 * row's keys reach it), its click kept from the row.
 * @param {string} label
 * @param {string} name
 * @param {string} className
 * @param {() => void} action
 * @returns {HTMLButtonElement}
 */
export function button(label, name, className, action) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = label;
  element.setAttribute("aria-label", name);
  element.tabIndex = -1;
  element.addEventListener("click", (event) => {
    event.stopPropagation();
    action();
  });
  return element;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let hideTimer;

/**
 * Shows `text` in the page's alert region (`#message`) for `seconds`; nothing hides it.
 * @param {string} text
 * @param {number} [seconds]
 */
export function showMessage(text, seconds = 6) {
  const message = byId("message");
  message.textContent = text || "";
  message.hidden = !text;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => {
    message.hidden = true;
  }, seconds * 1000);
}

/** Whether the person asked for less motion. */
export const reduceMotion = matchMedia("(prefers-reduced-motion: reduce)");

/**
 * Whether a key press belongs to a text field or a menu rather than to the page.
 * @param {Event} event
 */
export function inField(event) {
  const target = /** @type {Element | null} */ (event.target);
  return !!(target && target.closest && target.closest("input, select, textarea"));
}

/**
 * Edits a text in place: `element` becomes a field holding `value`, named `label`. Enter or
 * leaving the field saves, Escape cancels; `done` gets the new text when it changed (and is
 * not blank), else null, once.
 * @param {Element} element
 * @param {string} value
 * @param {string} label
 * @param {(text: string | null) => Promise<unknown> | void} done
 */
export function editInPlace(element, value, label, done) {
  const input = document.createElement("input");
  input.className = "edit-text";
  input.value = value;
  input.setAttribute("aria-label", label);
  element.replaceWith(input);
  input.focus();
  input.select();
  let finished = false;
  /** @param {boolean} save */
  const finish = (save) => {
    if (finished) return;
    finished = true;
    done(save && input.value.trim() && input.value !== value ? input.value : null);
  };
  input.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Enter") finish(true);
    if (event.key === "Escape") finish(false);
  });
  input.addEventListener("blur", () => finish(true));
}
