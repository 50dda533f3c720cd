// Challenges (docs/bots.md, "Casual tables and challenges"; docs/web-client.md, *Invitations
// and challenges*): a casual table that challenges a player (POST /api/casual), and the
// invitations this browser's guest is sent (tickets `invited`, pushed on /ws/ranked), answered
// with POST /api/casual/{ticket_id}/answer. A challenge that comes about opens the table the
// way the ranked queue does (the matched ticket's seat token).
import { api, guest, MatchSocket, rulesets, savedGuest, saveSeatToken } from "./api.js";
import { rulesetName, t } from "./i18n.js";
import { fill, h, playerName } from "./render.js";

/** localStorage key of this browser's open challenge: {ticket_id, opponent, ruleset, expires_ms}. */
const OUTGOING = "fs.challenge";
/** How long a notice (declined, expired) stays. */
const NOTICE_MS = 8000;

const word = (key, args) => Object.entries(args).reduce((s, [k, v]) => s.replace(`{${k}}`, String(v)), t(key));
const secondsLeft = (expiresMs) => Math.max(0, Math.ceil((Number(expiresMs) - Date.now()) / 1000));

/** A ruleset's name as the catalog (GET /api/rulesets) gives it, else its id. */
async function rulesetLabel(id) {
  try {
    const info = (await rulesets()).rulesets.find((r) => r.id === id);
    return rulesetName(info) || id;
  } catch {
    return id;
  }
}

/** Open the table of a matched ticket (the seat token is kept, as the ranked queue does). */
function openTable(ticket) {
  if (ticket.state !== "matched" || !ticket.seat_token) return false;
  saveSeatToken(ticket.match_id, ticket.seat, ticket.seat_token);
  location.hash = `#/table/${ticket.match_id}`;
  return true;
}

/** Follow this browser's open challenge (GET /api/ranked/queue/{id}, every second) until it
 * is matched (the table opens), declined or expired (`onEnd(state)`); `onTicket` on each read.
 * Returns a stop function. */
