"""The pieces of ``./dev deploy-check`` (deploy/check.py) both halves share: running podman,
secrets in files, steps with their times, and the match check through the gateway.

``./dev deploy-check`` runs the deployment for real, with podman, on this machine.

Builds the image from ``deploy/Dockerfile`` (on a local Debian base when no image registry is
reachable: ``deploy/local-base.sh``), then

- **compose**: brings up ``deploy/docker-compose.yml`` with podman-compose (the secrets as
  podman secrets: ``deploy/compose.podman.yml``), waits for every service's health check,
  plays bot matches of each ruleset through the gateway, SIGKILLs one engine container while
  they are in progress, checks that every match finished with nothing lost (the history
  answers each decision once, with no gap, and replays to the stored final state), that the
  other engine carried on, and that Prometheus scrapes every documented series; tears down;
- **Kubernetes**: renders ``deploy/k8s/base`` with kustomize and runs it with
  ``podman kube play`` (deploy/check_k8s.py: what differs from a real cluster), then the same
  matches and kill through the gateway Service.

Everything listens on 127.0.0.1 or container networks; each wait is bounded; whatever the
run created (containers, pods, networks, volumes, secrets) is removed at the end, pass or
fail. The built images stay (the next run reuses the base images; ``--rebuild-base``).
"""

from __future__ import annotations

import base64
import contextlib
import os
import re
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
sys.path.insert(0, str(ROOT))

from engine import Game  # noqa: E402  (the checkout's engine, to replay the matches)

IMAGE = "localhost/fengsheng:deploy-check"
BASE_IMAGE = "localhost/fengsheng-base:bookworm"
REDIS_IMAGE = "localhost/fengsheng-redis:bookworm"
PROMETHEUS_IMAGE = "localhost/fengsheng-prometheus:bookworm"
RULESETS = ("return", "classic", "spy")
T0 = time.monotonic()


class CheckFailed(Exception):
    """A check of the run failed; the message says which and why."""


def say(msg: str) -> None:
    print(f"[{time.monotonic() - T0:6.1f}s] {msg}", flush=True)


@contextlib.contextmanager
def step(name: str, timings: dict[str, float]) -> Iterator[None]:
    """Print the step, run it, print its duration (and record it in ``timings``)."""
    say(f"-- {name}")
    start = time.monotonic()
    try:
        yield
    finally:
        took = time.monotonic() - start
        timings[name] = round(took, 1)
        say(f"   {name}: {took:.1f} s")


