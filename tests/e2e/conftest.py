"""Fixtures for browser tests: the real platform (Redis, engine service, Celery worker,
gateway) and Debian's Chromium driven by Playwright for Python.

No browser is downloaded (``playwright install`` is never run): the tests launch the
system ``chromium`` binary. When it is missing they install it with apt if they run as
root (as CI does; ``./dev test`` also installs it first), else they skip, saying why.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from helpers.gateway_procs import start_gateway
from helpers.processes import ROOT, ServiceProcess, start_engine_server, start_worker
from helpers.web_lobby import TAPS_PER_GAME

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

SCREENSHOTS = ROOT / "test-output" / "screenshots"


def _find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """The system Chromium; installed with apt when missing and running as root."""
    found = _find_chromium()
    if found is None and hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update"], env=env, capture_output=True, timeout=600, check=False)
        subprocess.run(["apt-get", "install", "-y", "chromium"], env=env, capture_output=True, timeout=900, check=False)
        found = _find_chromium()
    if found is None:
        pytest.skip(
            "no chromium binary, and it could not be installed (needs root and apt-get: apt-get install chromium)"
        )
    return found


#: the first-game guide (gateway/static/js/guide.js) off, as for a returning player: set in
#: every page of a context before its scripts run (about:blank has no storage: ignored)
GUIDE_OFF = "try { localStorage.setItem('fs.guide', JSON.stringify({off: true, seen: []})); } catch (e) {}"


class GuideOffBrowser:
    """The launched browser, whose contexts start with the first-game guide off: the tests
    that click through whole matches see the table as a returning player does (the guide's
    bubbles never block a click, but they take focus and are words of their own).
    ``new_context(guide=True)`` leaves it on (tests/e2e/test_first_game_guide.py)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def new_context(self, *args: Any, guide: bool = False, **kwargs: Any) -> Any:
        ctx = self._inner.new_context(*args, **kwargs)
        if not guide:
            ctx.add_init_script(GUIDE_OFF)
        return ctx

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    with sync_api.sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield GuideOffBrowser(instance)
        instance.close()


@pytest.fixture(scope="session")
def proc_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("e2e-proc-logs")


#: matchmaking compressed for the ranked test: a lone ticket gets house bots after 2 s
RANKED_ENV = {
    "FENGSHENG_MM_TICK_MS": "500",
    "FENGSHENG_MM_FILL_AFTER_MS": "2000",
    "FENGSHENG_RANKED_TURN_TIMEOUT_MS": "120000",
}


#: every browser of a session comes from 127.0.0.1 to one gateway, so the per-address
#: buckets (replay pages, creations) are shared by all of a worker's tests: a 429 there is a
#: browser console error that fails an unrelated test (the classic replay of
#: test_web_rulesets did, after the earlier tests had drained the replay bucket). The limits
#: themselves are tested in tests/integration/test_replay_limits.py and
#: test_gateway_creation_limits.py.
CLIENT_LIMITS_ENV = {
    "FENGSHENG_REPLAY_BURST": "100000",
    "FENGSHENG_CREATE_BURST": "100000",
}


@pytest.fixture(scope="session")
def e2e_redis_url(redis_url: str) -> str:
    """A database of its own: the ranked queue and the Celery broker are not shared with
    the integration tests' processes. ``FENGSHENG_E2E_REDIS_DB`` (default 6) picks another,
    so that two sessions on one Redis do not flush each other's matches."""
    url = re.sub(r"/\d*$", "", redis_url) + f"/{int(os.environ.get('FENGSHENG_E2E_REDIS_DB', '6'))}"
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture(scope="session")
def engine(e2e_redis_url: str, proc_logs: Path) -> Iterator[ServiceProcess]:
    proc = start_engine_server(e2e_redis_url, proc_logs, env=RANKED_ENV)
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def worker(e2e_redis_url: str, engine: ServiceProcess, proc_logs: Path) -> Iterator[ServiceProcess]:
    proc = start_worker(e2e_redis_url, engine.address, proc_logs, concurrency=4, env=RANKED_ENV)
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def gateway(
    e2e_redis_url: str, engine: ServiceProcess, worker: ServiceProcess, proc_logs: Path
) -> Iterator[ServiceProcess]:
    proc = start_gateway(engine.address, proc_logs, redis_url=e2e_redis_url, env=CLIENT_LIMITS_ENV)
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def base_url(gateway: ServiceProcess) -> str:
    return gateway.extra["url"]


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the taps per game each ruleset's full browser match took (issue 28 §1: clicks
    per game reported), gathered from every worker's test reports (``record_property``)."""
    taps: dict[str, list[int]] = {}
    for report in terminalreporter.stats.get("passed", []):
        for name, value in getattr(report, "user_properties", []):
            if isinstance(name, str) and name.startswith(TAPS_PER_GAME):
                taps.setdefault(name.removeprefix(TAPS_PER_GAME).strip(), []).append(int(value))
    if taps:
        terminalreporter.section("taps on the decision panel per game (issue 28 §1)")
        for ruleset_id, counts in sorted(taps.items()):
            terminalreporter.write_line(f"{TAPS_PER_GAME} {ruleset_id}: {counts}")
