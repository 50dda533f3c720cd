"""A local arena for bot authors: your own ``decide`` against the built-in bots, offline.

::

    from fengsheng.bot.arena import play

    report = play(my_decide, opponents=["heuristic"], matches=200, players=5, ruleset="return")
    print(report.table())

or ``fengsheng arena --bot mymodule:decide --bots heuristic --matches 200``.

Matches are played in this process on the engine directly (no server, no Redis). Your
``decide`` gets exactly what the SDK gives it online (docs/bots.md): the seat's own
observation, whose ``events`` are every event the seat has seen so far (public events and
the seat's private ones), built by the SDK's own code (:func:`fengsheng_bot.client.full_observation`
from the observation of the decision and the events since the seat's previous decision,
as a pushed decision carries them); ``None``, an exception or an illegal action costs that
decision only (the default action is played, as online). Win rates are reported per
identity the bot was dealt, with 95% Wilson score intervals.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine import Game, IllegalAction
from engine.bots import POLICIES
from engine.notation import parse
from engine.rulesets import RULESET_IDS, get_ruleset
from fengsheng.v1 import game_pb2
from fengsheng_bot.client import Decide, ask, full_observation
from fengsheng_bot.values import Event

#: z of a two-sided 95% interval
Z95 = 1.959963984540054


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (``(0, 1)`` with no games)."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """Games and wins of the author's bot (one identity, or all)."""

    games: int = 0
    wins: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def to_dict(self) -> dict[str, float | int]:
        lo, hi = self.interval
        return {"games": self.games, "wins": self.wins, "win_rate": round(self.rate, 4),
                "low": round(lo, 4), "high": round(hi, 4)}  # fmt: skip


@dataclass
class ArenaReport:
    """What :func:`play` found: win rates per identity (``LATENT``, ``MILITARY``...) and
    overall, and how often the bot's answer had to be replaced by the default action."""

    ruleset: str
    players: int
    matches: int
    opponents: list[str]
    total: Tally = field(default_factory=Tally)
    by_identity: dict[str, Tally] = field(default_factory=dict)
    decisions: int = 0
    defaults: int = 0  # decide raised or returned None / not an action
    illegal: int = 0  # decide returned an action the engine refused

    def to_dict(self) -> dict[str, object]:
        return {
            "ruleset": self.ruleset, "players": self.players, "matches": self.matches,
            "opponents": self.opponents, "total": self.total.to_dict(),
            "by_identity": {k: v.to_dict() for k, v in sorted(self.by_identity.items())},
            "decisions": self.decisions, "defaults": self.defaults, "illegal": self.illegal,
        }  # fmt: skip

    def table(self) -> str:
        """The report as plain text (one line per identity, then all)."""
        lines = [
            f"{self.ruleset}, {self.players} players, {self.matches} matches against {', '.join(self.opponents)}",
            f"{'identity':<12}{'games':>7}{'wins':>7}{'win %':>8}  95% interval",
        ]
        rows = sorted(self.by_identity.items()) + [("all", self.total)]
        for name, t in rows:
            lo, hi = t.interval
            lines.append(f"{name:<12}{t.games:>7}{t.wins:>7}{100 * t.rate:>7.1f}%  {100 * lo:.1f}-{100 * hi:.1f}%")
        lines.append(f"decisions {self.decisions}, defaulted {self.defaults}, illegal {self.illegal}")
        return "\n".join(lines)


def load(spec: str) -> Decide:
    """``module:function`` (or ``module.function``, or ``path/to/file.py:function``) -> that
    ``decide`` function. Modules are found from the current directory too (as ``python -m``
    would), so ``fengsheng arena --bot mybot:decide`` finds ``./mybot.py``."""
    import os
    import sys

    module, sep, name = spec.rpartition(":")
    if not sep:
        module, _, name = spec.rpartition(".")
    if not module or not name:
        raise ValueError(f"--bot wants module:function, not {spec!r}")
    if module.endswith(".py"):  # a file: its directory on the path, its name as the module
        folder, module = os.path.split(os.path.abspath(module))
        module = module[:-3]
        if folder not in sys.path:
            sys.path.insert(0, folder)
    elif os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    fn = getattr(importlib.import_module(module), name, None)
    if not callable(fn):
        raise ValueError(f"{spec!r} is not a function")
    decide: Decide = fn
    return decide


def _policy_decide(name: str, rng: random.Random) -> Callable[[game_pb2.Observation, list[str]], str]:
    policy = POLICIES[name]
    return lambda observation, legal: str(policy(observation, [parse(a) for a in legal], rng))


@dataclass
class Turn:
    """One decision of the author's seat in a local match, as a pushed decision carries it:
    ``pushed`` is the seat's observation whose ``events`` are those since its previous
    decision (or since the match started)."""

    match_id: str
    seat: int
    number: int
    pushed: game_pb2.Observation
    legal: list[str]
    default: str


class AuthorSeat(Protocol):
    """The author's bot at its seat of local matches: a ``decide`` function
    (:class:`DecideSeat`) or a program speaking the bot protocol
    (:class:`fengsheng.bot.command.CommandSeat`)."""

    def start(self, match_id: str, seat: int, players: int, events: list[game_pb2.Event]) -> None:
        """A match begins; ``events``: what the seat has seen so far."""

    def turn(self, turn: Turn, apply: Callable[[str], None]) -> None:
        """Answer ``turn``: call ``apply(action)`` (it raises :class:`IllegalAction`, the
        match unchanged, for an illegal one) or return without an applied action, and the
        default action is played for the seat."""

    def end(self, match_id: str, seat: int, outcome: game_pb2.Outcome, events: Sequence[game_pb2.Event] = ()) -> None:
        """The match is over; ``events``: the trailing events the seat saw since its last decision."""


