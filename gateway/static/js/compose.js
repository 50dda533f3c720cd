// Composing an answer step by step from the structured legal actions (issue 27 §4,
// docs/web-client.md "Your decision"): the card (or skill, or the bare answer) first, then
// what stays open among the actions that use it: the function it is used as, the mode, the
// target seats, the card it acts on, the cards it names, the code, the arrow, the lock, the
// option words, the face. Every step offers only values that some legal action still has,
// given the choices made so far; a step where every remaining action agrees is skipped.
//
// Pure: no DOM, no i18n, and no notation is read: the values come from the typed fields of
// each legal action (proto fengsheng.v1.Action as the gateway's JSON: `kind`, `card`,
// `to`…); only the chosen action's `text` is sent back, never shown. Tested under node by
// tests/unit/test_web_composer.py.

/** The questions, in the order they are asked. */
export const SLOTS = ["head", "alt", "mode", "to", "on", "cards", "code", "arrow", "lock", "options", "face"];

const BARE = new Set(["pass", "declare", "accept", "decline"]);

/** The answer `action` gives to one question, as a list of element keys (`[]`: none; one
 * element: a plain choice; several: a set chosen with a multi-select). A key is
 * `family:value`: the family says how it is named (card, seat, skill, word…). */
export function slotValue(action, slot) {
  const a = action;
  const seats = (list) => (list || []).map((s) => `seat:${s}`);
  switch (slot) {
    case "head":
      if (BARE.has(a.kind)) return [`bare:${a.kind}`];
      if (a.kind === "play") return [`play:${a.card}`];
      if (a.kind === "send") return a.pile ? ["pile:"] : [`send:${a.card}`];
      if (a.kind === "skill") return [`skill:${a.skill}`];
      if (a.kind === "choose") {
        if (a.picks?.length) return a.picks.map((n) => `pick:${n}`);
        return (a.options || []).map((w) => `option:${w}`);
      }
      return [`bare:${a.kind}`];
    case "alt":
      return a.alt ? [`alt:${a.alt}`] : [];
    case "mode":
      return a.mode ? [`mode:${a.mode}`] : [];
    case "to":
      // a send's way is one question: an arrow (← →) or a seat (直达 / ↑), none: as printed
      if (a.kind === "send" && a.arrow) return [`arrow:${a.arrow}`, ...seats(a.to)];
      return seats(a.to);
    case "on":
      if (a.chain) return [`chain:${a.chain}`];
      return a.on ? [`card:${a.on}`] : [];
    case "cards":
      return (a.cards || []).map((n) => `card:${n}`);
    case "code":
      return a.code ? [`code:${a.code}`] : [];
    case "arrow":
      return a.arrow && a.kind !== "send" ? [`arrow:${a.arrow}`] : [];
    case "lock":
      return a.lock !== undefined && a.lock !== null && a.lock >= 0 ? [`lock:${a.lock}`] : [];
    case "options":
      return a.kind === "choose" ? [] : (a.options || []).map((w) => `option:${w}`);
    case "face":
      return a.face ? [`face:${a.face}`] : [];
    default:
      return [];
  }
}

/** The key of a value: its elements joined, in order (targets may be ordered: 调虎离山's
 * `to 2,0` is not `to 0,2`). */
export const valueKey = (elements) => elements.join(" ");

const sameSet = (x, y) => x.length === y.length && x.every((e) => y.includes(e));

const family = (element) => element.slice(0, element.indexOf(":"));

/** The legal actions still open after the choices `path` (a list of {slot, key}). */
export function remaining(legal, path) {
  return legal.filter((a) => path.every((c) => valueKey(slotValue(a, c.slot)) === c.key));
}

/**
 * The next step after `path`:
 * - `{done: action}` when one action is left (send its `text`);
 * - else `{slot, choices, multi}`: `choices` are plain buttons (`key`, `elements`,
 *   `reach`: the actions that stay open when it is chosen; `elements` empty: "none"),
 *   `multi` a multi-select (or null): `elements` to toggle and `sets` (each legal set's
 *   sorted elements and its actions).
 */
export function nextStep(legal, path) {
  const open = remaining(legal, path);
  if (open.length <= 1) return { done: open[0] || null, open };
  const asked = new Set(path.map((c) => c.slot));
  for (const slot of SLOTS) {
    if (asked.has(slot)) continue;
    const keys = new Set(open.map((a) => valueKey(slotValue(a, slot))));
    if (keys.size <= 1) continue; // every open action agrees: nothing to ask
    // families with a set of two or more elements are chosen by a multi-select
    const multiFamilies = new Set();
    for (const a of open) {
      const v = slotValue(a, slot);
      if (v.length > 1) multiFamilies.add(family(v[0]));
    }
    const choices = [];
    const sets = [];
    for (const a of open) {
      const v = slotValue(a, slot);
      const key = valueKey(v);
      if (v.length && multiFamilies.has(family(v[0]))) {
        let set = sets.find((s) => s.key === key);
        if (!set) sets.push((set = { key, elements: [...v], reach: [] }));
        set.reach.push(a);
        continue;
      }
      let choice = choices.find((c) => c.key === key);
      if (!choice) choices.push((choice = { key, elements: v, reach: [] }));
      choice.reach.push(a);
    }
    let multi = null;
    if (sets.length) {
      const elements = [];
      for (const s of sets) for (const e of s.elements) if (!elements.includes(e)) elements.push(e);
      multi = { elements, sets };
    }
    return { slot, choices, multi, open };
  }
  return { done: open[0], open }; // unreachable for distinct actions: they differ somewhere
}

/** Whether `element` may be added to the multi-select's `selected` (a legal set holds both). */
export function canAdd(multi, selected, element) {
  const want = [...selected, element];
  return multi.sets.some((s) => want.every((e) => s.elements.includes(e)));
}

/** The legal set equal to `selected` (in the order picked when the order tells two apart),
 * or null; its `reach` are the actions it keeps open. */
export function setFor(multi, selected) {
  const key = valueKey(selected);
  return multi.sets.find((s) => s.key === key) || multi.sets.find((s) => sameSet(s.elements, selected)) || null;
}

/** The step of a hand card: the plain choice of step one that uses card `n` (play or send),
 * so tapping a hand card is tapping its button. */
export function choiceOfCard(step, n) {
  if (!step || step.done || step.slot !== "head") return null;
  return step.choices.find((c) => c.key === `play:${n}` || c.key === `send:${n}`) || null;
}

/** The card numbers an action uses (for highlighting the actions of the selected hand cards). */
export function cardsUsed(action) {
  const out = [];
  if ((action.kind === "play" || action.kind === "send") && action.card) out.push(action.card);
  if (action.on) out.push(action.on);
  for (const n of action.cards || []) out.push(n);
  if (action.kind === "choose") for (const n of action.picks || []) out.push(n);
  return out;
}
