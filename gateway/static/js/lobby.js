// The lobby: play now against bots, live matches to watch, finished ones to replay.
import { rulesLink } from "./rules.js";
import { api, guest, rulesetInfo, rulesets, savedGuest, saveSeatToken } from "./api.js";
import { identity, rulesetName, t } from "./i18n.js";
import { fill, h, playerName } from "./render.js";
import { holdMs } from "./table.js";
import { boardPanel } from "./profile.js";
import { invitationsPanel } from "./challenges.js";
import { lobbyPanels } from "./lobbychat.js";

export async function mountLobby(root) {
  const me = savedGuest();
  const field = (label, input) => h("label", { class: "field" }, h("span", {}, label), input);
  const nameIn = h("input", { id: "name", value: me?.name || "", placeholder: "ada", maxlength: 32 });
  // the rulesets and their player counts come from the platform (GET /api/rulesets)
  let catalog = { default: "", rulesets: [] };
  try {
    catalog = await rulesets();
  } catch (err) {
    catalog = { default: "", rulesets: [], error: String(err.message || err) };
  }
  const chosen = localStorage.getItem("fs.ruleset");
  const rulesetIn = h(
    "select",
    { id: "ruleset" },
    catalog.rulesets.map((r) =>
      h(
        "option",
        { value: r.id, selected: r.id === (catalog.rulesets.some((x) => x.id === chosen) ? chosen : catalog.default) },
        `${rulesetName(r)} · ${r.min_players}–${r.max_players}${t("players_unit")}`,
      ),
    ),
  );
  const playersIn = h("select", { id: "players" });
  const rulesetAbout = h("p", { class: "muted ruleset-about", id: "ruleset-about" });
  const botIn = h(
    "select",
    { id: "bot" },
    h("option", { value: "normal" }, t("level_normal")),
    h("option", { value: "easy" }, t("level_easy")),
    h("option", { value: "hard" }, t("level_hard")),
    h("option", { value: "heuristic" }, t("heuristic")),
    h("option", { value: "random" }, t("random")),
  );
  const charsIn = h("input", { type: "checkbox", id: "characters", checked: true });

  /** The chosen ruleset's player counts, identities and characters in the form. */
  function showRuleset() {
    const info = catalog.rulesets.find((r) => r.id === rulesetIn.value);
    if (!info) {
      rulesetAbout.textContent = catalog.error || "";
      return;
    }
    rulesetInfo(info.id).catch(() => {}); // learn its characters' names for the pages to come
    const before = Number(playersIn.value) || 5;
    const keep = info.players.includes(before)
      ? before
      : info.players.reduce((a, b) => (Math.abs(b - 5) < Math.abs(a - 5) ? b : a), info.players[0]);
    fill(playersIn, info.players.map((n) => h("option", { value: n, selected: n === keep }, String(n))));
    charsIn.disabled = !info.characters;
    if (!info.characters) charsIn.checked = false;
    rulesetAbout.textContent = `${t("identities")}: ${info.identities.map((i) => identity(i)).join(" · ")} · ${
      info.min_players
    }–${info.max_players}${t("players_unit")}${info.characters ? "" : ` ${t("no_characters")}`} · `;
    rulesetAbout.append(rulesLink(info.id)); // the ruleset's rules page (rules.js)
  }
  rulesetIn.addEventListener("change", () => {
    localStorage.setItem("fs.ruleset", rulesetIn.value);
    showRuleset();
  });
  showRuleset();
  const timerIn = h("input", { type: "number", id: "turn-timeout", min: 0, max: 3600, step: "any", value: 0 });
  const delayIn = h("input", { type: "number", id: "bot-delay", min: 0, max: 5, step: "any", value: 0.8 });
  const holdIn = h("input", {
    type: "number",
    id: "hold",
    min: 0,
    max: 10,
    step: "any",
    value: String(holdMs() / 1000),
    onchange: (e) => localStorage.setItem("fs.hold_ms", String(Math.round(Math.max(0, Number(e.target.value) || 0) * 1000))),
  });
  const error = h("p", { class: "error" });

  async function create(humans) {
    error.textContent = "";
    try {
      const g = humans ? await guest(nameIn.value.trim() || "guest") : null;
      const body = {
        ruleset: rulesetIn.value || undefined,
        players: Number(playersIn.value),
        humans,
        bot: botIn.value,
        characters: charsIn.checked,
        turn_timeout_ms: Math.round((Number(timerIn.value) || 0) * 1000),
        bot_delay_ms: Math.round((Number(delayIn.value) || 0) * 1000),
      };
      const created = await api("/api/matches", { method: "POST", body, token: g?.token });
      if (humans) {
        saveSeatToken(created.match_id, created.seat, created.seat_token);
        location.hash = `#/table/${created.match_id}`;
      } else {
        location.hash = `#/spectate/${created.match_id}`;
      }
    } catch (err) {
      error.textContent = String(err.message || err);
    }
  }

  const invitations = invitationsPanel(); // challenges sent to this guest (challenges.js)
  // who is online (Invite: the profile's challenge) and the lobby's chat (lobbychat.js)
  const people = lobbyPanels({
    ruleset: () => rulesetIn.value,
    name: () => nameIn.value.trim(),
    onInvite: () => invitations.watch(),
  });
  const live = h("ul", { class: "matches", id: "live-matches" }, h("li", { class: "muted" }, "…"));
  const finished = h("ul", { class: "matches", id: "finished-matches" });
  fill(root, h(
      "div",
      { class: "lobby" },
      h(
        "section",
        { class: "panel play" },
        h("h2", {}, t("play_now")),
        h(
          "form",
          {
            id: "play-form",
            onsubmit: (e) => {
              e.preventDefault();
              create(1);
            },
          },
          field(t("your_name"), nameIn),
          field(t("ruleset"), rulesetIn),
          rulesetAbout,
          field(t("players"), playersIn),
          field(t("bot_kind"), botIn),
          h("label", { class: "field check" }, charsIn, h("span", {}, t("characters"))),
          field(t("turn_timer"), timerIn),
          field(t("bot_delay"), delayIn),
          field(t("respond_delay"), holdIn),
          h(
            "div",
            { class: "buttons" },
            h("button", { type: "submit", id: "play-now", class: "primary" }, t("start")),
            h("button", { type: "button", id: "watch-bots", onclick: () => create(0) }, t("watch_bots")),
          ),
          error,
        ),
      ),
      invitations.el,
      people.online,
      people.chat,
      rankedPanel(nameIn, catalog),
      h("section", { class: "panel" }, h("h2", {}, t("live_matches")), live),
      boardPanel(),
      h("section", { class: "panel" }, h("h2", {}, t("recent_matches")), finished),
    ),
  );

  /** Items with ", " between them. */
  const joined = (items) => items.flatMap((x, i) => (i ? [", ", x] : [x]));
  const rulesetLabel = (id) => rulesetName(catalog.rulesets.find((r) => r.id === id)) || id;

  async function load() {
    try {
      const { matches } = await api("/api/matches?limit=30");
      const row = (m) =>
        h(
          "li",
          {},
          h("code", {}, m.match_id),
          " ",
          h("span", { class: "badge ruleset", dataset: { ruleset: m.ruleset } }, rulesetLabel(m.ruleset)),
          ` ${m.seats.length}P · `,
          joined(m.seats.map((s) => (s.kind === "human" && s.player ? playerName(s.player) : t(s.kind === "human" ? "human" : "bot")))),
          " · ",
          m.over ? `★ ${m.winners.join(", ")} ` : `${t("turn_number")} ${m.turn_number} `, // winners: seat numbers
          m.over
            ? h("a", { href: `#/replay/${m.match_id}`, class: "button small" }, t("view_replay"))
            : h("a", { href: `#/spectate/${m.match_id}`, class: "button small" }, t("watch")),
        );
      const on = matches.filter((m) => !m.over);
      const off = matches.filter((m) => m.over);
      fill(live, ...(on.length ? on.map(row) : [h("li", { class: "muted" }, t("no_live"))]));
      fill(finished, ...off.map(row));
    } catch (err) {
      fill(live, h("li", { class: "error" }, String(err.message || err)));
    }
  }
  await load();
  const timer = setInterval(load, 5000);
  return () => {
    clearInterval(timer);
    stopTicket();
    invitations.stop();
    people.stop();
  };
}