class DecideSeat:
    """A ``decide`` function at the seat: it gets exactly what the SDK gives it online."""

    def __init__(self, decide: Decide) -> None:
        self.decide = decide
        self.seen: list[game_pb2.Event] = []
        self.typed: list[Event] = []  # the first of ``seen`` as values, as the SDK keeps them

    def start(self, match_id: str, seat: int, players: int, events: list[game_pb2.Event]) -> None:
        self.seen = list(events)  # match_start: the events the seat has seen when the match starts
        self.typed = []

    def turn(self, turn: Turn, apply: Callable[[str], None]) -> None:
        action = ask(self.decide, full_observation(self.seen, turn.pushed), turn.legal,
                     f"arena {turn.match_id} decision {turn.number}", self.typed)  # fmt: skip
        if action is not None:
            with contextlib.suppress(IllegalAction):
                apply(action)

    def end(self, match_id: str, seat: int, outcome: game_pb2.Outcome, events: Sequence[game_pb2.Event] = ()) -> None:
        self.seen = []
        self.typed = []


def play_one(author: Decide | AuthorSeat, opponents: Sequence[str], seat: int, players: int, seed: int, *,
             ruleset: str = "return", report: ArenaReport | None = None,
             match_id: str = "") -> tuple[bool, int]:  # fmt: skip
    """One match with the author's bot (a ``decide`` function or an :class:`AuthorSeat`) at
    ``seat`` and ``opponents`` (policy names, chosen at random) at the others; ``(won,
    identity)`` of the author's seat."""
    player: AuthorSeat = DecideSeat(author) if callable(author) else author
    match_id = match_id or f"arena-{seed}"
    game = Game.new(ruleset=ruleset, players=players, seed=seed)
    rng = random.Random(seed)
    others = {s: _policy_decide(rng.choice(list(opponents)), rng) for s in range(players) if s != seat}
    player.start(match_id, seat, players, [e.to_proto() for e in game.events_for(seat)])
    cursor = len(game.events)
    refused: list[str] = []  # the author's illegal answers to the current decision

    def apply(action: str) -> None:
        try:
            game.apply(seat, action)
        except IllegalAction:
            refused.append(action)
            raise

    while not game.is_over:
        p = game.pending
        assert p is not None
        legal = list(game.legal_texts(p.seat))
        if p.seat != seat:
            game.apply(p.seat, others[p.seat](game.observation(p.seat), legal))
            continue
        # a pushed decision: the observation plus the events since the seat's previous one
        pushed = game.observation(seat)
        pushed.events.extend(e.to_proto() for e in game.events[cursor:] if e.visible_to(seat))
        cursor = len(game.events)
        refused.clear()
        player.turn(Turn(match_id, seat, p.number, pushed, list(legal), str(game.default_action(seat))), apply)
        if report is not None:
            report.decisions += 1
            report.illegal += bool(refused)
        after = game.pending
        if not game.is_over and after is not None and after.number == p.number:  # nothing applied: the default
            if report is not None and not refused:
                report.defaults += 1
            game.apply(seat, game.default_action(seat))
    outcome = game.outcome
    assert outcome is not None
    outcome_pb = outcome.to_proto()
    player.end(match_id, seat, outcome_pb, [e.to_proto() for e in game.events[cursor:] if e.visible_to(seat)])
    identity = list(outcome_pb.identities)[seat]
    return seat in outcome.winners, identity


def play(
    decide: Decide | AuthorSeat | str,
    *,
    opponents: Sequence[str] = ("heuristic",),
    matches: int = 100,
    players: int = 5,
    ruleset: str = "return",
    seed: int = 1,
    progress: Callable[[int], None] | None = None,
) -> ArenaReport:
    """Play ``matches`` matches of ``ruleset`` at ``players`` seats, ``decide`` (a function,
    ``"module:function"`` or an :class:`AuthorSeat`) at a random seat, built-in ``opponents`` (``random``,
    ``heuristic``) at the others; the report of win rates per identity."""
    if isinstance(decide, str):
        decide = load(decide)
    if ruleset not in RULESET_IDS:
        raise ValueError(f"unknown ruleset {ruleset!r}: choose from {', '.join(RULESET_IDS)}")
    counts = sorted(get_ruleset(ruleset).identity_table)
    if players not in counts:
        raise ValueError(f"ruleset {ruleset!r} is played by {', '.join(map(str, counts))} players, not {players}")
    for name in opponents:
        if name not in POLICIES:
            raise ValueError(f"unknown bot {name!r}: choose from {', '.join(sorted(POLICIES))}")
    if not opponents or matches < 1:
        raise ValueError("need at least one opponent and one match")
    report = ArenaReport(ruleset, players, matches, list(opponents))
    rng = random.Random(seed)
    for i in range(matches):
        seat = rng.randrange(players)
        won, identity = play_one(decide, opponents, seat, players, rng.randrange(1, 2**62), ruleset=ruleset,
                                 report=report, match_id=f"arena-{i + 1}")  # fmt: skip
        name = game_pb2.Identity.Name(identity)
        for tally in (report.total, report.by_identity.setdefault(name, Tally())):
            tally.games += 1
            tally.wins += won
        if progress is not None:
            progress(i + 1)
    return report
