// The rules page of a ruleset (#/rules/ID, issue 16 §3), in the reader's language: its
// identity table, how to win, every card function (what it does, and the printed cards with
// their colours and modes) and every character (skills with their texts, secret mission).
// Everything comes from GET /api/rulesets and GET /api/cards, so a new ruleset has its page.

import { cards, rulesetInfo, rulesets } from "./api.js";
import { character, fn, identity, missionText, rulesetName, skill, skillText, t, useRuleset } from "./i18n.js";
import { cardTile, fill, h } from "./render.js";
import { cardText, ruleText } from "./text.js";

export async function mountRules(root, { rulesetId }) {
  const all = await rulesets();
  const info = await rulesetInfo(rulesetId || all.default);
  if (!info) {
    fill(root, h("p", { class: "error" }, `${t("ruleset")}: ${rulesetId}?`));
    return () => {};
  }
  useRuleset(info.id);
  const deck = await cards(info.id);
  const others = all.rulesets.filter((r) => r.id !== info.id);

  const identities = info.identities.map((i) => identity(i));
  const idTable = h(
    "table",
    { class: "identity-table", id: "rules-identities" },
    h("tr", {}, h("th", {}, t("players")), identities.map((n) => h("th", {}, n))),
    Object.entries(info.identity_table).map(([players, counts]) =>
      h("tr", {}, h("td", {}, players), counts.map((c) => h("td", {}, String(c)))),
    ),
  );

  // the deck by function: what it does, then each printed variant (colour, mode, markers)
  const byFunction = new Map();
  for (const [number, card] of Object.entries(deck)) {
    if (!byFunction.has(card.function)) byFunction.set(card.function, []);
    byFunction.get(card.function).push([Number(number), card]);
  }
  const cardRows = [...byFunction.entries()].map(([func, list]) => {
    const variants = new Map();
    for (const [number, card] of list) {
      const key = `${card.color}|${card.transmission}|${card.direction_any}|${card.encrypted}`;
      if (!variants.has(key)) variants.set(key, { number, count: 0 });
      variants.get(key).count++;
    }
    return h(
      "section",
      { class: "rules-card", dataset: { function: func } },
      h("h4", {}, `${fn(func)} ×${list.length}`),
      h("p", { class: "card-text" }, cardText(list[0][1])),
      h(
        "div",
        { class: "variants" },
        [...variants.values()].map((v) => h("span", { class: "variant" }, cardTile(v.number, deck, { small: true }), ` ×${v.count}`)),
      ),
    );
  });

  const characterRows = (info.character_table || []).map((c) =>
    h(
      "section",
      { class: "rules-character", dataset: { character: c.id } },
      h("h4", {}, character(c.id)),
      h(
        "dl",
        {},
        (c.skills || []).flatMap((s) => [h("dt", {}, skill(s.id)), h("dd", {}, skillText(s.id, info.id) || "—")]),
      ),
      missionText(c.id, info.id) ? h("p", { class: "mission" }, `${t("mission")}: ${missionText(c.id, info.id)}`) : null,
    ),
  );

  fill(
    root,
    h(
      "article",
      { id: "rules", dataset: { ruleset: info.id } },
      h("h2", {}, `${t("rules")}: ${rulesetName(info)}`),
      others.length
        ? h("p", { class: "muted" }, others.flatMap((r) => [h("a", { href: `#/rules/${r.id}` }, `${t("rules")}: ${rulesetName(r)}`), " "]))
        : null,
      h("h3", {}, t("identities")),
      idTable,
      h("h3", {}, t("victory")),
      h("p", { id: "rules-victory" }, ruleText(info.id, "victory")),
      h("h3", {}, t("cards_heading")),
      h("p", { class: "muted" }, t("legend")),
      h("div", { id: "rules-cards" }, cardRows),
      h("h3", {}, t("characters_heading")),
      characterRows.length ? h("div", { id: "rules-characters" }, characterRows) : h("p", {}, t("no_characters")),
      h("p", {}, h("a", { href: "#/lobby", class: "button" }, t("back_lobby"))),
    ),
  );
  return () => {};
}

/** A link to a ruleset's rules page. */
export const rulesLink = (id) => h("a", { href: `#/rules/${id}`, class: "rules-link", id: "rules-link" }, t("rules_page"));

