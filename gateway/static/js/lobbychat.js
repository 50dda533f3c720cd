// The lobby's people (gateway/lobby.py, docs/web-client.md "Lobby"): who is online, with an
// Invite button (the profile's challenge, challenges.js), and the lobby's chat (the table
// chat's limits; quick phrases in the reader's language; muted players hidden, chat.js).
// Names and lines are put on the page as text only (h() makes text nodes, playerName a
// <bdi translate="no">), never as HTML. Everything here needs this browser's guest token.
import { api, guest, savedGuest } from "./api.js";
import { challengeOpen, sendChallenge } from "./challenges.js";
import { muted, PHRASES, said } from "./chat.js";
import { t } from "./i18n.js";
import { fill, h, playerName } from "./render.js";

const CHAT_POLL_MS = 3000;
const word = (key, args) => Object.entries(args).reduce((s, [k, v]) => s.replace(`{${k}}`, String(v)), t(key));
const errorText = (err) => {
  const wait = err.body?.error?.retry_after_ms;
  return `${err.message || err}${wait ? ` (${Math.ceil(wait / 1000)}s)` : ""}`;
};

/**
 * The lobby's two panels: `online` (who is online, Invite) and `chat`.
 * - `ruleset()`: the ruleset an invitation is for (the Play form's);
 * - `name()`: the name a guest made here takes (the Play form's);
 * - `onInvite()`: called once an invitation is sent (the Invitations panel follows it).
 * Returns `{online, chat, stop}`.
 */
