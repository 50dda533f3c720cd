// The replay viewer: a finished match step by step, from any seat's view or with everything revealed.
import { ApiError, api, cards, rulesetInfo, seatToken } from "./api.js";
import { reasonText, rulesetName, t, useRuleset } from "./i18n.js";
import { rankedSeats } from "./table.js";
import { chatPanel } from "./chat.js";
import { chainPanel, eventPieces, fill, h, logLine, phaseBanner, seatPanel, transitPanel } from "./render.js";

export async function mountReplay(root, { matchId }) {
  // the match's table talk, both channels, read only (kept with the match: gateway/chat.py)
  const chat = chatPanel({ matchId, replay: true });
  fill(root, h("p", { class: "muted", id: "replay-loading" }, t("loading_replay")));
  let info = null;
  try {
    info = await api(`/api/matches/${matchId}`);
  } catch {
    info = { seats: [] };
  }
  if (!info.seats.length) await rankedSeats(info, matchId);
  const state = { view: "all", step: 0, data: null };
  const cache = {};

  async function load(view) {
    cache[view] ??= await allSteps(matchId, view);
    state.data = cache[view];
    state.view = view;
  }
  try {
    await load("all");
  } catch (err) {
    fill(root, h("p", { class: "error" }, String(err.message || err)));
    return () => {};
  }
  state.step = state.data.steps.length - 1;
  // the match's ruleset: its deck and its names
  const rulesetId = state.data.ruleset || state.data.settings?.ruleset;
  const ruleset = await rulesetInfo(rulesetId).catch(() => null);
  useRuleset(ruleset?.id);
  const deck = await cards(rulesetId);

  const viewSel = h(
    "select",
    {
      id: "replay-view",
      onchange: async (e) => {
        await load(e.target.value);
        render();
      },
    },
    h("option", { value: "all" }, t("everything")),
    h("option", { value: "-1" }, t("spectator")),
    Array.from({ length: state.data.players }, (_, s) => h("option", { value: String(s) }, `${t("seat")} ${s}`)),
  );
  const slider = h("input", {
    type: "range",
    id: "replay-step",
    "aria-label": t("step"),
    min: 0,
    max: state.data.steps.length - 1,
    value: state.step,
    oninput: (e) => {
      state.step = Number(e.target.value);
      render();
    },
  });
  const go = (d) => () => {
    state.step = Math.min(state.data.steps.length - 1, Math.max(0, d(state.step)));
    render();
  };
  const stepLabel = h("span", { class: "step-label", id: "step-label" });
  const board = h("div", { class: "seats" });
  const transit = h("div", {});
  const chain = h("div", {});
  const phase = h("div", { id: "replay-phase" });
  const log = h("ol", { class: "log", id: "replay-log", tabindex: "0", "aria-label": t("log") });
  const outcome = state.data.outcome;
  fill(root, h(
      "div",
      { class: "table replay", id: "replay" },
      h(
        "div",
        { class: "table-head replay-controls" },
        h("span", { class: "match-id" }, `${t("replay")} #${matchId}`),
        h(
          "span",
          { class: "badge ruleset", id: "replay-ruleset", dataset: { ruleset: rulesetId || "" } },
          `${t("ruleset")}: ${rulesetName(ruleset) || rulesetId || "?"}`,
        ),
        h("label", {}, `${t("view_as")} `, viewSel),
        h("button", { type: "button", onclick: go(() => 0) }, "|◀"),
        h("button", { type: "button", id: "replay-prev", onclick: go((s) => s - 1) }, "◀"),
        slider,
        h("button", { type: "button", id: "replay-next", onclick: go((s) => s + 1) }, "▶"),
        h("button", { type: "button", onclick: go(() => Infinity) }, "▶|"),
        stepLabel,
      ),
      h(
        "p",
        { class: "winners" },
        `${t("winners")}: ${(outcome.winners || []).join(", ") || t("nobody")} · ${t("reason")}: ${reasonText(outcome.reason)}`,
      ),
      phase,
      h("div", { class: "board" }, board),
      h(
        "div",
        { class: "center" },
        h("section", { class: "panel" }, h("h3", {}, t("transit")), transit),
        h("section", { class: "panel" }, h("h3", {}, t("chain")), chain),
      ),
      h("div", { class: "logs" }, h("section", { class: "panel" }, h("h3", {}, t("log")), log), chat.node),
    ),
  );

  function render() {
    const obs = state.data.observations[state.step];
    const step = state.data.steps[state.step];
    slider.value = state.step;
    // the step's action as this view saw it: a value (`acted`, an action event or a hidden
    // action's public form), rendered like the log's lines
    fill(stepLabel, `${t("step")} ${state.step}/${state.data.steps.length - 1}`,
      ...(step.seat >= 0 && step.acted ? [" · ", ...[eventPieces(step.acted, deck)].flat()] : []));
    const viewer = state.view === "all" ? null : Number(state.view);
    fill(board, ...obs.seats.map((s) =>
        seatPanel(obs, s, deck, info.seats, {
          isViewer: viewer === s.seat,
          showHand: state.view === "all" || viewer === s.seat,
          characters: Boolean(state.data.settings?.characters),
        }),
      ),
    );
    fill(phase, phaseBanner(obs)); // the step's phase (谍战篇: contest, rescue round)
    fill(transit, transitPanel(obs, deck));
    fill(chain, chainPanel(obs, deck));
    const events = state.data.events.filter((e) => e.step <= state.step);
    fill(log, ...events.slice(-300).map((e) => logLine(e, deck)));
    log.scrollTop = log.scrollHeight;
  }
  render();
  const keys = (e) => {
    if (e.key === "ArrowRight") go((s) => s + 1)();
    if (e.key === "ArrowLeft") go((s) => s - 1)();
  };
  window.addEventListener("keydown", keys);
  return () => {
    chat.stop();
    window.removeEventListener("keydown", keys);
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every step of `view`, page after page (the engine caps a page), waiting out a 429. */
async function allSteps(matchId, view) {
  const mine = seatToken(matchId);
  const token = mine && String(mine.seat) === view ? mine.token : undefined;
  let data = null;
  let from = 0;
  while (from !== null) {
    let page;
    try {
      page = await api(`/api/matches/${matchId}/replay/steps?view=${encodeURIComponent(view)}&from=${from}`, { token });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 429) throw err;
      await sleep(Math.max(1000, err.body?.error?.retry_after_ms || 1000));
      continue;
    }
    if (data === null) data = page;
    else {
      data.steps.push(...page.steps);
      data.observations.push(...page.observations);
      data.events.push(...page.events);
    }
    from = page.next_step;
  }
  return data;
}
