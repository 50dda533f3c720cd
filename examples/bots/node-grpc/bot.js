#!/usr/bin/env node
// A 风声 (The Message) bot in Node.js over gRPC (docs/bots-node.md).
//
//   FENGSHENG_BOT_TOKEN=fsb_... node bot.js --url http://127.0.0.1:8000 --ruleset spy --matches 3
//
// It loads the platform's .proto files (proto/ of the repository, or `--proto DIR`) with
// @grpc/proto-loader, opens the bidirectional stream fengsheng.v1.BotService/Connect on the
// engine's bot listener (asked from the gateway's /api/bots/connect-info, or
// $FENGSHENG_BOT_ADDR) with `authorization: Bearer <token>` in the metadata, and plays
// `--matches` casual tables of itself and house bots (`--ruleset` return | classic | spy,
// `--players`): session.js answers every decision from the structured legal actions
// (strategy.js) and prints the trailing events and the full outcome at each match_end.

"use strict";

const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");
const { log, session } = require("./session");

function options(argv) {
  const o = {
    url: "http://127.0.0.1:8000", ruleset: "return", players: 5, matches: 1, clockMs: 0, cards: "", stdio: false,
    proto: path.join(__dirname, "..", "..", "..", "proto"), addr: process.env.FENGSHENG_BOT_ADDR || "",
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--url") o.url = argv[++i];
    else if (a === "--addr") o.addr = argv[++i];
    else if (a === "--proto") o.proto = argv[++i];
    else if (a === "--ruleset") o.ruleset = argv[++i];
    else if (a === "--players") o.players = Number(argv[++i]);
    else if (a === "--matches") o.matches = Number(argv[++i]);
    else if (a === "--clock-ms") o.clockMs = Number(argv[++i]);
    else throw new Error(`unknown argument ${a} (see the top of bot.js)`);
  }
  return o;
}

async function main() {
  const opts = options(process.argv.slice(2));
  const token = process.env.FENGSHENG_BOT_TOKEN;
  if (!token) throw new Error("set FENGSHENG_BOT_TOKEN to the bot's API token (never put it on the command line)");
  if (!opts.addr) { // where the bot listener is: the gateway says
    const reply = await fetch(`${opts.url.replace(/\/$/, "")}/api/bots/connect-info`);
    opts.addr = (await reply.json()).grpc;
  }
  // keepCase: the proto's field names (match_id, legal ...), as on the WebSocket; longs as
  // numbers (every value the platform sends is below 2^53); enums by name ("LATENT");
  // defaults: every field present; oneofs: `kind` names the message's kind.
  const definition = protoLoader.loadSync("fengsheng/v1/bot_service.proto", {
    includeDirs: [opts.proto], keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true,
  });
  const { BotService } = grpc.loadPackageDefinition(definition).fengsheng.v1;
  const client = new BotService(opts.addr, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  metadata.add("authorization", `Bearer ${token}`);
  const call = client.Connect(metadata);
  let finished = false;
  const done = (code, stats) => {
    finished = true;
    if (stats) console.log(JSON.stringify({ summary: stats })); // one JSON line a caller can read
    process.exitCode = code;
    call.end();
    client.close();
  };
  const { onMessage } = session(opts, (m) => call.write(m), done);
  let queue = Promise.resolve();
  call.on("data", (msg) => {
    queue = queue.then(() => onMessage(msg)).catch((err) => log(err.stack || err));
  });
  call.on("error", (err) => {
    if (finished) return;
    log(`stream ended: ${grpc.status[err.code]} ${err.details}`);
    process.exitCode = 1;
  });
  call.on("end", () => {
    if (!finished) {
      log(`the stream closed before ${opts.matches} matches were over`);
      process.exitCode = 1;
    }
  });
}

main().catch((err) => {
  log(err.message);
  process.exit(2);
});
