// @ts-check
// The server's JSON API and its WebSocket, shared by every page.

/** @typedef {import("./types.js").ServerMessage} ServerMessage */

/** An answer other than 2xx: the server's message, its status and its JSON body. */
export class ServerError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   * @param {any} body
   */
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/**
 * GETs a JSON document.
 * @param {string} path
 * @returns {Promise<any>}
 * @throws {ServerError} carrying the server's message
 */
export async function getJSON(path) {
  const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
  return readJSON(response);
}

/**
 * POSTs a JSON command.
 * @param {string} path
 * @param {object} body
 * @returns {Promise<any>}
 * @throws {ServerError} carrying the server's message and status
 */
export async function postJSON(path, body) {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return readJSON(response);
}

/** @param {Response} response */
async function readJSON(response) {
  let value = null;
  try {
    value = await response.json();
  } catch {
    value = null;
  }
  if (!response.ok) {
    const text = value && value.error ? value.error : `the server answered ${response.status}`;
    throw new ServerError(text, response.status, value);
  }
  return value;
}

/** One WebSocket to the server (at `path`) that reconnects after a drop. */
export class Channel {
  /**
   * @param {(message: ServerMessage) => void} onMessage gets each parsed message
   * @param {((open: boolean) => void) | null} [onState] hears the socket open and close
   * @param {string} [path]
   */
  constructor(onMessage, onState, path = "/ws") {
    this.path = path;
    this.onMessage = onMessage;
    this.onState = onState || (() => {});
    this.delay = 250;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.open();
  }

  open() {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${this.path}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.delay = 250;
      this.onState(true);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", () => {
      this.onState(false);
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
  }

  /** Whether a message sent now goes out. */
  get ready() {
    return !!this.socket && this.socket.readyState === WebSocket.OPEN;
  }

  /**
   * Sends one message as JSON.
   * @param {object} message
   * @returns {boolean} false when the socket is not open (nothing was sent)
   */
  send(message) {
    if (!this.socket || !this.ready) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}

/**
 * `1234` as `1,234`.
 * @param {number} value
 */
export function count(value) {
  return Number(value).toLocaleString("en-US");
}
