// The decision panel's buttons: one step of composing an answer (compose.js) drawn as
// buttons named in the player's language (cards by function name, seats by number and
// player, skills and words by name). The notation is never on a button: the chosen action's
// text goes to the server, and is shown only with the notation toggle (debug, off by
// default: `fs.show_notation`).

import { canAdd, nextStep, setFor, SLOTS, slotValue } from "./compose.js";
import { actionWord, character, fn, getLang, name, skill, t } from "./i18n.js";
import { h, playerName } from "./render.js";
import { cardTitle } from "./text.js";

// the composer's own words (i18n.js's tables are shared with the prompts' texts)
const WORDS = {
  back: ["← 返回", "← Back"],
  cancel: ["取消", "Cancel"],
  confirm: ["确定", "Confirm"],
  pile: ["牌堆顶的牌", "the top card of the pile"],
  seat: ["座位", "Seat"],
  chain_item: ["响应链第{k}项", "chain item {k}"],
  show_notation: ["显示记法(调试)", "Show the notation (debug)"],
  picked: ["已选", "Picked"],
  pick_cards: ["选择牌 (可多选), 然后确定", "Pick the cards, then confirm"],
  pick_seats: ["选择座位 (可多选), 然后确定", "Pick the seats, then confirm"],
  pick_options: ["选择选项 (可多选), 然后确定", "Pick the options, then confirm"],
  slot_head: ["选择", "Choose"],
  slot_alt: ["当作", "Use it as"],
  slot_mode: ["传递方式", "How to send it"],
  slot_to: ["目标", "Target"],
  slot_way: ["方向或目标", "Direction or target"],
  none_way: ["按牌面方向", "the printed direction"],
  slot_on: ["作用于", "Acting on"],
  slot_cards: ["牌", "Cards"],
  slot_code: ["暗号", "Code"],
  slot_arrow: ["方向", "Direction"],
  slot_lock: ["锁定", "Lock"],
  slot_options: ["选项", "Option"],
  slot_face: ["正面或背面", "Face up or down"],
  none_alt: ["按原功能使用", "as itself"],
  none_mode: ["不指定", "none"],
  none_to: ["不指定目标", "no target"],
  none_on: ["不指定", "none"],
  none_cards: ["不选牌", "no cards"],
  none_code: ["不用暗号", "no code"],
  none_arrow: ["按牌面方向", "the printed direction"],
  none_lock: ["不锁定", "no lock"],
  none_options: ["不选", "none"],
  none_face: ["不指定", "none"],
  none_head: ["不选", "none"],
  as: ["当作", "as"],
  lock: ["锁定", "lock"],
};

export const word = (key, args = {}) => {
  const entry = WORDS[key];
  const text = entry ? entry[getLang() === "zh" ? 0 : 1] : key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(args[k] ?? ""));
};

const ARROWS = { left: "←", right: "→", up: "↑" };
const COLOR_CLASS = { red: "red", blue: "blue", black: "black", red_blue: "redblue", "red+blue": "redblue" };

/** A card by function name and number, coloured (not clickable: it sits inside a button). */
function cardName(n, deck) {
  const c = deck?.[n];
  if (!c) return `#${n}`;
  return h("span", {
    class: `cardname ${COLOR_CLASS[c.color] || ""}`.trim(),
    title: cardTitle(c, n),
    dataset: { mode: c.transmission || "" },
  }, `${fn(c.function)}#${n}`);
}

export const showNotation = () => localStorage.getItem("fs.show_notation") === "1";

