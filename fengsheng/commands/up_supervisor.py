"""The children of ``fengsheng up`` and the supervisor that keeps them running.

A :class:`Service` is one child (the embedded Redis, an engine replica, the Celery worker,
the gateway): its command line, its environment and its log file. The :class:`Supervisor`
starts each in its own process group (so a Ctrl-C in the terminal reaches only ``up``),
copies its output to ``DATA/logs/NAME.log`` (and to the terminal with ``-v``), and, once
the platform is up, restarts a child that dies with the same command line, port and
environment, after a backoff (0.5 s, 1 s, 2 s … at most :data:`MAX_BACKOFF_S`), while the
other children keep serving. A child that dies again and again (``max_restarts`` deaths in a
row, each less than ``stable_s`` after its start) is a crash loop: the supervisor gives up
(:class:`CrashLoop`), and ``up`` stops everything and exits with status 1.

A restart keeps what the other children rely on: the engine binds the port the gateway and
the worker already call, the embedded Redis reads the same configuration file (port,
password, data directory: its AOF is reloaded), the gateway listens on the URL already
printed and signs tokens with the same secret.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

#: seconds a child gets to exit after SIGTERM before SIGKILL
GRACE_S = 10.0
#: the first restart waits this long; each further death in a row doubles it
FIRST_BACKOFF_S = 0.5
#: the longest wait before a restart
MAX_BACKOFF_S = 15.0
#: log lines of each child kept in memory (for the message when it dies)
TAIL_LINES = 200


class CrashLoop(RuntimeError):
    """A child keeps dying soon after each restart: ``up`` gives up."""


@dataclass
class Service:
    """One child process of ``up``: what to run and how it has fared."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log_path: Path | None = None
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    #: deaths in a row, each soon (``stable_s``) after a start
    deaths_in_a_row: int = 0
    #: when to start it again (monotonic clock), while it is down
    restart_at: float | None = None
    restarts: int = 0
    lines: deque[str] = field(default_factory=lambda: deque(maxlen=TAIL_LINES))
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def output(self) -> str:
        """The child's latest output lines (all its starts)."""
        with self._lock:
            return "\n".join(self.lines)

    def add_line(self, line: str) -> None:
        with self._lock:
            self.lines.append(line)

    def exited(self) -> int | None:
        """Its exit status if its current process has exited (``None`` while it runs or is down)."""
        return self.process.poll() if self.process is not None else None


#: the signals ``up`` holds while it starts a child (see :func:`_signals_held`)
_HELD = frozenset({signal.SIGINT, signal.SIGTERM})


def _in_child() -> None:
    """In the child, before exec: take the signals ``up`` held while forking (a blocked
    signal stays blocked across exec: the child would never see its SIGTERM), and get SIGTERM
    when the parent dies (Linux only; the signal is tied to the thread that forked, and
    ``up`` starts every child from its main thread, which lives as long as ``up``)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
        except Exception:
            pass


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT / SIGTERM wait until the block ends: a Ctrl-C never falls between starting a
    child and recording it (which would leave the child behind)."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def rotate_log(path: Path) -> None:
    """Keep the previous run's log as ``NAME.log.1`` and start a new one."""
    if path.exists():
        path.replace(path.with_name(path.name + ".1"))


