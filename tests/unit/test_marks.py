"""Marks are typed records (engine/marks.py) stored in ``State.marks`` as ``Mark`` records
with typed fields; the old ``tag:field:field`` flag strings are read back from snapshots
written before them, and ``State.flags`` still offers that string form for code written
against it."""

from __future__ import annotations

import dataclasses
import inspect
from typing import ClassVar

import pytest

from engine import marks as core
from engine.marks import Placed, SeatNo, TypedMark, from_flags
from engine.rulesets import get_ruleset, ruleset_module
from engine.state import PLACED, Mark, State, flag_of

marks = ruleset_module("return", "marks")

#: A mark and the string snapshots written before the typed marks hold for it.
PACKED = [
    (marks.Acted(2), "acted:2"),
    (marks.Sent(0, 41), "sent:0:41"),
    (marks.DrawSet(4), "draw_set:4"),
    (marks.DrawSet(0), "draw_set:0"),
    (marks.DrawExtra(1), "draw_extra:1"),
    (marks.SendExtra(), "send_extra"),
    (marks.SendExtraUsed(), "send_extra_used"),
    (marks.SendAnyMode(), "send_any_mode"),
    (marks.QiaoZhuang(1, 3, "ji_min"), "qiao_zhuang:1:3:ji_min"),
    (marks.Superseded(24, 57), "superseded:24:57"),
    (marks.Declared(4, "draw"), "yi_ai_xuan_ming:4:draw"),
    (marks.QiChe(2, 30), "qi_che_bao_shuai:2:30"),
    (marks.XianSuoStep(5), "xian_suo:step:5"),
    (marks.XianJiFour(), "xian_ji_hou_zhi:four"),
    (Placed(), PLACED),
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
    for mark, _ in PACKED:
        marks.add(st, mark)
    for mark, _ in PACKED:
        kind = type(mark)
        assert marks.has(st, mark)
        assert marks.find(st, kind) == [m for m, _ in PACKED if type(m) is kind]
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


def test_old_flag_strings_read_back_as_typed_marks() -> None:
    """What a snapshot written before typed marks holds in ``State.flags`` becomes the same
    marks today's engine would have made; a string no kind reads is kept whole."""
    kinds = get_ruleset("return").mark_kinds
    texts = [packed for _, packed in PACKED]
    assert from_flags(texts, kinds) == [mark.record() for mark, _ in PACKED]
    assert [mark.encode() for mark, _ in PACKED] == texts
    kept = from_flags(["game:other:1", "unknown:2:x"], kinds)
    assert kept == [Mark("other:1", lasting=True), Mark("unknown:2:x")]
    assert [flag_of(m) for m in kept] == ["game:other:1", "unknown:2:x"]


def test_the_ruleset_lists_every_kind_and_tags_are_unique() -> None:
    defined = {obj for obj in vars(marks).values()
               if inspect.isclass(obj) and issubclass(obj, TypedMark) and obj is not TypedMark}
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


def test_the_flag_strings_view_still_reads_and_writes_marks() -> None:
    """``State.flags`` (the compatibility path for code written against flag strings)."""
    st = empty_state()
    marks.add(st, marks.QiaoZhuang(1, 3, "ji_min"))
    st.flags.append(PLACED)
    st.flags.append("mine:4")
    assert list(st.flags) == ["qiao_zhuang:1:3:ji_min", "game:placed", "mine:4"]
    assert st.flags == ["qiao_zhuang:1:3:ji_min", "game:placed", "mine:4"]
    assert "mine:4" in st.flags and st.flags.count("mine:4") == 1 and st.flags[-1] == "mine:4"
    assert core.placed(st)  # the core sees the PLACED string as its typed mark
    st.flags.remove("mine:4")
    assert len(st.flags) == 2
    st.flags[:] = [f for f in st.flags if f.startswith("game:")]
    assert st.marks == [Mark("placed", lasting=True)]
    st.flags = ["a:1", "game:b"]
    assert st.marks == [Mark("a:1"), Mark("b", lasting=True)]
    marks.end_turn(st)
    assert st.flags == ["game:b"]
