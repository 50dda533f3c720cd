"""A bot program in any language in the local arena: ``fengsheng arena --bot-cmd "node mybot.js"``.

The program speaks the JSON messages of ``/ws/bots`` (docs/bots.md, "The protocol"), one
message per line: the arena writes each ``ServerMessage`` as the socket would
(:func:`gateway.bot_socket.message_json`) to the program's stdin, and reads the program's
``BotMessage`` s, one JSON object a line, from its stdout. The program's stderr is the
arena's (its logs go there, never to stdout).

What the program is sent: ``welcome`` once; per match ``match_start``, a ``decision`` for
each decision of its seat (``observation.events``: the events since its previous decision),
``result`` for an accepted action, ``error`` for a refused one (``illegal`` with the legal
actions: it may answer again before the deadline, as online), ``defaulted`` when no legal
answer came by the deadline (the default action is then played, as online), and
``match_end``. ``events`` requests are answered with ``history``; ``join_queue``, ``table``,
``leave_queue`` and ``answer`` are accepted and ignored (the arena starts every match).

The command line is split with :func:`shlex.split` and run without a shell; the program gets
only a few harmless environment variables (:data:`PASSED_ENV`), never the caller's tokens
or passwords. A program that exits, prints a line that is not a JSON bot message, or misses
:data:`MAX_LATE` decisions in a row stops the arena with a :class:`BotProgramError` saying
which and why.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import threading
import time
from collections.abc import Callable, Sequence

from google.protobuf import json_format

from engine import IllegalAction
from fengsheng.bot.arena import Turn
from fengsheng.v1 import bot_service_pb2 as bs
from fengsheng.v1 import game_pb2
from gateway.bot_socket import message_json

#: the only environment variables the program inherits (locale, paths, a home for runtimes)
PASSED_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TMPDIR", "TZ", "SYSTEMROOT")
#: this many decisions in a row without an answer by the deadline stop the arena
MAX_LATE = 3
#: how long a program has to send its first line of a decision, by default (seconds)
DEFAULT_MOVE_TIMEOUT_MS = 5000


class BotProgramError(Exception):
    """The bot program cannot go on: it exited, broke the protocol, or stopped answering."""


class CommandSeat:
    """The author's seat played by a program (``argv``, no shell), over stdin/stdout JSON lines."""

    def __init__(self, argv: Sequence[str], *, move_timeout_ms: int = DEFAULT_MOVE_TIMEOUT_MS,
                 cwd: str | None = None) -> None:  # fmt: skip
        if not argv:
            raise ValueError("--bot-cmd is empty: give the command that runs your bot, e.g. \"node mybot.js\"")
        self.argv = list(argv)
        self.move_timeout_ms = move_timeout_ms
        env = {k: os.environ[k] for k in PASSED_ENV if k in os.environ}
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=cwd,
                text=True, encoding="utf-8", errors="replace", bufsize=1,
            )  # fmt: skip
        except OSError as exc:
            raise BotProgramError(f"cannot start the bot program {self.argv[0]!r}: {exc.strerror or exc}") from exc
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, name="bot-cmd-stdout", daemon=True).start()
        self.line_no = 0
        self.late = 0  # decisions in a row without an answer by the deadline
        self.seen: list[game_pb2.Event] = []
        self.send(bs.ServerMessage(welcome=bs.Welcome(bot_id="local", name=os.path.basename(self.argv[0]),
                                                      max_concurrent_matches=1)))  # fmt: skip

    # ---- the pipe ---------------------------------------------------------------------------
    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _exited(self) -> BotProgramError:
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return BotProgramError("the bot program closed its stdout")
        return BotProgramError(f"the bot program exited (status {code}); its stderr, above, may say why")

    def send(self, msg: bs.ServerMessage) -> None:
        """One message to the program, a JSON line as ``/ws/bots`` sends it."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message_json(msg), ensure_ascii=False) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._exited() from None

    def receive(self, deadline: float) -> bs.BotMessage | None:
        """The program's next message, or None at ``deadline`` (a ``time.monotonic()``)."""
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if line is None:
            raise self._exited()
        self.line_no += 1
        text = line.strip()
        where = f"line {self.line_no} of its stdout"
        try:
            data = json.loads(text)
        except ValueError:
            raise BotProgramError(f"the bot program printed something that is not JSON ({where}: {text[:120]!r}); "
                                  "every line of its stdout must be one JSON message as on /ws/bots "
                                  "(print logs to stderr)") from None  # fmt: skip
        try:
            return json_format.ParseDict(data, bs.BotMessage())
        except (json_format.ParseError, TypeError, AttributeError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise BotProgramError(f"the bot program sent a line that is not a bot message ({where}: {first}); "
                                  "see docs/bots.md, 'The protocol'") from None  # fmt: skip

    def close(self) -> None:
        """Close the program's stdin (its signal to exit), then end it if it lingers."""
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    # ---- the seat (fengsheng.bot.arena.AuthorSeat) ------------------------------------------
    def start(self, match_id: str, seat: int, players: int, events: list[game_pb2.Event]) -> None:
        self.seen = list(events)
        self.send(bs.ServerMessage(match_start=bs.MatchStart(match_id=match_id, seats=[seat], players=players,
                                                             clock_ms=self.move_timeout_ms,
                                                             events=events)))  # fmt: skip

    def turn(self, turn: Turn, apply: Callable[[str], None]) -> None:
        self.seen.extend(turn.pushed.events)
        self._events(turn.match_id, turn.seat, turn.pushed.events)  # as they happened: before the decision
        deadline_ms = int(time.time() * 1000) + self.move_timeout_ms
        deadline = time.monotonic() + self.move_timeout_ms / 1000
        self.send(bs.ServerMessage(decision=bs.DecisionRequest(
            match_id=turn.match_id, seat=turn.seat, decision=turn.number, observation=turn.pushed,
            legal_actions=turn.legal, default_action=turn.default, deadline_ms=deadline_ms)))  # fmt: skip
        while (msg := self.receive(deadline)) is not None:
            kind = msg.WhichOneof("kind")
            if kind == "events":
                self.send(bs.ServerMessage(history=bs.EventHistory(match_id=turn.match_id, seat=turn.seat,
                                                                   events=self.seen)))  # fmt: skip
            if kind != "action":
                continue  # queue and table requests: the arena starts every match itself
            a = msg.action
            if (a.match_id, a.seat, a.decision) != (turn.match_id, turn.seat, turn.number):
                self.send(bs.ServerMessage(error=bs.BotError(
                    code="FAILED_PRECONDITION", kind="stale", match_id=a.match_id, seat=a.seat, decision=a.decision,
                    message=f"no decision {a.decision} of seat {a.seat} in {a.match_id!r} is open")))  # fmt: skip
                continue
            self.late = 0
            action = turn.default if a.use_default else a.action
            try:
                apply(action)
            except IllegalAction as exc:
                self.send(bs.ServerMessage(error=bs.BotError(code="INVALID_ARGUMENT", kind="illegal", message=str(exc),
                                                             legal_actions=turn.legal, match_id=turn.match_id,
                                                             seat=turn.seat, decision=turn.number)))  # fmt: skip
                continue
            self.send(bs.ServerMessage(result=bs.ActionResult(match_id=turn.match_id, seat=turn.seat,
                                                              decision=turn.number, applied=[action])))  # fmt: skip
            return
        self.late += 1
        self.send(bs.ServerMessage(defaulted=bs.Defaulted(match_id=turn.match_id, seat=turn.seat, decision=turn.number,
                                                          applied=[turn.default], reason="timeout")))  # fmt: skip
        if self.late >= MAX_LATE:
            raise BotProgramError(f"the bot program answered none of its last {self.late} decisions within "
                                  f"{self.move_timeout_ms} ms (--move-timeout-ms)")  # fmt: skip

    def end(self, match_id: str, seat: int, outcome: game_pb2.Outcome, events: Sequence[game_pb2.Event] = ()) -> None:
        self.seen = []
        self._events(match_id, seat, events)
        self.send(bs.ServerMessage(match_end=bs.MatchEnd(match_id=match_id, outcome=outcome, seats=[seat],
                                                         events=events)))  # fmt: skip

    def _events(self, match_id: str, seat: int, events: Sequence[game_pb2.Event]) -> None:
        """The seat's events, one ``event`` message each, as online (docs/bots.md, "The event stream")."""
        for event in events:
            self.send(bs.ServerMessage(event=bs.SeatEvent(match_id=match_id, seat=seat, event=event)))
