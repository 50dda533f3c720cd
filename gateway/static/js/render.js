// Pieces of the table drawn from an Observation (proto/fengsheng/v1/game.proto), shared by
// the table, spectator and replay pages.
import { character, characterSkills, fn, identity, kind, missionText, name, skill, skillText, t, translateText } from "./i18n.js";
import { cardTitle, eventArgs, renderTemplate, showInfo } from "./text.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** A name a user chose (a seat's player, a ladder row): isolated from the text around it
 * and marked `translate="no"`, since it is in no language of ours. */
export function playerName(text, attrs = {}) {
  return h("bdi", { ...attrs, class: `player-name ${attrs.class || ""}`.trim(), translate: "no" }, text);
}

const MODE_ICON = { secret: "✉", direct: "➜", text: "☰", any: "✱" };
const COLOR_CLASS = { red: "red", blue: "blue", black: "black", red_blue: "redblue", "red+blue": "redblue" };
/** 谍战篇's printed arrows (a card's `transmission`: left / right / up) and its lock icon. */
export const ARROW_ICON = { left: "←", right: "→", up: "↑" };
export const LOCK_ICON = "🔒";
// the observation's transit mode (the proto enum) -> the arrow's word
const ARROW_MODE = { arrow_left: "left", arrow_right: "right", arrow_up: "up" };

/** One basic card, face up: function name, colour, mode, markers and number. */
export function cardTile(number, deck, { selected = false, onclick, small = false } = {}) {
  const c = deck[number];
  if (!c) return h("span", { class: "card unknown" }, `#${number}`);
  const cls = ["card", COLOR_CLASS[c.color] || "", small ? "small" : "", selected ? "selected" : ""].join(" ");
  const arrow = ARROW_ICON[c.transmission];
  const dataset = { card: number };
  if (arrow) dataset.arrow = c.transmission;
  if (c.lock_icon) dataset.lock = "1";
  return h(
    onclick ? "button" : "span",
    {
      class: cls,
      type: onclick ? "button" : undefined,
      onclick,
      title: cardTitle(c, number),
      dataset,
    },
    h("span", { class: "fname" }, fn(c.function)),
    h(
      "span",
      { class: "meta" },
      // 谍战篇: the printed arrow (← → ↑) and the lock icon (docs/notation.md, spy section)
      arrow ? h("b", { class: "arrow" }, arrow) : null,
      c.lock_icon ? h("span", { class: "lock-icon" }, LOCK_ICON) : null,
      `${MODE_ICON[c.transmission] || ""}${c.direction_any ? "⇄" : ""}${c.encrypted ? "◆" : ""} #${number}`,
    ),
  );
}

export function faceDown(label = "?") {
  return h("span", { class: "card facedown" }, h("span", { class: "fname" }, label));
}

/** A seat as the table shows it: its number and who sits there (a player's name in a
 * `<bdi>`, so a right-to-left name or a stray override cannot reorder the rest). */
export function seatName(seatInfo, seat) {
  if (!seatInfo) return `${t("seat")} ${seat}`;
  const who = seatInfo.player
    ? [playerName(seatInfo.player), seatInfo.bot ? ` (${t("bot")})` : ""]
    : seatInfo.kind === "human"
      ? [t("human")]
      : [`${t("bot")}·${name(seatInfo.kind)}`];
  return h("span", { class: "seat-label" }, `${seat} · `, ...who);
}

// identity colours: 军情 blue, 潜伏 red, 特工 (再临) and 打酱油 (classic) green
const ID_CLASS = { MILITARY: "id-blue", LATENT: "id-red", AGENT: "id-green", BYSTANDER: "id-green", SPECIAL_SERVICE: "id-blue", MYSTERY: "id-green" };

