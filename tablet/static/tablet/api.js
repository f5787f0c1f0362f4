// The REST API as the tablet uses it: reads, and every write as an intent that keeps its
// Idempotency-Key until the server answers (so a retry, a reload or a double tap never
// records a step twice).

const TOKEN = "tablet.token";
const OUTBOX = "tablet.outbox";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.detail) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export class NotSent extends Error {}

// A random key without crypto.randomUUID, which browsers give only to https and localhost
// pages: the casino LAN may serve the tablet over plain http.
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Api {
  constructor(base) {
    this.base = base;
    this.token = localStorage.getItem(TOKEN);
  }

  headers(extra = {}) {
    const headers = { Accept: "application/json", ...extra };
    if (this.token) headers.Authorization = `Token ${this.token}`;
    return headers;
  }

  async request(method, path, body, extra = {}) {
    const init = { method, headers: this.headers(extra) };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
    let response;
    try {
      response = await fetch(this.base + path, init);
    } catch (error) {
      throw new NotSent(String(error));
    }
    const text = await response.text();
    const data = text ? JSON.parse(text) : null;
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  get(path) {
    return this.request("GET", path);
  }

  async login(username, password) {
    const data = await this.request("POST", "auth/token/", { username, password });
    this.token = data.token;
    localStorage.setItem(TOKEN, data.token);
    return data;
  }

  logout() {
    this.token = null;
    localStorage.removeItem(TOKEN);
  }
}

// Writes, one at a time, each with the key it got when the dealer tapped. An intent stays in
// localStorage until the server answers; a dropped connection leaves it "not sent yet" and
// it is retried with the same key.
export class Outbox {
  constructor(api, onChange) {
    this.api = api;
    this.onChange = onChange;
    this.items = JSON.parse(localStorage.getItem(OUTBOX) || "[]");
    this.busy = false;
    this.timer = null;
  }

  save() {
    localStorage.setItem(OUTBOX, JSON.stringify(this.items));
    this.onChange(this.items);
  }

  get pending() {
    return this.items.length > 0 || this.busy;
  }

  // Queue one write; refuse a second while one is on its way (a double tap).
  async send(path, body) {
    if (this.busy || this.items.length) throw new NotSent("busy");
    const intent = { key: newKey(), path, body, state: "sending" };
    this.items.push(intent);
    this.save();
    return this.flush(intent);
  }

  async flush(intent) {
    this.busy = true;
    try {
      const data = await this.api.request("POST", intent.path, intent.body, {
        "Idempotency-Key": intent.key,
      });
      this.done(intent);
      return data;
    } catch (error) {
      if (error instanceof NotSent) {
        intent.state = "unsent";
        this.save();
        this.retryLater();
      } else {
        this.done(intent);
      }
      throw error;
    } finally {
      this.busy = false;
    }
  }

  done(intent) {
    this.items = this.items.filter((item) => item.key !== intent.key);
    this.save();
  }

  retryLater(delay = 1500) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.resume(), delay);
  }

  // Send what is left from before (a reload, a dropped connection), with its own key.
  async resume() {
    const intent = this.items[0];
    if (!intent || this.busy) return null;
    try {
      const data = await this.flush(intent);
      return data;
    } catch (error) {
      return null;
    }
  }
}
