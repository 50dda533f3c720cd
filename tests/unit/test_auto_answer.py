"""Only real decisions reach a person (issue 28 point 1; services/engine/answer_window.py):
the engine service answers a person's decision for them exactly when it has one legal
action (``pass``, a forced ``accept`` of the intel, a lone ``declare``/``choose``/``send``),
and never one where the seat has two or more distinct actions to choose between.

Checked on the predicate (:meth:`AnswerWindow.only_answer`) over arbitrary action lists, on
the service's task choice (``MatchService._task_for``) at every decision of random games of
every ruleset, and on the auto-answer itself: it applies the decision's one action, whatever
its kind, with origin ``auto``. The timing side (the uniform window) is
tests/integration/test_answer_window.py.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game
from engine.action import PASS
from engine.errors import SetupError
from engine.notation import parse
from engine.rulesets import RULESET_IDS
from fengsheng.v1 import engine_service_pb2 as es
from services.engine.answer_window import AnswerWindow
from services.engine.fake_store import FakeMatchStore
from services.engine.matches import MatchService
from services.engine.scheduler import RecordingScheduler

#: actions of every kind, as the rulesets list them
POOL = [parse(t) for t in ("pass", "accept", "decline", "declare", "play 3", "play 3 to 2", "send 7 secret to 1",
                           "choose 4", "choose 5", "choose left", "skill jiu_ji to 2")]  # fmt: skip


class _NoAsks:
    """The Redis of a match whose seats all keep auto-pass on (answer_window.asks reads it)."""

    async def hexists(self, key: str, field: str) -> bool:
        return False


def _service(*, auto_pass: bool = True) -> MatchService:
    """A service that answers for people (a scheduler, a Redis stand-in) with no window."""
    store = FakeMatchStore()
    store.redis = _NoAsks()
    return MatchService(store, RecordingScheduler(), window=AnswerWindow(0, 0, auto_pass=auto_pass))  # type: ignore[arg-type]


@given(st.lists(st.sampled_from(POOL), max_size=5))
def test_only_answer_is_the_one_distinct_legal_action(legal: list[Any]) -> None:
    only = AnswerWindow.only_answer(legal)
    if len(set(legal)) == 1:
        assert only == legal[0]
    else:
        assert only is None  # none, or a real choice between two or more actions
    assert AnswerWindow.pass_only(legal) == (legal == [PASS])


@settings(max_examples=12, deadline=None)
@given(ruleset=st.sampled_from(RULESET_IDS), seed=st.integers(0, 10_000), players=st.integers(3, 7))
def test_the_service_answers_exactly_the_single_action_decisions(ruleset: str, seed: int, players: int) -> None:
    """At every decision of a random all-human game: the service's task is ``auto`` exactly
    when the seat has one legal action; with two or more it is asked (no task here)."""
    try:
        game = Game.new(ruleset=ruleset, players=players, seed=seed, characters=True)
    except SetupError:
        return
    svc = _service()
    table = es.MatchSettings(ruleset=ruleset, players=players, seats=[es.HUMAN] * players)
    rng = random.Random(seed)
    seen = {True: 0, False: 0}
    while game.pending is not None:
        seat = game.pending.seat
        legal = game.legal_actions(seat)
        single = len(set(legal)) == 1
        assert (svc._task_for(game, table) == "auto") == single, (game.pending.kind, [str(a) for a in legal])
        seen[single] += 1
        game.apply(seat, rng.choice(legal))
    assert seen[True] and seen[False], seen
    # the platform's switch: nothing is answered for anyone
    assert _service(auto_pass=False)._task_for(Game.new(ruleset=ruleset, players=players, seed=seed,
                                                        characters=True), table) != "auto"  # fmt: skip


def test_a_forced_answer_other_than_pass_is_applied_for_the_seat() -> None:
    """A 风声再临 game played to a decision whose one legal action is not ``pass`` (a forced
    accept, a lone declare …): the auto-answer applies exactly that action, origin ``auto``."""

    async def main() -> None:
        svc = _service(auto_pass=False)  # play the seats ourselves up to the decision
        match_id, p = await svc.create_match(es.MatchSettings(ruleset="return", players=5, seed=5,
                                                              seats=[es.HUMAN] * 5, characters=True))  # fmt: skip
        rng = random.Random(5)
        for _ in range(2000):
            legal = list((await svc.legal_actions(match_id, p.seat)).actions)
            if len(legal) == 1 and legal != ["pass"]:
                break
            p = (await svc.act(match_id, p.seat, p.number, rng.choice(legal))).pending
        else:
            raise AssertionError("no forced non-pass decision in the game")
        svc.window = AnswerWindow(0, 0, auto_pass=True)
        await svc._auto_act(match_id, p.seat, p.number)
        last = (await svc.store.history(match_id))[-1]
        assert (last.decision, last.seat, last.origin, last.action) == (p.number, p.seat, "auto", legal[0])

    asyncio.run(main())