class Supervisor:
    """Starts, watches, restarts and stops the children of ``up`` (see the module docstring)."""

    def __init__(
        self,
        *,
        echo: bool,
        max_restarts: int = 5,
        stable_s: float = 30.0,
        say: IO[str] | None = None,
    ) -> None:
        self.echo = echo
        self.max_restarts = max_restarts
        self.stable_s = stable_s
        self.services: list[Service] = []
        self._say = say

    def say(self, message: str) -> None:
        print(f"up: {message}", file=self._say or sys.stderr, flush=True)

    # -- starting --------------------------------------------------------------------------

    def start(self, name: str, argv: Sequence[str], *, env: dict[str, str], log_dir: Path | None) -> Service:
        """Start a new child and supervise it from now on."""
        log_path = None
        if log_dir is not None:
            log_path = log_dir / f"{name}.log"
            rotate_log(log_path)
        service = Service(name, list(argv), env, log_path)
        with _signals_held():
            self._spawn(service)
            self.services.append(service)
        return service

    def _spawn(self, service: Service) -> None:
        log: IO[str] | None = None
        if service.log_path is not None:
            log = service.log_path.open("a", encoding="utf-8")
            with contextlib.suppress(OSError):
                os.fchmod(log.fileno(), 0o600)
        try:
            process = subprocess.Popen(
                service.argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_in_child,
                env=service.env,
            )
        except BaseException:
            if log is not None:
                log.close()
            raise
        service.process = process
        service.started_at = time.monotonic()
        service.restart_at = None
        assert process.stdout is not None
        threading.Thread(target=self._pump, args=(service, process.stdout, log), daemon=True).start()

    def _pump(self, service: Service, stream: IO[bytes], log: IO[str] | None) -> None:
        try:
            for raw in iter(stream.readline, b""):
                line = raw.decode("utf-8", "replace").rstrip()
                service.add_line(line)
                if log is not None:
                    log.write(line + "\n")
                    log.flush()
                if self.echo:
                    print(f"[{service.name}] {line}", flush=True)
        finally:
            stream.close()
            if log is not None:
                log.close()

    def first_death(self) -> Service | None:
        """A child that has exited (during start-up, when nothing is restarted yet)."""
        return next((s for s in self.services if s.exited() is not None), None)

    # -- watching --------------------------------------------------------------------------

    def backoff(self, deaths_in_a_row: int) -> float:
        """Seconds to wait before the restart after the n-th death in a row."""
        return float(min(MAX_BACKOFF_S, FIRST_BACKOFF_S * 2 ** max(0, deaths_in_a_row - 1)))

    def check(self) -> None:
        """One round of watching: note the children that died, restart those whose backoff
        is over. Raises :class:`CrashLoop` when a child has died ``max_restarts`` times in a
        row, each time soon after its start."""
        now = time.monotonic()
        for service in self.services:
            status = service.exited()
            if status is not None:
                self._died(service, status, now)
            elif service.process is None and service.restart_at is not None and now >= service.restart_at:
                with _signals_held():
                    self._spawn(service)
                service.restarts += 1
                self.say(f"{service.name} restarted (pid {service.pid})")

    def _died(self, service: Service, status: int, now: float) -> None:
        assert service.process is not None
        service.process.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(service.process.pid, signal.SIGKILL)  # what is left of its group
        service.process = None
        if now - service.started_at >= self.stable_s:
            service.deaths_in_a_row = 0
        service.deaths_in_a_row += 1
        where = f" (log: {service.log_path})" if service.log_path else ""
        if service.deaths_in_a_row > self.max_restarts:
            tail = "\n".join(service.output().splitlines()[-20:])
            raise CrashLoop(
                f"{service.name} keeps crashing: it exited with status {status}, {service.deaths_in_a_row} times "
                f"in a row within {self.stable_s:.0f} s of a start; giving up{where}"
                + (f"\nits last lines:\n{tail}" if tail else "")
            )
        delay = self.backoff(service.deaths_in_a_row)
        service.restart_at = now + delay
        self.say(f"{service.name} exited with status {status}; restarting it in {delay:.1f} s{where}")

    # -- stopping --------------------------------------------------------------------------

    def stop_all(self, grace: float = GRACE_S) -> None:
        """Stop the children in the reverse order of their start (see :func:`stop`)."""
        for service in reversed(self.services):
            service.restart_at = None
            stop(service, grace)


def stop(service: Service, grace: float = GRACE_S) -> None:
    """SIGTERM the child's process group, wait, then SIGKILL whatever is left of the group."""
    process = service.process
    if process is None:
        return
    pgid = process.pid  # leader of its own session / group
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGTERM)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            print(f"up: {service.name} did not stop within {grace:.0f}s, killing it", file=sys.stderr, flush=True)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)  # stragglers of the group (e.g. pool processes)
    process.wait()
