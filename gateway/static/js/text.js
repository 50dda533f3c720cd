// Structured text (issue 16 §1, issue 27): events arrive as values, a `template` key and
// typed `args` (proto EventArg: {name, seat | seats | card | cards | count | id | ids | text});
// the ruleset's text table (GET /api/cards: `texts`) gives the Chinese and English template
// of each key. Cards are drawn by name, colour and mode (never a bare number), seats as
// seats, counts as counts, ids and printed names in the reader's language. Nothing here
// guesses a card from a number: a card is an argument typed as one (tests/unit/
// test_web_no_card_guessing.py greps for the old guesses). Prompts are values too (the
// decision half of issue 27): a prompt message and the observation's `pending` carry their
// row's `template` key and its typed `arguments` (EventArg, as an event's), rendered here by
// renderTemplate; nothing matches a prompt's words or splits its arguments. An action is a
// value too (actionPieces): an event's `action`, a hidden action's public form (`shown`, or
// a row of its own with typed arguments), a replay step's `acted`.
import { actionWord, character, currentRulesetId, englishName, fn, getLang, name, reasonText, skill, t, translateText } from "./i18n.js";

const TEXTS = {}; // ruleset id -> template key -> {scope, kind, zh, en}

/** Learn a ruleset's text table (the `texts` of GET /api/cards). */
export function learnTexts(ruleset, texts) {
  if (ruleset && texts) TEXTS[ruleset] = { ...(TEXTS[ruleset] || {}), ...texts };
}

/** A paragraph of a ruleset's rules page (victory …) in the reader's language. */
export function ruleText(ruleset, id) {
  const r = TEXTS[ruleset]?.[`rule.${id}`];
  return r ? (getLang() === "zh" ? r.zh : r.en) : "";
}

/** The row of a template key in the current ruleset's table (else any ruleset's). */
function row(key) {
  if (!key) return null;
  const own = TEXTS[currentRulesetId()];
  if (own && own[key]) return own[key];
  for (const table of Object.values(TEXTS)) if (table[key]) return table[key];
  return null;
}

/** An event's typed arguments (the EventArg list of the wire) by name: numbers, arrays of
 * numbers or ids, strings. A `count` stays a count: it is never read as a card. */
export function eventArgs(list) {
  const out = {};
  for (const a of list || []) {
    for (const f of ["seat", "card", "count", "id", "text"]) if (f in a) out[a.name] = a[f];
    for (const f of ["seats", "cards", "ids"]) if (f in a) out[a.name] = [...(a[f].values || [])];
  }
  return out;
}

/** An action value (proto Action: its kind and typed fields, as an action event's `action`
 * or a hidden action's public form `shown` carries it) in the reader's language: cards by
 * name (a card others may not see, 0 or -1, as a face-down card), seats as seats, skills,
 * modes and words by name. Nothing here reads notation: the fields say what each part is. */
export function actionPieces(a, deck) {
  const zh = getLang() === "zh";
  const out = [];
  const add = (...parts) => out.push(...parts);
  const seats = (list) => list.map(seatWord).join(zh ? "、" : ", ");
  const card = (n) => cardName(n > 0 ? n : 0, deck);
  const cards = (list) => list.forEach((n, i) => add(i ? " " : "", card(n)));
  const words = (list) => list.map((w) => (character(w) !== w ? character(w) : actionWord(w))).join(zh ? "、" : ", ");
  const to = a.to || [];
  const toSeats = () => (to.length ? add(` ${actionWord("to")} ${seats(to)}`) : null);
  const on = () => {
    if (a.chain) add(` ${actionWord("on")} #${a.chain}`);
    else if (a.on) add(` ${actionWord("on")} `, card(a.on));
  };
  switch (a.kind) {
    case "play":
      add(`${actionWord("play")} `, card(a.card));
      toSeats();
      on();
      if (a.code) add(` ${actionWord("code")} ${actionWord(a.code)}`);
      if (a.alt) add(` ${actionWord("as")} ${fn(a.alt)}`);
      break;
    case "send":
      add(`${actionWord("send")} `, a.pile ? actionWord("pile") : card(a.card));
      if (a.mode) add(` ${actionWord(a.mode)}`);
      toSeats();
      if (a.arrow) add(` ${actionWord(a.arrow)}`);
      if (a.lock !== undefined && a.lock !== null && a.lock >= 0) add(` ${actionWord("lock")} ${seatWord(a.lock)}`);
      break;
    case "skill":
      add(`${actionWord("skill")} ${skill(a.skill) !== a.skill ? skill(a.skill) : fn(a.skill)}`);
      toSeats();
      if ((a.cards || []).length) {
        add(" ");
        cards(a.cards);
      }
      on();
      if ((a.options || []).length) add(` ${actionWord("choose")} ${words(a.options)}`);
      break;
    case "choose":
      // a pick is a card or a seat as the prompt said: shown as its number
      add(`${actionWord("choose")} ${(a.picks || []).length ? a.picks.join(zh ? "、" : ", ") : words(a.options || [])}`);
      if (a.face) add(` ${actionWord(a.face)}`);
      toSeats();
      break;
    default:
      add(actionWord(String(a.kind || "")));
  }
  // in English, a printed Chinese word (再临's codes: 听风 …) by its English name
  return out.filter((p) => p !== "").map((p) => (zh || typeof p !== "string" ? p : p.replace(/[\u4e00-\u9fff]+/g, englishOf)));
}

