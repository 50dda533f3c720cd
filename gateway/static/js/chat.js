// Table talk (gateway/chat.py, docs/web-client.md "Chat"): the seated players' channel and the
// spectators' channel. Every message is put on the page as text (h() makes text nodes), never
// as HTML. Muted players are kept in localStorage["fs.mute"] (player ids) and hidden here only.
import { api, guest, savedGuest } from "./api.js";
import { h, fill, playerName } from "./render.js";
import { t } from "./i18n.js";

export const PHRASES = ["hello", "gl", "gg", "nice", "thinking", "hurry", "sorry", "thanks", "wow"];
const POLL_MS = 2000;

export function muted() {
  try {
    return new Set(JSON.parse(localStorage.getItem("fs.mute") || "[]"));
  } catch {
    return new Set();
  }
}

function saveMuted(set) {
  localStorage.setItem("fs.mute", JSON.stringify([...set].slice(-200)));
}

/** The words of one message in the reader's language (a quick phrase is translated). */
export function said(message) {
  return message.phrase ? t(`chat.phrase.${message.phrase}`) : message.text;
}

/**
 * The chat panel of a match.
 * - `seatToken`: the viewer's seat token (a player: writes the table channel);
 * - `spectator`: a spectator (writes the spectators' channel with this browser's guest);
 * - `replay`: read-only, both channels;
 * - `isOver()`: whether the match is over (then both channels are shown).
 * Returns `{node, stop}`.
 */