/** A seat's public board: identity when known, character, hand count, state, intel. */
export function seatPanel(obs, view, deck, seats, { isViewer = false, showHand = false, characters = true } = {}) {
  const turnSeat = obs.turn;
  const pending = obs.pending || {};
  const classes = ["seat"];
  if (!view.alive) classes.push("dead");
  if (isViewer) classes.push("me");
  if (turnSeat === view.seat && obs.turn_number > 0) classes.push("turn");
  if (pending.seat === view.seat) classes.push("acting");
  const idKnown = view.identity && view.identity !== "IDENTITY_UNSPECIFIED";
  const charText = view.character
    ? `${character(view.character)}${view.exposed ? "" : ` (${t("facedown_short")})`}`
    : !characters
      ? t("no_character")
      : obs.turn_number > 0 || obs.outcome?.over
        ? t("face_down")
        : "…";
  const intel = (view.intel || []).map((n) => cardTile(n, deck, { small: true }));
  const badges = [];
  if (!view.alive) badges.push(h("span", { class: "badge dead" }, t("dead")));
  if (view.locked) badges.push(h("span", { class: "badge lock" }, `${LOCK_ICON} ${t("locked")}`));
  if (turnSeat === view.seat && obs.turn_number > 0) badges.push(h("span", { class: "badge turn" }, t("turn")));
  if (pending.seat === view.seat) badges.push(h("span", { class: "badge acting" }, t("deciding")));
  if (pending.kind === "rescue" && rescueSeat(pending) === view.seat) {
    badges.push(h("span", { class: "badge dying" }, t("dying_now")));
  }
  const colorCount = countColors(view.intel || [], deck);
  return h(
    "section",
    { class: classes.join(" "), dataset: { seat: view.seat } },
    h(
      "header",
      {},
      h("strong", { class: "seat-name" }, seatName(seats?.[view.seat], view.seat), isViewer ? ` (${t("you")})` : ""),
      h(
        "span",
        { class: `identity ${idKnown ? ID_CLASS[view.identity] : "id-unknown"}` },
        idKnown ? identity(view.identity) : "?",
        view.identity_revealed ? " ✓" : "",
      ),
    ),
    h(
      "div",
      { class: "seat-line" },
      h(
        view.character ? "button" : "span",
        {
          class: "char",
          type: view.character ? "button" : undefined,
          dataset: { character: view.character || "" },
          title: characterAbout(view.character),
          onclick: view.character ? () => showInfo(characterCard(view.character, { main: false })) : undefined,
        },
        charText,
      ),
      h("span", { class: "handcount", title: t("hand_count") }, `🂠 ${view.hand_count}`),
      badges,
    ),
    h(
      "div",
      { class: "intel-row" },
      h(
        "span",
        { class: "intel-count" },
        h("i", { class: "dot red" }),
        colorCount.red,
        " ",
        h("i", { class: "dot blue" }),
        colorCount.blue,
        " ",
        h("i", { class: "dot black" }),
        colorCount.black,
      ),
      intel,
    ),
    showHand && view.hand?.length
      ? h("div", { class: "seat-hand" }, view.hand.map((n) => cardTile(n, deck, { small: true })))
      : null,
  );
}

function countColors(intel, deck) {
  const out = { red: 0, blue: 0, black: 0 };
  for (const n of intel) {
    const c = deck[n]?.color;
    if (c === "red") out.red++;
    else if (c === "blue") out.blue++;
    else if (c === "black") out.black++;
    else if (c === "red_blue" || c === "red+blue") {
      out.red++;
      out.blue++;
    }
  }
  return out;
}

/** The seat a rescue round (谍战篇 §6.2) is for: the public prompt's dying seat (its typed
 * `seat` argument); -1 when unknown. */
export function rescueSeat(pending) {
  if (!pending || pending.kind !== "rescue") return -1;
  const seat = eventArgs(pending.arguments).seat;
  return typeof seat === "number" ? seat : -1;
}

const seatWords = (template, seat) => template.replace("{seat}", `${t("seat")} ${seat}`);

