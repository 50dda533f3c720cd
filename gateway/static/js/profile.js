// A player's profile: rating on a ruleset's ranked ladder and ranked history (GET
// /api/ranked/...), and, for this browser's own guest, the matches it played here. Also the
// leaderboards panel of the lobby: each ruleset rates apart, so both views choose a ruleset.
import { api, history, rulesets, savedGuest } from "./api.js";
import { challengeBox } from "./challenges.js";
import { dateText, identity, rulesetName, t } from "./i18n.js";
import { fill, h, playerName } from "./render.js";

const DEFAULT_RULESET = "return";
/** The rulesets with a ladder, as the last leaderboard answer listed them. */
let knownRulesets = [DEFAULT_RULESET];

/** Ruleset id -> its entry of GET /api/rulesets (its printed name), once known. */
const rulesetEntries = {};

/** A ruleset's name in the reader's language (its id until the catalog is known). */
const rulesetLabel = (id) => rulesetName(rulesetEntries[id]) || id;

/** A ruleset `<select>` (options: the rulesets the server rates, by their names in the
 * reader's language); `onChange` after a change. */
function rulesetSelect(id, value, onChange) {
  const select = h("select", { id, "aria-label": t("ruleset") }, h("option", { value, selected: true }, rulesetLabel(value)));
  let shown = [value];
  const update = (ids) => {
    const current = select.value;
    shown = ids;
    fill(select, ids.map((r) => h("option", { value: r, selected: r === current }, rulesetLabel(r))));
  };
  rulesets()
    .then((all) => {
      for (const r of all.rulesets || []) rulesetEntries[r.id] = r;
      update(shown);
    })
    .catch(() => {}); // the ids stay as labels
  update(knownRulesets.includes(value) ? knownRulesets : [...knownRulesets, value]);
  select.addEventListener("change", onChange);
  select.learn = (ids) => {
    if (Array.isArray(ids) && ids.length) {
      knownRulesets = ids;
      update(ids.includes(select.value) ? ids : [...ids, select.value]);
    }
  };
  return select;
}

export async function mountProfile(root, { playerId = "", query = new URLSearchParams() } = {}) {
  const me = savedGuest();
  const pid = playerId || me?.id || "";
  const ladder = query.get("ladder") === "bot" ? "bot" : "human";
  const own = Boolean(me && pid === me.id);
  const rating = h("div", { id: "rating" }, h("p", { class: "muted" }, "…"));
  const ranked = h("div", { id: "ranked-history" });
  const rulesetIn = rulesetSelect("profile-ruleset", query.get("ruleset") || DEFAULT_RULESET, () => load());
  // someone else's profile (a guest or a registered bot): challenge them to a casual table
  const challenge =
    pid && !own && /^[gb]_/.test(pid)
      ? challengeBox(pid, () => rulesetIn.value, () => document.getElementById("profile-name")?.textContent || pid)
      : null;
  root.replaceChildren(
    h(
      "section",
      { class: "panel profile", id: "profile" },
      h("h2", {}, t("profile")),
      pid
        ? h("p", {}, h("strong", {}, playerName(own ? me.name : pid, { id: "profile-name" })), " ", h("code", {}, pid))
        : h("p", { class: "muted" }, t("no_guest")),
      h("div", { class: "buttons" }, rulesetIn),
      challenge ? challenge.el : null,
      h("h3", {}, `${t("rating")} (${t(ladder === "bot" ? "ladder_bot" : "ladder_human")})`),
      rating,
      h("h3", {}, t("ranked_history")),
      ranked,
      own ? h("h3", {}, t("casual_history")) : null,
      own
        ? h(
            "ul",
            { class: "matches" },
            history().map((g) =>
              h(
                "li",
                {},
                h("code", {}, g.match_id),
                ` ${t("seat")} ${g.seat} · ${dateText(g.at_ms)} `,
                h("a", { href: `#/table/${g.match_id}`, class: "button small" }, t("seat")),
                " ",
                h("a", { href: `#/replay/${g.match_id}`, class: "button small" }, t("view_replay")),
              ),
            ),
          )
        : null,
    ),
  );
  const stop = () => challenge?.stop();
  if (!pid) return stop;
  await load();
  return stop;

  async function load() {
    const ruleset = encodeURIComponent(rulesetIn.value);
    await Promise.all([loadRating(ruleset), loadHistory(ruleset)]);
  }

  async function loadRating(ruleset) {
    try {
      const board = await api(`/api/ranked/leaderboard?ladder=${ladder}&ruleset=${ruleset}&limit=500`);
      rulesetIn.learn(board.rulesets);
      const row = (board.standings || []).find((r) => r.player_id === pid);
      if (row) {
        const name = document.getElementById("profile-name");
        if (name && !own) name.textContent = row.name;
        fill(
          rating,
          h(
            "p",
            {},
            `#${row.rank} · ${t("score")} ${Number(row.score).toFixed(1)} · μ ${Number(row.mu).toFixed(1)} ± ${Number(
              row.sigma,
            ).toFixed(1)} · ${t("wins_games")} ${row.wins}/${row.games}`,
            row.provisional ? h("span", { class: "badge" }, t("provisional")) : null,
          ),
        );
      } else {
        fill(rating, h("p", { class: "muted" }, t("no_ranked")));
      }
    } catch (err) {
      fill(rating, h("p", { class: "error" }, String(err.message || err)));
    }
  }

  async function loadHistory(ruleset) {
    try {
      const past = await api(
        `/api/ranked/players/${encodeURIComponent(pid)}/history?ladder=${ladder}&ruleset=${ruleset}&limit=50`,
      );
      const rows = past.matches || [];
      fill(
        ranked,
        rows.length
          ? h(
              "table",
              { class: "ladder" },
              h(
                "tr",
                {},
                h("th", {}, t("match")),
                h("th", {}, t("seat")),
                h("th", {}, t("identity")),
                h("th", {}, ""),
                h("th", {}, t("score")),
                h("th", {}, ""),
              ),
              rows.map((m) =>
                h(
                  "tr",
                  {},
                  h("td", {}, h("code", {}, m.match_id), m.season ? ` · ${m.season}` : ""),
                  h("td", {}, `${m.seat} / ${m.players}`),
                  h("td", {}, identityName(m.identity)),
                  h("td", { class: m.won ? "won" : "lost" }, m.won ? t("won") : t("lost")),
                  h("td", {}, `${Number(m.before).toFixed(1)} → ${Number(m.after).toFixed(1)}`),
                  h("td", {}, h("a", { href: `#/replay/${m.match_id}`, class: "button small" }, t("view_replay"))),
                ),
              ),
            )
          : h("p", { class: "muted" }, t("no_ranked")),
      );
    } catch (err) {
      // 404: not on this ladder yet (a guest who never played ranked): no history, not an error
      if (err.status === 404) fill(ranked, h("p", { class: "muted" }, t("no_ranked")));
      else fill(ranked, h("p", { class: "error" }, String(err.message || err)));
    }
  }
}