def run(cmd: list[str], *, timeout: float, check: bool = True, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run ``cmd`` (never with a secret in it), its output captured; ``CheckFailed`` on a
    non-zero exit (with ``check``) or on the timeout."""
    try:
        out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise CheckFailed(f"{' '.join(cmd[:4])} … did not finish in {timeout:.0f} s") from exc
    if check and out.returncode != 0:
        raise CheckFailed(f"{' '.join(cmd)} exited {out.returncode}:\n{(out.stdout + out.stderr)[-3000:]}")
    return out


def podman(*args: str, timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess[str]:
    return run(["podman", *args], timeout=timeout, check=check)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def secret_file(directory: Path, name: str, value: str) -> Path:
    """``value`` in a new 0600 file (secrets reach podman as files, never as arguments)."""
    path = directory / name
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(value)
    return path


# ---------------------------------------------------------------------------- podman set-up
def containers_conf(tmp: Path) -> None:
    """podman's settings for this machine, unless CONTAINERS_CONF names some already: runc
    (crun refuses cgroups in hybrid mode here) and ulimits within the machine's hard limits
    (the runtime's setrlimit is refused above them)."""
    if os.environ.get("CONTAINERS_CONF"):
        return
    nofile = min(20000, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
    nproc = min(4096, resource.getrlimit(resource.RLIMIT_NPROC)[1])
    conf = tmp / "containers.conf"
    conf.write_text(
        "[containers]\n"
        f'default_ulimits = ["nofile={nofile}:{nofile}", "nproc={nproc}:{nproc}"]\n'
        '[engine]\nruntime = "runc"\n'
    )
    os.environ["CONTAINERS_CONF"] = str(conf)


def build_images(base: str | None, rebuild_base: bool, timings: dict[str, float]) -> None:
    if base is None:
        with step("local base images from Debian packages (deploy/local-base.sh)", timings):
            out = run(["deploy/local-base.sh", *(["--rebuild"] if rebuild_base else [])], timeout=900)
            for line in out.stdout.splitlines():
                say(f"   {line}")
    with step(f"podman build -f deploy/Dockerfile (BASE_IMAGE={base or BASE_IMAGE})", timings):
        run(
            [
                "podman",
                "build",
                "-f",
                "deploy/Dockerfile",
                "--ignorefile",
                "deploy/Dockerfile.dockerignore",
                "--build-arg",
                f"BASE_IMAGE={base or BASE_IMAGE}",
                "-t",
                IMAGE,
                ".",
            ],
            timeout=1200,
        )


# ---------------------------------------------------------------------------- matches
@dataclass
class Played:
    """What the match check found: matches by ruleset, the kill, the evidence."""

    matches: dict[str, list[str]] = field(default_factory=dict)
    in_progress_at_kill: int = 0
    decisions: int = 0
    killed: str = ""
    survivor_actions: tuple[float, float] = (0.0, 0.0)


def metric_sum(text: str, name: str) -> float:
    """The sum of every sample of ``name`` in a Prometheus text exposition."""
    return sum(float(m.group(1)) for m in re.finditer(rf"^{re.escape(name)}(?:{{[^}}]*}})? (\S+)$", text, re.M))


def exec_metrics(container: str, port: int) -> str:
    """A container's own /metrics, read inside it (its metrics port is not published)."""
    code = (
        "import urllib.request; "
        f"print(urllib.request.urlopen('http://127.0.0.1:{port}/metrics', timeout=5).read().decode())"
    )
    return podman("exec", container, "python", "-c", code, timeout=30).stdout


def player_counts(http: httpx.Client) -> dict[str, int]:
    """Five players where the ruleset allows it, else its largest count below five."""
    rulesets = {r["id"]: r["players"] for r in http.get("/api/rulesets").json()["rulesets"]}
    return {r: 5 if 5 in rulesets[r] else max(p for p in rulesets[r] if p <= 5) for r in RULESETS}


def create_match(http: httpx.Client, ruleset: str, players: int, deadline: float) -> str:
    while True:
        reply = http.post(
            "/api/matches", json={"ruleset": ruleset, "players": players, "humans": 0, "bot": "heuristic"}
        )
        if reply.status_code == 201:
            match_id: str = reply.json()["match_id"]
            return match_id
        # 429 (rate limit) and 503 (the store is not reachable yet: the engine's first Redis
        # connections right after start-up) both say when to try again, as a client would
        if reply.status_code in (429, 503) and time.monotonic() < deadline:
            wait_ms = reply.json()["error"].get("retry_after_ms", 1000)
            time.sleep(float(reply.headers.get("Retry-After") or wait_ms / 1000))
            continue
        raise CheckFailed(f"POST /api/matches ({ruleset}): {reply.status_code} {reply.text[:500]}")


def check_replay(http: httpx.Client, match_id: str) -> int:
    """The finished match's history answers every decision exactly once, with no gap, and
    replayed on a fresh game it reaches the stored final state (tests/integration/
    service_util.py, replay_matches, over HTTP); returns its number of decisions."""
    replay = http.get(f"/api/matches/{match_id}/replay")
    if replay.status_code != 200:
        raise CheckFailed(f"GET /api/matches/{match_id}/replay: {replay.status_code} {replay.text[:300]}")
    data = replay.json()
    decisions = [a["decision"] for a in data["actions"]]
    if not decisions or decisions != list(range(decisions[0], decisions[0] + len(decisions))):
        raise CheckFailed(f"{match_id}: the history skips or repeats a decision: {decisions[:50]}")
    s = data["settings"]
    game = Game.new(
        ruleset=s["ruleset"],
        players=s["players"],
        seed=int(s["seed"]),
        tutorial=s["tutorial"],
        characters=s["characters"],
    )
    for a in data["actions"]:
        if game.decision_number != a["decision"]:
            raise CheckFailed(f"{match_id}: action for decision {a['decision']} at decision {game.decision_number}")
        game.apply(a["seat"], a["action"])
    if game.snapshot() != base64.b64decode(data["final_snapshot"]):
        raise CheckFailed(f"{match_id}: replaying the history does not reach the stored final state")
    if not data["outcome"].get("over"):
        raise CheckFailed(f"{match_id}: the replay's outcome is not over")
    return len(decisions)


def play_matches(
    url: str, *, per_ruleset: int, kill: Callable[[], str], survivor: Callable[[], float], timeout: float = 420
) -> Played:
    """``per_ruleset`` bot matches of each ruleset through the gateway at ``url``; once they
    are all created, ``kill()`` one engine replica; then each match must finish, check out
    (``check_replay``), and the surviving replica (``survivor()``: its applied actions) must
    have applied actions after the kill."""
    played = Played()
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=url, timeout=30) as http:
        counts = player_counts(http)
        with ThreadPoolExecutor(6) as pool:
            for ruleset in RULESETS:
                futures = [
                    pool.submit(create_match, http, ruleset, counts[ruleset], deadline) for _ in range(per_ruleset)
                ]
                played.matches[ruleset] = [f.result() for f in futures]
        say(f"   created {per_ruleset} matches of each of {', '.join(f'{r} ({counts[r]} players)' for r in RULESETS)}")
        every = [m for ms in played.matches.values() for m in ms]
        before = survivor()
        played.in_progress_at_kill = sum(not over(http, m) for m in every)
        played.killed = kill()
        say(f"   killed {played.killed} with {played.in_progress_at_kill} of {len(every)} matches in progress")
        if played.in_progress_at_kill == 0:
            raise CheckFailed("every match was over before the kill: nothing tested the failover")
        pending = set(every)
        while pending:
            if time.monotonic() > deadline:
                raise CheckFailed(f"{len(pending)} matches not over after {timeout:.0f} s: {sorted(pending)}")
            pending = {m for m in pending if not over(http, m)}
            time.sleep(1)
        played.survivor_actions = (before, survivor())
        if played.survivor_actions[1] <= before:
            raise CheckFailed(f"the surviving engine applied no action after the kill ({played.survivor_actions})")
        played.decisions = sum(check_replay(http, m) for m in every)
    say(
        f"   {len(every)} matches over, {played.decisions} decisions: each answered once, no gap, every replay "
        f"reaches its stored final state; the surviving engine applied {played.survivor_actions[1] - before:.0f} "
        "actions after the kill"
    )
    return played


def over(http: httpx.Client, match_id: str) -> bool:
    reply = http.get(f"/api/matches/{match_id}")
    if reply.status_code != 200:
        raise CheckFailed(f"GET /api/matches/{match_id}: {reply.status_code} {reply.text[:300]}")
    return bool(reply.json()["observation"].get("outcome", {}).get("over"))


def wait_http(url: str, timeout: float, what: str, ok: Callable[[httpx.Response], bool]) -> None:
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline:
        try:
            reply = httpx.get(url, timeout=5)
            if ok(reply):
                return
            last = f"{reply.status_code} {reply.text[:200]}"
        except httpx.HTTPError as exc:
            last = repr(exc)
        time.sleep(1)
    raise CheckFailed(f"{what} not ready after {timeout:.0f} s ({url}: {last})")


def wait_healthy(names: Callable[[], list[str]], timeout: float) -> None:
    """Every container runs and passes its health check, if it has one. podman runs health
    checks from systemd timers, and there is no systemd here: run each one (``podman
    healthcheck run``) until it passes. A container that exited (it may be restarted by its
    restart policy) must be back before the deadline."""
    deadline = time.monotonic() + timeout
    waiting = set(names())
    while waiting:
        for name in sorted(waiting):
            fmt = "{{.State.Status}} {{if .Config.Healthcheck}}checked{{end}}"
            state = podman("inspect", "--format", fmt, name, check=False).stdout.split()
            if not state:
                raise CheckFailed(f"{name} is gone", name)
            if state[0] != "running":
                continue
            if len(state) == 1 or podman("healthcheck", "run", name, check=False, timeout=30).returncode == 0:
                waiting.discard(name)
        if waiting and time.monotonic() > deadline:
            raise CheckFailed(f"not running and healthy after {timeout:.0f} s: {', '.join(sorted(waiting))}", *waiting)
        if waiting:
            time.sleep(2)


def show_logs(containers: list[str]) -> None:
    for name in containers:
        out = podman("logs", "--tail", "40", name, check=False, timeout=30)
        print(f"----- podman logs --tail 40 {name}", flush=True)
        print((out.stdout + out.stderr).rstrip(), flush=True)
