// A card's or character's face and text on tap (phone), hover (desktop) or keyboard focus
// (issue 28 §3): any card tile (hand, intel, chain, transit, result), any card named in the
// log or a prompt, any character name. One popover for the page, outside the redrawn table;
// it never takes the tap from the hand (a tapped hand card is selected and shown), and it
// takes no tap or click itself (`pointer-events: none`): any tap closes it and does what it
// would have done, so it never covers a button of the decision panel.
import { cardFace, characterFace } from "./cardface.js";
import { t } from "./i18n.js";
import { h } from "./render.js";

const TARGETS = "[data-card], .cardname, [data-character]";
const HOVER_MS = 350;

/** The card number or character an element shows ({card} / {character}); null for none. */
function subject(el) {
  if (el.dataset.card && /^\d+$/.test(el.dataset.card)) return { card: Number(el.dataset.card) };
  if (el.classList.contains("cardname")) {
    // a card named inline (text.js cardName): "name#N"
    const m = /#(\d+)\s*$/.exec(el.textContent || "");
    return m ? { card: Number(m[1]) } : null;
  }
  if (el.dataset.character) return { character: el.dataset.character };
  return null;
}

function box() {
  let el = document.getElementById("card-popover");
  if (!el) {
    el = h("div", { id: "card-popover", class: "popover", role: "tooltip", "aria-label": t("card_face"), hidden: true });
    document.body.append(el);
  }
  return el;
}

/** Show what `anchor` names, next to it. */
export function showPopover(anchor, deck) {
  const what = subject(anchor);
  if (!what) return false;
  const pop = box();
  const face = what.card !== undefined ? cardFace(what.card, deck) : characterFace(what.character);
  pop.replaceChildren(face);
  pop.dataset.for = what.card !== undefined ? `card:${what.card}` : `character:${what.character}`;
  pop.hidden = false;
  // below the anchor if it fits, else above; kept inside the viewport
  const r = anchor.getBoundingClientRect();
  const w = Math.min(300, window.innerWidth - 16);
  pop.style.width = `${w}px`;
  const left = Math.max(8, Math.min(r.left, window.innerWidth - w - 8));
  pop.style.left = `${left}px`;
  const height = pop.offsetHeight;
  const below = r.bottom + 6;
  pop.style.top = `${below + height <= window.innerHeight ? below : Math.max(8, r.top - height - 6)}px`;
  return true;
}

export function hidePopover() {
  const pop = document.getElementById("card-popover");
  if (pop) pop.hidden = true;
}

/** Listen on `root` (the table, the replay): tap, hover and focus show a popover for the
 * cards and characters drawn inside it. `deck()` gives the match's deck. Returns a cleanup. */
export function installPopover(root, deck) {
  let hover = null;
  let lastPointer = "mouse";
  const targetOf = (e) => e.target.closest?.(TARGETS);
  const onPointerDown = (e) => {
    lastPointer = e.pointerType || "mouse";
  };
  // capture: the page's own "tap a name for a dialog" on log names and seat characters
  // gives way to the popover (a hand card keeps its tap: it is selected as well)
  const onClick = (e) => {
    const el = targetOf(e);
    if (!el || !root.contains(el)) {
      hidePopover();
      return;
    }
    const isHand = el.matches("button[data-card]");
    if (isHand && lastPointer === "mouse") return; // desktop: hover shows it, click selects
    if (showPopover(el, deck()) && !isHand) {
      e.stopPropagation();
      e.preventDefault();
    }
  };
  const onOver = (e) => {
    if (e.pointerType && e.pointerType !== "mouse") return;
    const el = targetOf(e);
    clearTimeout(hover);
    if (el) hover = setTimeout(() => showPopover(el, deck()), HOVER_MS);
  };
  const onOut = (e) => {
    clearTimeout(hover);
    const to = e.relatedTarget;
    if (e.pointerType === "mouse" && !(to && to.closest?.(TARGETS))) hidePopover();
  };
  const onFocus = (e) => {
    const el = targetOf(e);
    if (el && el.matches(":focus-visible")) showPopover(el, deck());
  };
  const onKey = (e) => {
    if (e.key === "Escape") hidePopover();
  };
  document.addEventListener("pointerdown", onPointerDown, true);
  document.addEventListener("click", onClick, true);
  root.addEventListener("pointerover", onOver);
  root.addEventListener("pointerout", onOut);
  root.addEventListener("focusin", onFocus);
  document.addEventListener("keydown", onKey);
  return () => {
    clearTimeout(hover);
    hidePopover();
    document.removeEventListener("pointerdown", onPointerDown, true);
    document.removeEventListener("click", onClick, true);
    root.removeEventListener("pointerover", onOver);
    root.removeEventListener("pointerout", onOut);
    root.removeEventListener("focusin", onFocus);
    document.removeEventListener("keydown", onKey);
  };
}
