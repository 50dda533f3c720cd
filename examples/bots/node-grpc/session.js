// session.js: one bot session, whatever carries its messages (the WebSocket, stdin/stdout
// in the arena, or gRPC): it reacts to each server message and answers through `send`.
//
// The same file is in examples/bots/node-ws and examples/bots/node-grpc (a test checks that
// the two copies are equal): the WebSocket's JSON and @grpc/proto-loader's objects (keepCase,
// longs as numbers, enums as names) have the same shape, one object per message whose only
// key besides `server_ms` names its kind ({"decision": {...}}).

"use strict";

const { choose, describeOutcome, eventArgs } = require("./strategy");

const log = (...args) => console.error("[bot]", ...args); // stderr: stdout is the protocol in --stdio

// The platform's card data of a ruleset (colours, functions), by card number; null if the
// gateway cannot be reached (the bot then plays colour-blind).
const cardCache = {};
async function cardData(baseUrl, ruleset) {
  if (!baseUrl) return null;
  if (!(ruleset in cardCache)) {
    try {
      const reply = await fetch(`${baseUrl.replace(/\/$/, "")}/api/cards?ruleset=${encodeURIComponent(ruleset)}`);
      cardCache[ruleset] = reply.ok ? (await reply.json()).cards : null;
    } catch (err) {
      log(`no card data for ${ruleset} (${err.message}): playing colour-blind`);
      cardCache[ruleset] = null;
    }
  }
  return cardCache[ruleset];
}

// One bot session: reacts to each server message (the same JSON on the socket and on stdin)
// through `send` (one message object out).
// `opts`: {url, ruleset, players, matches, clockMs, cards, stdio} (bot.js); `send(message)`
// sends one message object; `done(exitCode, stats)` is called when the bot should stop.
function session(opts, send, done) {
  const seen = new Map(); // "match/seat" -> Map(event index -> event): every event the seat saw
  const stats = { matches: 0, decisions: 0, illegal: 0, defaulted: 0, won: 0, rulesets: {}, match_ids: [] };
  const rulesetOf = new Map(); // match -> its ruleset (each decision's observation names it)
  const trailing = new Map(); // "match/seat" -> events pushed since its last decision
  const record = (matchId, seat, events) => {
    const key = `${matchId}/${seat}`;
    if (!seen.has(key)) seen.set(key, new Map());
    for (const e of events || []) seen.get(key).set(Number(e.index), e);
  };
  const openTable = async () => {
    if (opts.stdio) return; // the arena starts every match itself
    await cardData(opts.cards || opts.url, opts.ruleset); // before the table: the first decision's clock is short
    const table = { ruleset: opts.ruleset, players: opts.players };
    if (opts.clockMs) table.clock_ms = opts.clockMs;
    send({ table });
  };

  const onMessage = async (msg) => {
    if (msg.welcome) {
      log(`connected as ${msg.welcome.name} (${msg.welcome.bot_id})`);
      if ((msg.welcome.active_matches || []).length === 0) await openTable();
    } else if (msg.ticket) {
      const t = msg.ticket;
      if (t.state === "invited") send({ answer: { ticket_id: t.ticket_id, accept: false } }); // tables of its own only
    } else if (msg.match_start) {
      const m = msg.match_start;
      for (const seat of m.seats) record(m.match_id, seat, m.events);
      log(`match ${m.match_id}: seat ${m.seats.join(",")} of ${m.players}, clock ${m.clock_ms} ms`);
    } else if (msg.event) {
      const { match_id, seat, event } = msg.event;
      record(match_id, seat, [event]);
      const key = `${match_id}/${seat}`;
      if (!trailing.has(key)) trailing.set(key, []);
      trailing.get(key).push(event);
    } else if (msg.decision) {
      const d = msg.decision;
      const key = `${d.match_id}/${d.seat}`;
      record(d.match_id, d.seat, d.observation.events);
      trailing.set(key, []);
      const events = [...seen.get(key).values()].sort((a, b) => a.index - b.index);
      const ruleset = d.observation.ruleset;
      rulesetOf.set(d.match_id, ruleset);
      const cards = await cardData(opts.cards || (opts.stdio ? "" : opts.url), ruleset);
      const pick = choose(d.observation, d.observation.legal, events, cards);
      stats.decisions++;
      send({ action: { match_id: d.match_id, seat: d.seat, decision: d.decision, action: pick.text } });
    } else if (msg.error) {
      const e = msg.error;
      log(`refused: ${e.code} ${e.kind}: ${e.message}`);
      if (e.kind === "illegal") {
        stats.illegal++;
        send({ action: { match_id: e.match_id, seat: e.seat, decision: e.decision, use_default: true } });
      }
      if (e.kind === "replaced" || e.kind === "revoked" || e.kind === "unauthenticated") done(1);
    } else if (msg.defaulted) {
      stats.defaulted++;
      log(`decision ${msg.defaulted.decision} answered for me (${msg.defaulted.reason})`);
    } else if (msg.match_end) {
      const end = msg.match_end;
      for (const seat of end.seats) record(end.match_id, seat, end.events);
      const o = end.outcome;
      const won = end.seats.some((s) => (o.winners || []).includes(s));
      stats.matches++;
      stats.match_ids.push(end.match_id);
      stats.won += won ? 1 : 0;
      const ruleset = rulesetOf.get(end.match_id) || "?";
      rulesetOf.delete(end.match_id);
      stats.rulesets[ruleset] = (stats.rulesets[ruleset] || 0) + 1;
      // what the seat saw after its last decision: the live `event`s, then match_end.events
      const pushed = new Map();
      for (const seat of end.seats) for (const e of trailing.get(`${end.match_id}/${seat}`) || []) pushed.set(e.index, e);
      for (const e of end.events || []) pushed.set(e.index, e);
      log(`match ${end.match_id} over: ${won ? "won" : "lost"}; ${pushed.size} events after my last decision:`);
      for (const e of [...pushed.values()].sort((a, b) => a.index - b.index)) {
        log(`  #${e.index} ${e.kind} seat ${e.seat} ${JSON.stringify(eventArgs(e))}`);
      }
      log(`  outcome: ${describeOutcome(o)} (${o.reason})`);
      for (const seat of end.seats) { seen.delete(`${end.match_id}/${seat}`); trailing.delete(`${end.match_id}/${seat}`); }
      if (!opts.stdio && stats.matches >= opts.matches) done(0, stats);
      else await openTable();
    }
  };
  return { onMessage, stats };
}

module.exports = { cardData, log, session };
