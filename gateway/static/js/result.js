// The result screen at the end of a match (issue 28 §5): winners and reason, every seat's
// identity, character and mission revealed, a replay link to share, and a rematch with the
// same seats (POST /api/matches/{id}/rematch: people confirm, bots take the others' seats).
import { api, guest, saveSeatToken } from "./api.js";
import { character, identity, missionText, reasonText, secretTask, secretTaskText, t } from "./i18n.js";
import { cardTile, fill, h, seatName } from "./render.js";
import { reducedMotion } from "./sound.js";

const ID_COLOR = { MILITARY: "blue", LATENT: "red", AGENT: "green", BYSTANDER: "green", SPECIAL_SERVICE: "blue", MYSTERY: "green" };
export const idColor = (id) => ID_COLOR[id] || "unknown";

/** Draw the result panel into `slot` and bring it into view.
 * view: the final observation with every card face up (or the live one); out: its outcome;
 * seats: the gateway's seat table; me: the viewer's seat (-1 for a spectator). */
export function showResultPanel(slot, { matchId, view, out, seats, deck, me }) {
  const winners = out.winners || [];
  const youWon = me >= 0 && winners.includes(me);
  const cols = [t("seat"), t("identity"), t("character"), t("result_mission"), t("intel"), t("result_state")];
  const cell = (i, ...kids) => h("td", { dataset: { label: cols[i] } }, ...kids);
  const heading = h("h2", { tabindex: "-1", id: "result-heading" }, t("game_over"), me >= 0 ? ` — ${youWon ? t("you_won") : t("you_lost")}` : "");
  const link = `${location.origin}${location.pathname}#/replay/${matchId}`;
  const linkBox = h("input", { type: "text", readonly: true, id: "replay-link", value: link, "aria-label": t("replay_link") });
  const copied = h("span", { class: "muted", role: "status", "aria-live": "polite" });
  const rematchBox = h("div", { class: "rematch", id: "rematch-box" });
  fill(
    slot,
    h(
      "section",
      { class: "panel result", id: "result", "aria-labelledby": "result-heading" },
      heading,
      h(
        "p",
        { class: "winners" },
        `${t("winners")}: `,
        winners.length ? winners.flatMap((w, i) => (i ? [", ", seatName(seats[w], w)] : [seatName(seats[w], w)])) : t("nobody"),
      ),
      h("p", { class: "reason" }, `${t("reason")}: ${reasonText(out.reason)}`),
      h("h3", {}, t("identities_revealed")),
      h(
        "table",
        { class: "reveal" },
        h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, c)))),
        h(
          "tbody",
          {},
          view.seats.map((s) =>
            h(
              "tr",
              { class: winners.includes(s.seat) ? "winner" : "", dataset: { seat: s.seat } },
              cell(0, seatName(seats[s.seat], s.seat)),
              cell(1, h("span", { class: `identity id-${idColor(s.identity)}` }, identity(s.identity))),
              cell(2, s.character ? h("span", { class: "char-name", dataset: { character: s.character }, tabindex: "0" }, character(s.character)) : "—"),
              cell(3, missionOf(s)),
              cell(4, (s.intel || []).map((n) => cardTile(n, deck, { small: true }))),
              cell(
                5,
                s.alive ? t("alive") : t("dead"),
                out.killers?.[s.seat] ? ` (${t("killed_by")} ${out.killers[s.seat].values.join(", ")})` : "",
                winners.includes(s.seat) ? " ★" : "",
              ),
            ),
          ),
        ),
      ),
      h(
        "div",
        { class: "share" },
        h("label", { for: "replay-link" }, `${t("share_replay")}: `),
        linkBox,
        h(
          "button",
          {
            type: "button",
            id: "copy-replay-link",
            onclick: async () => {
              linkBox.select();
              try {
                await navigator.clipboard.writeText(link);
              } catch {
                document.execCommand?.("copy");
              }
              copied.textContent = ` ${t("copied")}`;
            },
          },
          t("copy_link"),
        ),
        copied,
      ),
      rematchBox,
      h(
        "p",
        {},
        h("a", { href: `#/replay/${matchId}`, class: "button" }, t("view_replay")),
        " ",
        h("a", { href: "#/lobby", class: "button" }, t("back_lobby")),
      ),
    ),
  );
  const stop = me >= 0 ? rematchPanel(rematchBox, matchId, seats) : () => {};
  // the player may be scrolled to the hand or the log: the result comes into view, and its
  // heading takes the focus so that a screen reader reads it
  slot.scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth", block: "start" });
  heading.focus({ preventScroll: true });
  return stop;
}

/** A seat's mission as the result shows it: 再临's character mission, classic's secret task. */
function missionOf(s) {
  const parts = [];
  if (s.secret_task) parts.push(h("span", { title: secretTaskText(s.secret_task) }, `${secretTask(s.secret_task)}: ${secretTaskText(s.secret_task)}`));
  const mission = s.character ? missionText(s.character) : "";
  if (mission) parts.push(h("span", { class: "mission" }, mission));
  return parts.length ? parts : "—";
}

/** The rematch button, and the wait for the others once it is pressed. */
function rematchPanel(box, matchId, seats) {
  let poll = null;
  let stopped = false;
  const status = h("p", { class: "muted", id: "rematch-status", role: "status", "aria-live": "polite" });
  const go = (state) => {
    if (state.match_id && state.seat_token) {
      saveSeatToken(state.match_id, state.seat, state.seat_token);
      location.hash = `#/table/${state.match_id}`;
      return true;
    }
    const names = (state.waiting || []).map((s) => seatName(seats[s], s));
    fill(status, t("rematch_waiting"), names.flatMap((n, i) => (i ? [", ", n] : [n])));
    fill(box, h("button", { type: "button", id: "rematch-now", onclick: () => ask(true) }, t("rematch_now")), status);
    return false;
  };
  async function ask(startNow) {
    try {
      const g = await guest();
      const state = await api(`/api/matches/${matchId}/rematch`, { method: "POST", token: g.token, body: { start_now: startNow } });
      if (go(state) || stopped) return;
      clearInterval(poll);
      poll = setInterval(async () => {
        try {
          const now = await api(`/api/matches/${matchId}/rematch`, { token: g.token });
          if (go(now)) clearInterval(poll);
        } catch {
          /* try again at the next tick */
        }
      }, 1500);
    } catch {
      fill(status, t("rematch_failed"));
      if (!status.isConnected) box.append(status);
    }
  }
  fill(box, h("button", { type: "button", class: "primary", id: "rematch", onclick: () => ask(false) }, t("rematch")));
  return () => {
    stopped = true;
    clearInterval(poll);
  };
}