/** The phase banner over the table: the phase of the pending decision, from the public
 * observation only (its kind and prompt). 谍战篇's contest phase (争夺阶段, §4.4), rescue round
 * (濒死结算, §6.2, naming the dying seat) and hand-over at death (§6.3) have their own words. */
export function phaseBanner(obs) {
  const p = obs?.pending || {};
  if (!obs || obs.outcome?.over || !p.kind || p.seat === undefined || p.seat < 0) {
    return h("div", { class: "phase-banner empty", id: "phase", dataset: { phase: "" } });
  }
  let text = kind(p.kind);
  if (p.kind === "contest") text = t("phase_contest");
  else if (p.kind === "rescue") {
    const dying = rescueSeat(p);
    text = dying >= 0 ? `${t("phase_rescue")} · ${seatWords(t("seat_dying"), dying)}` : t("phase_rescue");
  } else if (p.kind === "handoff") text = `${t("phase_handoff")} · ${seatWords(t("seat_died"), p.seat)}`;
  return h(
    "div",
    { class: `phase-banner phase-${p.kind}`, id: "phase", dataset: { phase: p.kind } },
    h("span", { class: "phase-label" }, `${t("phase")}: `),
    h("strong", { class: "phase-name" }, text),
  );
}

export function transitPanel(obs, deck) {
  if (!obs.has_transit) return h("div", { class: "transit empty" }, t("none_in_transit"));
  const tr = obs.transit;
  const mode = String(tr.mode || "").toLowerCase();
  const arrow = ARROW_MODE[mode];
  const dir = arrow ? "" : tr.direction > 0 ? "→ (+1)" : tr.direction < 0 ? "← (−1)" : "";
  // 谍战篇's 锁定: the seats the observation marks locked (public: the send's lock event)
  const locked = (obs.seats || []).filter((s) => s.locked).map((s) => s.seat);
  return h(
    "div",
    { class: "transit", dataset: { arrow: arrow || "" } },
    h("div", { class: "transit-card" }, tr.card ? cardTile(tr.card, deck) : faceDown(t("face_down_intel"))),
    h(
      "dl",
      {},
      h("dt", {}, t(arrow ? "arrow" : "mode")),
      h(
        "dd",
        { class: "mode" },
        arrow ? [h("b", { class: "arrow" }, ARROW_ICON[arrow]), ` ${name(arrow)}`] : `${name(mode)} ${dir}`,
        tr.face_up ? ` · ${t("state_face_up")}` : "",
      ),
      h("dt", {}, t("sender")),
      h("dd", {}, String(tr.sender)),
      h("dt", {}, t("holder")),
      h("dd", {}, `${t("seat")} ${tr.holder}`),
      tr.target >= 0 && (mode === "direct" || arrow === "up") ? [h("dt", {}, t("target")), h("dd", {}, String(tr.target))] : null,
      locked.length
        ? [
            h("dt", {}, h("span", { class: "lock-icon" }, LOCK_ICON), ` ${t("locked_to")}`),
            h("dd", { class: "transit-lock", id: "transit-lock" }, locked.map((s) => `${t("seat")} ${s}`).join(", ")),
          ]
        : null,
      tr.receiver >= 0 ? [h("dt", {}, t("receiver")), h("dd", {}, String(tr.receiver))] : null,
    ),
  );
}

export function chainPanel(obs, deck) {
  const items = obs.chain || [];
  if (!items.length) return h("ol", { class: "chain empty" }, h("li", {}, t("empty_chain")));
  return h(
    "ol",
    { class: "chain" },
    items.map((c) =>
      h(
        "li",
        { class: c.negated ? "negated" : "" },
        h("span", { class: "who" }, `${t("seat")} ${c.user}: `),
        h("span", { class: "what" }, chainKind(c.kind)),
        c.card ? [" ", cardTile(c.card, deck, { small: true })] : null,
        c.target >= 0 ? ` → ${c.target}` : "",
        c.on ? [` ${t("on")} `, cardTile(c.on, deck, { small: true })] : null,
        c.code ? ` [${name(c.code)}]` : "",
        c.negated ? h("span", { class: "badge dead" }, t("negated")) : null,
      ),
    ),
  );
}

