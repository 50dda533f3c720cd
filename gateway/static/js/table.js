// The table: a seat's live view (with its prompt) or a spectator's (public information only).
import { api, cards, MatchSocket, rulesetInfo, seatToken } from "./api.js";
import { chatPanel } from "./chat.js";
import { characterFace } from "./cardface.js";
import {
  character,
  getLang as getLangKey,
  identity,
  kind as kindName,
  promptText,
  rulesetName,
  secretTask,
  secretTaskText,
  t,
  useRuleset,
} from "./i18n.js";
import { installPopover } from "./popover.js";
import { idColor, showResultPanel } from "./result.js";
import { cue, soundToggle } from "./sound.js";
import { boardMoves, turnClock } from "./tablefeel.js";
import { cardsUsed, choiceOfCard, nextStep } from "./compose.js";
import { composerPanel, notationToggle, showNotation } from "./composer.js";
import {
  cardTile,
  chainPanel,
  characterCard,
  discardPanel,
  fill,
  h,
  logLine,
  phaseBanner,
  seatPanel,
  transitPanel,
} from "./render.js";
import { rulesLink } from "./rules.js";
import { firstGameGuide } from "./guide.js";
import { checkedSeat, rankedSeats } from "./seats.js";

export { rankedSeats };
import { errorText, eventArgs, renderTemplate, showInfo } from "./text.js";

/** Every answer (clicked or automatic) leaves no earlier than this after its prompt arrived. */
export const DEFAULT_HOLD_MS = 1000;

export function holdMs() {
  const v = Number(localStorage.getItem("fs.hold_ms"));
  return Number.isFinite(v) && localStorage.getItem("fs.hold_ms") !== null ? Math.max(0, v) : DEFAULT_HOLD_MS;
}

