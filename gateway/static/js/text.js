// Structured text (issue 16 §1): events and prompts arrive with a `template` key and `args`
// (engine/text.py); the ruleset's text table (GET /api/cards: `texts`) gives the Chinese and
// English template of each key. Arguments are typed by their name's prefix: seat, seats,
// card, cards, n, id, zh, text, action, reason. Cards are drawn by name, colour and mode
// (never a bare number), seats as seats, ids and printed names in the reader's language.
// A line without a known template falls back to the engine's words with ids named.
//
// The arguments are pieces of the line the viewer already receives, so a template never
// shows more than the line (tests/unit/test_text_templates.py).

import { DICTIONARIES, currentRulesetId, fn, getLang, name, reasonText, t, translateText } from "./i18n.js";

const TEXTS = {}; // ruleset id -> template key -> {scope, kind, zh, en}

/** Learn a ruleset's text table (the `texts` of GET /api/cards). */
export function learnTexts(ruleset, texts) {
  if (ruleset && texts) TEXTS[ruleset] = { ...(TEXTS[ruleset] || {}), ...texts };
}

/** The row of a template key in the current ruleset's table (else any ruleset's). */
function row(key) {
  if (!key) return null;
  const own = TEXTS[currentRulesetId()];
  if (own && own[key]) return own[key];
  for (const table of Object.values(TEXTS)) if (table[key]) return table[key];
  return null;
}

const COLOR_CLASS = { red: "red", blue: "blue", black: "black", red_blue: "redblue", "red+blue": "redblue" };

/** What a card's function does, in the reader's language ("" when unknown). */
export function cardText(card) {
  if (!card) return "";
  return (getLang() === "zh" ? card.text_zh || card.text_en : card.text_en || card.text_zh) || "";
}

/** A card's one-line description: function, colour, mode, markers, number; then its text. */
export function cardTitle(card, number) {
  const markers = `${card.direction_any ? ` · ${t("marker_direction")}` : ""}${card.encrypted ? ` · ${t("marker_lock")}` : ""}`;
  const head = `${fn(card.function)} · ${name(card.color)} · ${name(card.transmission)}${markers} · #${number}`;
  const text = cardText(card);
  return text ? `${head}\n${text}` : head;
}

/** A card named inline (log lines, prompts): function name, colour, mode icon and number. */
export function cardName(number, deck) {
  const n = Number(number);
  const c = deck?.[n];
  if (!c) return document.createTextNode(number === "?" || !n ? t("face_down_card") : `#${number}`);
  const el = document.createElement("span");
  el.className = `cardname ${COLOR_CLASS[c.color] || ""}`;
  el.title = cardTitle(c, n);
  el.textContent = `${fn(c.function)}#${n}`;
  el.addEventListener("click", () => showInfo(cardTitle(c, n)));
  return el;
}

// Chinese printed name -> English, from every name table the client knows
function englishOf(zh) {
  const { FUNCTIONS, CHARACTERS, SKILLS, LEARNED } = DICTIONARIES;
  for (const table of [FUNCTIONS, SKILLS, CHARACTERS]) {
    for (const entry of Object.values(table)) if (entry[0] === zh) return entry[1];
  }
  for (const [kind, table] of Object.entries(LEARNED)) {
    for (const [id, entry] of Object.entries(table)) {
      if (entry[0] !== zh) continue;
      const known = kind === "functions" ? FUNCTIONS[id] : kind === "skills" ? SKILLS[id] : CHARACTERS[id];
      return known?.[1] || entry[1] || id.charAt(0).toUpperCase() + id.slice(1).replace(/_/g, " ");
    }
  }
  const word = { 绝密任务: "Top-secret Mission", 危险情报: "Danger Intel", 密电: "Secret", 试探: "Probe" }[zh];
  return word || zh;
}

const seatWord = (v) => (getLang() === "zh" ? `${t("seat")}${v}` : `${t("seat").toLowerCase()} ${v}`);

/** One argument as text or a node, by its type. */
function arg(type, value, deck, actionLabel) {
  const v = String(value ?? "");
  switch (type) {
    case "seat":
      return seatWord(v);
    case "seats": {
      if (v === "-" || !v.trim()) return t("nobody");
      return v.split(/[ ,]+/).map(seatWord).join(getLang() === "zh" ? "、" : ", ");
    }
    case "card":
      return cardName(v, deck);
    case "cards": {
      const out = [];
      v.split(/[ ,]+/).filter(Boolean).forEach((n, i) => {
        if (i) out.push(" ");
        out.push(cardName(n, deck));
      });
      return out;
    }
    case "id":
      return name(v);
    case "zh":
      return getLang() === "zh" ? v : englishOf(v);
    case "action":
      if (v === "choose a character") return t("kind_character"); // the public echo of a character choice
      return actionLabel ? actionLabel(v.replace(/ \(face down\)/g, ` (${t("facedown_short")})`), deck || {}) : v;
    case "reason":
      return reasonText(v);
    default:
      return translateText(v);
  }
}

/** A template's pieces (strings and nodes) for these arguments; null without a known row. */
export function renderTemplate(key, args, deck, actionLabel) {
  const r = row(key);
  if (!r) return null;
  const template = getLang() === "zh" ? r.zh : r.en;
  const out = [];
  let pos = 0;
  for (const m of template.matchAll(/\{([a-z]+)(\d*)\}/g)) {
    if (m.index > pos) out.push(template.slice(pos, m.index));
    const piece = arg(m[1], (args || {})[m[1] + m[2]], deck, actionLabel);
    if (Array.isArray(piece)) out.push(...piece);
    else out.push(piece);
    pos = m.index + m[0].length;
  }
  if (pos < template.length) out.push(template.slice(pos));
  return out;
}

/** The pieces as plain text (for titles and tests). */
export const piecesText = (pieces) => pieces.map((p) => (typeof p === "string" ? p : p.textContent)).join("");

/** A small dialog over the page (a tapped card or character: its text in the reader's
 * language); it lives outside the redrawn table, closed by its button or a tap outside. */
export function showInfo(content) {
  let box = document.getElementById("info-dialog");
  if (!box) {
    box = document.createElement("dialog");
    box.id = "info-dialog";
    box.addEventListener("click", (e) => {
      if (e.target === box) box.close();
    });
    document.body.append(box);
  }
  const body = document.createElement("div");
  body.className = "info-body";
  if (typeof content === "string") body.textContent = content;
  else body.append(content);
  const close = document.createElement("button");
  close.type = "button";
  close.className = "close";
  close.textContent = "✕";
  close.addEventListener("click", () => box.close());
  box.replaceChildren(close, body);
  if (!box.open) box.showModal();
}
