"""风声再临's skills offer typed actions (issue 31 §1, issue 27 §1): a skill's ``actions``
(uses at a priority point) and ``offers`` (uses at a trigger window) return
:class:`engine.action.Action` values naming that skill, never notation text, and the
ruleset's ``legal_for`` lists only values at every decision. Checked at the source, the
skill objects themselves, at every decision of seeded random games with characters on."""

from __future__ import annotations

import importlib
import random
from collections import Counter

import pytest

from engine import Game
from engine.action import Action
from engine.rulesets import PACKAGES, get_ruleset

SKILLS = importlib.import_module(PACKAGES["return"] + ".skills")

#: Decision kinds where the play / response / arrival / turn-start skills are asked
#: (legal.py: the decision kind is the skills' context word).
CONTEXTS = ("main", "respond", "returned", "arrive", "turn_start")


def bad_offers(offered: list[object], sid: str) -> list[object]:
    """The entries of a skill's offer list that are not a ``skill SID …`` Action value."""
    return [a for a in offered if type(a) is not Action or a.kind != "skill" or a.skill != sid]


def source_offers(game: Game) -> list[tuple[str, list[object]]]:
    """(skill id, what it offers) for every skill the seat to act has that the ruleset
    asks at this decision (as legal.py / triggers.py do)."""
    st = game.state
    p = st.prompt
    assert p is not None
    out: list[tuple[str, list[object]]] = []
    if not st.characters or not st.seats[p.seat].alive:
        return out
    for sid in SKILLS.skills_of(game, p.seat):
        skill = SKILLS.SKILLS[sid]
        if p.kind in CONTEXTS and SKILLS.usable(game, p.seat, sid):
            out.append((sid, list(skill.actions(game, p.seat, p.kind))))
        elif p.kind == "trigger":
            ev = st.stack[-1]
            if ev.text in skill.windows and SKILLS.usable(game, p.seat, sid, ev.stage):
                out.append((sid, list(skill.offers(game, p.seat, ev))))
    return out


def test_the_check_catches_text() -> None:
    """A notation suffix or a whole text line is caught (this test's check can fail)."""
    assert bad_offers(["", " to 3", "skill sha_yi"], "sha_yi") == ["", " to 3", "skill sha_yi"]
    assert bad_offers([Action("skill", skill="liang_jian")], "sha_yi")
    assert not bad_offers([Action("skill", skill="sha_yi", to=(2,))], "sha_yi")


@pytest.mark.parametrize("first", [0, 40])
def test_skills_and_legal_for_give_values(first: int) -> None:
    legal_for = get_ruleset("return").legal_for
    offered: Counter[str] = Counter()
    for seed in range(first, first + 40):
        game = Game.new(ruleset="return", players=3 + seed % 5, seed=seed, characters=True)
        pick = random.Random(seed ^ 0x5EED).choice
        st = game.state
        while not st.over and st.turn_number <= 200:
            p = st.prompt
            assert p is not None
            for sid, found in source_offers(game):
                assert not bad_offers(found, sid), (seed, p.kind, sid, found)
                offered[sid] += len(found)
            raw = legal_for(game, p)
            assert all(type(a) is Action for a in raw), (seed, p.kind, [a for a in raw if type(a) is not Action])
            game.apply(p.seat, pick(game.legal_actions(p.seat)))
    # The walk reaches skills of every kind: play-phase, response, turn-start and triggers.
    assert len(offered) >= 25, sorted(offered)
