"""Classic's marks are typed records (engine/rulesets/classic/marks.py) like 再临's; the
colon-packed strings the classic ruleset wrote before them, through the ``State.flags``
view, still restore from a snapshot as the same typed marks."""

from __future__ import annotations

import inspect

from engine import Game
from engine import marks as core
from engine.marks import Placed, TypedMark, from_flags
from engine.rulesets import get_ruleset, ruleset_module
from engine.state import Mark, mark_from_flag

marks = ruleset_module("classic", "marks")

#: Each classic mark and the flag string the classic ruleset wrote for it before.
PACKED = [
    (marks.lured(2), "lured:2"),
    (marks.SENT, "sent"),
    (marks.SEND_BACK, "send_back"),
    (marks.saved(1), "saved:1"),
    (marks.lost(3), "game:lost:3"),
    (marks.once("huang_que_zai_hou", 2), "game:once:huang_que_zai_hou:2"),
    (marks.mission_done(4), "game:mission:4"),
    (Placed(), "game:placed"),
]


def test_classic_marks_have_typed_fields() -> None:
    assert marks.lost(3).record() == Mark("lost", seats=[3], lasting=True)
    assert marks.once("jiu_mei", 1).record() == Mark("once", seats=[1], words=["jiu_mei"], lasting=True)
    assert marks.lured(0).record() == Mark("lured", seats=[0])


def test_the_ruleset_lists_every_kind_and_tags_are_unique() -> None:
    defined = {obj for obj in vars(marks).values()
               if inspect.isclass(obj) and issubclass(obj, TypedMark) and obj is not TypedMark}
    assert set(get_ruleset("classic").mark_kinds) == defined
    tags = [k.tag for k in (*core.CORE_KINDS, *defined)]
    assert len(tags) == len(set(tags))


def test_old_classic_flag_strings_read_back_as_typed_marks() -> None:
    texts = [packed for _, packed in PACKED]
    assert from_flags(texts, get_ruleset("classic").mark_kinds) == [m.record() for m, _ in PACKED]
    assert [m.encode() for m, _ in PACKED] == texts


def test_per_turn_marks_clear_and_lasting_ones_stay() -> None:
    game = Game.new("classic", players=5, seed=1)
    st = game.state
    st.marks.clear()
    for mark, _ in PACKED:
        marks.add(st, mark)
    marks.add(st, marks.lured(2))  # made once only
    assert sum(1 for m in st.marks if m.tag == "lured") == 1
    marks.remove(st, marks.saved(1))
    assert not marks.has(st, marks.saved(1)) and marks.has(st, marks.lured(2))
    marks.clear_turn(st)
    assert [m for m, _ in PACKED if marks.has(st, m)] == [m for m, _ in PACKED if m.lasting]


def test_a_classic_snapshot_with_packed_mark_tags_restores_typed() -> None:
    """Before typed classic marks, ``st.flags.append("game:lost:3")`` stored
    ``Mark("lost:3", lasting=True)``: such a snapshot restores as :func:`marks.lost`."""
    game = Game.new("classic", players=5, seed=1)
    st = game.state
    st.marks[:] = [mark_from_flag(text) for _, text in PACKED]
    assert Mark("lost:3", lasting=True) in st.marks
    restored = Game.restore(game.snapshot())
    assert restored.state.marks == [m.record() for m, _ in PACKED]
    assert marks.has(restored.state, marks.lost(3)) and core.placed(restored.state)
    again = Game.restore(restored.snapshot())
    assert again.state == restored.state
