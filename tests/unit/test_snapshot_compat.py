"""Snapshots written before the engine core moved 风声再临 into engine/rulesets/return/
(commit a46b44c) still restore, and the restored match continues exactly as it did then:
the same actions give byte-identical snapshots. The fixture holds games with and without
characters, stopped at a response point, an intel arrival and the character choice.

Snapshot format 1 kept marks as ``State.flags`` strings and 再临's ``Kill.non_agent``;
format 2 keeps typed ``Mark`` records and derives "non-agent" from ``Kill.identity``: a
format-1 snapshot restores as the same match (the fixture is format 1, and so is the
rewritten snapshot below). Format 3 gives a frame its own ``event`` and ``function``: a
谍战篇 trigger window of format 2 (``text`` = ``SKILL EVENT FUNCTION``) restores as the
same frame."""

from __future__ import annotations

import base64
import dataclasses
import json
from pathlib import Path

import pytest

from engine import Game
from engine.marks import add, find
from engine.marks import placed as characters_placed
from engine.rulesets import ruleset_module
from engine.snapshot import FORMAT, _from_record
from engine.state import Kill, flag_of
from fengsheng.v1 import game_pb2

FIXTURE = json.loads((Path(__file__).parent / "data" / "snapshots_a46b44c.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", FIXTURE["games"], ids=lambda g: f"seed{g['seed']}-{g['players']}p")
def test_an_old_snapshot_restores_and_continues_the_same(game: dict[str, object]) -> None:
    restored = Game.restore(base64.b64decode(str(game["snapshot"])))
    assert restored.state.ruleset == "return"
    assert restored.ruleset.id == "return"
    pending = restored.pending
    assert (pending.kind if pending else None) == game["pending_kind_at_snapshot"]
    actions = game["actions"]
    assert isinstance(actions, list) and actions
    for seat, action in actions:
        assert action in restored.legal_texts(seat)
        restored.apply(seat, action)
    then = Game.restore(base64.b64decode(str(game["after"])))
    # The game state continues exactly as it did then, all but the count of log lines: skill
    # lines that name hand cards still hidden now show them only to their user and holders
    # and "?" to the rest (docs/rule-decisions.md §17, docs/security/leaks.md), one line each.
    assert dataclasses.replace(restored.state, event_count=0) == dataclasses.replace(then.state, event_count=0)
    assert restored.state.event_count >= then.state.event_count


def _old_form(data: bytes) -> bytes:
    """A snapshot of today's engine rewritten the way the engine before typed marks wrote
    it: ``State.flags`` strings instead of ``State.marks`` records, and ``Kill.non_agent``
    (再临's "the dead player was not an agent") before ``Kill.identity``."""
    snap = game_pb2.Snapshot()
    snap.ParseFromString(data)
    assert snap.format == FORMAT
    snap.format = 1
    for field in snap.state.fields:
        if field.name == "marks":
            texts = [flag_of(_from_record(r)) for r in field.records.values]
            field.Clear()
            field.name = "flags"
            field.strs.values.extend(texts)
        elif field.name == "kills":
            for kill in field.records.values:
                fields = list(kill.fields)
                identity = next(f.str for f in fields if f.name == "identity")
                old = game_pb2.Field(name="non_agent", flag=identity != "agent")
                del kill.fields[:]
                kill.fields.extend([f for f in fields if f.name != "identity"] + [old]
                                   + [f for f in fields if f.name == "identity"])
    out: bytes = snap.SerializeToString(deterministic=True)
    return out


def test_a_snapshot_with_flag_strings_and_non_agent_kills_restores_as_typed_marks() -> None:
    marks = ruleset_module("return", "marks")
    game = Game.new("return", players=5, seed=3, characters=True)
    while game.pending is not None and not characters_placed(game.state):
        seat = game.pending.seat
        game.apply(seat, game.legal_actions(seat)[0])
    st = game.state
    assert game.pending is not None
    add(st, marks.QiaoZhuang(1, 3, "ji_min"))
    add(st, marks.Sent(0, 41))
    add(st, marks.DrawSet(0))
    st.kills.append(Kill(2, [0], "burn", 1, "military"))
    st.kills.append(Kill(4, [1], "", 0, "agent"))
    data = game.snapshot()
    old = _old_form(data)
    assert old != data and b"qiao_zhuang:1:3:ji_min" in old and b"non_agent" in old
    restored = Game.restore(old)
    assert restored.state == st
    assert find(restored.state, marks.QiaoZhuang) == [marks.QiaoZhuang(1, 3, "ji_min")]
    assert restored.snapshot() == data
    # 蝮蛇's "non-agent" is read from the dead player's identity.
    assert [k.identity != "agent" for k in restored.state.kills] == [True, False]


def test_a_snapshot_of_an_unknown_format_is_refused() -> None:
    snap = game_pb2.Snapshot()
    snap.ParseFromString(Game.new("return", players=5, seed=3).snapshot())
    snap.format = FORMAT + 1
    with pytest.raises(ValueError, match=f"format {FORMAT + 1}"):
        Game.restore(snap.SerializeToString())


def test_an_old_kill_without_identity_takes_the_dead_seats() -> None:
    game = Game.new("return", players=5, seed=3)
    game.state.kills.append(Kill(2, [0], "burn", 1, ""))
    restored = Game.restore(game.snapshot())
    assert restored.state.kills[0].identity == game.state.seats[2].identity != ""


def test_used_skill_keys_of_an_old_snapshot_restore_as_used_marks() -> None:
    """再临 kept "skill used at this timing" as ``skill@seat@window`` strings in
    ``State.used``; they restore as its typed ``Used`` marks, and the skill stays used."""
    marks = ruleset_module("return", "marks")
    skills = ruleset_module("return", "skills")
    game = Game.new("return", players=5, seed=3, characters=True)
    st = game.state
    add(st, marks.Used("ji_min", 1, 7))
    add(st, marks.Used("qiao_zhuang", 2, 9))
    data = game.snapshot()
    snap = game_pb2.Snapshot()
    snap.ParseFromString(data)
    for field in snap.state.fields:
        if field.name == "marks":
            kept = [r for r in field.records.values if _from_record(r).tag != "used"]
            del field.records.values[:]
            field.records.values.extend(kept)
    old = game_pb2.StrList(values=["ji_min@1@7", "qiao_zhuang@2@9"])
    snap.state.fields.append(game_pb2.Field(name="used", strs=old))
    restored = Game.restore(snap.SerializeToString())
    assert find(restored.state, marks.Used) == [marks.Used("ji_min", 1, 7), marks.Used("qiao_zhuang", 2, 9)]
    assert restored.state == st
    assert not skills.once_per_turn(restored, 2, "qiao_zhuang") and skills.once_per_turn(restored, 1, "qiao_zhuang")


def _format_2_frames(data: bytes) -> bytes:
    """A snapshot of today's engine rewritten the way format 2 wrote its frames: no
    ``event`` / ``function`` fields, a ``spy_trigger`` frame's ``text`` the line ``SKILL
    EVENT FUNCTION`` (``-``: no function)."""
    snap = game_pb2.Snapshot()
    snap.ParseFromString(data)
    snap.format = 2
    stack = next(f for f in snap.state.fields if f.name == "stack")
    for frame in stack.records.values:
        fields = {f.name: f for f in frame.fields}
        kept = [f for f in frame.fields if f.name not in ("event", "function")]
        if fields["kind"].str == "spy_trigger":
            text = next(f for f in kept if f.name == "text")
            text.str = f"{text.str} {fields['event'].str} {fields['function'].str or '-'}"
        del frame.fields[:]
        frame.fields.extend(kept)
    out: bytes = snap.SerializeToString(deterministic=True)
    return out


def test_a_format_2_spy_trigger_window_restores_with_its_event_and_function() -> None:
    from fengsheng.simulate import play_random

    found: list[bytes] = []

    def check(g: Game, decisions: int) -> None:
        if not found and any(f.kind == "spy_trigger" and f.function for f in g.state.stack):
            found.append(g.snapshot())

    for seed in range(40):
        play_random(seed, 5 + seed % 4, check=check, characters=True, ruleset="spy")
        if found:
            break
    assert found, "no 谍战篇 game reached a trigger window on a card use"
    data = found[0]
    old = _format_2_frames(data)
    assert old != data and b"spy_trigger" in old
    restored = Game.restore(old)
    triggers = [f for f in restored.state.stack if f.kind == "spy_trigger"]
    assert triggers and all(f.event and " " not in f.text for f in triggers)
    assert restored.snapshot() == data
