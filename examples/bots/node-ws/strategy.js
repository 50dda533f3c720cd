// strategy.js: how this starter bot chooses an action, from typed values only.
//
// The same file is in examples/bots/node-ws and examples/bots/node-grpc (a test checks that
// the two copies are equal): the WebSocket's JSON and the gRPC messages of
// @grpc/proto-loader (keepCase, enums as names) have the same field names, so one strategy
// reads both. Nothing here parses notation or a log line: an action is chosen by its
// `kind`, `card`, `to` and `on`, an event read by its `kind`, `seat`, `args` and `action`,
// and a card's colour comes from the platform's card data (GET /api/cards?ruleset=R), never
// from guessing what a card number means. Without card data (the offline arena has no
// gateway) the bot still plays every ruleset, colour-blind.

"use strict";

// Which colour of intel wins for an identity (the identity names of proto Identity). The
// others (再临's AGENT, classic's BYSTANDER, 谍战篇's MYSTERY) want no colour of their own.
const FACTION_COLOUR = { LATENT: "red", MILITARY: "blue", SPECIAL_SERVICE: "blue" };

// One event argument's value: the field of its oneof that is set (WebSocket JSON:
// {"name": "seat", "seat": 1}; gRPC with oneofs: {name, value: "seat", seat: 1}); a list
// ({values: [...]}) as an array.
function argValue(arg) {
  const key = arg.value || Object.keys(arg).find((k) => k !== "name" && arg[k] !== undefined && arg[k] !== null);
  const v = key ? arg[key] : undefined;
  return v && typeof v === "object" && Array.isArray(v.values) ? v.values : v;
}

// An event's typed arguments by placeholder name: {seat: 1, id: "secret", id2: "left"}.
function eventArgs(event) {
  const out = {};
  for (const a of event.args || []) out[a.name] = argValue(a);
  return out;
}

// The colour words of card `n` ("black", "red", "blue-black" ...), "" when unknown.
function colour(cards, n) {
  const c = n && cards ? cards[String(n)] : undefined;
  return c ? c.color : "";
}

const isBlack = (cards, n) => colour(cards, n).includes("black");

// How many black intel cards lie in front of a seat (three kill it).
function blacks(observation, cards, seat) {
  const s = observation.seats[seat];
  return s ? (s.intel || []).filter((n) => isBlack(cards, n)).length : 0;
}

// Who has acted against my seat so far: the seats whose played cards named me (each
// `action` event my seat saw in full carries the action as a value).
function hostility(events, me) {
  const against = {};
  for (const e of events) {
    if (e.kind === "action" && e.action && e.action.kind === "play" && e.seat !== me && (e.action.to || []).includes(me)) {
      against[e.seat] = (against[e.seat] || 0) + 1;
    }
  }
  return against;
}

// Choose one of `legal` (the decision's observation.legal: actions as values) for the seat
// that sees `observation`; `events`: every event the seat has seen in this match, oldest
// first; `cards`: the ruleset's card data by number, or null.
function choose(observation, legal, events, cards) {
  const me = observation.viewer;
  const mine = FACTION_COLOUR[observation.seats[me] && observation.seats[me].identity] || "";
  const kinds = new Set(legal.map((a) => a.kind));
  const myBlacks = blacks(observation, cards, me);

  // Intel reaches me: take it unless it may be my third black.
  if (kinds.has("accept")) {
    const accept = legal.find((a) => a.kind === "accept");
    const refuse = legal.find((a) => a.kind === "decline" || a.kind === "pass");
    const card = observation.has_transit && observation.transit ? observation.transit.card : 0;
    const c = colour(cards, card);
    if (!refuse) return accept;
    if (c === "") return myBlacks === 0 ? accept : refuse; // face down: only while it cannot hurt much
    if (c.includes("black") && myBlacks >= 2) return refuse;
    if (mine && c.includes(mine)) return accept;
    return c.includes("black") ? refuse : accept;
  }

  // Sending: my colour towards a seat that never acted against me, black towards one that
  // did; a send that names no seat (a face-down one, an arrow) by its colour only.
  const sends = legal.filter((a) => a.kind === "send");
  if (sends.length) {
    const against = hostility(events, me);
    const score = (a) => {
      const target = a.to && a.to.length ? a.to[0] : -1;
      const c = colour(cards, a.card);
      let s = 0;
      if (c.includes("black")) s += target >= 0 && target !== me ? 2 * (against[target] || 0) + blacks(observation, cards, target) : -1;
      else if (mine && c.includes(mine)) s += target >= 0 ? 3 - (against[target] || 0) : 1;
      return s + Math.random() * 0.5; // ties broken at random
    };
    return sends.reduce((best, a) => (score(a) > score(best) ? a : best));
  }

  // Burn a black intel in front of me when a card lets me (烧毁: a play whose `on` is it).
  const burn = legal.find((a) => a.kind === "play" && a.on && (observation.seats[me].intel || []).includes(a.on)
    && cards && cards[String(a.card)] && cards[String(a.card)].function === "burn" && isBlack(cards, a.on));
  if (burn) return burn;

  // Anything else: pass when I may, else the first legal action (a choice's first option).
  return legal.find((a) => a.kind === "pass") || legal[0];
}

// The colour of each identity at game end, for the end-of-match report.
function describeOutcome(outcome) {
  const ids = (outcome.identities || []).map((id, seat) => `${seat}:${id}`).join(" ");
  const tasks = (outcome.tasks || []).some((t) => t) ? ` tasks=${JSON.stringify(outcome.tasks)}` : "";
  return `winners=[${(outcome.winners || []).join(",")}] end_reason=${outcome.end_reason} identities=${ids}${tasks}`;
}

module.exports = { argValue, blacks, choose, colour, describeOutcome, eventArgs, hostility, isBlack };
