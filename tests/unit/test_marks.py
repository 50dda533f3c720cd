"""Marks are typed records (engine/marks.py) stored in ``State.marks`` as ``Mark`` records
with typed fields, which is also their snapshot form."""

from __future__ import annotations

import dataclasses
import inspect
from typing import ClassVar

import pytest

from engine import marks as core
from engine.marks import Placed, SeatNo, TypedMark
from engine.rulesets import get_ruleset, ruleset_module
from engine.state import Mark, State

marks = ruleset_module("return", "marks")

#: One mark of each kind of the ruleset and the core.
MARKS = [
    marks.Acted(2),
    marks.Sent(0, 41),
    marks.DrawSet(4),
    marks.DrawSet(0),
    marks.DrawExtra(1),
    marks.SendExtra(),
    marks.SendExtraUsed(),
    marks.SendAnyMode(),
    marks.QiaoZhuang(1, 3, "ji_min"),
    marks.Superseded(24, 57),
    marks.Declared(4, "draw"),
    marks.QiChe(2, 30),
    marks.XianSuoStep(5),
    marks.XianJiFour(),
    Placed(),
]


def empty_state() -> State:
    return State(ruleset="return", players=3, seed=0, tutorial=False, characters=True, rng=0, seats=[])


def test_marks_are_stored_as_records_with_typed_fields() -> None:
    st = empty_state()
    core.add(st, marks.QiaoZhuang(1, 3, "ji_min"))
    core.add(st, marks.Sent(0, 41))
    core.add(st, marks.DrawSet(0))
    core.add(st, Placed())
    assert st.marks == [
        Mark("qiao_zhuang", seats=[1, 3], words=["ji_min"]),
        Mark("sent", seats=[0], cards=[41]),
        Mark("draw_set", numbers=[0]),
        Mark("placed", lasting=True),
    ]


def test_every_mark_reads_back_as_itself() -> None:
    st = empty_state()
    for mark in MARKS:
        marks.add(st, mark)
    for mark in MARKS:
        kind = type(mark)
        assert marks.has(st, mark)
        assert marks.find(st, kind) == [m for m in MARKS if type(m) is kind]
    assert not marks.has(st, marks.Sent(0, 42))
    assert not marks.has(st, marks.QiaoZhuang(3, 1, "ji_min"))


def test_marks_of_one_kind_do_not_match_another() -> None:
    st = empty_state()
    for mark in (marks.XianSuoStep(5), marks.Sent(0, 41), marks.SendExtraUsed(), Placed()):
        marks.add(st, mark)
    assert marks.find(st, marks.Sent) == [marks.Sent(0, 41)]
    assert marks.count(st, marks.SendExtra()) == 0 and marks.count(st, marks.SendExtraUsed()) == 1
    marks.remove(st, marks.Sent, marks.XianSuoStep)
    assert st.marks == [Mark("send_extra_used"), Mark("placed", lasting=True)]
    marks.end_turn(st)
    assert st.marks == [Mark("placed", lasting=True)] and core.placed(st)


def test_the_ruleset_lists_every_kind_and_tags_are_unique() -> None:
    defined = {obj for obj in vars(marks).values()
               if inspect.isclass(obj) and issubclass(obj, TypedMark) and obj.__module__ == marks.__name__}
    assert set(get_ruleset("return").mark_kinds) == defined
    tags = [k.tag for k in (*core.CORE_KINDS, *defined)]
    assert len(tags) == len(set(tags))


def test_a_mark_field_must_say_what_it_holds() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Untyped(TypedMark):
        tag: ClassVar[str] = "untyped"
        seat: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Typed(TypedMark):
        tag: ClassVar[str] = "typed"
        seat: SeatNo

    st = empty_state()
    with pytest.raises(TypeError, match="SeatNo"):
        core.add(st, Untyped(1))
    core.add(st, Typed(1))
    with pytest.raises(ValueError, match="fields"):
        core.find(st, type("Wrong", (marks.Sent,), {"tag": "typed"}))
