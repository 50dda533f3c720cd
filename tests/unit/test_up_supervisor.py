"""The supervisor of ``fengsheng up`` (fengsheng/commands/up_supervisor.py) on small real
processes (``python -c …``): restart with backoff, a crash loop, the reset after a stable
run, SIGTERM reaching children started while ``up`` held its signals, logs in files."""

from __future__ import annotations

import io
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from fengsheng.commands.up_supervisor import CrashLoop, Supervisor


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def _until(supervisor: Supervisor, condition: object, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        supervisor.check()
        if callable(condition) and condition():
            return
        time.sleep(0.02)
    raise AssertionError("condition not met")


def test_backoff_doubles_up_to_a_cap() -> None:
    supervisor = Supervisor(echo=False)
    assert [supervisor.backoff(n) for n in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 4.0]
    assert supervisor.backoff(20) == 15.0


def test_a_dead_child_is_restarted_and_its_output_logged(tmp_path: Path) -> None:
    said = io.StringIO()
    supervisor = Supervisor(echo=False, say=said)
    service = supervisor.start(
        "sleeper", _python("import time; print('hello', flush=True); time.sleep(60)"), env=dict(os.environ),
        log_dir=tmp_path,
    )  # fmt: skip
    try:
        _until(supervisor, lambda: "hello" in service.output())
        first = service.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        _until(supervisor, lambda: service.pid not in (None, first))
        assert service.restarts == 1
        assert "sleeper exited with status -9; restarting it in 0.5 s" in said.getvalue()
        assert f"sleeper restarted (pid {service.pid})" in said.getvalue()
        _until(supervisor, lambda: (tmp_path / "sleeper.log").read_text().count("hello") == 2)
    finally:
        supervisor.stop_all(grace=5)
    assert service.process is None or service.process.poll() is not None


def test_a_crash_loop_gives_up_with_the_last_lines(tmp_path: Path) -> None:
    supervisor = Supervisor(echo=False, max_restarts=2, say=io.StringIO())
    service = supervisor.start(
        "crasher", _python("import sys; print('cannot bind', flush=True); sys.exit(3)"), env=dict(os.environ),
        log_dir=tmp_path,
    )  # fmt: skip
    started = time.monotonic()
    with pytest.raises(CrashLoop) as caught:
        _until(supervisor, lambda: False)
    # two restarts (after 0.5 s and 1 s), then the third death gives up
    assert service.restarts == 2
    assert time.monotonic() - started >= 1.5
    message = str(caught.value)
    assert "crasher keeps crashing" in message and "status 3" in message and "3 times in a row" in message
    assert "cannot bind" in message and str(tmp_path / "crasher.log") in message
    supervisor.stop_all(grace=5)


def test_a_child_that_stayed_up_starts_the_count_again(tmp_path: Path) -> None:
    supervisor = Supervisor(echo=False, max_restarts=1, stable_s=0.3, say=io.StringIO())
    service = supervisor.start("sleeper", _python("import time; time.sleep(60)"), env=dict(os.environ), log_dir=None)
    try:
        for _ in range(3):  # more deaths than max_restarts, but each after a stable run
            time.sleep(0.4)
            pid = service.pid
            assert pid is not None
            os.kill(pid, signal.SIGKILL)
            _until(supervisor, lambda pid=pid: service.pid not in (None, pid))  # type: ignore[misc]
        assert service.restarts == 3
    finally:
        supervisor.stop_all(grace=5)


def test_sigterm_reaches_children_and_stops_them_in_time(tmp_path: Path) -> None:
    # the children are started with SIGINT / SIGTERM held in up; they must not inherit that
    code = (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))\n"
        "print('ready', flush=True)\n"
        "time.sleep(60)\n"
    )
    supervisor = Supervisor(echo=False, say=io.StringIO())
    services = [supervisor.start(name, _python(code), env=dict(os.environ), log_dir=tmp_path) for name in ("a", "b")]
    for service in services:
        _until(supervisor, lambda s=service: "ready" in s.output())  # type: ignore[misc]
    processes = [s.process for s in services]
    started = time.monotonic()
    supervisor.stop_all(grace=5)
    assert time.monotonic() - started < 4, "a child ignored SIGTERM and waited for SIGKILL"
    assert [p.returncode for p in processes if p is not None] == [0, 0]
