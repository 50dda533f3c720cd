"""Engine snapshots carry a format number (``Snapshot.format``, engine/snapshot.py ``FORMAT``)
and the engine reads its own format only: a snapshot of an older or newer format, or one
whose records do not have today's fields, is refused with
:class:`engine.errors.SnapshotFormatError` naming what it found, never upgraded or guessed
at (nothing is released: docs/operations.md, "Stored formats")."""

from __future__ import annotations

import hashlib

import pytest

from engine import Game
from engine.errors import SnapshotFormatError
from engine.rulesets import RULESET_IDS
from engine.snapshot import FORMAT, _field_names, record_types
from fengsheng.v1 import game_pb2

#: The record layout of each snapshot format (a digest of every record kind's field names in
#: order, the core's and every ruleset's own). A change to a state record's fields changes
#: what snapshots hold: bump ``FORMAT`` and pin the new layout here, so an engine never reads
#: another layout by the same number. 5: the rulesets' own records (``Seat.ext``/``State.ext``).
LAYOUTS = {3: "2f303c35c42f309b", 4: "8fa6cb7631b0ce67", 5: "8875605a8a50c0bf"}


def layout() -> str:
    kinds: dict[str, type] = {}
    for ruleset in RULESET_IDS:
        kinds.update(record_types(ruleset))
    text = ";".join(f"{kind}:{','.join(_field_names(cls))}" for kind, cls in sorted(kinds.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def snapshot_of(data: bytes) -> game_pb2.Snapshot:
    snap = game_pb2.Snapshot()
    snap.ParseFromString(data)
    return snap


def a_game() -> Game:
    game = Game.new("return", players=5, seed=3, characters=True)
    for _ in range(6):
        assert game.pending is not None
        seat = game.pending.seat
        game.apply(seat, game.legal_actions(seat)[0])
    return game


def test_the_record_layout_is_the_one_pinned_for_this_format() -> None:
    assert LAYOUTS.get(FORMAT) == layout(), (
        f"the state records' fields changed (layout {layout()}): bump engine.snapshot.FORMAT and pin "
        "the new layout in LAYOUTS")


def test_a_snapshot_names_its_format_and_restores() -> None:
    game = a_game()
    data = game.snapshot()
    assert snapshot_of(data).format == FORMAT
    assert Game.restore(data).state == game.state


@pytest.mark.parametrize("fmt", [0, 1, FORMAT - 1])
def test_an_older_format_is_refused_by_its_number(fmt: int) -> None:
    snap = snapshot_of(a_game().snapshot())
    snap.format = fmt
    with pytest.raises(SnapshotFormatError, match=f"format {fmt} was written by an older engine") as refused:
        Game.restore(snap.SerializeToString())
    assert (refused.value.found, refused.value.expected) == (fmt, FORMAT)
    assert f"reads snapshot format {FORMAT} only" in str(refused.value)


def test_a_newer_format_is_refused_by_its_number() -> None:
    snap = snapshot_of(a_game().snapshot())
    snap.format = FORMAT + 1
    with pytest.raises(SnapshotFormatError, match="written by a newer engine") as refused:
        Game.restore(snap.SerializeToString())
    assert refused.value.found == FORMAT + 1


def test_a_record_with_another_layout_is_refused_not_upgraded() -> None:
    """Format 1 kept marks as ``State.flags`` strings: such a field, even under today's
    number, is refused by name rather than read into marks."""
    snap = snapshot_of(a_game().snapshot())
    fields = list(snap.state.fields)
    del snap.state.fields[:]
    snap.state.fields.extend(f for f in fields if f.name != "marks")
    snap.state.fields.append(game_pb2.Field(name="flags", strs=game_pb2.StrList(values=["game:placed"])))
    refused = r"State is not today's: fields \['flags'\] unknown, \['marks'\] missing"
    with pytest.raises(SnapshotFormatError, match=refused):
        Game.restore(snap.SerializeToString())


def test_a_record_missing_a_field_is_refused() -> None:
    snap = snapshot_of(a_game().snapshot())
    fields = list(snap.state.fields)
    del snap.state.fields[:]
    snap.state.fields.extend(f for f in fields if f.name != "character_pool")
    with pytest.raises(SnapshotFormatError, match=r"\['character_pool'\] missing"):
        Game.restore(snap.SerializeToString())


def _ext_of_first_seat(snap: game_pb2.Snapshot) -> game_pb2.Record:
    (seats,) = [f for f in snap.state.fields if f.name == "seats"]
    (ext,) = [f for f in seats.records.values[0].fields if f.name == "ext"]
    return ext.record


def test_the_snapshot_carries_the_rulesets_own_records() -> None:
    """A 风声再临 seat's own fields travel as its ruleset's record (kind ``ReturnSeat``) and
    come back as that record; a field the record does not have is refused by name."""
    game = a_game()
    snap = snapshot_of(game.snapshot())
    rec = _ext_of_first_seat(snap)
    assert rec.kind == "ReturnSeat"
    assert [f.name for f in rec.fields] == ["relation", "secret_character"]
    back = Game.restore(game.snapshot()).state
    assert type(back.seats[0].ext).__name__ == "ReturnSeat" and back == game.state
    rec.fields.add(name="secret_task", str="cuan_duo_zhe")
    with pytest.raises(SnapshotFormatError, match=r"ReturnSeat is not today's: fields \['secret_task'\] unknown"):
        Game.restore(snap.SerializeToString())


def test_another_rulesets_record_is_refused() -> None:
    """A record kind of another ruleset (a 谍战篇 seat record in a 风声再临 snapshot) is not
    read: a snapshot holds only its own ruleset's records."""
    snap = snapshot_of(a_game().snapshot())
    _ext_of_first_seat(snap).kind = "SpySeat"
    with pytest.raises(SnapshotFormatError, match="record of unknown kind 'SpySeat'"):
        Game.restore(snap.SerializeToString())


def test_bytes_that_are_not_a_snapshot_are_refused() -> None:
    with pytest.raises(SnapshotFormatError, match="not a snapshot") as refused:
        Game.restore(b"\xff\xff\xff")
    assert refused.value.found == 0
    with pytest.raises(SnapshotFormatError, match="snapshot format 0"):
        Game.restore(b"")

