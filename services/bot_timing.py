"""When a house bot's answer is released (issue 26 point 2: no tells from our bots).

Every house bot answer (``bots.move``: a house bot seat, or the house policy standing in for
an away seat) is computed at once and then *held* until a release time drawn when the worker
takes the decision up, before the bot looks at anything:

    release = taken up + scale(clock) * (target(level) + U(0, jitter))

- ``target`` depends on the level only, a public fact of the table: the hard level
  (``search``) waits its whole search budget (``FENGSHENG_SEARCH_BUDGET_MS``) plus
  ``FENGSHENG_BOT_SEARCH_MARGIN_MS`` (the one playout past the budget, the two engine reads
  of a search), whether it searched or had nothing to choose; every other level (easy, normal,
  the ``heuristic`` house bots of casual tables, an away seat's stand-in) waits
  ``FENGSHENG_BOT_THINK_MS``;
- the jitter is uniform over ``FENGSHENG_BOT_JITTER_MS``, from the operating system's random
  source (:class:`random.SystemRandom`): not from the bot's seeded generator, and never from
  anything the seat holds;
- ``scale`` follows the table's per-decision clock, another public fact of the table (its
  ``match_start.clock_ms``, the same for every decision of the match): ``clock / 30000`` for a
  clock shorter than the people's clock (:data:`services.engine.clock.PEOPLE_CLOCK_MS`), 1 for
  the people's clock and for an untimed table. A table at the bot-speed clock (1000 ms) holds
  easy, normal, heuristic and away answers 2 ms + U(0, 1.3 ms) at the defaults: bot-only tables
  play at engine speed (docs/bots.md, "Time controls"). The hard level's target is not scaled:
  it is the floor of its search (budget + margin), which a shorter hold would only reveal.

"Taken up" is when the worker has the decision in hand: its ``bots.move`` task starts (after
the table's ``bot_delay_ms``, the task's countdown), or the engine hands the turn back to a
chain (``ActRequest.play_next_bot``). What happens before that (the broker, the countdown,
the previous move's write) does not depend on the seat's hand. So the time between the write
that opens a decision and the write that answers it, which every client reads from the event
ids (Redis stream ids carry server milliseconds), depends on the level, the table's clock and
the platform's load, not on whether the bot holds a response card or which identity it has.
The target is a floor, not a guess: a move computed past it would be released late, and the
margin is there so that this never happens in the common case of any group (the test:
tests/integration/test_bot_timing.py, docs/security.md "Bot timing").

The target is meant to be a floor that the computation never reaches, but a worker short of
CPU (its searches share one interpreter lock) can run past it, and then only the answers
that computed (those with a choice) would be late. So a worker keeps the recent compute times
of its answers that had a choice, by level and decision kind (:class:`ComputeTimes`), and an
answer without a choice is held at least as long as one of them drawn at random: when the
worker is slow, a forced pass is as slow as a searched answer of the same kind.

The hold is a sleep on the worker's chain loop (:mod:`services.workers.chains`), which holds
no worker thread; on the blocking path (a worker given several engine addresses) it sleeps
in the task's thread.

=================================  ==================================================  =======
variable                           meaning                                             default
=================================  ==================================================  =======
``FENGSHENG_BOT_THINK_MS``         release target of easy, normal, heuristic and       ``60``
                                   away stand-ins (0–5000 ms)
``FENGSHENG_BOT_SEARCH_MARGIN_MS`` hard: release target = search budget + this         ``100``
                                   (0–5000 ms)
``FENGSHENG_BOT_JITTER_MS``        width of the uniform jitter added to every target   ``40``
                                   (0–5000 ms)
=================================  ==================================================  =======
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from collections import deque
from dataclasses import dataclass

from services.bot_levels import DEFAULT_SEARCH_BUDGET_MS, search_budget_ms
from services.engine.clock import PEOPLE_CLOCK_MS

#: the policy whose answers are searched (the hard level): its target is its budget + margin
SEARCH_POLICY = "search"
DEFAULT_THINK_MS = 60.0
DEFAULT_SEARCH_MARGIN_MS = 100.0
DEFAULT_JITTER_MS = 40.0
MAX_PACE_MS = 5000.0

_SYSTEM_RANDOM = random.SystemRandom()
#: the environment of bot workers that hold answers no longer than their computation (forced
#: answers still as long as a recent computed one): benchmarks of the platform's throughput
#: and the test suite's bot matches
PACE_OFF = {"FENGSHENG_BOT_THINK_MS": "0", "FENGSHENG_BOT_JITTER_MS": "0", "FENGSHENG_BOT_SEARCH_MARGIN_MS": "0"}


def clock_scale(clock_ms: float) -> float:
    """How much of the people's pace a table of per-decision clock ``clock_ms`` waits: the
    clock over the people's clock, at most 1; 1 for an untimed table (``clock_ms`` 0).

    >>> clock_scale(1000), clock_scale(5000), clock_scale(30000), clock_scale(0)
    (0.03333333333333333, 0.16666666666666666, 1.0, 1.0)
    """
    if not clock_ms > 0:
        return 1.0
    return min(1.0, clock_ms / PEOPLE_CLOCK_MS)


def ms_setting(var: str, default: float) -> float:
    """A millisecond setting from the environment, within 0..MAX_PACE_MS (the default for an
    unset or unreadable value)."""
    raw = os.environ.get(var)
    try:
        value = float(raw) if raw else default
    except ValueError:
        value = default
    if value != value:  # NaN
        value = default
    return min(MAX_PACE_MS, max(0.0, value))


@dataclass(frozen=True, slots=True)
class Pace:
    """The release policy of house bot answers (module docstring), in milliseconds."""

    think_ms: float = DEFAULT_THINK_MS
    search_budget_ms: float = DEFAULT_SEARCH_BUDGET_MS
    search_margin_ms: float = DEFAULT_SEARCH_MARGIN_MS
    jitter_ms: float = DEFAULT_JITTER_MS

    @classmethod
    def from_env(cls) -> Pace:
        """The worker's policy: ``FENGSHENG_BOT_THINK_MS``, ``FENGSHENG_BOT_SEARCH_MARGIN_MS``,
        ``FENGSHENG_BOT_JITTER_MS`` and the search budget ``FENGSHENG_SEARCH_BUDGET_MS``."""
        return cls(
            think_ms=ms_setting("FENGSHENG_BOT_THINK_MS", DEFAULT_THINK_MS),
            search_budget_ms=search_budget_ms(),
            search_margin_ms=ms_setting("FENGSHENG_BOT_SEARCH_MARGIN_MS", DEFAULT_SEARCH_MARGIN_MS),
            jitter_ms=ms_setting("FENGSHENG_BOT_JITTER_MS", DEFAULT_JITTER_MS),
        )

    def target_ms(self, policy: str, clock_ms: float = 0) -> float:
        """The fixed part of a ``policy`` seat's answer time at a table of per-decision
        clock ``clock_ms`` (0: untimed): the same for every decision of that level at that
        table, whatever the seat holds.

        >>> Pace(think_ms=60, search_budget_ms=200.0, search_margin_ms=100).target_ms("search", 1000)
        300.0
        >>> Pace(think_ms=60).target_ms("v2"), Pace(think_ms=60).target_ms("random", 30000)
        (60.0, 60.0)
        >>> Pace(think_ms=60).target_ms("heuristic", 1000), Pace(think_ms=60).target_ms("v2", 5000)
        (2.0, 10.0)
        """
        if policy == SEARCH_POLICY:
            return self.search_budget_ms + self.search_margin_ms
        return self.think_ms * clock_scale(clock_ms)

    def jitter_width_ms(self, policy: str, clock_ms: float = 0) -> float:
        """The width of the uniform jitter of a ``policy`` seat at a table of clock ``clock_ms``."""
        return self.jitter_ms if policy == SEARCH_POLICY else self.jitter_ms * clock_scale(clock_ms)

    def hold_s(self, policy: str, rng: random.Random = _SYSTEM_RANDOM, clock_ms: float = 0) -> float:
        """Seconds from taking a decision up to releasing its answer: the target plus a
        uniform jitter drawn from ``rng`` (the system's random source), both for a table of
        clock ``clock_ms`` (0: untimed)."""
        return (self.target_ms(policy, clock_ms) + rng.uniform(0.0, self.jitter_width_ms(policy, clock_ms))) / 1000.0

    def release_at(self, policy: str, taken_up: float, clock_ms: float = 0) -> float:
        """The ``time.monotonic()`` at which an answer taken up at ``taken_up`` at a table of
        clock ``clock_ms`` is released."""
        return taken_up + self.hold_s(policy, clock_ms=clock_ms)


class ComputeTimes:
    """The compute times (seconds from taking a decision up to its answer being ready) of
    this worker process's recent answers that had a choice, by (policy, decision kind): the
    ``size`` newest of each. Thread-safe (the blocking path records from task threads)."""

    def __init__(self, size: int = 128) -> None:
        self.size = size
        self._times: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def record(self, policy: str, kind: str, seconds: float) -> None:
        """An answer with a choice of ``policy`` to a ``kind`` decision took ``seconds``."""
        with self._lock:
            self._times.setdefault((policy, kind), deque(maxlen=self.size)).append(seconds)

    def draw(self, policy: str, kind: str, rng: random.Random = _SYSTEM_RANDOM) -> float:
        """One of the recorded times of ``(policy, kind)`` at random; 0 if none yet.

        >>> times = ComputeTimes(size=2)
        >>> times.draw("search", "respond")
        0.0
        >>> for s in (0.5, 0.2, 0.3): times.record("search", "respond", s)
        >>> sorted({times.draw("search", "respond") for _ in range(200)})
        [0.2, 0.3]
        """
        with self._lock:
            recent = self._times.get((policy, kind))
            return rng.choice(recent) if recent else 0.0


#: this worker process's compute times (:class:`ComputeTimes`)
COMPUTE_TIMES = ComputeTimes()


async def hold_until(release: float) -> None:
    """Wait on the running loop until ``time.monotonic()`` reaches ``release`` (no thread
    held); at once if it has passed."""
    wait = release - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)


def hold_until_blocking(release: float) -> None:
    """:func:`hold_until` in the calling thread (the workers' blocking path)."""
    wait = release - time.monotonic()
    if wait > 0:
        time.sleep(wait)


__all__ = ["COMPUTE_TIMES", "PACE_OFF", "ComputeTimes", "Pace", "clock_scale", "hold_until", "hold_until_blocking",
           "ms_setting"]
