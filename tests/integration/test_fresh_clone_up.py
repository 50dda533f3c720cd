"""Issue 4, acceptance 6: a fresh clone, the README's first command, a bot match, Ctrl-C.

The test clones this repository's committed HEAD (``git clone``: uncommitted changes are
not part of it) into a temporary directory and runs, from the clone, the README's first
command, ``./dev up`` (install, then ``fengsheng up``), with ``--port 0``. It checks that
the start is quiet (issue 16 §7: a few lines before the URL, no warning from pip, Celery or
Redis anywhere), waits for the URLs, creates a match of five bots through the gateway's
HTTP API, waits for a winner, sends SIGINT (what Ctrl-C sends) and checks that ``up`` exits
with status 0 and that every process it started (Redis, engine service, Celery worker and
its pool, gateway) is gone.

Speed: ``dev`` honours ``FENGSHENG_VENV``. The test points it at a new, empty venv whose
only content is a ``.pth`` line adding the site-packages of the venv running the tests,
so ``./dev up``'s install really runs (``pip install -e .`` of the clone, creating the
clone's own ``fengsheng`` command) but finds every dependency already installed and takes
seconds, while the test's own venv is never modified. Set ``FENGSHENG_FRESH_INSTALL=1``
to let ``./dev`` build a truly fresh venv from the package index instead (minutes).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path

import httpx
import pytest
from helpers.gateway_procs import alive, descendants, poll_json

pytestmark = pytest.mark.integration

#: lines ``./dev up`` may print before the URL: creating the venv, installing, starting
MAX_LINES_BEFORE_URL = 4

ROOT = Path(__file__).resolve().parents[2]


def _overlay_venv(path: Path) -> Path:
    """A venv without pip whose site-packages also sees this interpreter's site-packages."""
    base_python = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base_python, "-m", "venv", "--without-pip", str(path)], check=True)
    site = subprocess.run(
        [str(path / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "fengsheng-shared-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return path


def _first_dev_command(readme: Path) -> str:
    """The first command of the README that runs ``./dev``."""
    for line in readme.read_text(encoding="utf-8").splitlines():
        m = re.search(r"(\./dev\s+\w+)", line)
        if m and not line.lstrip().startswith("#"):
            return m.group(1)
    return ""


def test_fresh_clone_dev_up_plays_a_bot_match_and_stops_cleanly(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    clone = tmp_path / "fengsheng"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=60)
    readme = clone / "README.md"
    command = _first_dev_command(readme) if readme.exists() else "./dev up"
    assert command.split() == ["./dev", "up"], f"the README's first command is {command!r}, not ./dev up"

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "FENGSHENG_REDIS_URL")}
    env["PYTHONUNBUFFERED"] = "1"
    if os.environ.get("FENGSHENG_FRESH_INSTALL") != "1":
        env["FENGSHENG_VENV"] = str(_overlay_venv(tmp_path / "venv"))
    else:
        env.pop("FENGSHENG_VENV", None)
    up = subprocess.Popen(
        ["./dev", "up", "--port", "0"],
        cwd=clone,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert up.stdout is not None
    output: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert up.stdout is not None
        for line in iter(up.stdout.readline, ""):
            output.append(line)
            if line.startswith("Ctrl-C stops everything"):
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    started: set[int] = set()
    try:
        install_timeout = 900 if os.environ.get("FENGSHENG_FRESH_INSTALL") == "1" else 120
        assert ready.wait(install_timeout) and up.poll() is None, "".join(output)[-4000:]
        text = "".join(output)
        url = re.search(r"gateway\s+(http://\S+)", text)
        assert url, text
        assert re.search(r"API docs\s+http://\S+/docs", text) and re.search(r"engine\s+\S+:\d+", text)
        assert re.search(r"redis\s+redis://\S+", text)
        base = url.group(1)
        lines = text.splitlines()
        first_url = next(i for i, line in enumerate(lines) if base in line)
        assert first_url <= MAX_LINES_BEFORE_URL, "\n".join(lines[: first_url + 1])
        started = descendants(up.pid)
        names = {
            Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace") for pid in started
        }
        assert any("redis-server" in n for n in names), names
        for role in ("engine-server", "worker", "gateway"):
            assert any(f"fengsheng.cli {role}" in n for n in names), (role, names)
        assert any(str(clone) in n or "fengsheng.cli" in n for n in names)

        with httpx.Client(base_url=base, timeout=10) as http:
            assert http.get("/healthz").json()["status"] == "ok"
            assert http.get("/docs").status_code == 200
            created = http.post("/api/matches", json={"players": 5, "humans": 0, "bot": "heuristic", "seed": 5})
            assert created.status_code == 201, created.text
            match_id = created.json()["match_id"]
            info = poll_json(http, f"/api/matches/{match_id}", lambda d: d["observation"]["outcome"]["over"], 90)
            assert info["observation"]["outcome"]["winners"]
            assert http.get(f"/api/matches/{match_id}/replay").status_code == 200
        started |= descendants(up.pid)
    finally:
        if up.poll() is None:
            os.kill(up.pid, signal.SIGINT)
        try:
            up.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(up.pid, signal.SIGKILL)
            up.wait()
            pytest.fail("fengsheng up did not stop within 60 s of SIGINT:\n" + "".join(output)[-4000:])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(pid) for pid in started):
            time.sleep(0.1)
        left = {pid for pid in started if alive(pid)}
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    text = "".join(output)
    assert up.returncode == 0, text[-4000:]
    assert not left, f"processes left behind: {left}\n{text[-4000:]}"
    assert "up: stopped" in text
    assert not [line for line in text.splitlines() if re.search(r"warn", line, re.IGNORECASE)], text[-4000:]
    # ./dev up installs what running needs, not the test tools (./dev test does), and the
    # package builds without a warning from setuptools (pip's output is kept in install.log)
    venv = Path(env.get("FENGSHENG_VENV") or clone / ".venv")
    assert not (venv / ".fengsheng-installed").read_text().strip().endswith("dev")
    install_log = (venv / "install.log").read_text()
    assert "Successfully installed" in install_log
    assert "BuildBackendWarning" not in install_log and "Deprecat" not in install_log, install_log[-4000:]
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"{base}/healthz", timeout=2)
