// The first-game guide (issue 28 §3): on a player's first games, a short bubble beside the
// decision panel at three moments: (1) the first time the seat must send its intel, (2) the
// first time an intel arrives at it, (3) the first time it can respond (on the chain; in
// 谍战篇, in the contest phase). Each bubble has "Got it" (this step is done) and "Skip
// guide" (every step is done); Escape is "Got it". Answering the decision also counts as
// having seen the step. The state is remembered in localStorage `fs.guide`
// ({"off": bool, "seen": [step, ...]}); the table head's button starts it over.
//
// When a step fires is read from the structured prompt the table already holds (its decision
// `kind` and its legal actions' typed `kind`s) and the view's chain: no notation is read.
// The bubble never blocks the table: it is not modal, it sits in the larger free space above
// or below the decision buttons (never over them), and it points at them with a highlight.
// docs/web-client.md, "First-game guide".

import { fn, t } from "./i18n.js";
import { h } from "./render.js";

const KEY = "fs.guide";

/** The steps, in the order a game usually meets them. */
export const STEPS = ["send", "arrive", "respond"];

/** The remembered state: turned off, and the steps already seen. */
export function guideState() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
    return { off: Boolean(v.off), seen: Array.isArray(v.seen) ? v.seen.filter((s) => STEPS.includes(s)) : [] };
  } catch {
    return { off: false, seen: [] };
  }
}

function save(state) {
  localStorage.setItem(KEY, JSON.stringify(state));
}

/** Whether some step is still to be shown. */
export const guideActive = () => {
  const s = guideState();
  return !s.off && STEPS.some((step) => !s.seen.includes(step));
};

/** Start the guide over (the table head's button). */
export const resetGuide = () => save({ off: false, seen: [] });

/**
 * The step a decision is for, or null: from the prompt's decision kind (engine g.ask kinds)
 * and its legal actions' kinds only; never at a decision with a single legal action.
 * - send: the turn player sends (every ruleset's `send`);
 * - arrive: the intel is in front of this seat (再临 / 谍战篇 `arrive`, classic `receive`);
 * - respond: a response this seat can really make (an action other than pass): 再临's
 *   `respond` (the chain's last item, §5.2), classic's `priority` while the chain holds an
 *   item (§6.3), 谍战篇's `contest` (§4 phase 4; no chain there, §5.1).
 */
export function stepFor(prompt, obs) {
  if (!prompt || !obs) return null;
  // one legal action (a forced accept, a lone pass) is no choice: auto-pass answers it
  if ((prompt.legal_actions || prompt.legal || []).length < 2) return null;
  const real = (prompt.legal || []).some((a) => a && a.kind && a.kind !== "pass");
  switch (prompt.kind) {
    case "send":
      return "send";
    case "arrive":
    case "receive":
      return "arrive";
    case "respond":
    case "contest":
      return real ? "respond" : null;
    case "priority":
      return real && (obs.chain || []).length > 0 ? "respond" : null;
    default:
      return null;
  }
}

/** The bubble's text for a step in a ruleset (guidewords.js; each cites its digest section). */
export function stepText(step, rulesetId) {
  const own = `guide_${step}_${rulesetId}`;
  const word = t(own) !== own ? own : `guide_${step}`;
  return t(word).replace(/\{(\w+)\}/g, (_, id) => fn(id));
}

/** The element each step highlights beside the decision panel (#prompt). */
const ALSO = { send: "#hand", arrive: "#transit", respond: "#chain" };

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/**
 * The guide on a seat's table `layout` (table.js): returns {see(obs, prompt), stop()}.
 * `see` is called after every render; it shows, moves or closes the bubble.
 */
