// Structured text (issue 16 §1, issue 27): events arrive as values, a `template` key and
// typed `args` (proto EventArg: {name, seat | seats | card | cards | count | id | ids | text});
// the ruleset's text table (GET /api/cards: `texts`) gives the Chinese and English template
// of each key. Cards are drawn by name, colour and mode (never a bare number), seats as
// seats, counts as counts, ids and printed names in the reader's language. Nothing here
// guesses a card from a number: a card is an argument typed as one (tests/unit/
// test_web_no_card_guessing.py greps for the old guesses). Prompts are values too (the
// decision half of issue 27): a prompt message and the observation's `pending` carry their
// row's `template` key and its `args` (each as the English line writes it: a seat or a card
// as its number), rendered here by renderTemplate; nothing matches a prompt's words.
import { currentRulesetId, englishName, fn, getLang, name, reasonText, t, translateText } from "./i18n.js";

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

// the public words of hidden actions (engine/rulesets/*/privacy.py) in both languages
const ACTION_PHRASES = [
  [/^chooses? a character$/, () => [t("kind_character"), t("kind_character")]],
  [/^chooses how to answer the probe$/, () => ["选择如何回答试探", "chooses how to answer the probe"]],
  [/^chooses a card to discard$/, () => ["选择一张要弃的牌", "chooses a card to discard"]],
  [/^chooses a card to give \(收买\)$/, () => ["选择一张要交出的牌（收买）", "chooses a card to give (Bribe)"]],
  [/^puts a hand card on the pile top$/, () => ["将一张手牌置于牌堆顶", "puts a hand card on the pile top"]],
  [/^gives a card$/, () => ["交出一张牌", "gives a card"]],
  // classic's 联动 give and 情报处长's pile top (engine/rulesets/classic/characters/*.py)
  [/^choose a hand card to (\d+)$/, (m) => [`选择一张手牌交给座位${m[1]}`, `chooses a hand card for seat ${m[1]}`]],
  [/^choose a hand card for the pile top$/, () => ["选择一张手牌置于牌堆顶", "chooses a hand card for the pile top"]],
  // 谍战篇's hidden gives (engine/rulesets/spy/privacy.py, characters/*.py: hidden_answer)
  [/^gives a card to seat (\d+)$/, (m) => [`交给座位${m[1]}一张牌`, `gives a card to seat ${m[1]}`]],
  [/^gives (\d+) cards to seat (\d+)$/, (m) => [`交给座位${m[2]} ${m[1]}张牌`, `gives ${m[1]} cards to seat ${m[2]}`]],
  [/^gives (\d+) cards back$/, (m) => [`交还${m[1]}张牌`, `gives ${m[1]} cards back`]],
  [/^gives (\d+) cards$/, (m) => [`交出${m[1]}张牌`, `gives ${m[1]} cards`]],
];
const ACTION_PARTS = [
  [/ \(a hand card discarded face down\)$/, ["（背面弃置一张手牌）", " (a hand card discarded face down)"]],
  [/ \(into the hand\)$/, ["（收入手牌）", " (into the hand)"]],
  [/ on the face-down probe$/, ["对背面的试探", " on the face-down Probe"]],
  [/ \(face down\)/, ["（背面）", " (face down)"]],
];

function actionText(v, deck, actionLabel) {
  const zh = getLang() === "zh";
  for (const [re, make] of ACTION_PHRASES) {
    const m = re.exec(v);
    if (m) return make(m)[zh ? 0 : 1];
  }
  let rest = v.replace(/ (to|lock) seat (\d+)/g, " $1 $2"); // 谍战篇's public sends name the seat
  const tails = [];
  for (const [re, words] of ACTION_PARTS) {
    const m = re.exec(rest);
    if (!m) continue;
    tails.push([m.index, words[zh ? 0 : 1]]);
    rest = rest.slice(0, m.index) + rest.slice(m.index + m[0].length);
  }
  let out = actionLabel ? actionLabel(rest, deck || {}) : rest;
  if (tails.length) out += tails.map((x) => x[1]).join("");
  return zh ? out : out.replace(/[\u4e00-\u9fff]+/g, englishOf);
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

const items = (value) =>
  Array.isArray(value) ? value.map(String) : String(value ?? "").split(/[ ,]+/).filter((x) => x && x !== "-");

/** One argument as text or a node, by its type (typed event values, or a prompt line's
 * string pieces). */
function arg(type, value, deck, actionLabel) {
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
      return actionText(v, deck, actionLabel);
    case "reason":
      return reasonText(v);
    default:
      return getLang() === "zh" ? translateText(v) : translateText(v).replace(/[\u4e00-\u9fff]+/g, englishOf);
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
