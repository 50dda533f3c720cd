// The gateway's REST API and WebSockets (docs/tour.md), plus the tokens kept in localStorage.
import { learnDeck, learnRuleset } from "./i18n.js";
import { learnTexts } from "./text.js";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error && body.error.message) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** A REST call. When the call carried this browser's guest token and the gateway no longer
 * accepts it (401: the server's secret changed, its data was reset), the guest is made anew
 * under the same name and the call is tried once more with the new token (docs/web-client.md,
 * *Recovery*). */
export async function api(path, options = {}) {
  try {
    return await request(path, options);
  } catch (err) {
    const saved = savedGuest();
    if (!(err instanceof ApiError) || err.status !== 401 || !saved || options.token !== saved.token) throw err;
    const fresh = await renewGuest(saved);
    return request(path, { ...options, token: fresh.token });
  }
}

async function request(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const reply = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await reply.json();
  } catch {
    data = null;
  }
  if (!reply.ok) throw new ApiError(reply.status, data);
  return data;
}

/** The guest account of this browser: created on first use, kept in localStorage. */
export async function guest(name) {
  const saved = JSON.parse(localStorage.getItem("fs.guest") || "null");
  if (saved && (!name || saved.name === name)) return saved;
  const created = await request("/api/guests", { method: "POST", body: { name: name || "guest" } });
  const record = { id: created.player_id, name: created.name, token: created.token };
  localStorage.setItem("fs.guest", JSON.stringify(record));
  return record;
}

/** A new guest account with the name of the one the gateway stopped accepting. */
export async function renewGuest(stale) {
  const created = await request("/api/guests", { method: "POST", body: { name: stale?.name || "guest" } });
  const record = { id: created.player_id, name: created.name, token: created.token, renewed_from: stale?.id };
  localStorage.setItem("fs.guest", JSON.stringify(record));
  return record;
}

export function forgetSeatToken(matchId) {
  localStorage.removeItem(`fs.seat.${matchId}`);
}

export function savedGuest() {
  return JSON.parse(localStorage.getItem("fs.guest") || "null");
}

export function seatToken(matchId) {
  return JSON.parse(localStorage.getItem(`fs.seat.${matchId}`) || "null");
}

export function saveSeatToken(matchId, seat, token) {
  localStorage.setItem(`fs.seat.${matchId}`, JSON.stringify({ seat, token }));
  const mine = JSON.parse(localStorage.getItem("fs.history") || "[]");
  if (!mine.some((m) => m.match_id === matchId)) {
    mine.unshift({ match_id: matchId, seat, at: Date.now() });
    localStorage.setItem("fs.history", JSON.stringify(mine.slice(0, 50)));
  }
}

export function history() {
  return JSON.parse(localStorage.getItem("fs.history") || "[]");
}

/** Remember a promise under `key`, forgetting it again if it fails (so a retry asks anew). */
function once(store, key, make) {
  store[key] ??= make().catch((err) => {
    delete store[key];
    throw err;
  });
  return store[key];
}

const rulesetStore = {};
/** The rulesets the platform plays (GET /api/rulesets): `{default, rulesets: [...]}`. */
export function rulesets() {
  return once(rulesetStore, "all", () => api("/api/rulesets"));
}

/** One ruleset's entry of GET /api/rulesets (the default one for a falsy id); its
 * characters' and skills' names are learned for the page. */
export async function rulesetInfo(id) {
  const all = await rulesets();
  const info = all.rulesets.find((r) => r.id === (id || all.default)) || null;
  learnRuleset(info);
  return info;
}

const cardStore = {};
/** Card number -> printed data (function, its printed name, colour, transmission, markers)
 * of a ruleset's deck (GET /api/cards?ruleset=; the default ruleset for a falsy id). The
 * card functions' printed names are learned for the page. */
export function cards(ruleset) {
  const query = ruleset ? `?ruleset=${encodeURIComponent(ruleset)}` : "";
  return once(cardStore, ruleset || "", () =>
    api(`/api/cards${query}`).then((d) => {
      const out = {};
      for (const [k, v] of Object.entries(d.cards)) out[Number(k)] = v;
      learnDeck(out);
      learnTexts(d.ruleset, d.texts);
      return out;
    }),
  );
}

/** A WebSocket that reconnects with backoff (resuming after the last event id) until closed. */
export class MatchSocket {
  constructor(path, { onMessage, onStatus }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.lastEvent = "";
    this.closed = false;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const sep = this.path.includes("?") ? "&" : "?";
    const resume = this.lastEvent ? `${sep}from=${encodeURIComponent(this.lastEvent)}` : "";
    this.ws = new WebSocket(`${proto}//${location.host}${this.path}${resume}`);
    this.ws.onopen = () => {
      this.failures = 0;
      this.onStatus(true);
    };
    this.ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.type === "event" && msg.event_id) this.lastEvent = msg.event_id;
      this.onMessage(msg);
    };
    this.ws.onclose = (e) => {
      // 1000: the match's stream ended (game over); 44xx: refused. Neither comes back.
      const final = this.closed || e.code === 1000 || e.code === 4401 || e.code === 4403 || e.code === 4404;
      this.onStatus(false, final);
      if (final) return;
      // exponential backoff with jitter: 0.5 s, 1 s, 2 s ... at most 15 s; reset once open
      this.failures = (this.failures || 0) + 1;
      const delay = Math.min(15000, 500 * 2 ** (this.failures - 1)) * (0.75 + Math.random() * 0.5);
      this.retryTimer = setTimeout(() => !this.closed && this.open(), delay);
    };
  }

  send(obj) {
    if (this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    try {
      this.ws.close();
    } catch {
      /* already closed */
    }
  }
}