export function chatPanel({ matchId, seatToken = null, spectator = false, replay = false, isOver = () => false }) {
  const own = replay ? null : spectator ? "spectators" : "table";
  const channels = {
    table: { last: 0, messages: [], list: h("ol", { class: "chat-list", id: "chat-table" }) },
    spectators: { last: 0, messages: [], list: h("ol", { class: "chat-list", id: "chat-spectators" }) },
  };
  const status = h("p", { class: "chat-status muted", id: "chat-status" });
  const input = h("input", {
    type: "text",
    id: "chat-input",
    maxlength: "200",
    autocomplete: "off",
    placeholder: t("chat_placeholder"),
    "aria-label": t("chat_placeholder"),
  });
  const form = own
    ? h(
        "form",
        {
          class: "chat-form",
          onsubmit: (e) => {
            e.preventDefault();
            const text = input.value.trim();
            if (text) send({ text }).then((ok) => ok && (input.value = ""));
          },
        },
        input,
        h("button", { type: "submit", id: "chat-send" }, t("chat_send")),
      )
    : null;
  const phrases = own
    ? h(
        "div",
        { class: "chat-phrases" },
        PHRASES.map((p) =>
          h("button", { type: "button", class: "phrase", dataset: { phrase: p }, onclick: () => send({ phrase: p }) }, t(`chat.phrase.${p}`)),
        ),
      )
    : null;
  const sections = {
    table: h("section", { class: "chat-channel", dataset: { channel: "table" } }, h("h4", {}, t("chat_table")), channels.table.list),
    spectators: h(
      "section",
      { class: "chat-channel", dataset: { channel: "spectators" } },
      h("h4", {}, t("chat_spectators")),
      channels.spectators.list,
    ),
  };
  const hiddenNote = h("p", { class: "muted chat-hidden" }, t("chat_hidden_live"));
  const unmute = h("button", { type: "button", class: "link chat-unmute", onclick: () => { saveMuted(new Set()); redraw(); } }, t("chat_unmute_all"));
  const node = h("section", { class: "panel chat-panel", id: "chat" }, h("h3", {}, own === "spectators" ? t("chat_spectators") : t("chat_table")));
  let stopped = false;
  let timer = null;

  function visible() {
    if (replay || isOver()) return ["table", "spectators"];
    return [own];
  }

  async function send(body) {
    status.textContent = "";
    try {
      const token = own === "table" ? seatToken : (savedGuest() || (await guest()))?.token;
      const msg = await api(`/api/matches/${matchId}/chat`, { method: "POST", token, body: { channel: own, ...body } });
      take(own, [msg]);
      redraw();
      return true;
    } catch (err) {
      const wait = err.body?.error?.retry_after_ms;
      status.textContent = `${err.message}${wait ? ` (${Math.ceil(wait / 1000)}s)` : ""}`;
      return false;
    }
  }

  function take(channel, messages) {
    const ch = channels[channel];
    for (const m of messages) {
      if (m.id <= ch.last && ch.messages.some((x) => x.id === m.id)) continue;
      ch.messages.push(m);
      ch.last = Math.max(ch.last, m.id);
    }
    ch.messages.sort((a, b) => a.id - b.id);
    if (ch.messages.length > 300) ch.messages.splice(0, ch.messages.length - 300);
  }

  function mine(m) {
    const me = savedGuest();
    return (me && m.pid === me.id) || false;
  }

  function line(m, mutedSet) {
    // the writer's name in a <bdi> (render.js playerName): it cannot reorder the line
    const who = m.seat >= 0 ? [`${m.seat} · `, playerName(m.name)] : [playerName(m.name), ` (${t("chat_spectator_name")})`];
    return h(
      "li",
      { class: `chat-line${m.phrase ? " phrase" : ""}`, dataset: { id: m.id, pid: m.pid, seat: m.seat } },
      h("span", { class: "who" }, who),
      ": ",
      h("span", { class: "said" }, said(m)),
      replay || mine(m)
        ? null
        : h(
            "button",
            {
              type: "button",
              class: "mute",
              title: t("chat_mute"),
              "aria-label": `${t("chat_mute")} ${m.name}`,
              onclick: () => {
                mutedSet.add(m.pid);
                saveMuted(mutedSet);
                redraw();
              },
            },
            "🔇",
          ),
    );
  }

  // the lists are redrawn; the phrases, the input and the status stay (typing keeps its focus)
  const body = h("div", { class: "chat-body" });
  const mutedNote = h("p", { class: "muted chat-muted" });
  fill(node, node.firstChild, body, phrases, form, status, mutedNote);
  let drawn = "";

  function redraw() {
    const mutedSet = muted();
    const show = visible();
    const key = JSON.stringify([show, [...mutedSet], channels.table.last, channels.spectators.last, t("chat_send")]);
    if (key === drawn) return;
    drawn = key;
    const parts = [];
    for (const channel of ["table", "spectators"]) {
      const ch = channels[channel];
      if (!show.includes(channel)) continue;
      const lines = ch.messages.filter((m) => !mutedSet.has(m.pid)).map((m) => line(m, mutedSet));
      fill(ch.list, ...(lines.length ? lines : [h("li", { class: "muted" }, t("chat_empty"))]));
      if (show.length > 1) sections[channel].append(ch.list); // (back) under its heading
      parts.push(show.length > 1 ? sections[channel] : ch.list);
    }
    if (own === "table" && !show.includes("spectators")) parts.push(hiddenNote);
    fill(body, ...parts);
    for (const channel of show) channels[channel].list.scrollTop = channels[channel].list.scrollHeight;
    if (mutedSet.size) fill(mutedNote, `${t("chat_muted")}: ${mutedSet.size} · `, unmute);
    else fill(mutedNote);
  }

  async function poll() {
    for (const channel of visible()) {
      const token = channel === "table" && !replay ? seatToken : null;
      try {
        const got = await api(`/api/matches/${matchId}/chat?channel=${channel}&after=${channels[channel].last}`, { token });
        take(channel, got.messages);
      } catch {
        /* not readable yet (the table's chat while the match runs), or gone */
      }
    }
    if (stopped) return;
    redraw();
    if (!replay) timer = setTimeout(poll, POLL_MS);
  }

  redraw();
  poll();
  return {
    node,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