/** mount(root, {matchId, spectator}) -> cleanup */
export async function mountTable(root, { matchId, spectator = false }) {
  // the match's ruleset first: its deck, its characters' names
  let firstInfo = null;
  try {
    firstInfo = await api(`/api/matches/${matchId}`);
  } catch {
    firstInfo = null;
  }
  const ruleset = await rulesetInfo(firstInfo?.ruleset).catch(() => null);
  useRuleset(ruleset?.id);
  const deck = await cards(firstInfo?.ruleset);
  let grant = spectator ? null : seatToken(matchId);
  if (grant) grant = await checkedSeat(matchId, grant);
  if (!spectator && !grant && sessionStorage.getItem(`fs.seat_lost.${matchId}`)) {
    location.hash = `#/spectate/${matchId}`; // the seat cannot be had again: watch instead
    return () => {};
  }
  const seatLost = spectator && sessionStorage.getItem(`fs.seat_lost.${matchId}`);
  if (!spectator && !grant) {
    fill(root, h("div", { class: "panel" }, h("p", {}, t("no_seat_token")), h("a", { href: `#/spectate/${matchId}` }, t("spectate"))),
    );
    return () => {};
  }
  const me = grant ? grant.seat : -1;
  const state = {
    info: null, // GET /api/matches/{id}: seats, settings
    obs: null,
    events: [],
    seen: new Set(),
    prompt: null, // {decision, kind, prompt, legal_actions, legal, arrived}
    // the answer being composed (compose.js): the choices made so far, the multi-select's picks
    comp: { path: [], picked: [] },
    selected: new Set(),
    sending: false,
    error: "",
    connected: false,
    // on unless turned off: the engine answers this seat's pass-only decisions at the end of
    // their answer window (docs/web-client.md, "Answer window and auto-pass")
    autopass: localStorage.getItem("fs.autopass") !== "0",
    result: null, // revealed final view
  };
  const lastKeys = { hand: "", prompt: "" };
  let refreshing = false;
  let dirty = false;
  let timers = [];
  let autoTimer = null;
  let tick = null;

  const el = {
    status: h("span", { class: "conn" }),
    seats: h("div", { class: "seats", id: "seats" }),
    transit: h("div", { id: "transit" }),
    phase: h("div", { id: "phase-slot" }),
    chain: h("div", { id: "chain" }),
    counts: h("div", { class: "counts", id: "counts" }),
    prompt: h("div", { id: "prompt", class: "prompt" }),
    hand: h("div", { id: "hand", class: "hand" }),
    // focusable: a keyboard scrolls them (axe scrollable-region-focusable)
    log: h("ol", { id: "log", class: "log", tabindex: "0", "aria-label": t("log") }),
    notices: h("ol", { id: "notices", class: "log notices", tabindex: "0", "aria-label": t("notices") }),
    result: h("div", { id: "result-slot" }),
    clock: h("span", { class: "turn-clock", id: "turn-clock", role: "timer", "aria-live": "off" }),
    mine: h("div", { id: "mine", class: "mine" }),
  };

  const chat = chatPanel({
    matchId,
    seatToken: grant?.token,
    spectator,
    isOver: () => Boolean(state.obs?.outcome?.over),
  });
  const layout = h(
    "div",
    { class: `table ${spectator ? "spectator" : "player"}`, id: "table", dataset: { match: matchId, viewer: me } },
    h(
      "div",
      { class: "table-head" },
      h("span", { class: "match-id" }, `#${matchId}`),
      h(
        "span",
        { class: "badge ruleset", id: "ruleset-name", dataset: { ruleset: firstInfo?.ruleset || "" } },
        `${t("ruleset")}: ${rulesetName(ruleset) || firstInfo?.ruleset || "?"}`,
      ),
      ruleset ? rulesLink(ruleset.id) : null,
      spectator ? h("span", { class: "badge spect" }, t("spectating")) : null,
      seatLost ? h("span", { class: "badge seat-lost", id: "seat-lost" }, t("seat_lost")) : null,
      el.status,
      el.clock,
      soundToggle(),
      el.counts,
    ),
    el.result,
    el.phase,
    h("div", { class: "board", role: "region", "aria-label": t("table_felt") }, el.seats),
    h(
      "div",
      { class: "center" },
      h("section", { class: "panel transit-panel" }, h("h3", {}, t("transit")), el.transit),
      h("section", { class: "panel chain-panel" }, h("h3", {}, t("chain")), el.chain),
    ),
    spectator
      ? null
      : h(
          "div",
          { class: "side" },
          h("section", { class: "panel prompt-panel" }, el.prompt),
          h(
            "section",
            { class: "panel hand-panel" },
            el.mine,
            h("h3", {}, t("hand")),
            el.hand,
            h("p", { class: "hint muted" }, t("legend")),
            Object.values(deck || {}).some((c) => c.lock_icon || c.transmission === "up")
              ? h("p", { class: "hint muted", id: "legend-spy" }, t("legend_spy"))
              : null,
          ),
        ),
    h(
      "div",
      { class: "logs" },
      h("section", { class: "panel" }, h("h3", {}, t("log")), el.log),
      spectator ? null : h("section", { class: "panel" }, h("h3", {}, t("notices")), el.notices),
      chat.node,
    ),
  );
  fill(root, layout);
  const stopPopover = installPopover(layout, () => deck);
  const clock = turnClock(el.clock, () => state, me);
  const moves = boardMoves(layout, me);
  const coach = spectator ? null : firstGameGuide(layout, ruleset?.id); // guide.js: first-game bubbles
  let stopResult = () => {};

  async function refresh() {
    if (refreshing) {
      dirty = true;
      return;
    }
    refreshing = true;
    try {
      do {
        dirty = false;
        if (spectator) {
          const info = await api(`/api/matches/${matchId}`);
          state.info = info;
          takeObservation(info.observation);
        } else {
          takeObservation(await api(`/api/matches/${matchId}/observation`, { token: grant.token }));
        }
        promptFromObservation();
        render();
      } while (dirty);
    } catch (err) {
      state.error = errorText(err.body?.error?.code || err.code, String(err.message || err));
      render();
    } finally {
      refreshing = false;
    }
    if (state.obs?.outcome?.over && !state.result) showResult();
  }

  /** The decision number a view was taken at (it increases by one at every decision, and
   * stays at the last one once the game is over); -1 for none. */
  const stepOf = (obs) => (obs?.pending ? Number(obs.pending.number ?? -1) : -1);

  /** Keep `obs` unless the view already shown is newer: a fetched view can arrive after a
   * pushed one taken later (the fetch was answered first and travelled slower), and going
   * back to it would drop the prompt of a decision that is ours. */
  function takeObservation(obs) {
    if (!obs) return;
    if (state.obs && stepOf(obs) < stepOf(state.obs)) return;
    state.obs = obs;
  }

  function promptFromObservation() {
    const obs = state.obs;
    if (!obs || spectator) return;
    const p = obs.pending || {};
    // a prompt that came ahead of its view stays; one the view has moved past, or a game
    // that is over, ends it
    if (state.prompt && (Number(state.prompt.decision) < stepOf(obs) || obs.outcome?.over)) clearPrompt();
    if (!state.prompt && p.seat === me && obs.legal_actions?.length && !obs.outcome.over) {
      setPrompt({ decision: p.number, kind: p.kind, prompt: p.prompt, legal_actions: obs.legal_actions, legal: obs.legal });
    }
  }

  function setPrompt(msg) {
    if (state.prompt && state.prompt.decision === msg.decision) return;
    clearPrompt();
    state.prompt = { ...msg, arrived: performance.now() };
    state.comp = { path: [], picked: [] };
    state.sending = false;
    state.error = "";
    const timeout = Number(state.info?.settings?.turn_timeout_ms || 0) / 1000;
    if (timeout > 0) tick = setInterval(renderTimer, 250);
    if (state.autopass && msg.legal_actions.length === 1) {
      // Answer only now that the decision is ours, after the same hold as any answer.
      answer(msg.legal_actions[0], true); // the one legal action: pass, a forced accept …
    } else cue("your_turn");
  }

  function clearPrompt() {
    state.prompt = null;
    state.sending = false;
    clearTimeout(autoTimer);
    clearInterval(tick);
    autoTimer = null;
    tick = null;
  }

  function answer(action, automatic = false) {
    const p = state.prompt;
    if (!p || state.sending) return;
    state.sending = true;
    state.auto = automatic;
    render();
    const wait = Math.max(0, p.arrived + holdMs() - performance.now());
    autoTimer = setTimeout(() => {
      if (state.prompt !== p) return;
      // no result or error for this answer within 15 s (the socket dropped it): read the
      // state again and let the seat answer again rather than wait forever
      autoTimer = setTimeout(() => {
        if (state.prompt === p && state.sending) onError({ code: "deadline_exceeded", message: "no answer from the server: answer again" });
      }, 15_000);
      if (!socket.send({ decision: p.decision, action })) {
        api(`/api/matches/${matchId}/act`, { method: "POST", token: grant.token, body: { decision: p.decision, action } })
          .then(() => refresh())
          .catch((err) => onError(err.body || {}));
      }
    }, wait);
  }

  function onError(body) {
    state.sending = false;
    state.comp = { path: [], picked: [] }; // compose again from the start
    // shown in the reader's language by its code (gateway/errors.py); the message is English
    state.error = errorText(body?.error?.code || body?.code, body?.error?.message || body?.message || "error");
    render();
    refresh();
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "observation":
        takeObservation(msg.observation);
        promptFromObservation();
        render();
        break;
      case "event": {
        const ev = msg.event;
        if (ev && !state.seen.has(ev.index)) {
          state.seen.add(ev.index);
          state.events.push(ev);
          appendLog(ev);
        }
        // no request here: the gateway pushes the seat's observation after each write
        break;
      }
      case "prompt":
        if (Number(msg.decision) < stepOf(state.obs)) break; // the view shown has moved past it
        setPrompt(msg);
        render();
        break;
      case "result":
        // the next prompt may already be here (it can overtake the result): keep it
        if (!state.prompt || state.prompt.decision === msg.decision) clearPrompt();
        state.selected.clear();
        render(); // the new observation comes pushed on the stream
        break;
      case "error":
        onError(msg);
        break;
      case "game_over":
        refresh();
        break;
      default:
        break;
    }
  }

  const path = spectator ? `/ws/matches/${matchId}/spectate` : `/ws/matches/${matchId}?token=${encodeURIComponent(grant.token)}`;
  const socket = new MatchSocket(path, {
    onMessage,
    onStatus: (up, final) => {
      if (up && !state.connected) sendOptions(); // the engine keeps it per seat: say it on every (re)connect
      state.connected = up;
      el.status.textContent = up ? `● ${t("connected")}` : final ? `○ ${t("stream_ended")}` : `○ ${t("disconnected")}`;
      el.status.className = `conn ${up ? "up" : final ? "ended" : "down"}`;
    },
  });

  function sendOptions() {
    if (!spectator) socket.send({ type: "options", auto_pass: state.autopass });
  }

  function appendLog(ev) {
    const priv = ev.audience && ev.audience.length > 0 && !ev.audience.includes(-1);
    const target = priv && !spectator ? el.notices : el.log;
    target.append(logLine(ev, deck));
    while (target.children.length > 400) target.firstChild.remove();
    target.scrollTop = target.scrollHeight;
  }

  function renderTimer() {
    const box = el.prompt.querySelector(".timer");
    const timeout = Number(state.info?.settings?.turn_timeout_ms || 0) / 1000;
    if (!box || !state.prompt || timeout <= 0) return;
    const left = Math.max(0, timeout - (performance.now() - state.prompt.arrived) / 1000);
    box.textContent = `${t("timer")} ${left.toFixed(0)}s`;
    box.classList.toggle("urgent", left < 10);
  }

  function render() {
    const obs = state.obs;
    if (!obs) return;
    const seats = state.info?.seats || [];
    const characters = state.info?.settings?.characters ?? obs.seats.some((s) => s.character);
    // seats: the viewer first, then in turn order after it
    const order = obs.seats.map((s) => s.seat);
    if (me >= 0) order.sort((a, b) => ((a - me + obs.players) % obs.players) - ((b - me + obs.players) % obs.players));
    // once the match is over the board is the final state only, every card face up (the
    // result's revealed view): no half-resolved chain, no face-down character or intel
    const final = obs.outcome?.over ? state.result?.final : null;
    const board = final || obs;
    moves.see(board, (name) => cue(name));
    clock.see(obs);
    fill(el.seats, ...order.map((s) => seatPanel(board, board.seats[s], deck, seats, { isViewer: s === me, characters })),
    );
    moves.place();
    fill(el.phase, phaseBanner(obs));
    if (obs.outcome?.over) {
      fill(el.transit, h("p", { class: "muted" }, t("game_over")));
      fill(el.chain, h("p", { class: "muted" }, t("game_over")));
    } else {
      fill(el.transit, transitPanel(obs, deck));
      fill(el.chain, chainPanel(obs, deck));
    }
    fill(el.counts, h("span", {}, `${t("turn_number")} ${obs.turn_number}`),
      h("span", {}, `${t("pile_count")} ${obs.pile_count}`),
      h(
        "button",
        { type: "button", class: "link", id: "discard-pile", onclick: () => showInfo(discardPanel(obs, deck)) },
        `${t("discard")} ${obs.discard.length}`,
      ),
      h("span", {}, `${t("removed")} ${obs.removed_count}`),
    );
    if (!spectator) {
      renderMine(obs);
      // redraw the hand and the prompt only when they change, so a click never lands on
      // a button that is being replaced
      const handKey = JSON.stringify([obs.seats[me]?.hand, [...state.selected], getLangKey()]);
      if (handKey !== lastKeys.hand) {
        lastKeys.hand = handKey;
        renderHand(obs);
      }
      const p = state.prompt;
      const promptKey = JSON.stringify([
        p?.decision, p?.legal_actions, state.sending, state.error, state.autopass, [...state.selected],
        state.comp.path.map((c) => c.key), state.comp.picked, showNotation(),
        obs.outcome.over, p ? null : [obs.pending?.seat, obs.pending?.kind], getLangKey(),
        state.info?.settings?.turn_timeout_ms,
      ]);
      if (promptKey !== lastKeys.prompt) {
        lastKeys.prompt = promptKey;
        renderPrompt(obs);
      }
      coach?.see(obs, state.prompt);
    }
  }

  function renderMine(obs) {
    const mine = obs.seats[me];
    const rel = mine.relation >= 0 ? ` · ⇢ ${t("seat")} ${mine.relation}` : "";
    fill(el.mine, h(
        "div",
        { class: "mine-line" },
        h("span", {}, `${t("your_identity")}: `),
        h("strong", { class: `identity id-${idColor(mine.identity)}`, id: "my-identity" }, identity(mine.identity)),
        mine.secret_task
          ? h("span", { title: secretTaskText(mine.secret_task) }, ` · ${secretTask(mine.secret_task)}: ${secretTaskText(mine.secret_task)}`)
          : null,
        mine.character
          ? h("span", {}, ` · ${character(mine.character)}${mine.exposed ? "" : ` (${t("facedown_short")})`}`)
          : null,
        mine.secret_character ? h("span", {}, ` · ${t("character")}+ ${character(mine.secret_character)}`) : null,
        rel,
      ),
      mine.character ? characterCard(mine.character) : null,
      mine.secret_character ? characterCard(mine.secret_character, { main: false }) : null,
    );
  }

  function renderHand(obs) {
    const hand = obs.seats[me]?.hand || [];
    for (const n of [...state.selected]) if (!hand.includes(n)) state.selected.delete(n);
    fill(el.hand, ...hand.map((n) =>
        cardTile(n, deck, {
          selected: state.selected.has(n),
          onclick: () => {
            if (state.selected.has(n)) {
              state.selected.delete(n);
              if (cardChosen(n)) state.comp = { path: [], picked: [] }; // out of its steps
            } else {
              state.selected.add(n);
              chooseCard(n);
            }
            render();
          },
        }),
      ),
    );
    if (!hand.length) el.hand.append(h("span", { class: "muted" }, "—"));
  }

  /** Whether the answer being composed starts with hand card `n`. */
  const cardChosen = (n) => [`play:${n}`, `send:${n}`].includes(state.comp.path[0]?.key);

  /** A tap on hand card `n` while the first step (or another card's steps) is shown opens
   * that card's steps, as its button would; a card with one legal use is only highlighted
   * (its button answers). */
  function chooseCard(n) {
    const p = state.prompt;
    if (!p || state.sending || !p.legal?.length) return;
    const first = state.comp.path[0]?.key || "";
    if (state.comp.path.length && !/^(play|send):/.test(first)) return;
    const choice = choiceOfCard(nextStep(p.legal, []), n);
    if (!choice || choice.reach.length < 2) return;
    state.comp = { path: [{ slot: "head", key: choice.key, elements: choice.elements, named: "head" }], picked: [] };
  }

  function renderPrompt(obs) {
    const p = state.prompt;
    const autopass = h(
      "label",
      { class: "autopass" },
      h("input", {
        type: "checkbox",
        id: "autopass",
        checked: state.autopass,
        onchange: (e) => {
          state.autopass = e.target.checked;
          localStorage.setItem("fs.autopass", state.autopass ? "1" : "0");
          sendOptions();
          if (state.autopass && p && p.legal_actions.length === 1) answer(p.legal_actions[0], true);
        },
      }),
      ` ${t("autopass")}`,
    );
    if (obs.outcome.over) {
      fill(el.prompt, h("h3", {}, t("game_over")));
      return;
    }
    if (!p) {
      const who = obs.pending?.seat;
      // your own decision with no legal actions shown: the engine passes for you at the end
      // of its answer window (auto-pass)
      const line = who === me ? t("auto_passing") : `${t("waiting")} (${t("seat")} ${who}: ${kindName(obs.pending?.kind || "")})`;
      fill(el.prompt, h("h3", {}, t("prompt")),
        h("p", { class: "muted waiting" }, line),
        autopass,
        state.error ? h("p", { class: "error" }, state.error) : null,
      );
      return;
    }
    const hand = obs.seats[me]?.hand || [];
    // the cards this seat can see (hand, intel, discard pile): a `choose N` naming one is a card
    const known = [...hand, ...obs.seats.flatMap((s) => s.intel || []), ...(obs.discard || [])];
    const selected = [...state.selected];
    const timeout = Number(state.info?.settings?.turn_timeout_ms || 0) / 1000;
    // the action values, in the order of the texts (docs/protocol.md "Actions as values")
    const legal = p.legal?.length ? p.legal : [];
    const redraw = () => render();
    const panel = composerPanel(
      {
        legal, deck, known, selected, used: cardsUsed,
        players: obs.players ?? obs.seats.length,
        seats: state.info?.seats || [],
        disabled: state.sending,
      },
      state.comp,
      (action) => answer(action),
      redraw,
    );
    fill(el.prompt, h(
        "h3",
        {},
        `${t("prompt")} #${p.decision} · ${kindName(p.kind)}`,
        timeout > 0 ? h("span", { class: "timer" }, "") : null,
      ),
      h("p", { class: "prompt-text" }, translatePrompt(p)),
      candidates(obs),
      state.sending ? h("p", { class: "muted" }, state.auto ? `${t("autopass")}…` : "…") : null,
      panel.crumbs.length
        ? h("p", { class: "crumbs", id: "compose-crumbs" }, ...panel.crumbs.flatMap((c, i) => (i ? [" › ", c] : [c])), " ›")
        : null,
      h("p", { class: "step-title muted", id: "compose-step" }, panel.title),
      h("div", { class: "actions", id: "actions" }, panel.buttons),
      panel.multi,
      panel.nav.length ? h("div", { class: "compose-nav" }, ...panel.nav) : null,
      selected.length ? null : h("p", { class: "hint muted" }, t("selected_hint")),
      autopass,
      notationToggle(redraw),
      state.error ? h("p", { class: "error" }, state.error) : null,
    );
    renderTimer();
  }

  async function showResult() {
    state.result = { loading: true };
    const out = state.obs.outcome;
    let final = null;
    try {
      const steps = await api(`/api/matches/${matchId}/replay/steps?view=all&last=true`);
      final = steps.observations[steps.observations.length - 1];
    } catch {
      final = null;
    }
    state.result = { final };
    render();
    if (me >= 0) cue((out.winners || []).includes(me) ? "win" : "lose");
    stopResult = showResultPanel(el.result, { matchId, view: final || state.obs, out, seats: state.info?.seats || [], deck, me });
  }

  /** The characters this seat chooses between, each with its skills and (再临) mission. */
  function candidates(obs) {
    const options = obs.seats[me]?.character_options || [];
    if (!options.length) return null;
    return h("div", { class: "candidates", id: "candidates", role: "group", "aria-label": t("candidates") }, options.map((id) => characterFace(id)));
  }

  /** The prompt from its template (text.js): the one the prompt message carries, else the
   * observation's when its decision is this one (every prompt is a value: engine/text.py). */
  function translatePrompt(p) {
    if (p.template) {
      const carried = renderTemplate(p.template, eventArgs(p.arguments), deck);
      if (carried) return carried;
    }
    const pending = state.obs?.pending;
    if (pending && Number(pending.number) === Number(p.decision) && pending.template) {
      const shaped = renderTemplate(pending.template, eventArgs(pending.arguments), deck);
      if (shaped) return shaped;
    }
    return promptText(p.prompt);
  }

  // the seats and settings (names of the players, the turn timer), then the first view
  try {
    state.info = firstInfo || (await api(`/api/matches/${matchId}`));
    if (spectator) takeObservation(state.info.observation);
    if (!state.info.seats.length) await rankedSeats(state.info, matchId);
  } catch (err) {
    state.error = errorText(err.body?.error?.code || err.code, String(err.message || err));
  }
  await refresh();

  return () => {
    stopPopover();
    stopResult();
    coach?.stop();
    clock.stop();
    chat.stop();
    socket.close();
    clearPrompt();
    timers.forEach(clearTimeout);
    timers = [];
  };
}
