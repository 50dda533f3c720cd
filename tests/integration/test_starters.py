"""The starter bots of examples/bots (issue 29 point 5; docs/bots.md, "Starters"): the Python
one on the standalone SDK, the Node.js one over gRPC (@grpc/grpc-js + @grpc/proto-loader on
proto/) and the Node.js one over the gateway's WebSocket, each run as its author would run
it, as a separate process, for one casual match per ruleset (风声再临 ``return``, ``classic``,
谍战篇 ``spy``) against house bots on a real platform: Redis, an engine server with its bot
listener, a Celery worker and the gateway. The npm packages come from each starter's
committed lockfile (``npm ci``) into a copy of the starter, as a bot author's checkout would.

What is checked is the platform's own record, not only what a starter says of itself: the
match is over, the starter's seat answered its decisions itself (every history entry of the
seat comes from the bot, none from the turn timer or an away stand-in) and no answer was
refused as illegal. The WebSocket starter must print the events after its last decision and
the outcome with every seat's identity (issue 29 acceptance). The offline arena plays the
Node and the Python starters through ``--bot-cmd`` (their ``--stdio`` mode).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from helpers.gateway_procs import platform_on, register_bot

from fengsheng.v1 import engine_service_pb2 as es
from services.bot_timing import PACE_OFF
from services.engine.store import HistoryEntry, history_key, state_key

ROOT = Path(__file__).resolve().parents[2]
STARTERS = ROOT / "examples" / "bots"
NODE = shutil.which("node")
NPM = shutil.which("npm")
RULESETS = ("return", "classic", "spy")
STARTER_NAMES = ("python", "node-grpc", "node-ws")
PLAYERS = 5
#: what the platform's timer or an away stand-in writes for a seat (services/engine/matches.py)
NOT_THE_BOT = ("timer", "away")

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]
needs_node = pytest.mark.skipif(NODE is None or NPM is None,
                                reason="node and npm are needed to run the Node.js starters")  # fmt: skip
#: each starter, the Node ones skipped (with the reason) where node is absent
STARTER_PARAMS = [pytest.param(n, marks=[] if n == "python" else [needs_node]) for n in STARTER_NAMES]


@dataclass
class Platform:
    rdb: redis.Redis
    url: str
    http: httpx.Client

    def token(self, name: str) -> str:
        return str(register_bot(self.http, name)["token"])


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    # house bots answer as soon as computed (PACE_OFF): a match takes seconds, not minutes
    with platform_on(redis_url, 3, tmp_path_factory.mktemp("starter-logs"), PACE_OFF) as procs:
        url = procs.gateway.extra["url"]
        with httpx.Client(base_url=url, timeout=20) as http:
            yield Platform(redis.Redis.from_url(procs.redis_url), url, http)


@pytest.fixture(scope="module")
def starters(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of examples/bots with each Node starter's packages installed from its lockfile."""
    root = tmp_path_factory.mktemp("starters")
    shutil.copytree(STARTERS, root / "bots", ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
    for name in ("node-grpc", "node-ws") if NPM else ():
        done = subprocess.run([str(NPM), "ci", "--no-audit", "--no-fund", "--prefer-offline"], cwd=root / "bots" / name,
                              capture_output=True, text=True, timeout=300)  # fmt: skip
        assert done.returncode == 0, f"npm ci in {name}: {done.stderr[-2000:]}"
    return root / "bots"


def command(starters: Path, name: str, *args: str) -> list[str]:
    if name == "python":
        return [sys.executable, str(starters / "python" / "bot.py"), *args]
    extra = ["--proto", str(ROOT / "proto")] if name == "node-grpc" else []
    return [str(NODE), str(starters / name / "bot.js"), *extra, *args]


def start_starter(platform: Platform, starters: Path, name: str, ruleset: str) -> subprocess.Popen[str]:
    """The starter ``name`` started for one casual match of ``ruleset``, as its own bot."""
    token = platform.token(f"starter-{name}-{ruleset}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("FENGSHENG_")}
    env["FENGSHENG_BOT_TOKEN"] = token  # by environment, never on the command line
    argv = command(starters, name, "--url", platform.url, "--ruleset", ruleset, "--matches", "1",
                   "--players", str(PLAYERS))  # fmt: skip
    if name != "python":  # the quick clock, not the bot-speed one: a loaded test machine stalls a process for seconds
        argv += ["--clock-ms", "5000"]
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(name: str, proc: subprocess.Popen[str]) -> tuple[dict[str, Any], str]:
    """Wait for a starter; its summary line and its stderr."""
    try:
        out, err = proc.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"{name} did not finish its match:\n{err[-4000:]}") from None
    assert proc.returncode == 0, f"{name} exited {proc.returncode}:\n{err[-4000:]}"
    lines = [line for line in out.splitlines() if line.startswith('{"summary"')]
    assert lines, f"{name} printed no summary:\n{out[-2000:]}\n{err[-2000:]}"
    return json.loads(lines[-1])["summary"], err


def check_match(platform: Platform, match_id: str, ruleset: str) -> int:
    """The match is over and one seat was played by the starter itself; that seat."""
    state = platform.rdb.hgetall(state_key(match_id))
    assert state.get(b"over") == b"1", f"{match_id} is not over"
    settings = es.MatchSettings.FromString(state[b"settings"])
    assert settings.ruleset == ruleset and settings.players == PLAYERS, settings
    history = [HistoryEntry.decode(x) for x in platform.rdb.lrange(history_key(match_id), 0, -1)]
    mine = {e.seat for e in history if e.origin == "bot-external"}
    assert len(mine) == 1, f"the starter's seat is not clear from the history: {sorted(mine)}"
    seat = mine.pop()
    answered = [e for e in history if e.seat == seat]
    assert answered and not [e for e in answered if e.origin in NOT_THE_BOT], (
        f"decisions of the starter's seat {seat} answered by the platform: "
        f"{[(e.decision, e.origin, e.action) for e in answered if e.origin in NOT_THE_BOT]}")  # fmt: skip
    return seat


class Matches:
    """Each ruleset's casual matches, the starters (those that can run here) playing at once,
    each at its own table of house bots: (starter, ruleset) -> its summary and stderr."""

    def __init__(self, platform: Platform, starters: Path) -> None:
        self.platform, self.starters = platform, starters
        self.results: dict[tuple[str, str], tuple[dict[str, Any], str]] = {}

    def of(self, name: str, ruleset: str) -> tuple[dict[str, Any], str]:
        if (name, ruleset) not in self.results:
            names = [n for n in STARTER_NAMES if n == "python" or (NODE and NPM)]
            procs = {n: start_starter(self.platform, self.starters, n, ruleset) for n in names}
            try:
                for n, proc in procs.items():
                    self.results[(n, ruleset)] = finish(n, proc)
            finally:
                for proc in procs.values():
                    if proc.poll() is None:
                        proc.kill()
                        proc.wait()
        return self.results[(name, ruleset)]


@pytest.fixture(scope="module")
def matches(platform: Platform, starters: Path) -> Matches:
    return Matches(platform, starters)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name", STARTER_PARAMS)
def test_a_starter_plays_a_casual_match_of_each_ruleset(matches: Matches, name: str, ruleset: str) -> None:
    summary, stderr = matches.of(name, ruleset)
    assert summary["matches"] == 1 and summary["decisions"] > 0, summary
    assert summary["defaulted"] == 0 and summary.get("illegal", 0) == 0, summary
    if name != "python":
        assert summary["rulesets"] == {ruleset: 1}, summary  # every decision's observation named it
    [match_id] = summary["match_ids"]
    check_match(matches.platform, match_id, ruleset)
    assert "over: " in stderr, stderr[-2000:]
    if name == "node-ws":  # issue 29: it prints the trailing events and the full outcome
        assert re.search(r"\d+ events after my last decision:", stderr), stderr[-2000:]
        assert re.search(r"\[bot\]   #\d+ \w+ seat -?\d+ ", stderr), stderr[-2000:]
        [ids] = re.findall(r"outcome: winners=\[[\d,]*\] end_reason=END_\w+ identities=(.*?)(?: tasks=| \()", stderr)
        identities = dict(pair.split(":") for pair in ids.split())
        assert sorted(map(int, identities)) == list(range(PLAYERS)), ids
        assert "IDENTITY_UNSPECIFIED" not in identities.values(), ids


def test_the_node_starters_share_their_strategy() -> None:
    """The two Node starters differ only in how messages travel (bot.js): their session and
    strategy files are copies, so a fix to one is a fix to both."""
    for file in ("strategy.js", "session.js"):
        assert (STARTERS / "node-grpc" / file).read_text() == (STARTERS / "node-ws" / file).read_text(), file


@pytest.mark.parametrize("name", [p for p in STARTER_PARAMS if p.values[0] != "node-grpc"])
def test_the_arena_plays_a_starter_over_stdin_and_stdout(starters: Path, name: str) -> None:
    """``fengsheng arena --bot-cmd`` plays the starter's --stdio mode (the /ws/bots JSON one
    message a line, offline), a match of each ruleset at once: every decision answered,
    none refused or left to the default."""
    bot_cmd = shlex.join(command(starters, name, "--stdio"))
    fengsheng = str(Path(sys.executable).parent / "fengsheng")
    procs = {ruleset: subprocess.Popen([fengsheng, "arena", "--bot-cmd", bot_cmd, "--bots", "heuristic,random",
                                        "--matches", "1", "--ruleset", ruleset, "--json"],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for ruleset in RULESETS}  # fmt: skip
    for ruleset, proc in procs.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, (ruleset, err[-4000:])
        report = json.loads(out)
        assert report["ruleset"] == ruleset and report["total"]["games"] == 1 and report["decisions"] > 0, report
        assert report["defaults"] == 0 and report["illegal"] == 0, report
        assert '{"summary"' in err and "over" in err, err[-2000:]


def test_the_python_starter_needs_only_the_sdk() -> None:
    """examples/bots/python/bot.py imports the standard library, the SDK (``fengsheng_bot``,
    with the generated ``fengsheng.v1`` it ships) and protobuf: never the platform, so
    ``pip install ./sdk/python`` is all it needs (docs/bots-python.md)."""
    import ast

    tree = ast.parse((STARTERS / "python" / "bot.py").read_text(encoding="utf-8"))
    modules = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    modules |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    outside = {m for m in modules if m.split(".")[0] not in sys.stdlib_module_names | {"__future__"}
               and not m.startswith(("fengsheng_bot", "fengsheng.v1", "google.protobuf"))}  # fmt: skip
    assert not outside, f"the Python starter imports more than the SDK: {sorted(outside)}"
    assert "fengsheng_bot" in modules
