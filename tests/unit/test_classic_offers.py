"""The classic ruleset offers typed values, never notation text (issue 31 §1, issue 27 §1).

A skill's uses at a priority (:meth:`Skill.actions`) and at its "you may"
(:meth:`Skill.offers`), a card function's ``play`` actions and the legal actions of every
decision (``legal.legal_for``) are :class:`engine.action.Action` values. Checked two ways:
every override declares ``list[Action]``, and seeded random games with characters call
each working skill's ``actions`` at every decision and the asking skill's ``offers`` at
every ``trigger`` decision, and check the values they return.
"""

from __future__ import annotations

import inspect
import random
from collections import Counter

import pytest

from engine import Game
from engine.action import Action
from engine.rulesets.classic import legal
from engine.rulesets.classic.cards import FUNCTIONS
from engine.rulesets.classic.characters import SKILLS
from engine.rulesets.classic.characters.base import Skill, skills_of

#: Skill methods that list actions.
OFFERING = ("actions", "offers")


def _offering_methods() -> list[tuple[str, str]]:
    return [(type(sk).__name__, name) for sk in SKILLS.values() for name in OFFERING
            if getattr(type(sk), name) is not getattr(Skill, name)]


def test_overrides_declare_action_values() -> None:
    """Every skill override of ``actions`` / ``offers`` and every card function's
    ``actions`` is annotated ``list[Action]`` (text would be ``list[str]``)."""
    methods = _offering_methods()
    assert len(methods) >= 30, methods  # 15 priority skills, 20 trigger skills, 风度
    for cls_name, name in methods:
        sk = next(s for s in SKILLS.values() if type(s).__name__ == cls_name)
        ann = inspect.signature(getattr(sk, name)).return_annotation
        assert ann == "list[Action]", f"{cls_name}.{name} returns {ann}"
    for fn in FUNCTIONS.values():
        assert inspect.signature(fn.actions).return_annotation == "list[Action]", fn.id
    for f in (legal.priority_actions, legal.send_actions, legal.receive_actions):
        assert inspect.signature(f).return_annotation == "list[Action]", f.__name__
    assert inspect.signature(legal.legal_for).return_annotation == "Sequence[Action]"


def _values(got: object, where: str) -> None:
    assert isinstance(got, list), f"{where}: {type(got).__name__}"
    bad = [a for a in got if type(a) is not Action]
    assert not bad, f"{where} returned {bad!r}"


@pytest.mark.parametrize("seed", range(6))
def test_random_games_offer_only_action_values(seed: int) -> None:
    """At every decision of a seeded game: the legal actions, each working skill's
    ``actions`` for every living seat, and at a ``trigger`` decision the asking skill's
    ``offers`` are Action values."""
    players = 5 + seed % 5
    g = Game.new(ruleset="classic", players=players, seed=seed, characters=True)
    pick = random.Random(seed).choice
    st = g.state
    seen: Counter[str] = Counter()
    while not st.over and st.turn_number < 60:
        p = st.prompt
        assert p is not None
        _values(list(legal.legal_for(g, p)), f"legal_for at a {p.kind} decision")
        for seat in g.living():
            for sk in skills_of(g, seat):
                got = sk.actions(g, seat)
                _values(got, f"{sk.id}.actions")
                seen["actions"] += bool(got)
        if p.kind == "trigger" and st.stack[-1].kind == "skill_step":
            fr = st.stack[-1]
            got = SKILLS[fr.text].offers(g, p.seat, fr)
            _values(got, f"{fr.text}.offers")
            seen["offers"] += 1
        g.apply(p.seat, pick(g.legal_actions(p.seat)))
    assert seen["actions"] and seen["offers"], f"seed {seed}: nothing offered ({dict(seen)})"
