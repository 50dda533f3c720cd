"""The answer window of a person's seat, and auto-pass (issue 28 point 1: only real
decisions reach a person, without leaking).

The engine asks every living seat at every response point, whether or not it holds a usable
card (docs/notation.md). Most of those decisions have one legal action, ``pass``; others
have one of another kind (an intel that must be accepted, a main phase with nothing to play
but the ``declare``, a single card to choose). Asking a person each time is click spam, and
answering for them *at once* would tell the table who could not have answered (the event
ids are Redis stream ids: they carry server milliseconds).
So every decision of a seat answered from outside (seat kind ``HUMAN``: a browser, the
terminal client; ``BOT_EXTERNAL``: an outside bot) opens a **window**, drawn when the
decision opens, from the seat kind alone:

    release = opened + scale(clock) * (FENGSHENG_ANSWER_WINDOW_MS + U(0, FENGSHENG_ANSWER_WINDOW_JITTER_MS))

(:meth:`services.bot_timing.Pace.hold_s`: the house bots' release rule, with the window as
its target), jitter from the operating system's random source, nothing of the seat read.
``scale`` is the house bots' (:func:`services.bot_timing.clock_scale`): the table's clock
over the people's 30 s clock, 1 for the people's clock and untimed tables; so a table on the
1 s bot clock holds an outside bot's answer 33 ms + U(0, 8 ms), not a second (issue 29: bot
tables at engine speed), the same for every seat and decision of the table.

- An answer of the seat that arrives before ``release`` is held by the engine service and
  applied at ``release``; a later one at once. So a quick pass and a quick card look alike.
- A person's (``HUMAN``) decision with exactly one legal action (:meth:`AnswerWindow.only_answer`:
  ``pass`` or any other forced answer) is answered with that action by the engine service
  itself at ``release`` (origin ``auto``), unless the seat's player asked to be asked every
  time (:func:`set_asks`, the seat socket's ``options`` message). The seat's own
  observation then carries no legal actions, so its client shows the window passively and
  is not prompted. A decision with two or more distinct legal actions (pass or a card,
  accept or decline) is always asked. An outside bot is asked every decision (the bot
  protocol).

The release time is kept in Redis by decision (:func:`window_key`), so every replica holds an
answer to the same instant, and the outbox/lease machinery of the match store covers an
auto-pass whose engine process died (its lease runs out and the sweeper schedules it again).
The house bots keep their own pace (services/bot_timing.py); the turn timer and an away
seat's stand-in answer as before.

=====================================  ==============================================  =======
variable                               meaning                                         default
=====================================  ==============================================  =======
``FENGSHENG_ANSWER_WINDOW_MS``         the minimum window of a person's decision       ``1000``
                                       (0–5000 ms)
``FENGSHENG_ANSWER_WINDOW_JITTER_MS``  width of the uniform jitter added to it         ``250``
                                       (0–5000 ms)
``FENGSHENG_AUTO_PASS``                ``0``: the platform answers no decision of a     ``1``
                                       person, even one with a single legal action
                                       (each seat is asked, as when its player turned
                                       auto-pass off)
=====================================  ==============================================  =======
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.action import PASS as PASS_ACTION
from engine.action import Action
from services.bot_timing import Pace, ms_setting

DEFAULT_WINDOW_MS = 1000.0
DEFAULT_WINDOW_JITTER_MS = 250.0
#: the commonest single legal action of a decision the platform answers for a person
PASS = "pass"
#: how long a match's window and option keys outlive their last write (a week: matches
#: expire sooner)
KEY_TTL_S = 7 * 24 * 3600
#: the environment of engine servers that hold no answer and answer for no seat: the test
#: suite's (tests/conftest.py) and throughput benchmarks
WINDOW_OFF = {"FENGSHENG_ANSWER_WINDOW_MS": "0", "FENGSHENG_ANSWER_WINDOW_JITTER_MS": "0", "FENGSHENG_AUTO_PASS": "0"}
#: the policy name under which the window's target is the Pace's ``think_ms``
_WINDOW = "window"


def window_key(match_id: str) -> str:
    """Hash: decision number -> the epoch millisecond at which its window ends."""
    return f"fs:m:{{{match_id}}}:window"


def asks_key(match_id: str) -> str:
    """Hash: seat -> ``1`` when its player wants every decision asked (auto-pass off)."""
    return f"fs:m:{{{match_id}}}:ask"


@dataclass(frozen=True, slots=True)
class AnswerWindow:
    """The window policy of the engine service (module docstring), in milliseconds."""

    window_ms: float = DEFAULT_WINDOW_MS
    jitter_ms: float = DEFAULT_WINDOW_JITTER_MS
    #: whether the platform answers single-action decisions (:meth:`only_answer`) at all
    auto_pass: bool = True

    @classmethod
    def from_env(cls) -> AnswerWindow:
        """``FENGSHENG_ANSWER_WINDOW_MS``, ``FENGSHENG_ANSWER_WINDOW_JITTER_MS``, ``FENGSHENG_AUTO_PASS``."""
        off = (os.environ.get("FENGSHENG_AUTO_PASS") or "1").strip().lower() in ("0", "false", "no", "off")
        return cls(
            window_ms=ms_setting("FENGSHENG_ANSWER_WINDOW_MS", DEFAULT_WINDOW_MS),
            jitter_ms=ms_setting("FENGSHENG_ANSWER_WINDOW_JITTER_MS", DEFAULT_WINDOW_JITTER_MS),
            auto_pass=not off,
        )

    @property
    def holds(self) -> bool:
        """Whether a decision's window has any length (0 and 0: answers are never held)."""
        return self.window_ms > 0 or self.jitter_ms > 0

    def draw_ms(self, clock_ms: float = 0) -> float:
        """The length of one decision's window at a table of per-decision clock ``clock_ms``
        (0: untimed): the target plus a uniform jitter from the system's random source, both
        scaled by the clock (the bot pace's rule, :meth:`Pace.hold_s`).

        >>> 1000 <= AnswerWindow(1000, 250).draw_ms() <= 1250, 1000 <= AnswerWindow(1000, 250).draw_ms(30000) <= 1250
        (True, True)
        >>> 33.3 < AnswerWindow(1000, 250).draw_ms(1000) < 41.7
        True
        """
        return 1000.0 * Pace(think_ms=self.window_ms, jitter_ms=self.jitter_ms).hold_s(_WINDOW, clock_ms=clock_ms)

    @staticmethod
    def only_answer(legal: Sequence[Action]) -> Action | None:
        """The answer of a decision that holds no real choice: its one legal action (a
        ``pass``, a forced ``accept`` of the intel, a forced ``declare``, a single ``choose``
        …); None when the seat has two or more distinct actions to choose between, or none.
        Only such a decision is answered for a person (issue 28 point 1): whatever it
        answers, the seat could not have answered otherwise.

        >>> from engine.notation import parse as p
        >>> [str(AnswerWindow.only_answer([p(t) for t in ts])) for ts in (["pass"], ["accept"], ["choose 3"])]
        ['pass', 'accept', 'choose 3']
        >>> AnswerWindow.only_answer([p("accept"), p("decline")]), AnswerWindow.only_answer([])
        (None, None)
        """
        if not legal:
            return None
        first = legal[0]
        return first if all(a == first for a in legal) else None

    @staticmethod
    def pass_only(legal: Sequence[Action]) -> bool:
        """Whether a decision with these legal actions holds no real choice.

        >>> from engine.notation import parse as p
        >>> AnswerWindow.pass_only([p("pass")]), AnswerWindow.pass_only([p("pass"), p("play 3")])
        (True, False)
        """
        return len(legal) == 1 and legal[0] == PASS_ACTION

    async def open(self, redis: Any, match_id: str, decision: int, clock_ms: float = 0) -> int:
        """The epoch ms at which ``decision``'s window ends: drawn now the first time it is
        asked (a re-send of the decision's task keeps the first draw); ``clock_ms``: the
        match's per-decision clock (:meth:`draw_ms`)."""
        release = int(time.time() * 1000 + self.draw_ms(clock_ms))
        pipe = redis.pipeline(transaction=False)
        pipe.hsetnx(window_key(match_id), str(decision), release)
        pipe.hget(window_key(match_id), str(decision))
        pipe.expire(window_key(match_id), KEY_TTL_S)
        _, stored, _ = await pipe.execute()
        return int(stored) if stored is not None else release


