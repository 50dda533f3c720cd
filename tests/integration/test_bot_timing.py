"""No tells from our bots (issue 26 point 2; services/bot_timing.py, docs/security.md "Bot timing").

A house bot's time to answer must not say what it holds. Before, the hard level answered in
~2 ms when only ``pass`` was legal and spent its 200 ms search budget otherwise: anyone
reading the event ids (Redis stream ids carry server milliseconds) knew when it held a
response card. Now every answer is held until a release time drawn when the worker takes the
decision up, from the level alone.

What is measured: for each level (easy ``random``, normal ``v2``, hard ``search``) and each
ruleset, decisions of house bot seats taken from games played in this process, answered by
the worker's own per-move function (:func:`services.workers.tasks.paced_move`: the same
decision code, search thread and hold as the chain loop of ``bots.move``), timed from the
moment the decision is taken up to the moment its answer is released to the engine. The
search's two engine reads (``GetObservation``, ``Determinize``) are answered from the
in-process game as the engine service answers them (:class:`GameReads`). For every decision
kind with 200 decisions in each group within the games played, the times of seats that had a
choice (a usable response card, any non-pass action, more than one legal action) and of
seats that had none must be indistinguishable: two-sample KS p > 0.01. The search budget and
the margins are small here (the mechanism, not the number, is what must hold).

A control run with the hold switched off (today's code before the fix) must find the tell.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import Game
from engine.determinize import determinize
from fengsheng.v1 import engine_service_pb2 as es
from services.bot_levels import LEVELS
from services.bot_timing import ComputeTimes, Pace
from services.engine.clock import BOT_CLOCK_MS
from services.workers import tasks
from services.workers.chains import SEARCH_THREADS, Cursor

pytestmark = [pytest.mark.integration, pytest.mark.timing, pytest.mark.timeout(180)]

#: decisions per group (had a choice / had none) for each decision kind tested
PER_GROUP = 200
#: the most games played to find them, per level and ruleset
MAX_GAMES = 160
#: games in play at once (all rulesets), like the chains of one busy worker process: their
#: holds overlap, their searches share the process's one interpreter lock
CONCURRENT_GAMES = {"random": 36, "v2": 36, "search": 18}
PLAYERS = 5
#: how far one group's count may run ahead of the other's of the same kind
BALANCE = 4
#: the response kind of each ruleset: it must be among the kinds tested
RESPONSE_KIND = {"return": "respond", "classic": "priority", "spy": "contest"}
RULESETS = tuple(RESPONSE_KIND)
#: kinds every level must have tested in each ruleset: the response window, and the main
#: phase (play a card or not) where the ruleset has one
REQUIRED_KINDS = {"return": {"respond", "main", "arrive"}, "classic": {"priority"}, "spy": {"contest", "main"}}


def required_kinds(policy: str, ruleset: str) -> set[str]:
    """The kinds a level must have tested in ``ruleset``: the hard level (the slow one to
    time: only these are timed) its response window, the others :data:`REQUIRED_KINDS`,
    and more kinds as they come."""
    return {RESPONSE_KIND[ruleset]} if policy == "search" else REQUIRED_KINDS[ruleset]
#: games played at least (the fast levels: more games, more kinds with 200 decisions a group)
MIN_GAMES = {"random": 24, "v2": 24, "search": 0}
#: the pace under test: a 2 ms search budget, small margins
PACE_ENV = {
    "FENGSHENG_SEARCH_BUDGET_MS": "2",
    "FENGSHENG_BOT_SEARCH_MARGIN_MS": "80",
    "FENGSHENG_BOT_THINK_MS": "10",
    "FENGSHENG_BOT_JITTER_MS": "20",
}


class GameReads:
    """The two engine reads of a search move (``search_move``), answered from a game in this
    process the way :meth:`services.engine.matches.MatchService.determinized` answers them:
    the seat's observation with its events, and a world resampled from that view."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def GetObservation(self, request: es.GetObservationRequest, timeout: float | None = None) -> Any:
        return self.game.observation(request.seat, include_events=request.include_events)

    def Determinize(self, request: es.DeterminizeRequest, timeout: float | None = None) -> es.DeterminizeResponse:
        obs = self.game.observation(request.seat, include_events=True)
        world = determinize(self.game, request.seat, random.Random(request.seed), observation=obs,
                            events=list(obs.events))  # fmt: skip
        return es.DeterminizeResponse(snapshot=world.snapshot(), decision=self.game.decision_number)