export function firstGameGuide(layout, rulesetId) {
  const live = h("div", { class: "visually-hidden", id: "guide-live", role: "status", "aria-live": "polite" });
  const again = h(
    "button",
    { type: "button", class: "link guide-again", id: "guide-again", onclick: () => startOver() },
    t("guide_again"),
  );
  layout.append(live);
  layout.querySelector(".table-head")?.append(again);
  let shown = null; // {step, decision, node, also, returnTo}
  let last = { obs: null, prompt: null };
  let timer = null;

  function startOver() {
    resetGuide();
    close(false);
    see(last.obs, last.prompt);
  }

  function see(obs, prompt) {
    last = { obs, prompt };
    again.hidden = guideActive(); // offered once the guide is done or skipped
    if (shown && (!prompt || prompt.decision !== shown.decision || obs?.outcome?.over)) {
      close(true); // answered (or the game moved on): the step was seen
    }
    if (shown || !prompt || obs?.outcome?.over || !guideActive()) return;
    const step = stepFor(prompt, obs);
    if (!step || guideState().seen.includes(step)) return;
    show(step, prompt);
  }

  function markSeen(step) {
    const s = guideState();
    if (!s.seen.includes(step)) s.seen.push(step);
    save(s);
  }

  function show(step, prompt) {
    const target = layout.querySelector("#prompt");
    if (!target) return;
    const also = layout.querySelector(ALSO[step]);
    const index = STEPS.indexOf(step) + 1;
    const text = stepText(step, rulesetId);
    const ok = h("button", { type: "button", class: "guide-ok", id: "guide-ok", onclick: () => close(true) }, t("guide_got_it"));
    const skip = h("button", { type: "button", class: "link guide-skip", id: "guide-skip", onclick: () => skipAll() }, t("guide_skip"));
    const node = h(
      "div",
      {
        class: `guide-bubble${reducedMotion() ? "" : " animate"}`,
        id: "guide-bubble",
        role: "dialog",
        "aria-modal": "false",
        "aria-labelledby": "guide-title",
        "aria-describedby": "guide-text",
        dataset: { step, decision: String(prompt.decision), kind: prompt.kind },
        onkeydown: (e) => {
          if (e.key === "Escape") {
            e.stopPropagation();
            close(true);
          }
        },
      },
      h("p", { class: "guide-title", id: "guide-title" }, `${t("guide")} · ${t("guide_step").replace("{n}", String(index))}`),
      h("p", { class: "guide-text", id: "guide-text" }, text),
      h("div", { class: "guide-buttons" }, ok, skip),
    );
    target.classList.add("guide-target");
    also?.classList.add("guide-also");
    layout.append(node);
    shown = { step, decision: prompt.decision, node, target, also, returnTo: document.activeElement };
    live.textContent = `${t("guide")}: ${text}`;
    // the decision buttons in view, then the bubble beside them
    const anchor = anchorOf(target);
    const r = anchor.getBoundingClientRect();
    // at once, not smoothly: the bubble is placed from where the buttons are
    if (r.top < 0 || r.bottom > window.innerHeight) anchor.scrollIntoView({ block: "center", behavior: "auto" });
    place();
    timer = setInterval(place, 250); // the panel redraws and the page scrolls under it
    window.addEventListener("resize", place);
    window.addEventListener("scroll", place, { passive: true });
    document.addEventListener("keydown", onKey);
    // the keyboard goes to the bubble, unless the player is typing (the chat's field)
    if (!document.activeElement?.matches?.("input[type=text], input:not([type]), textarea, select, [contenteditable]")) {
      ok.focus({ preventScroll: true });
    }
  }

  /** Escape anywhere closes the bubble as "Got it" while it is shown. */
  function onKey(e) {
    if (e.key === "Escape" && shown) close(true);
  }

  /** The decision buttons of the panel (or the panel itself): what the bubble must not cover. */
  const anchorOf = (target) => target.querySelector("#actions") || target;

  /** Put the bubble in the larger free space above or below the decision buttons. */
  function place() {
    if (!shown) return;
    const { node, target } = shown;
    const anchor = anchorOf(target).getBoundingClientRect();
    const panel = target.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const gap = 8;
    const width = Math.min(360, vw - 2 * gap);
    node.style.width = `${width}px`;
    const above = anchor.top - gap * 2;
    const below = vh - anchor.bottom - gap * 2;
    node.style.maxHeight = `${Math.max(96, Math.max(above, below))}px`;
    const height = node.offsetHeight;
    const top = below >= above ? Math.min(vh - height - gap, anchor.bottom + gap) : Math.max(gap, anchor.top - gap - height);
    const left = Math.min(Math.max(gap, panel.left), vw - width - gap);
    node.style.top = `${Math.round(top)}px`;
    node.style.left = `${Math.round(left)}px`;
    node.dataset.side = below >= above ? "below" : "above";
  }

  function close(seen) {
    if (!shown) return;
    const { step, node, target, also, returnTo } = shown;
    const hadFocus = node.contains(document.activeElement);
    if (seen) markSeen(step);
    shown = null;
    clearInterval(timer);
    timer = null;
    window.removeEventListener("resize", place);
    window.removeEventListener("scroll", place);
    document.removeEventListener("keydown", onKey);
    node.remove();
    target.classList.remove("guide-target");
    also?.classList.remove("guide-also");
    live.textContent = "";
    if (hadFocus) {
      // back to the decision: its first button, else where the player was
      const next = layout.querySelector("#actions button:not([disabled])") || (returnTo?.isConnected ? returnTo : null);
      next?.focus({ preventScroll: true });
    }
  }

  function skipAll() {
    save({ off: true, seen: [...STEPS] });
    close(false);
  }

  return {
    see,
    stop() {
      close(false);
      again.remove();
      live.remove();
    },
  };
}
