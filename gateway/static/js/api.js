// The gateway's REST API and WebSockets (docs/tour.md), plus the tokens kept in localStorage.
import { learnDeck, learnRuleset } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error && body.error.message) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
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
  const created = await api("/api/guests", { method: "POST", body: { name: name || "guest" } });
  const record = { id: created.player_id, name: created.name, token: created.token };
  localStorage.setItem("fs.guest", JSON.stringify(record));
  return record;
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
      return out;
    }),
  );
}

/** A WebSocket that reconnects (resuming after the last event id) until closed. */
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
    this.ws.onopen = () => this.onStatus(true);
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
      setTimeout(() => !this.closed && this.open(), 1000);
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
    try {
      this.ws.close();
    } catch {
      /* already closed */
    }
  }
}