@dataclass
class Timings:
    """Answer times (seconds) by (decision kind, had a choice)."""

    times: dict[tuple[str, bool], list[float]] = field(default_factory=lambda: defaultdict(list))
    taken: Counter[tuple[str, bool]] = field(default_factory=Counter)
    games: int = 0
    elapsed: float = 0.0
    #: the compute times the worker process keeps (one per measurement, as one worker's)
    compute: ComputeTimes = field(default_factory=ComputeTimes)
    #: the only kinds timed (None: all)
    only: set[str] | None = None

    def wants(self, key: tuple[str, bool]) -> bool:
        """Whether to time this decision: its group is short of PER_GROUP and not ahead of
        the other group of its kind, so both groups are timed over the same stretch of the
        run (the machine's load changes over a run; the common group would otherwise be
        timed at its start and the rare one all along)."""
        kind, choice = key
        if self.only is not None and kind not in self.only:
            return False
        return self.taken[key] < PER_GROUP and self.taken[key] <= self.taken[(kind, not choice)] + BALANCE

    def tested_kinds(self) -> list[str]:
        kinds = {kind for kind, _ in self.times}
        return sorted(k for k in kinds if all(len(self.times[(k, g)]) >= PER_GROUP for g in (True, False)))

    def done(self, kinds: set[str]) -> bool:
        return all(not self.wants((k, g)) for k in kinds for g in (True, False))


async def _play(ruleset: str, seed: int, policy: str, pace: Pace, out: Timings, clock_ms: int = 0) -> None:
    """One game: every decision of a group still short of samples is answered by the
    worker's paced move of ``policy`` and timed; the others by a random legal action."""
    game = Game.new(ruleset=ruleset, players=PLAYERS, seed=seed)
    reads = GameReads(game)
    rng = random.Random(seed)
    while not game.is_over:
        p = game.pending
        assert p is not None
        legal = game.legal_actions(p.seat)
        key = (p.kind, len(legal) > 1)
        if out.wants(key):
            out.taken[key] += 1
            cur = Cursor(f"timing-{ruleset}-{seed}", p.seat, p.number, policy, "bot", clock_ms=clock_ms)
            obs = game.observation(p.seat)
            taken_up = time.monotonic()
            action = await tasks.paced_move(cur, obs, taken_up, lambda: reads, pace, out.compute)
            out.times[key].append(time.monotonic() - taken_up)
            # a refused answer would cost a second Act: the worker sends only legal ones
            assert action in game.legal_texts(p.seat), (action, legal)
        else:
            action = rng.choice(legal)
        game.apply(p.seat, action)
        await asyncio.sleep(0)  # the other games' holds end on time


async def _measure(ruleset: str, policy: str, pace: Pace, kinds: set[str], concurrent: int,
                   clock_ms: int = 0) -> Timings:  # fmt: skip
    """Games of ``ruleset`` until every group of ``kinds`` has PER_GROUP times (or MAX_GAMES),
    ``concurrent`` at a time; groups of other kinds are filled as they come, except for the
    hard level (each timed decision holds a game ~0.1 s: only ``kinds`` are timed)."""
    out = Timings(only=kinds if policy == "search" else None)
    started = time.monotonic()
    seeds = iter(range(MAX_GAMES))
    running: set[asyncio.Task[None]] = set()
    while True:
        while len(running) < concurrent and (not out.done(kinds) or out.games < MIN_GAMES[policy]):
            seed = next(seeds, None)
            if seed is None:
                break
            out.games += 1
            running.add(asyncio.create_task(_play(ruleset, 7000 + seed, policy, pace, out, clock_ms)))
        if not running:
            out.elapsed = time.monotonic() - started
            return out
        finished, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
        for task in finished:
            task.result()


def measure_level(policy: str, pace: Pace, rulesets: tuple[str, ...] = RULESETS,
                  clock_ms: int = 0) -> dict[str, Timings]:  # fmt: skip
    """The answer times of ``policy`` in every ruleset, measured at once on one loop (like
    one worker process's chain loop, with its search threads), at tables of per-decision
    clock ``clock_ms`` (0: untimed; the pace scales with it)."""

    async def main() -> list[Timings]:
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=SEARCH_THREADS))
        concurrent = CONCURRENT_GAMES[policy] // len(rulesets) or 1
        runs = (_measure(r, policy, pace, required_kinds(policy, r), concurrent, clock_ms) for r in rulesets)
        return await asyncio.gather(*runs)

    return dict(zip(rulesets, asyncio.run(main()), strict=True))


