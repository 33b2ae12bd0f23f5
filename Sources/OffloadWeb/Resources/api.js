// The server's JSON API and its WebSocket, shared by the deck and the review.

/** GETs a JSON document; throws an Error carrying the server's message. */
export async function getJSON(path) {
  const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
  return readJSON(response);
}

/** POSTs a JSON command; throws an Error carrying the server's message (and its status). */
export async function postJSON(path, body) {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return readJSON(response);
}

async function readJSON(response) {
  let value = null;
  try {
    value = await response.json();
  } catch {
    value = null;
  }
  if (!response.ok) {
    const error = new Error(value && value.error ? value.error : `the server answered ${response.status}`);
    error.status = response.status;
    error.body = value;
    throw error;
  }
  return value;
}

/** One WebSocket to the server (at `path`) that reconnects after a drop; `onMessage` gets parsed messages. */
export class Channel {
  constructor(onMessage, onState, path = "/ws") {
    this.path = path;
    this.onMessage = onMessage;
    this.onState = onState || (() => {});
    this.delay = 250;
    this.open();
  }

  open() {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${this.path}`;
    this.socket = new WebSocket(url);
    this.socket.addEventListener("open", () => {
      this.delay = 250;
      this.onState(true);
    });
    this.socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    this.socket.addEventListener("close", () => {
      this.onState(false);
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
  }

  get ready() {
    return this.socket && this.socket.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.ready) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}

/** `1234` as `1,234`. */
export function count(value) {
  return Number(value).toLocaleString("en-US");
}