function identityName(value) {
  // fengsheng.v1.Identity values (proto/fengsheng/v1/game.proto)
  const names = { 1: "MILITARY", 2: "LATENT", 3: "AGENT", 4: "BYSTANDER" };
  return identity(names[value] || String(value || "").toUpperCase() || "IDENTITY_UNSPECIFIED");
}

/** The ladders (GET /api/ranked/leaderboard): one ruleset's, people or bots, all time or
 * this season. */
export function boardPanel() {
  const rulesetIn = rulesetSelect("board-ruleset", DEFAULT_RULESET, () => load());
  const ladderIn = h(
    "select",
    { id: "ladder", "aria-label": t("ladder_kind") },
    h("option", { value: "human" }, t("ladder_human")),
    h("option", { value: "bot" }, t("ladder_bot")),
  );
  const seasonIn = h(
    "select",
    { id: "season", "aria-label": t("season") },
    h("option", { value: "" }, t("all_time")),
    h("option", { value: "current" }, t("this_season")),
  );
  const body = h("tbody", {});
  const note = h("p", { class: "muted" });
  async function load() {
    try {
      const ruleset = encodeURIComponent(rulesetIn.value);
      const board = await api(
        `/api/ranked/leaderboard?ruleset=${ruleset}&ladder=${ladderIn.value}` +
          `&season=${encodeURIComponent(seasonIn.value)}&limit=50`,
      );
      rulesetIn.learn(board.rulesets);
      const rows = board.standings || [];
      note.textContent = rows.length ? "" : t("board_empty");
      fill(
        body,
        rows.map((r) =>
          h(
            "tr",
            {},
            h("td", {}, String(r.rank)),
            h(
              "td",
              {},
              h(
                "a",
                { href: `#/profile/${encodeURIComponent(r.player_id)}?ladder=${ladderIn.value}&ruleset=${ruleset}` },
                playerName(r.name),
              ),
              r.bot ? h("span", { class: "badge" }, t("bot")) : null,
              r.provisional ? h("span", { class: "badge" }, t("provisional")) : null,
            ),
            h("td", {}, Number(r.score).toFixed(1)),
            h("td", {}, `${Number(r.mu).toFixed(1)} ± ${Number(r.sigma).toFixed(1)}`),
            h("td", {}, `${r.wins}/${r.games}`),
          ),
        ),
      );
    } catch (err) {
      note.textContent = String(err.message || err);
    }
  }
  ladderIn.addEventListener("change", load);
  seasonIn.addEventListener("change", load);
  load();
  return h(
    "section",
    { class: "panel board-panel" },
    h("h2", {}, t("leaderboards")),
    h("div", { class: "buttons" }, rulesetIn, ladderIn, seasonIn),
    h(
      "table",
      { class: "ladder", id: "leaderboard" },
      h(
        "thead",
        {},
        h("tr", {}, h("th", {}, "#"), h("th", {}, t("name")), h("th", {}, t("score")), h("th", {}, "μ ± σ"), h("th", {}, t("wins_games"))),
      ),
      body,
    ),
    note,
  );
}