async def release_ms(redis: Any, match_id: str, decision: int) -> int | None:
    """The end of ``decision``'s window (epoch ms), if it was opened."""
    raw = await redis.hget(window_key(match_id), str(decision))
    return int(raw) if raw is not None else None


async def hold(redis: Any, match_id: str, decision: int) -> None:
    """Wait until ``decision``'s window has ended (at once if it has, or was never opened)."""
    release = await release_ms(redis, match_id, decision)
    if release is not None:
        wait = release / 1000 - time.time()
        if wait > 0:
            await asyncio.sleep(wait)


async def asks(redis: Any, match_id: str, seat: int) -> bool:
    """Whether ``seat``'s player turned auto-pass off (wants every decision asked)."""
    return bool(await redis.hexists(asks_key(match_id), str(seat)))


async def set_asks(redis: Any, match_id: str, seat: int, ask: bool) -> None:
    """Turn auto-pass off (``ask``) or on again for ``seat``."""
    pipe = redis.pipeline(transaction=False)
    if ask:
        pipe.hset(asks_key(match_id), str(seat), 1)
        pipe.expire(asks_key(match_id), KEY_TTL_S)
    else:
        pipe.hdel(asks_key(match_id), str(seat))
    await pipe.execute()


__all__ = ["WINDOW_OFF", "AnswerWindow", "asks", "asks_key", "hold", "release_ms", "set_asks", "window_key"]
