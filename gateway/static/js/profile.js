// A player's profile: rating on the ranked ladder and ranked history (GET /api/ranked/...),
// and, for this browser's own guest, the matches it played here.
import { api, history, savedGuest } from "./api.js";
import { identity, t } from "./i18n.js";
import { fill, h } from "./render.js";

export async function mountProfile(root, { playerId = "", query = new URLSearchParams() } = {}) {
  const me = savedGuest();
  const pid = playerId || me?.id || "";
  const ladder = query.get("ladder") === "bot" ? "bot" : "human";
  const own = Boolean(me && pid === me.id);
  const rating = h("div", { id: "rating" }, h("p", { class: "muted" }, "…"));
  const ranked = h("div", { id: "ranked-history" });
  root.replaceChildren(
    h(
      "section",
      { class: "panel profile", id: "profile" },
      h("h2", {}, t("profile")),
      pid
        ? h("p", {}, h("strong", { id: "profile-name" }, own ? me.name : pid), " ", h("code", {}, pid))
        : h("p", { class: "muted" }, t("no_guest")),
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
                ` ${t("seat")} ${g.seat} · ${new Date(g.at).toLocaleString()} `,
                h("a", { href: `#/table/${g.match_id}`, class: "button small" }, t("seat")),
                " ",
                h("a", { href: `#/replay/${g.match_id}`, class: "button small" }, t("view_replay")),
              ),
            ),
          )
        : null,
    ),
  );
  if (!pid) return () => {};

  try {
    const board = await api(`/api/ranked/leaderboard?ladder=${ladder}&limit=500`);
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
  try {
    const past = await api(`/api/ranked/players/${encodeURIComponent(pid)}/history?ladder=${ladder}&limit=50`);
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
    fill(ranked, h("p", { class: "error" }, String(err.message || err)));
  }
  return () => {};
}

function identityName(value) {
  const names = { 1: "MILITARY", 2: "LATENT", 3: "AGENT" };
  return identity(names[value] || String(value || "").toUpperCase() || "IDENTITY_UNSPECIFIED");
}
