#!/usr/bin/env node
// A 风声 (The Message) bot in Node.js over the gateway's WebSocket (docs/bots-node.md).
//
//   FENGSHENG_BOT_TOKEN=fsb_... node bot.js --url http://127.0.0.1:8000 --ruleset classic --matches 3
//   fengsheng arena --bot-cmd "node examples/bots/node-ws/bot.js --stdio" --matches 20
//
// Online it connects to ws://GATEWAY/ws/bots with its token, opens a casual table of itself
// and house bots per match (`--ruleset` return | classic | spy, `--players`), answers every
// decision from the structured legal actions (strategy.js), prints the events it sees after
// its last decision and the full outcome (winners, every identity, the end reason) at each
// match_end, and exits once `--matches` are over. With `--stdio` the same messages come one
// JSON object a line on stdin and its answers go to stdout (fengsheng arena --bot-cmd):
// logs always go to stderr.

"use strict";

const readline = require("readline");
const { log, session } = require("./session");

function options(argv) {
  const o = { url: "http://127.0.0.1:8000", ruleset: "return", players: 5, matches: 1, stdio: false, clockMs: 0, cards: "" };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--stdio") o.stdio = true;
    else if (a === "--url") o.url = argv[++i];
    else if (a === "--ruleset") o.ruleset = argv[++i];
    else if (a === "--players") o.players = Number(argv[++i]);
    else if (a === "--matches") o.matches = Number(argv[++i]);
    else if (a === "--clock-ms") o.clockMs = Number(argv[++i]);
    else if (a === "--cards-url") o.cards = argv[++i];
    else throw new Error(`unknown argument ${a} (see the top of bot.js)`);
  }
  return o;
}

// One JSON line a caller can read (the integration test does): on stdout online, on stderr
// with --stdio (there stdout is the protocol).
function summary(stats, stdio) {
  (stdio ? console.error : console.log)(JSON.stringify({ summary: stats }));
}

async function main() {
  const opts = options(process.argv.slice(2));
  if (opts.stdio) {
    let queue = Promise.resolve();
    const { onMessage, stats } = session(opts, (m) => process.stdout.write(JSON.stringify(m) + "\n"), () => {});
    const rl = readline.createInterface({ input: process.stdin });
    rl.on("line", (line) => {
      if (!line.trim()) return;
      const msg = JSON.parse(line);
      queue = queue.then(() => onMessage(msg)).catch((err) => log(err.stack || err));
    });
    rl.on("close", () => queue.then(() => { summary(stats, true); process.exit(0); }));
    return;
  }
  const WebSocket = require("ws");
  const token = process.env.FENGSHENG_BOT_TOKEN;
  if (!token) throw new Error("set FENGSHENG_BOT_TOKEN to the bot's API token (never put it on the command line)");
  const wsUrl = opts.url.replace(/^http/, "ws").replace(/\/$/, "") + "/ws/bots";
  const ws = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${token}` } });
  let queue = Promise.resolve();
  let finished = false;
  const done = (code, stats) => {
    finished = true;
    if (stats) summary(stats, false);
    ws.close();
    process.exitCode = code;
  };
  const { onMessage } = session(opts, (m) => ws.send(JSON.stringify(m)), done);
  ws.on("message", (data) => {
    const msg = JSON.parse(data.toString());
    queue = queue.then(() => onMessage(msg)).catch((err) => log(err.stack || err));
  });
  ws.on("close", (code) => {
    if (!finished) {
      log(`the socket closed (${code}) before ${opts.matches} matches were over`);
      process.exitCode = 1;
    }
  });
  ws.on("error", (err) => {
    log(`socket error: ${err.message}`);
    process.exitCode = 1;
  });
}

main().catch((err) => {
  log(err.message);
  process.exit(2);
});