export function lobbyPanels({ ruleset, name, onInvite = () => {} }) {
  const me = savedGuest();
  const online = h("section", { class: "panel online-panel", id: "online", "aria-labelledby": "online-title" });
  const chat = h("section", { class: "panel lobby-chat", id: "lobby-chat", "aria-labelledby": "lobby-chat-title" });
  const onlineTitle = h("h2", { id: "online-title" }, t("lobby_online"));
  const chatTitle = h("h2", { id: "lobby-chat-title" }, t("lobby_chat"));
  if (!me) {
    // no guest yet: one button makes it (with the Play form's name) and opens the lobby again
    const join = h("button", { type: "button", id: "lobby-join", class: "primary" }, t("lobby_join"));
    const note = h("p", { class: "muted", "aria-live": "polite" }, t("lobby_need_guest"));
    join.addEventListener("click", async () => {
      join.disabled = true;
      try {
        await guest(name() || "guest");
        window.dispatchEvent(new HashChangeEvent("hashchange")); // the router mounts the lobby anew
      } catch (err) {
        join.disabled = false;
        note.textContent = errorText(err);
      }
    });
    fill(online, onlineTitle, note, h("div", { class: "buttons" }, join));
    fill(chat, chatTitle, h("p", { class: "muted" }, t("lobby_need_guest")));
    return { online, chat, stop: () => {} };
  }

  // ---- who is online ----------------------------------------------------------------
  const list = h("ul", { class: "online-list", id: "online-list", "aria-labelledby": "online-title" });
  const count = h("p", { class: "muted", id: "online-count" });
  const inviteStatus = h("p", { class: "muted", id: "invite-status", "aria-live": "polite" });
  let pingTimer = null;
  let stopped = false;
  let players = [];

  async function invite(player, button) {
    button.disabled = true;
    fill(inviteStatus, "…");
    try {
      const sent = await sendChallenge(player.player_id, ruleset(), player.name);
      if (!sent) return; // no one had to answer: the table opened
      fill(inviteStatus, `${t("lobby_invited")}: `, playerName(player.name));
      onInvite(sent);
      drawOnline();
    } catch (err) {
      button.disabled = false;
      fill(inviteStatus, h("span", { class: "error" }, errorText(err)));
    }
  }

  function drawOnline(total = players.length) {
    const busy = challengeOpen(); // one open challenge at a time (as on a profile)
    const row = (p) => {
      const self = p.player_id === savedGuest()?.id;
      const button = self
        ? null
        : h(
            "button",
            {
              type: "button",
              class: "small invite",
              dataset: { player: p.player_id },
              disabled: busy,
              title: busy ? t("lobby_one_challenge") : t("challenge_about"),
              "aria-label": `${t("lobby_invite")}: ${p.name}`,
            },
            t("lobby_invite"),
          );
      button?.addEventListener("click", () => invite(p, button));
      return h(
        "li",
        { class: `online-player${self ? " self" : ""}`, dataset: { player: p.player_id } },
        h("a", { href: `#/profile/${encodeURIComponent(p.player_id)}` }, playerName(p.name)),
        self ? h("span", { class: "muted" }, ` (${t("lobby_you")})`) : null,
        button,
      );
    };
    fill(list, ...(players.length ? players.map(row) : [h("li", { class: "muted" }, t("lobby_nobody"))]));
    count.textContent = word("lobby_count", { n: total });
  }

  async function ping() {
    let wait = 15000;
    try {
      const got = await api("/api/lobby/presence", { method: "POST", token: savedGuest()?.token });
      players = got.players;
      wait = got.ping_ms || wait;
      drawOnline(got.count);
    } catch (err) {
      count.textContent = errorText(err);
    }
    if (!stopped) pingTimer = setTimeout(ping, wait);
  }

  fill(online, onlineTitle, h("p", { class: "muted" }, t("lobby_online_about")), list, count, inviteStatus);

  // ---- the lobby's chat -------------------------------------------------------------
  const lines = h("ol", { class: "chat chat-list lobby-lines", id: "lobby-lines" });
  // a live region read out as lines come (the list inside keeps its list semantics)
  const log = h("div", { id: "lobby-log", role: "log", "aria-labelledby": "lobby-chat-title" }, lines);
  const status = h("p", { class: "chat-status muted", id: "lobby-chat-status", "aria-live": "polite" });
  const input = h("input", {
    type: "text",
    id: "lobby-chat-input",
    maxlength: "200",
    autocomplete: "off",
    placeholder: t("chat_placeholder"),
    "aria-label": t("lobby_chat_input"),
  });
  const messages = [];
  let last = 0;
  let chatTimer = null;

  function take(got) {
    for (const m of got) {
      if (messages.some((x) => x.id === m.id)) continue;
      messages.push(m);
      last = Math.max(last, m.id);
    }
    messages.sort((a, b) => a.id - b.id);
    messages.splice(0, Math.max(0, messages.length - 200));
    const hide = muted();
    const shown = messages.filter((m) => !hide.has(m.pid));
    const line = (m) =>
      h(
        "li",
        { class: `chat-line${m.phrase ? " phrase" : ""}`, dataset: { id: m.id, pid: m.pid } },
        h("span", { class: "who" }, playerName(m.name)),
        ": ",
        h("span", { class: "said", translate: m.phrase ? null : "no" }, said(m)), // free text: the writer's words
      );
    fill(lines, ...(shown.length ? shown.map(line) : [h("li", { class: "muted" }, t("chat_empty"))]));
    lines.scrollTop = lines.scrollHeight;
  }

  async function send(body) {
    status.textContent = "";
    try {
      take([await api("/api/lobby/chat", { method: "POST", token: savedGuest()?.token, body })]);
      return true;
    } catch (err) {
      status.textContent = errorText(err);
      return false;
    }
  }

  async function poll() {
    try {
      take((await api(`/api/lobby/chat?after=${last}`, { token: savedGuest()?.token })).messages);
    } catch {
      /* the next poll tries again */
    }
    if (!stopped) chatTimer = setTimeout(poll, CHAT_POLL_MS);
  }

  const form = h(
    "form",
    {
      class: "chat-form",
      id: "lobby-chat-form",
      onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (text) send({ text }).then((ok) => ok && (input.value = ""));
      },
    },
    input,
    h("button", { type: "submit", id: "lobby-chat-send" }, t("chat_send")),
  );
  const phrases = h(
    "div",
    { class: "chat-phrases", role: "group", "aria-label": t("lobby_phrases") },
    PHRASES.map((p) =>
      h("button", { type: "button", class: "phrase", dataset: { phrase: p }, onclick: () => send({ phrase: p }) }, t(`chat.phrase.${p}`)),
    ),
  );
  fill(chat, chatTitle, h("p", { class: "muted" }, t("lobby_chat_about")), log, phrases, form, status);
  take([]);
  ping();
  poll();

  return {
    online,
    chat,
    stop: () => {
      stopped = true;
      clearTimeout(pingTimer);
      clearTimeout(chatTimer);
      // off the list at once (else after the online lifetime)
      api("/api/lobby/presence", { method: "DELETE", token: savedGuest()?.token }).catch(() => {});
    },
  };
}
