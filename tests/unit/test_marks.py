"""Skill marks are typed records; their packing in ``State.flags`` is the snapshot format
and must not change (old snapshots hold these exact strings)."""

from __future__ import annotations

from engine.rulesets import ruleset_module
from engine.state import State

marks = ruleset_module("return", "marks")

#: A mark and the string snapshots written before the typed marks hold for it.
PACKED = [
    (marks.Acted(2), "acted:2"),
    (marks.Sent(0, 41), "sent:0:41"),
    (marks.DrawSet(4), "draw_set:4"),
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
]


def empty_state() -> State:
    return State(ruleset="return", players=3, seed=0, tutorial=False, characters=True, rng=0, seats=[])


def test_marks_pack_as_the_snapshot_format_and_read_back() -> None:
    st = empty_state()
    for mark, packed in PACKED:
        marks.add(st, mark)
        assert st.flags[-1] == packed
    for mark, _ in PACKED:
        assert marks.find(st, type(mark)) == [mark]
        assert marks.has(st, mark)


def test_marks_of_one_kind_do_not_match_another() -> None:
    st = empty_state()
    st.flags = ["xian_suo:step:5", "sent:0:41", "send_extra_used", "game:placed"]
    assert marks.find(st, marks.Sent) == [marks.Sent(0, 41)]
    assert marks.count(st, marks.SendExtra()) == 0 and marks.count(st, marks.SendExtraUsed()) == 1
    marks.remove(st, marks.Sent, marks.XianSuoStep)
    assert st.flags == ["send_extra_used", "game:placed"]