function chainKind(kind) {
  if (kind === "declare") return t("declare");
  if (kind === "receive") return t("receive");
  if (kind === "skill") return t("skill"); // classic: a skill on the chain, its name follows in [ ]
  const f = fn(kind);
  if (f !== kind) return f;
  const s = skill(kind);
  return s !== kind ? s : kind;
}

/** An event's log line, rendered from its template and typed arguments (text.js): cards
 * by name and colour where an argument is a card, a count where it is a count. An event
 * without a known template shows its English line as it is: no number in it is taken for
 * a card. No `data-card`: a log line is history, not a card on the table. */
export function logLine(event, deck = null) {
  const priv = event.audience && event.audience.length > 0 && !event.audience.includes(-1);
  const minor = event.kind === "action" && event.action?.kind === "pass"; // a pass: shown small
  return h(
    "li",
    { class: `${priv ? "private" : ""}${minor ? " minor" : ""}`, dataset: { kind: event.kind } },
    priv ? h("span", { class: "badge private" }, t("private")) : null,
    eventPieces(event, deck),
  );
}

/** An event in the reader's language: its template with its typed arguments; an action
 * event's action from its value (`action`, or a hidden action's public form `shown`: the
 * action with the cards others may not see face down). Without a known template, its
 * English line as it is. */
export function eventPieces(event, deck = null) {
  const args = eventArgs(event.args);
  if (event.action) args.action = event.action;
  if (event.shown) args.action2 = event.shown;
  const shaped = event.template ? renderTemplate(event.template, args, deck || {}) : null;
  return shaped || translateText(event.text);
}

/** replaceChildren without the "null" text nodes it would make of empty slots. */
export function fill(el, ...kids) {
  el.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
}

/** A character's skills and secret mission as one line of text (a tooltip; "" unknown). */
export function characterAbout(id) {
  if (!id) return undefined;
  const skills = characterSkills(id)
    .map((s) => (skillText(s) ? `${skill(s)}: ${skillText(s)}` : skill(s)))
    .join("\n");
  const mission = missionText(id);
  return [skills && `${t("skills")}:\n${skills}`, mission && `${t("mission")}: ${mission}`].filter(Boolean).join("\n") || undefined;
}

/** Your character as a card: its name, its skills and its secret mission. */
export function characterCard(id, { main = true } = {}) {
  const mission = missionText(id);
  return h(
    "div",
    { class: "character-card", id: main ? "my-character" : undefined, dataset: { character: id } },
    h("strong", {}, character(id)),
    h("div", { class: "skills" }, `${t("skills")}: `, characterSkills(id).map(skill).join(" · ") || "—"),
    h(
      "dl",
      { class: "skill-texts" },
      characterSkills(id)
        .filter((s) => skillText(s))
        .flatMap((s) => [h("dt", {}, skill(s)), h("dd", {}, skillText(s))]),
    ),
    mission ? h("div", { class: "mission", id: main ? "my-mission" : undefined }, `${t("mission")}: `, mission) : null,
  );
}

/** The discard pile, newest first: each card face (a face-down discard as a back, as the
 * observation shows it: 0 unless the viewer discarded it). */
export function discardPanel(obs, deck) {
  const cards = [...(obs.discard || [])].reverse();
  return h(
    "div",
    { class: "discard-pile", id: "discard-cards" },
    h("strong", {}, `${t("discard")} (${cards.length})`),
    h("div", { class: "pile-cards" }, cards.map((n) => (n ? cardTile(n, deck, { small: true }) : faceDown()))),
  );
}
