"""The classic ruleset offers typed values, never notation text (issue 31 §1, issue 27 §1).

A skill's uses at a priority (:meth:`Skill.actions`), at its "you may"
(:meth:`Skill.offers`) and the options of its ``choose`` steps (:meth:`Skill.choices`), a
card function's ``play`` actions and ``choose`` options, and the legal actions of every
decision (``legal.legal_for``) are :class:`engine.action.Action` values. Checked two ways:
every override declares ``list[Action]``, and seeded random games with characters call
each working skill's ``actions`` at every decision and the asking skill's ``offers`` /
``choices`` at every ``trigger`` / ``choose`` decision, and check the values they return.
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
OFFERING = ("actions", "offers", "choices")


def _offering_methods() -> list[tuple[str, str]]:
    return [(type(sk).__name__, name) for sk in SKILLS.values() for name in OFFERING
            if getattr(type(sk), name) is not getattr(Skill, name)]


def test_overrides_declare_action_values() -> None:
    """Every skill override of ``actions`` / ``offers`` and every card function's
    ``actions`` is annotated ``list[Action]`` (text would be ``list[str]``)."""
    methods = _offering_methods()
    assert len(methods) >= 40, methods  # 15 priority skills, 20 trigger skills, 风度, 11 choices
    for cls_name, name in methods:
        sk = next(s for s in SKILLS.values() if type(s).__name__ == cls_name)
        ann = inspect.signature(getattr(sk, name)).return_annotation
        assert ann == "list[Action]", f"{cls_name}.{name} returns {ann}"
    for fn in FUNCTIONS.values():
        for name in ("actions", "choices"):
            assert inspect.signature(getattr(fn, name)).return_annotation == "list[Action]", (fn.id, name)
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
        fr = st.stack[-1] if st.stack else None
        if p.kind == "trigger" and fr is not None and fr.kind == "skill_step":
            _values(SKILLS[fr.text].offers(g, p.seat, fr), f"{fr.text}.offers")
            seen["offers"] += 1
        if p.kind == "choose" and fr is not None and fr.kind in ("skill_step", "card_step"):
            owner = SKILLS[fr.text] if fr.kind == "skill_step" else FUNCTIONS[fr.text]
            got = owner.choices(g, p.seat, fr)
            _values(got, f"{fr.text}.choices")
            assert got, f"{fr.text}: a choose decision with no options"
            seen["choices"] += 1
        g.apply(p.seat, pick(g.legal_actions(p.seat)))
    assert seen["actions"] and seen["offers"], f"seed {seed}: nothing offered ({dict(seen)})"


def test_some_game_asks_a_choose() -> None:
    """The random games above reach ``choose`` decisions of skills and cards (the check
    is not vacuous)."""
    for seed in range(6):
        g = Game.new(ruleset="classic", players=5 + seed % 5, seed=seed, characters=True)
        pick = random.Random(seed).choice
        while not g.state.over and g.state.turn_number < 60:
            p = g.state.prompt
            assert p is not None
            if p.kind == "choose" and g.state.stack[-1].kind in ("skill_step", "card_step"):
                return
            g.apply(p.seat, pick(g.legal_actions(p.seat)))
    pytest.fail("no choose decision of a skill or a card in six games")