/** Names one element of a step (`family:value`, compose.js) in the player's language. */
function elementLabel(element, ctx) {
  const i = element.indexOf(":");
  const fam = element.slice(0, i);
  const v = element.slice(i + 1);
  const n = Number(v);
  const seat = (s) => {
    const info = ctx.seats?.[s];
    // the player's name, else the bot's kind (as the seat panels say it)
    const who = info?.player ? playerName(info.player) : info?.kind && info.kind !== "human" ? `${t("bot")}·${name(info.kind)}` : null;
    return h("span", { class: "seat-label" }, `${word("seat")} ${s}`, who ? " · " : "", who || "");
  };
  switch (fam) {
    case "bare":
      return actionWord(v);
    case "play":
    case "send":
    case "card":
      return cardName(n, ctx.deck);
    case "pile":
      return word("pile");
    case "skill":
      return skill(v);
    case "pick":
      // a number picked: a card this seat can see, else a seat, else the card it numbers
      if (ctx.known.includes(n) && ctx.deck[n]) return cardName(n, ctx.deck);
      if (n < ctx.players) return seat(n);
      return cardName(n, ctx.deck);
    case "seat":
      return seat(n);
    case "lock":
      return h("span", {}, `🔒 ${word("lock")} `, seat(n));
    case "alt":
      return `${word("as")} ${fn(v)}`;
    case "chain":
      return word("chain_item", { k: v });
    case "arrow":
      return `${ARROWS[v] || ""} ${actionWord(v)}`.trim();
    case "option":
      return character(v) !== v ? character(v) : actionWord(v);
    default: // mode, code, face
      return actionWord(v);
  }
}

/** A value's label: its elements named, or the slot's "none". */
function valueLabel(slot, elements, ctx) {
  if (!elements.length) return word(`none_${slot}`);
  const parts = [];
  elements.forEach((e, i) => {
    if (i) parts.push(getLang() === "zh" ? "、" : ", ");
    parts.push(elementLabel(e, ctx));
  });
  return h("span", {}, ...parts);
}

/** A whole action named: every question it answers, in order. */
export function actionSummary(action, ctx) {
  const parts = [];
  for (const slot of SLOTS) {
    const v = slotValue(action, slot);
    if (!v.length) continue;
    if (parts.length) parts.push(" · ");
    parts.push(valueLabel(slot, v, ctx));
  }
  return h("span", {}, ...parts);
}

/**
 * The buttons of the composer's current step.
 *
 * `ctx`: `legal` (the prompt's action values), `deck`, `known` (card numbers this seat can
 * see), `players`, `seats` (the match's seat info), `selected` (hand cards selected: the
 * choices using them are highlighted), `disabled`; `comp` the composition state
 * ({path, picked}) kept by the table per decision; `answer(text)` sends an action;
 * `redraw()` draws again after a step.
 */