function followOutgoing(onTicket, onEnd) {
  let timer = null;
  let stopped = false;
  async function poll() {
    const open = JSON.parse(localStorage.getItem(OUTGOING) || "null");
    const g = savedGuest();
    if (stopped || !open || !g) return;
    try {
      const ticket = await api(`/api/ranked/queue/${encodeURIComponent(open.ticket_id)}`, { token: g.token });
      if (stopped) return;
      if (ticket.state === "matched") {
        localStorage.removeItem(OUTGOING);
        openTable(ticket);
        return;
      }
      if (ticket.state === "declined" || ticket.state === "expired") {
        localStorage.removeItem(OUTGOING);
        onEnd(ticket.state, open);
        return;
      }
      onTicket(ticket, open);
    } catch (err) {
      if (err.status === 404 || err.status === 403) {
        localStorage.removeItem(OUTGOING); // forgotten, or another guest's: nothing to follow
        onEnd("expired", open);
        return;
      }
    }
    timer = setTimeout(poll, 1000);
  }
  poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** The line that shows this browser's open challenge: who, the ruleset, the time left. */
function outgoingLine(open, label) {
  return [
    `${t("your_challenge")}: `,
    playerName(open.opponent || open.player_id),
    ` · ${label} · ${t("challenge_pending")} · `,
    h("span", { class: "countdown" }, word("expires_in", { s: secondsLeft(open.expires_ms) })),
  ];
}

/** Whether this browser has a challenge open (one at a time). */
export const challengeOpen = () => Boolean(localStorage.getItem(OUTGOING));

/** Challenge `playerId` (named `name`) to a casual table of ruleset `id` with me and house
 * bots up to the ruleset's smallest count (POST /api/casual): the profile's Challenge and
 * the lobby's Invite. The table opens at once when no one has to answer (returns null);
 * else the open challenge is kept in localStorage and returned with its ruleset's label. */
export async function sendChallenge(playerId, id, name) {
  const me = savedGuest() || (await guest("guest"));
  const info = (await rulesets()).rulesets.find((r) => r.id === id);
  const seats = ["me", playerId];
  while (seats.length < Math.max(2, info?.min_players || 3)) seats.push("heuristic");
  const ticket = await api("/api/casual", { method: "POST", token: me.token, body: { ruleset: id, seats } });
  if (openTable(ticket)) return null;
  const open = { ticket_id: ticket.ticket_id, player_id: playerId, opponent: name || playerId, ruleset: id,
                 expires_ms: ticket.expires_ms }; // prettier-ignore
  localStorage.setItem(OUTGOING, JSON.stringify(open));
  return { open, label: rulesetName(info) || id };
}

/** A "Challenge" button for the profile of `playerId` (a guest `g_...` or a bot `b_...`):
 * opens a casual table of `ruleset()` with me, that player and house bots up to the ruleset's
 * smallest count, then shows the challenge until it is answered. `name()`: the shown name. */
export function challengeBox(playerId, ruleset, name) {
  const status = h("p", { id: "challenge-status", class: "muted", "aria-live": "polite" });
  const button = h("button", { type: "button", id: "challenge", class: "primary" }, t("challenge"));
  let stopFollow = () => {};
  let tick = null;
  let stopped = false;

  function follow(label) {
    if (stopped) return;
    stopFollow();
    clearInterval(tick);
    const show = (open) => fill(status, ...outgoingLine(open, label));
    const current = JSON.parse(localStorage.getItem(OUTGOING) || "null");
    if (current) show(current);
    tick = setInterval(() => {
      const open = JSON.parse(localStorage.getItem(OUTGOING) || "null");
      if (open) show(open);
    }, 1000);
    stopFollow = followOutgoing(
      () => {},
      (state, open) => {
        clearInterval(tick);
        button.disabled = false;
        const who = open.player_id === playerId ? [] : [playerName(open.opponent || open.player_id), " · "];
        fill(status, h("span", { class: "notice", dataset: { state } }, ...who, t(`challenge_${state}`)));
      },
    );
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    fill(status, "…");
    try {
      const sent = await sendChallenge(playerId, ruleset(), name());
      if (sent) follow(sent.label);
    } catch (err) {
      button.disabled = false;
      fill(status, h("span", { class: "error" }, String(err.message || err)));
    }
  });
  const open = JSON.parse(localStorage.getItem(OUTGOING) || "null");
  if (open) {
    // one open challenge at a time: it is shown (and followed) until it is answered
    button.disabled = true;
    rulesetLabel(open.ruleset).then(follow);
  }
  const el = h(
    "div",
    { class: "challenge-box" },
    h("p", { class: "muted" }, t("challenge_about")),
    h("div", { class: "buttons" }, button),
    status,
  );
  return {
    el,
    stop: () => {
      stopped = true;
      stopFollow();
      clearInterval(tick);
    },
  };
}

/** The lobby's invitations panel: the challenges sent to this browser's guest while the lobby
 * is open (/ws/ranked), each with its challenger, ruleset, seats, a countdown and Accept /
 * Decline; and this browser's own open challenge, followed until answered. */
