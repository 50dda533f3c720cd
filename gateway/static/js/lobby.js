// The lobby: play now against bots, live matches to watch, finished ones to replay.
import { api, guest, savedGuest, saveSeatToken } from "./api.js";
import { t } from "./i18n.js";
import { fill, h } from "./render.js";

export async function mountLobby(root) {
  const me = savedGuest();
  const field = (label, input) => h("label", { class: "field" }, h("span", {}, label), input);
  const nameIn = h("input", { id: "name", value: me?.name || "", placeholder: "ada", maxlength: 32 });
  const playersIn = h(
    "select",
    { id: "players" },
    [3, 4, 5, 6, 7].map((n) => h("option", { value: n, selected: n === 5 }, String(n))),
  );
  const botIn = h(
    "select",
    { id: "bot" },
    h("option", { value: "heuristic" }, t("heuristic")),
    h("option", { value: "random" }, t("random")),
  );
  const charsIn = h("input", { type: "checkbox", id: "characters", checked: true });
  const timerIn = h("input", { type: "number", id: "turn-timeout", min: 0, max: 3600, step: "any", value: 0 });
  const delayIn = h("input", { type: "number", id: "bot-delay", min: 0, max: 30, step: "any", value: 0.8 });
  const error = h("p", { class: "error" });

  async function create(humans) {
    error.textContent = "";
    try {
      const g = humans ? await guest(nameIn.value.trim() || "guest") : null;
      const body = {
        players: Number(playersIn.value),
        humans,
        bot: botIn.value,
        characters: charsIn.checked,
        turn_timeout_s: Number(timerIn.value) || 0,
        bot_delay_s: Number(delayIn.value) || 0,
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
          field(t("players"), playersIn),
          field(t("bot_kind"), botIn),
          h("label", { class: "field check" }, charsIn, h("span", {}, t("characters"))),
          field(t("turn_timer"), timerIn),
          field(t("bot_delay"), delayIn),
          h(
            "div",
            { class: "buttons" },
            h("button", { type: "submit", id: "play-now", class: "primary" }, t("start")),
            h("button", { type: "button", id: "watch-bots", onclick: () => create(0) }, t("watch_bots")),
          ),
          error,
        ),
      ),
      h("section", { class: "panel" }, h("h2", {}, t("live_matches")), live),
      h("section", { class: "panel" }, h("h2", {}, t("recent_matches")), finished),
      h(
        "section",
        { class: "panel soon" },
        h("h2", {}, t("ranked_queue")),
        h("p", { class: "muted", id: "ranked-soon" }, t("ranked_soon")),
        h("h2", {}, t("leaderboards")),
        h("p", { class: "muted", id: "leaderboards-soon" }, t("leaderboards_soon")),
      ),
    ),
  );

  async function load() {
    try {
      const { matches } = await api("/api/matches?limit=30");
      const row = (m) =>
        h(
          "li",
          {},
          h("code", {}, m.match_id),
          ` ${m.seats.length}P · ${m.seats.map((s) => (s.kind === "human" ? s.player || t("human") : t("bot"))).join(", ")} · `,
          m.over ? `★ ${m.winners.join(", ")} ` : `${t("turn_number")} ${m.turn_number} `,
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
  return () => clearInterval(timer);
}
