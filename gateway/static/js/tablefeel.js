// A sense of the table (issue 28 §4): the seats placed around an oval table on a wide screen,
// the intel seen moving from seat to seat, a visible clock of the step being decided, and
// the cues of the sounds (sound.js). Motion is skipped when the reader prefers less of it.
import { t } from "./i18n.js";
import { reducedMotion } from "./sound.js";

/** The clock of the pending decision in the table's head: whose step it is and how long it
 * has been open (or, on this seat's own timed decision, how long is left). */
export function turnClock(el, getState, me) {
  let number = null;
  let since = performance.now();
  let seat = -1;
  const draw = () => {
    const state = getState();
    const obs = state.obs;
    if (!obs || obs.outcome?.over || seat < 0) {
      el.textContent = "";
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const timeout = Number(state.info?.settings?.turn_timeout_ms || 0);
    const spent = performance.now() - since;
    const mine = seat === me && state.prompt && timeout > 0;
    const secs = Math.max(0, Math.round((mine ? timeout - spent : spent) / 1000));
    const mmss = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
    el.textContent = `${t("seat")} ${seat} · ${mine ? t("turn_clock_left") : t("turn_clock")} ${mmss}`;
    el.classList.toggle("urgent", Boolean(mine && secs < 10));
    el.classList.toggle("mine", seat === me);
  };
  const timer = setInterval(draw, 500);
  return {
    see(obs) {
      const p = obs?.pending;
      const n = p ? Number(p.number ?? -1) : -1;
      if (n !== number) {
        number = n;
        since = performance.now();
      }
      seat = p && p.seat !== undefined ? Number(p.seat) : -1;
      draw();
    },
    stop: () => clearInterval(timer),
  };
}

/** What changed on the board between two views: intel arrived, a seat died, the intel in
 * transit moved. `see(board, cue)` before each redraw; the seats are placed (and the moving
 * intel drawn) just after it. */
export function boardMoves(layout, me) {
  let last = null;
  return {
    /** Place the seats just drawn (at once: they are never shown out of place). */
    place: () => placeSeats(layout, me),
    see(board, cue) {
      const prev = last;
      last = {
        intel: board.seats.map((s) => (s.intel || []).length),
        alive: board.seats.map((s) => s.alive),
        holder: board.has_transit ? Number(board.transit?.holder ?? -1) : -1,
      };
      const arrived = prev ? last.intel.map((n, i) => n > (prev.intel[i] ?? n)) : [];
      const died = prev ? last.alive.map((a, i) => prev.alive[i] && !a) : [];
      if (arrived.some(Boolean)) cue("intel");
      if (died.some(Boolean)) cue("death");
      const from = prev?.holder ?? -1;
      const to = last.holder;
      requestAnimationFrame(() => {
        arrived.forEach((yes, seat) => yes && flash(layout, seat, "intel-arrived"));
        if (from >= 0 && to >= 0 && from !== to) flyIntel(layout, from, to);
      });
    },
  };
}

/** On a wide screen a seated player's seats sit around an oval table, the viewer at the
 * bottom and the others clockwise in turn order; on a narrow one (and for a spectator) they
 * stay a list (the CSS's grid). */
export function placeSeats(layout, me) {
  const box = layout.querySelector("#seats");
  if (!box) return;
  const seats = [...box.querySelectorAll(":scope > .seat")];
  // a seated player's table only: a spectator's page keeps the list (with the ring, the
  // spectator browser test read its fast bots' match fewer times: not understood yet)
  const ring = me >= 0 && box.clientWidth >= 900 && seats.length >= 3 && seats.length <= 9;
  box.classList.toggle("ring", ring);
  if (!ring) {
    for (const s of seats) s.style.left = s.style.top = "";
    return;
  }
  const w = box.clientWidth;
  const hgt = box.clientHeight;
  const sw = 200;
  const sh = 140;
  const rx = (w - sw) / 2;
  const ry = (hgt - sh) / 2;
  seats.forEach((el, i) => {
    const angle = (2 * Math.PI * i) / seats.length; // 0: the bottom (the viewer)
    el.style.left = `${Math.round(w / 2 + rx * Math.sin(angle) - sw / 2)}px`;
    el.style.top = `${Math.round(hgt / 2 + ry * Math.cos(angle) - sh / 2)}px`;
  });
  box.dataset.viewer = String(me);
}

function seatEl(layout, seat) {
  return layout.querySelector(`#seats .seat[data-seat="${seat}"]`);
}

function flash(layout, seat, cls) {
  const el = seatEl(layout, seat);
  if (!el || reducedMotion()) return;
  el.classList.remove(cls);
  void el.offsetWidth; // restart the animation
  el.classList.add(cls);
}

/** A face-down card travelling from one seat to the next (the intel being passed). */
function flyIntel(layout, from, to) {
  const a = seatEl(layout, from);
  const b = seatEl(layout, to);
  if (!a || !b) return;
  b.classList.add("intel-here");
  if (reducedMotion() || !document.body.animate) return;
  const ra = a.getBoundingClientRect();
  const rb = b.getBoundingClientRect();
  const ghost = document.createElement("div");
  ghost.className = "intel-ghost";
  ghost.setAttribute("aria-hidden", "true");
  document.body.append(ghost);
  const x0 = ra.left + ra.width / 2 - 18;
  const y0 = ra.top + ra.height / 2 - 25;
  const x1 = rb.left + rb.width / 2 - 18;
  const y1 = rb.top + rb.height / 2 - 25;
  const run = ghost.animate(
    [{ transform: `translate(${x0}px, ${y0}px)` }, { transform: `translate(${x1}px, ${y1}px)` }],
    { duration: 450, easing: "ease-in-out" },
  );
  run.onfinish = () => ghost.remove();
  run.oncancel = () => ghost.remove();
}