export function invitationsPanel() {
  const list = h("ul", { class: "matches invitations", id: "invitation-list" });
  const notice = h("p", { id: "invite-notice", class: "notice", "aria-live": "polite" });
  const outgoing = h("p", { id: "outgoing-challenge", class: "muted" });
  /** ticket id -> {ticket, row} of the invitations shown */
  const shown = new Map();
  let noticeTimer = null;
  const me = savedGuest();

  function say(text, state) {
    clearTimeout(noticeTimer);
    fill(notice, h("span", { dataset: { state } }, ...[text].flat()));
    noticeTimer = setTimeout(() => fill(notice), NOTICE_MS);
  }

  function render() {
    const rows = [...shown.values()].map((x) => x.row);
    fill(list, ...(rows.length ? rows : [h("li", { class: "muted none" }, t("no_invitations"))]));
    el.classList.toggle("has-invitations", rows.length > 0); // (first called once el is made)
  }

  function drop(ticketId, state) {
    const item = shown.get(ticketId);
    if (!item) return;
    shown.delete(ticketId);
    render();
    say([playerName(item.ticket.challenger), " · ", t(`invite_${state}`)], state);
  }

  async function answer(ticketId, accept) {
    const item = shown.get(ticketId);
    const g = savedGuest();
    if (!item || !g) return;
    for (const b of item.row.querySelectorAll("button")) b.disabled = true;
    try {
      const ticket = await api(`/api/casual/${encodeURIComponent(ticketId)}/answer`, {
        method: "POST",
        token: g.token,
        body: { accept },
      });
      onTicket(ticket);
      if (!accept && shown.has(ticketId)) drop(ticketId, "declined");
    } catch (err) {
      say(String(err.message || err), "error");
      for (const b of item.row.querySelectorAll("button")) b.disabled = false;
    }
  }

  function row(ticket, label) {
    const tid = ticket.ticket_id;
    const seats = ticket.seats?.length || ticket.max_players || ticket.min_players;
    const waiting = ticket.state === "accepted";
    return h(
      "li",
      { class: "invitation", dataset: { ticket: tid, state: ticket.state } },
      playerName(ticket.challenger, { class: "challenger" }),
      ` ${t("challenges_you")} · `,
      h("span", { class: "badge ruleset", dataset: { ruleset: ticket.ruleset } }, label),
      ` · ${word("seats_n", { n: seats })} · `,
      h("span", { class: "countdown", dataset: { expires: ticket.expires_ms } }, ""),
      waiting
        ? h("p", { class: "muted" }, t("invite_accepted"))
        : h(
            "div",
            { class: "buttons" },
            h("button", { type: "button", class: "primary accept", onclick: () => answer(tid, true) }, t("accept_challenge")),
            h("button", { type: "button", class: "decline", onclick: () => answer(tid, false) }, t("decline_challenge")),
          ),
    );
  }

  async function onTicket(ticket) {
    if (!ticket || !ticket.ticket_id) return;
    const open = JSON.parse(localStorage.getItem(OUTGOING) || "null");
    if (open && open.ticket_id === ticket.ticket_id) return; // followed by followOutgoing
    const known = shown.has(ticket.ticket_id);
    if (ticket.state === "invited" || (known && ticket.state === "accepted")) {
      const label = await rulesetLabel(ticket.ruleset);
      shown.set(ticket.ticket_id, { ticket, row: row(ticket, label) });
      render();
      countdown();
    } else if (known && ticket.state === "matched") {
      shown.delete(ticket.ticket_id);
      openTable(ticket);
    } else if (known && (ticket.state === "declined" || ticket.state === "expired")) {
      drop(ticket.ticket_id, ticket.state);
    }
  }

  /** Each countdown once a second; an invitation past its deadline is read again (the
   * service expires it) and dropped when it is closed. */
  function countdown() {
    for (const [tid, { ticket, row: li }] of shown) {
      const left = secondsLeft(ticket.expires_ms);
      const span = li.querySelector(".countdown");
      if (span) span.textContent = word("expires_in", { s: left });
      if (left <= 0 && Date.now() > Number(ticket.expires_ms) + 2000 && !ticket.rechecked) {
        ticket.rechecked = true;
        const g = savedGuest();
        if (g) api(`/api/ranked/queue/${encodeURIComponent(tid)}`, { token: g.token }).then(onTicket, () => drop(tid, "expired"));
      }
    }
  }

  // this browser's own open challenge
  let stopOutgoing = () => {};
  const showOutgoing = async () => {
    const open = JSON.parse(localStorage.getItem(OUTGOING) || "null");
    if (!open) return fill(outgoing);
    fill(outgoing, ...outgoingLine(open, await rulesetLabel(open.ruleset)));
  };
  /** Show and follow this browser's open challenge (made here or, later, by `watch`). */
  function watch() {
    if (!localStorage.getItem(OUTGOING)) return;
    stopOutgoing();
    showOutgoing();
    stopOutgoing = followOutgoing(
      () => {},
      (state, open) => {
        fill(outgoing);
        say([playerName(open.opponent || open.player_id), " · ", t(`challenge_${state}`)], state);
      },
    );
  }
  watch();

  const tick = setInterval(() => {
    countdown();
    if (localStorage.getItem(OUTGOING)) showOutgoing();
  }, 1000);
  const socket = me
    ? new MatchSocket(`/ws/ranked?token=${encodeURIComponent(me.token)}`, {
        onMessage: (msg) => msg.type === "ticket" && onTicket(msg.ticket),
      })
    : null;

  const el = h(
    "section",
    { class: "panel invitations-panel", id: "invitations" },
    h("h2", {}, t("invitations")),
    list,
    notice,
    outgoing,
    me
      ? h("p", { class: "muted share-profile" }, h("a", { href: `#/profile/${encodeURIComponent(me.id)}` }, t("share_profile")))
      : h("p", { class: "muted" }, t("no_guest_invites")),
  );
  render();
  return {
    el,
    watch,
    stop: () => {
      clearInterval(tick);
      clearTimeout(noticeTimer);
      stopOutgoing();
      socket?.close();
    },
  };
}
