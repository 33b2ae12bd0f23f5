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
