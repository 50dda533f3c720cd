"""Requests per action at the gateway (issue 15, point 2: push, not pull); prints one JSON object.

Starts a throw-away Redis, an engine server (no Celery: every seat is a person) and a
gateway, then plays ``--matches`` matches of ``--players`` human seats to their end, each
seat a WebSocket client that answers its prompts with a random legal action over the socket.

``--client pull`` behaves like the web client before push: on every ``event`` and every
``result`` message it fetches ``GET /api/matches/{id}/observation``. ``--client push``
(today's client) uses the ``observation`` messages the gateway pushes and sends no request
per event. Reported: actions, the gateway's engine RPCs (``fengsheng_gateway_engine_calls_total``
by method, from ``/metrics``, before and after the play) and the client's HTTP requests,
each per action.

Before/after on the same machine: run this file from a checkout of the old code (copy it
there) with ``--client pull``, and from this one with ``--client push``.

Usage: ``python bench/gateway_rpcs.py [--matches 4] [--players 5] [--client push|pull]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def spawn(args: list[str], log: Path, env: dict[str, str], pattern: str) -> tuple[subprocess.Popen[bytes], str]:
    """``python -m fengsheng.cli ARGS``; waits for ``pattern`` (one group: the address) in its log."""
    fh = log.open("wb")
    full_env = {**os.environ, **env, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "fengsheng.cli", *args], stdout=fh, stderr=subprocess.STDOUT, env=full_env, cwd=ROOT
    )
    fh.close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        m = re.search(pattern, text)
        if m:
            return proc, m.group(1)
        if proc.poll() is not None:
            raise RuntimeError(f"{args} exited: {text[-2000:]}")
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{args} did not start")


def engine_calls(metrics_text: str) -> dict[str, float]:
    """``fengsheng_gateway_engine_calls_total`` summed by method."""
    out: dict[str, float] = {}
    for line in metrics_text.splitlines():
        if line.startswith("fengsheng_gateway_engine_calls_total{"):
            method = re.search(r'method="([^"]+)"', line)
            if method:
                out[method.group(1)] = out.get(method.group(1), 0.0) + float(line.rsplit(" ", 1)[1])
    return out


async def play_match(url: str, players: int, client: str, rng: random.Random) -> dict[str, int]:
    import httpx
    import websockets

    counts = {"actions": 0, "client_requests": 0, "events": 0}
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        tokens = []
        for k in range(players):
            reply = await http.post("/api/guests", json={"name": f"bench{k}x{rng.randrange(10**6)}"})
            reply.raise_for_status()
            tokens.append(reply.json()["token"])
        created = await http.post(
            "/api/matches",
            json={"players": players, "humans": players},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        created.raise_for_status()
        match_id = created.json()["match_id"]
        seat_tokens = {created.json()["seat"]: created.json()["seat_token"]}
        for k in range(1, players):
            joined = await http.post(
                f"/api/matches/{match_id}/join", json={}, headers={"Authorization": f"Bearer {tokens[k]}"}
            )
            joined.raise_for_status()
            seat_tokens[joined.json()["seat"]] = joined.json()["seat_token"]
        ws_base = url.replace("http://", "ws://")

        async def seat_client(seat: int, token: str) -> None:
            async with websockets.connect(f"{ws_base}/ws/matches/{match_id}?token={token}") as ws:
                answered: set[int] = set()
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    kind = message["type"]
                    if kind == "prompt" and message["decision"] not in answered:
                        answered.add(message["decision"])
                        action = rng.choice(message["legal_actions"])
                        await ws.send(json.dumps({"decision": message["decision"], "action": action}))
                    elif kind == "result":
                        counts["actions"] += 1
                    elif kind == "event":
                        counts["events"] += 1
                    elif kind == "game_over":
                        return
                    if client == "pull" and kind in ("event", "result"):
                        # what the web client did before push: one GET per event and per result
                        got = await http.get(
                            f"/api/matches/{match_id}/observation", headers={"Authorization": f"Bearer {token}"}
                        )
                        counts["client_requests"] += 1
                        got.raise_for_status()

        await asyncio.gather(*(seat_client(s, t) for s, t in seat_tokens.items()))
    return counts


async def run(url: str, matches: int, players: int, client: str) -> dict[str, Any]:
    import httpx

    rng = random.Random(15)
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        before = engine_calls((await http.get("/metrics")).text)
        t0 = time.perf_counter()
        totals = {"actions": 0, "client_requests": 0, "events": 0}
        for _ in range(matches):
            counts = await play_match(url, players, client, rng)
            for k, v in counts.items():
                totals[k] += v
        elapsed = time.perf_counter() - t0
        after = engine_calls((await http.get("/metrics")).text)
    calls = {m: after.get(m, 0.0) - before.get(m, 0.0) for m in after}
    calls = {m: int(v) for m, v in calls.items() if v}
    actions = max(1, totals["actions"])
    play_calls = {m: v for m, v in calls.items() if m != "CreateMatch"}
    return {
        "client": client,
        "matches": matches,
        "players": players,
        "actions": totals["actions"],
        "events_seen": totals["events"],
        "seconds": round(elapsed, 1),
        "engine_calls": calls,
        "engine_rpcs_per_action": round(sum(play_calls.values()) / actions, 3),
        "client_requests_per_action": round(totals["client_requests"] / actions, 3),
        "note": "engine_rpcs_per_action: engine requests made by the gateway per action, CreateMatch left "
        "out; 'Act' counts each action whether it went as a message on the gateway's long-lived ActStream "
        "or as a unary call (the metric's series is the same); each socket's Watch is one stream, opened once",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--client", choices=("push", "pull"), default="push")
    args = parser.parse_args()

    from services.credentials import ensure_service_token
    from services.redis_server import RedisServer

    ensure_service_token()
    procs: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="fengsheng-gwbench-") as tmp, RedisServer() as redis_server:
        env = {
            "FENGSHENG_REDIS_URL": redis_server.url,
            "FENGSHENG_SECRET": "bench-secret",
            "FENGSHENG_CREATE_RATE": "0",
            "FENGSHENG_CREATE_GLOBAL_RATE": "0",
        }
        try:
            engine, engine_addr = spawn(
                ["engine-server", "--host", "127.0.0.1", "--port", "0", "--bot-port", "0", "--no-celery"],
                Path(tmp) / "engine.log",
                env,
                r"listening on (\S+)",
            )
            procs.append(engine)
            gateway, url = spawn(
                ["gateway", "--engine", engine_addr, "--port", "0"],
                Path(tmp) / "gateway.log",
                env,
                r"listening on (http://\S+)",
            )
            procs.append(gateway)
            out = asyncio.run(run(url, args.matches, args.players, args.client))
        finally:
            from bench._children import stop_children

            stop_children(procs)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
