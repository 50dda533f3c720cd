"""Classic's marks are typed records (engine/rulesets/classic/marks.py) like 再临's, and
restore from a snapshot as themselves."""

from __future__ import annotations

import inspect

from engine import Game
from engine import marks as core
from engine.marks import Placed, TypedMark
from engine.rulesets import get_ruleset, ruleset_module
from engine.state import Mark

marks = ruleset_module("classic", "marks")

#: One of each classic mark, and the core's.
MARKS = [
    marks.lured(2),
    marks.SENT,
    marks.SEND_BACK,
    marks.saved(1),
    marks.lost(3),
    marks.once("huang_que_zai_hou", 2),
    marks.mission_done(4),
    Placed(),
]


def test_classic_marks_have_typed_fields() -> None:
    assert marks.lost(3).record() == Mark("lost", seats=[3], lasting=True)
    assert marks.once("jiu_mei", 1).record() == Mark("once", seats=[1], words=["jiu_mei"], lasting=True)
    assert marks.lured(0).record() == Mark("lured", seats=[0])


def test_the_ruleset_lists_every_kind_and_tags_are_unique() -> None:
    defined = {obj for obj in vars(marks).values()
               if inspect.isclass(obj) and issubclass(obj, TypedMark) and obj.__module__ == marks.__name__}
    assert set(get_ruleset("classic").mark_kinds) == defined
    tags = [k.tag for k in (*core.CORE_KINDS, *defined)]
    assert len(tags) == len(set(tags))


def test_per_turn_marks_clear_and_lasting_ones_stay() -> None:
    game = Game.new("classic", players=5, seed=1)
    st = game.state
    st.marks.clear()
    for mark in MARKS:
        marks.add(st, mark)
    marks.add(st, marks.lured(2))  # made once only
    assert sum(1 for m in st.marks if m.tag == "lured") == 1
    marks.remove(st, marks.saved(1))
    assert not marks.has(st, marks.saved(1)) and marks.has(st, marks.lured(2))
    marks.clear_turn(st)
    assert [m for m in MARKS if marks.has(st, m)] == [m for m in MARKS if m.lasting]


def test_classic_marks_restore_from_a_snapshot_as_themselves() -> None:
    game = Game.new("classic", players=5, seed=1)
    st = game.state
    st.marks.clear()
    for mark in MARKS:
        marks.add(st, mark)
    restored = Game.restore(game.snapshot())
    assert restored.state.marks == [m.record() for m in MARKS]
    assert marks.has(restored.state, marks.lost(3)) and core.placed(restored.state)