export function composerPanel(ctx, comp, answer, redraw) {
  const step = nextStep(ctx.legal, comp.path);
  const notation = showNotation();
  const code = (actions) => (notation ? h("code", {}, actions.map((a) => a.text).join(" | ")) : null);
  const reachData = (actions) => JSON.stringify(actions.map((a) => a.text));
  if (step.done && comp.path.length) {
    // every choice is made (a chosen value left one action): it was sent when chosen
    comp.path = [];
  }
  const crumbs = comp.path.map((c) => valueLabel(c.named || c.slot, c.elements, ctx));
  const nav = [];
  if (comp.path.length) {
    nav.push(h("button", {
      type: "button", class: "back", id: "compose-back", disabled: ctx.disabled,
      onclick: () => { comp.path.pop(); comp.picked = []; redraw(); },
    }, word("back")));
    if (comp.path.length > 1) {
      nav.push(h("button", {
        type: "button", class: "back", id: "compose-cancel", disabled: ctx.disabled,
        onclick: () => { comp.path = []; comp.picked = []; redraw(); },
      }, word("cancel")));
    }
  }
  // a send's target step is its way: an arrow, a seat, or the printed direction
  const named = !step.done && step.slot === "to" && step.open.every((a) => a.kind === "send") ? "way" : step.slot;
  const choose = (slot, key, elements, reach) => {
    if (reach.length === 1) {
      answer(reach[0].text);
      return;
    }
    comp.path.push({ slot, key, elements, named });
    comp.picked = [];
    redraw();
  };
  const buttons = [];
  if (step.done) {
    // one legal action from the start: one button
    const a = step.done;
    const label = actionSummary(a, ctx);
    buttons.push(actionButton(a.kind === "pass" ? "pass" : "", label, [a], ctx, code, reachData, () => answer(a.text)));
    return { buttons, nav, crumbs, title: word("slot_head") };
  }
  const selected = ctx.selected || [];
  for (const c of step.choices) {
    const label = valueLabel(named, c.elements, ctx);
    const hit = selected.length > 0 && c.reach.some((a) => selected.every((n) => ctx.used(a).includes(n)));
    const cls = `${hit ? "hit" : ""}${c.key === "bare:pass" ? " pass" : ""}`.trim();
    const btn = actionButton(cls, label, c.reach, ctx, code, reachData, () => choose(step.slot, c.key, c.elements, c.reach));
    btn.dataset.step = step.slot;
    btn.dataset.key = c.key;
    buttons.push(btn);
  }
  // highlighted first (the selected hand cards' actions)
  buttons.sort((x, y) => Number(y.classList.contains("hit")) - Number(x.classList.contains("hit")));
  let multi = null;
  if (step.multi) {
    const m = step.multi;
    const picked = comp.picked;
    const toggles = m.elements.map((e) => {
      const on = picked.includes(e);
      const reach = m.sets.filter((s) => s.elements.includes(e)).flatMap((s) => s.reach);
      const b = h("button", {
        type: "button",
        class: `action toggle${on ? " on" : ""}`,
        "aria-pressed": on ? "true" : "false",
        disabled: ctx.disabled || (!on && !canAdd(m, picked, e)),
        dataset: { step: step.slot, key: e, reach: reachData(reach) },
        onclick: () => {
          comp.picked = on ? picked.filter((x) => x !== e) : [...picked, e];
          redraw();
        },
      }, h("span", { class: "label" }, on ? "☑ " : "☐ ", elementLabel(e, ctx)));
      return b;
    });
    const set = setFor(m, picked);
    const confirm = h("button", {
      type: "button",
      class: "action confirm",
      id: "compose-confirm",
      disabled: ctx.disabled || !set,
      dataset: { step: step.slot, reach: reachData(set ? set.reach : []) },
      onclick: () => {
        if (set) choose(step.slot, set.key, set.elements, set.reach);
      },
    }, h("span", { class: "label" }, `${word("confirm")} (${picked.length})`), set ? code(set.reach) : null);
    multi = h("div", { class: "multi", id: "compose-multi" },
      h("p", { class: "muted" }, word(pickWord(m.elements[0]))),
      h("div", { class: "toggles" }, ...toggles),
      confirm,
    );
  }
  return { buttons, nav, crumbs, multi, title: word(`slot_${named}`) };
}

/** The multi-select's line, by what its elements are (a number picked: cards when this seat
 * can see them, as the toggles' names say). */
function pickWord(element) {
  if (element.startsWith("seat:")) return "pick_seats";
  if (element.startsWith("option:")) return "pick_options";
  return "pick_cards";
}

function actionButton(cls, label, reach, ctx, code, reachData, onclick) {
  const data = { reach: reachData(reach) };
  if (reach.length === 1) data.action = reach[0].text; // this tap answers (tests read it; never shown)
  return h("button", {
    type: "button",
    class: `action${cls ? ` ${cls}` : ""}`,
    dataset: data,
    disabled: ctx.disabled,
    onclick,
  }, h("span", { class: "label" }, label), code(reach));
}

/** The debug toggle: show each button's notation (off by default). */
export function notationToggle(redraw) {
  return h("label", { class: "notation-toggle muted" },
    h("input", {
      type: "checkbox",
      id: "show-notation",
      checked: showNotation(),
      onchange: (e) => {
        localStorage.setItem("fs.show_notation", e.target.checked ? "1" : "0");
        redraw();
      },
    }),
    ` ${word("show_notation")}`,
  );
}
