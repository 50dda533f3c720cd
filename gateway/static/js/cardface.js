// Drawn card faces and character badges (issue 28 §4): SVG made here from a card's printed
// data (GET /api/cards: function, colour, transmission, markers), no copied art.
//
// A face: the frame in the card's colour (red, blue, black; a red-and-blue card split
// diagonally), the function's name and its monogram, the send mode (✉ secret, ➜ direct,
// ☰ text) or 谍战篇's printed arrow (← → ↑), the lock icon, the encrypted mark and the number.
import { character, characterSkills, fn, missionText, name, skill, skillText, t } from "./i18n.js";
import { h } from "./render.js";
import { cardText } from "./text.js";

const NS = "http://www.w3.org/2000/svg";
const INK = { red: "#b3261e", blue: "#1f5fbf", black: "#2b2b2b" };
const MODE_GLYPH = { secret: "✉", direct: "➜", text: "☰" };
const ARROW_PATH = {
  // arrows drawn as paths (fonts need not have the glyphs)
  left: "M46 0 L16 0 L16 -10 L0 6 L16 22 L16 12 L46 12 Z",
  right: "M0 0 L30 0 L30 -10 L46 6 L30 22 L30 12 L0 12 Z",
  up: "M17 30 L17 12 L6 12 L23 -6 L40 12 L29 12 L29 30 Z",
};

function svg(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const k of kids.flat()) if (k !== null && k !== undefined) el.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return el;
}

const dual = (color) => color === "red_blue" || color === "red+blue";

/** The card's colour as words ("红色", "red and blue"). */
export function colorWords(color) {
  return name(color);
}

/** An SVG face of card `number` (a card of `deck`), 120×168 user units; `size` its width in px. */
export function cardFaceSvg(number, deck, { size = 120 } = {}) {
  const c = deck[number];
  if (!c) return null;
  const id = `grad-${number}-${Math.random().toString(36).slice(2, 7)}`;
  const fill = dual(c.color) ? `url(#${id})` : INK[c.color] || "#666";
  const title = fn(c.function);
  const mono = [...title][0] || "?";
  const mode = c.transmission;
  const arrow = ARROW_PATH[mode];
  const parts = [
    svg("title", {}, `${title} · ${colorWords(c.color)} · #${number}`),
    dual(c.color)
      ? svg("defs", {}, svg("linearGradient", { id, x1: 0, y1: 0, x2: 1, y2: 1 },
          svg("stop", { offset: "50%", "stop-color": INK.red }),
          svg("stop", { offset: "50%", "stop-color": INK.blue })))
      : null,
    svg("rect", { x: 1, y: 1, width: 118, height: 166, rx: 10, fill, stroke: "#111", "stroke-width": 1.5 }),
    svg("rect", { x: 9, y: 9, width: 102, height: 150, rx: 6, fill: "#fbf8f1" }),
    // the function's name on a band of its colour
    svg("rect", { x: 9, y: 9, width: 102, height: 30, rx: 6, fill }),
    svg("text", { x: 60, y: 30, "text-anchor": "middle", "font-size": title.length > 5 ? 12 : 16, "font-weight": 700, fill: "#fff" }, title),
    // its monogram in a medallion
    svg("circle", { cx: 60, cy: 84, r: 28, fill: "none", stroke: fill, "stroke-width": 4 }),
    svg("text", { x: 60, y: 95, "text-anchor": "middle", "font-size": 30, "font-weight": 700, fill: INK[c.color] || "#444" }, mono),
    // the send mode or the printed arrow
    arrow
      ? svg("path", { d: arrow, transform: "translate(14 128)", fill: "#222", class: "face-arrow", "data-arrow": mode })
      : svg("text", { x: 16, y: 146, "font-size": 20, fill: "#222", class: "face-mode" }, MODE_GLYPH[mode] || ""),
    c.direction_any ? svg("text", { x: 44, y: 146, "font-size": 16, fill: "#222" }, "⇄") : null,
    c.lock_icon ? lockIcon(70, 128) : null,
    c.encrypted ? svg("path", { d: "M96 124 L104 134 L96 144 L88 134 Z", fill: "#222", class: "face-encrypted" }) : null,
    svg("text", { x: 104, y: 156, "text-anchor": "end", "font-size": 10, fill: "#555" }, `#${number}`),
  ];
  return svg("svg", { viewBox: "0 0 120 168", width: size, height: Math.round((size * 168) / 120), class: "face-svg", role: "img", "aria-label": `${title} · ${colorWords(c.color)}` }, parts);
}

/** 谍战篇's lock icon, drawn: a shackle over a body. */
function lockIcon(x, y) {
  return svg("g", { transform: `translate(${x} ${y})`, class: "face-lock" },
    svg("path", { d: "M4 10 V6 a6 6 0 0 1 12 0 V10", fill: "none", stroke: "#222", "stroke-width": 2.5 }),
    svg("rect", { x: 1, y: 10, width: 18, height: 13, rx: 2, fill: "#222" }));
}

/** A card's face with its words: the drawn face, its colour, mode and markers, and its text. */
export function cardFace(number, deck) {
  const c = deck[number];
  if (!c) return h("div", { class: "card-face unknown" }, `#${number}`);
  const markers = [
    dual(c.color) ? t("dual_color") : null,
    c.direction_any ? t("marker_direction") : null,
    c.encrypted ? t("encrypted_word") : null,
    c.lock_icon ? t("marker_lock_icon") : null,
  ].filter(Boolean);
  return h(
    "div",
    { class: "card-face", dataset: { face: number } },
    cardFaceSvg(number, deck, { size: 120 }),
    h(
      "div",
      { class: "face-words" },
      h("strong", { class: "face-name" }, fn(c.function)),
      h("p", { class: "face-meta" }, `${colorWords(c.color)} · ${name(c.transmission)}${markers.length ? ` · ${markers.join(" · ")}` : ""} · #${number}`),
      h("p", { class: "face-text" }, cardText(c) || "—"),
    ),
  );
}

/** A character's badge: a medallion with the first character of its name, its colour from
 * its id (the same badge for the same character everywhere). */
export function characterBadge(id, { size = 48 } = {}) {
  let hash = 0;
  for (const ch of String(id)) hash = (hash * 31 + ch.codePointAt(0)) % 360;
  const label = character(id);
  return svg("svg", { viewBox: "0 0 48 48", width: size, height: size, class: "char-badge", "aria-hidden": "true" },
    svg("circle", { cx: 24, cy: 24, r: 22, fill: `hsl(${hash} 45% 38%)`, stroke: "#111", "stroke-width": 1.5 }),
    svg("circle", { cx: 24, cy: 24, r: 17, fill: "none", stroke: "#fff", "stroke-opacity": 0.6, "stroke-width": 1 }),
    svg("text", { x: 24, y: 31, "text-anchor": "middle", "font-size": 20, "font-weight": 700, fill: "#fff" }, [...label][0] || "?"));
}

/** A character as the popover and the character choice show it: badge, name, every skill
 * with its text, and its secret mission (再临). */
export function characterFace(id) {
  const mission = missionText(id);
  return h(
    "div",
    { class: "character-face", dataset: { characterFace: id } },
    characterBadge(id, { size: 56 }),
    h(
      "div",
      { class: "face-words" },
      h("strong", { class: "face-name" }, character(id)),
      h(
        "dl",
        { class: "skill-texts" },
        characterSkills(id).flatMap((s) => [h("dt", {}, skill(s)), h("dd", {}, skillText(s) || "—")]),
      ),
      mission ? h("p", { class: "mission" }, `${t("mission")}: ${mission}`) : null,
    ),
  );
}