@pytest.fixture()
def pace(monkeypatch: pytest.MonkeyPatch) -> Iterator[Pace]:
    for name, value in PACE_ENV.items():
        monkeypatch.setenv(name, value)
    yield Pace.from_env()


def _report(level: str, ruleset: str, t: Timings) -> list[tuple[str, float, float, float]]:
    """(kind, KS p, median with a choice ms, median without ms) for every kind tested."""
    from scipy.stats import ks_2samp  # seconds to import: not at the suite's collection

    rows = []
    for kind in t.tested_kinds():
        yes, no = t.times[(kind, True)], t.times[(kind, False)]
        p = float(ks_2samp(yes, no).pvalue)
        rows.append((kind, p, 1000 * sorted(yes)[len(yes) // 2], 1000 * sorted(no)[len(no) // 2]))
    skipped = sorted({k for k, _ in t.times} - set(t.tested_kinds()))
    print(f"{level:6} {ruleset:7} {t.elapsed:4.1f}s games={t.games} " + "  ".join(
        f"{k}: p={p:.3f} {a:.1f}/{b:.1f} ms" for k, p, a, b in rows) + f"  (too few: {', '.join(skipped)})")
    return rows


def _tells(level: str, timings: dict[str, Timings], pace: Pace, clock_ms: int = 0) -> list[tuple[str, str, float]]:
    """(ruleset, kind, p) of every kind whose times tell the groups apart (p <= 0.01) on its
    measurement and on a second one of fresh decisions: a real tell fails both (p ~ 1e-6 or
    less), while of the dozen or so comparisons of honest times one in a hundred fails by
    chance."""
    suspects = {}
    for ruleset, t in timings.items():
        rows = _report(level, ruleset, t)
        missing = required_kinds(LEVELS[level], ruleset) - {k for k, *_ in rows}
        assert not missing, (level, ruleset, missing, {k: len(v) for k, v in t.times.items()})
        suspects.update({(ruleset, kind): p for kind, p, *_ in rows if p <= 0.01})
    if not suspects:
        return []
    again = measure_level(LEVELS[level], pace, tuple(sorted({r for r, _ in suspects})), clock_ms)
    tells = []
    for (ruleset, kind), p in suspects.items():
        rows = {k: p2 for k, p2, *_ in _report(level, ruleset, again[ruleset])}
        if kind not in rows or rows[kind] <= 0.01:
            tells.append((ruleset, kind, min(p, rows.get(kind, 0.0))))
    return tells


@pytest.mark.parametrize("level", list(LEVELS))
def test_house_bot_answer_times_do_not_depend_on_the_hand(level: str, pace: Pace) -> None:
    """Each level in each ruleset: for each decision kind, the answer times of seats with a
    choice and without one are indistinguishable (KS p > 0.01, >= 200 decisions each)."""
    timings = measure_level(LEVELS[level], pace)
    tells = _tells(level, timings, pace)
    assert not tells, f"{level}: answer times tell whether the bot had a choice: {tells}"


@pytest.mark.parametrize("level", [name for name, policy in LEVELS.items() if policy != "search"])
def test_answer_times_at_the_bot_clock_do_not_depend_on_the_hand(level: str, pace: Pace) -> None:
    """The same at a table on the 1 s bot clock (issue 29: the pace of every level but the
    hard one scales with the clock, here to 0.3 ms + up to 0.7 ms, below the computation):
    the worker's compute-time floor for answers without a choice keeps the groups alike."""
    timings = measure_level(LEVELS[level], pace, clock_ms=BOT_CLOCK_MS)
    tells = _tells(level, timings, pace, BOT_CLOCK_MS)
    assert not tells, f"{level} at the bot clock: answer times tell whether the bot had a choice: {tells}"


def test_the_measurement_sees_the_tell_without_the_hold(pace: Pace, monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: with the hold switched off (answers sent as soon as computed, the code
    before issue 26) the same measurement tells a hard bot with a response card from one
    without."""

    async def no_hold(release: float) -> None:
        return None

    monkeypatch.setattr(tasks, "hold_until", no_hold)
    timings = measure_level("search", pace, ("return",))
    rows = {kind: p for kind, p, *_ in _report("hard", "return", timings["return"])}
    assert rows["respond"] < 1e-6, rows