// ---- ranked queue -------------------------------------------------------------------

let ticketTimer = null;
function stopTicket() {
  clearTimeout(ticketTimer);
  ticketTimer = null;
}

/** Queue for a ranked match of a ruleset (POST /api/ranked/queue), follow the ticket until
 * it is matched. The rulesets and each one's player counts come from `catalog`
 * (GET /api/rulesets): the range selects offer exactly the chosen ruleset's counts. */
function rankedPanel(nameIn, catalog) {
  const saved = localStorage.getItem("fs.ranked_ruleset") || localStorage.getItem("fs.ruleset");
  const start = catalog.rulesets.some((r) => r.id === saved) ? saved : catalog.default;
  const rulesetIn = h(
    "select",
    { id: "ranked-ruleset" },
    catalog.rulesets.map((r) =>
      h(
        "option",
        { value: r.id, selected: r.id === start },
        `${rulesetName(r)} · ${r.min_players}–${r.max_players}${t("players_unit")}`,
      ),
    ),
  );
  const minIn = h("select", { id: "ranked-min", "aria-label": t("range_min") });
  const maxIn = h("select", { id: "ranked-max", "aria-label": t("range_max") });

  /** The chosen ruleset's player counts in both selects; a count still allowed is kept,
   * else the one nearest 5. */
  function showCounts() {
    const info = catalog.rulesets.find((r) => r.id === rulesetIn.value);
    const counts = info ? info.players : [];
    const near = (want) =>
      counts.includes(want)
        ? want
        : counts.reduce((a, b) => (Math.abs(b - want) < Math.abs(a - want) ? b : a), counts[0]);
    const lo = near(Number(minIn.value) || 5);
    const hi = Math.max(lo, near(Number(maxIn.value) || lo));
    fill(minIn, ...counts.map((n) => h("option", { value: n, selected: n === lo }, String(n))));
    fill(maxIn, ...counts.map((n) => h("option", { value: n, selected: n === hi }, String(n))));
  }
  rulesetIn.addEventListener("change", () => {
    localStorage.setItem("fs.ranked_ruleset", rulesetIn.value);
    showCounts();
  });
  showCounts();
  const status = h("p", { id: "ranked-status", class: "muted" });
  const joinBtn = h("button", { type: "button", id: "ranked-join", class: "primary" }, t("join_queue"));
  const leaveBtn = h("button", { type: "button", id: "ranked-leave", disabled: true }, t("leave_queue"));

  function show(ticket) {
    const waited = ticket.enqueued_ms ? Math.round((Date.now() - Number(ticket.enqueued_ms)) / 1000) : 0;
    status.textContent = `${t("ticket")} ${ticket.ticket_id}: ${t(`ticket_${ticket.state}`)}${
      ticket.state === "queued" ? ` · ${waited}s · μ ${Number(ticket.rating || 0).toFixed(1)}` : ""
    }`;
    const open = ticket.state === "queued" || ticket.state === "claimed";
    joinBtn.disabled = open;
    leaveBtn.disabled = ticket.state !== "queued";
  }

  async function follow(ticketId, token) {
    stopTicket();
    try {
      const ticket = await api(`/api/ranked/queue/${ticketId}`, { token });
      show(ticket);
      if (ticket.state === "matched" && ticket.seat_token) {
        localStorage.removeItem("fs.ticket");
        saveSeatToken(ticket.match_id, ticket.seat, ticket.seat_token);
        location.hash = `#/table/${ticket.match_id}`;
        return;
      }
      if (ticket.state === "left") {
        localStorage.removeItem("fs.ticket");
        return;
      }
    } catch (err) {
      status.textContent = String(err.message || err);
    }
    ticketTimer = setTimeout(() => follow(ticketId, token), 1500);
  }

  joinBtn.addEventListener("click", async () => {
    try {
      const g = await guest(nameIn.value.trim() || "guest");
      const lo = Number(minIn.value);
      const hi = Math.max(lo, Number(maxIn.value));
      const ticket = await api("/api/ranked/queue", {
        method: "POST",
        token: g.token,
        body: { ruleset: rulesetIn.value || undefined, min_players: lo, max_players: hi },
      });
      localStorage.setItem("fs.ticket", ticket.ticket_id);
      show(ticket);
      follow(ticket.ticket_id, g.token);
    } catch (err) {
      status.textContent = String(err.message || err);
    }
  });
  leaveBtn.addEventListener("click", async () => {
    const g = savedGuest();
    const id = localStorage.getItem("fs.ticket");
    if (!g || !id) return;
    try {
      show(await api(`/api/ranked/queue/${id}`, { method: "DELETE", token: g.token }));
      localStorage.removeItem("fs.ticket");
      stopTicket();
    } catch (err) {
      status.textContent = String(err.message || err);
    }
  });
  const pending = localStorage.getItem("fs.ticket");
  const g = savedGuest();
  if (pending && g) follow(pending, g.token);

  return h(
    "section",
    { class: "panel ranked" },
    h("h2", {}, t("ranked_queue")),
    h("p", { class: "muted" }, t("ranked_about")),
    h("label", { class: "field" }, h("span", {}, t("ruleset")), rulesetIn),
    h("div", { class: "field" }, h("span", {}, t("players_range")), h("span", { class: "range" }, minIn, " – ", maxIn)),
    h("div", { class: "buttons" }, joinBtn, leaveBtn),
    status,
  );
}