const COLOR_CLASS = { red: "red", blue: "blue", black: "black", red_blue: "redblue", "red+blue": "redblue" };

/** What a card's function does, in the reader's language ("" when unknown). */
export function cardText(card) {
  if (!card) return "";
  return (getLang() === "zh" ? card.text_zh || card.text_en : card.text_en || card.text_zh) || "";
}

/** A card's one-line description: function, colour, mode, markers, number; then its text. */
export function cardTitle(card, number) {
  const markers = `${card.direction_any ? ` · ${t("marker_direction")}` : ""}${card.encrypted ? ` · ${t("marker_lock")}` : ""}${card.lock_icon ? ` · 🔒${t("marker_lock_icon")}` : ""}`;
  const arrow = { left: "←", right: "→", up: "↑" }[card.transmission]; // 谍战篇's printed arrow
  const head = `${fn(card.function)} · ${name(card.color)} · ${arrow ? `${arrow} ` : ""}${name(card.transmission)}${markers} · #${number}`;
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
  el.dataset.mode = c.transmission || ""; // its mode as an icon after the name (app.css)
  el.textContent = `${fn(c.function)}#${n}`;
  el.addEventListener("click", () => showInfo(cardTitle(c, n)));
  return el;
}

const englishOf = englishName;

const seatWord = (v) => (getLang() === "zh" ? `${t("seat")}${v}` : `${t("seat").toLowerCase()} ${v}`);

// a list argument arrives typed, as an array (EventArg seats / cards / ids): never split
const items = (value) => (Array.isArray(value) ? value.map(String) : value === undefined || value === "" ? [] : [String(value)]);

/** One argument as text or a node, by its type (an event's or a prompt's typed values). */
function arg(type, value, deck) {
  const v = String(value ?? "");
  switch (type) {
    case "seat":
      return seatWord(v);
    case "seats": {
      const seats = items(value);
      if (!seats.length) return t("nobody");
      return seats.map(seatWord).join(getLang() === "zh" ? "、" : ", ");
    }
    case "card":
      return cardName(v, deck);
    case "cards": {
      const out = [];
      items(value).forEach((n, i) => {
        if (i) out.push(" ");
        out.push(cardName(n, deck));
      });
      return out;
    }
    case "n":
      return v;
    case "id":
      return name(v);
    case "ids":
      return items(value).map(name).join(getLang() === "zh" ? "、" : ", ");
    case "zh":
      return getLang() === "zh" ? v : englishOf(v);
    case "action":
      // an action value (logLine puts the event's `action` or `shown` here); its text, when
      // no value came, is shown as it is: never taken apart
      return value && typeof value === "object" ? actionPieces(value, deck) : v;
    case "reason":
      return reasonText(v);
    default:
      return getLang() === "zh" ? translateText(v) : translateText(v).replace(/[\u4e00-\u9fff]+/g, englishOf);
  }
}

/** A template's pieces (strings and nodes) for these arguments; null without a known row. */
export function renderTemplate(key, args, deck) {
  const r = row(key);
  if (!r) return null;
  const template = getLang() === "zh" ? r.zh : r.en;
  const out = [];
  let pos = 0;
  for (const m of template.matchAll(/\{([a-z]+)(\d*)\}/g)) {
    if (m.index > pos) out.push(template.slice(pos, m.index));
    const piece = arg(m[1], (args || {})[m[1] + m[2]], deck);
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

/** A refused answer in the reader's language, by the gateway's error code (gateway/errors.py);
 * in English the gateway's own message. */
export function errorText(code, message) {
  if (getLang() !== "zh") return message;
  const zh = {
    failed_precondition: "该决策已结束（可能已自动作答），请看当前决策",
    invalid_argument: "此操作不合法，请重新选择",
    unauthenticated: "凭证无效，请刷新页面",
    forbidden: "你不能在此座位操作",
    not_found: "找不到这局对局",
    unavailable: "服务器暂时不可用，正在重试",
    deadline_exceeded: "服务器响应超时，正在重试",
  }[code];
  return zh || "操作未被接受，请重试";
}
