"""The full state as protobuf bytes (``fengsheng.v1.Snapshot``) and back.

The state is a tree of slotted dataclasses whose fields are ints, strs, bools, lists of
those, nested records or None (:mod:`engine.state`). It is written field by field, in
declaration order, as generic ``Record`` messages, so serialisation is deterministic and a
new state field needs no snapshot code. The ruleset's own records (``Seat.ext``,
``State.ext``: ``Ruleset.seat_record`` / ``match_record``) are records like the core's,
named by their class: a snapshot is read with the record kinds of the ruleset it names.

Every snapshot carries its :data:`FORMAT`; this engine reads its own format only and
refuses any other with :class:`engine.errors.SnapshotFormatError` (so does a record whose
fields are not today's). Changing a record's fields changes the format: bump
:data:`FORMAT` (tests/unit/test_snapshot_format.py pins each format's field layout).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine import state as S
from engine.action import Action
from engine.errors import SetupError, SnapshotFormatError
from engine.notation import parse
from engine.rulesets import get_ruleset
from fengsheng.v1 import game_pb2

#: The one format this engine writes and reads. 5: the fields only some rulesets have live in
#: the ruleset's own records (``Seat.ext`` / ``State.ext``); the lost-player mark is the core's
#: (tag ``lost`` in every ruleset). (4: a prompt is a template key with typed arguments, a
#: ``Frame`` keeps a trigger window's event and card function, the outcome's end reason and
#: the deaths' order are fields; marks are typed ``Mark`` records.) 1-4 are refused, as is
#: any later one.
FORMAT = 5
#: The core's record kinds (every ruleset's snapshot may hold them).
RECORD_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (S.Seat, S.Transit, S.Item, S.Frame, S.Prompt, S.Kill, S.Mark, S.State, S.SeatExt, S.MatchExt)
}


def record_types(ruleset: str) -> dict[str, type[Any]]:
    """The record kinds a snapshot of ``ruleset`` may hold: the core's and the ruleset's own
    (:class:`SnapshotFormatError` for a ruleset this engine does not know)."""
    try:
        rules = get_ruleset(ruleset)
    except SetupError as exc:
        raise _refused(f"snapshot of an unknown ruleset {ruleset!r}", FORMAT) from exc
    kinds = dict(RECORD_TYPES)
    for cls in (rules.seat_record, rules.match_record):
        found = kinds.setdefault(cls.__name__, cls)
        if found is not cls:
            raise TypeError(f"ruleset {ruleset!r}: record kind {cls.__name__} is already the core's")
    return kinds


def _field_names(cls: type[Any]) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


_FIELD_NAMES: dict[type[Any], tuple[str, ...]] = {}
#: The record kind of a prompt's arguments (``Prompt.args``: name -> typed value).
ARGS = "args"


def _to_record(obj: Any) -> game_pb2.Record:
    """``obj`` as a generic record."""
    rec = game_pb2.Record()
    _fill(rec, obj)
    return rec


def _fill(rec: game_pb2.Record, obj: Any) -> None:
    """Write ``obj`` into the empty ``rec`` (nested records are written in place)."""
    rec.kind = type(obj).__name__
    add = rec.fields.add
    for name in _field_names(type(obj)):
        value = getattr(obj, name)
        field = add()
        field.name = name
        if value is None:
            field.none = True
        elif value is True or value is False:
            field.flag = value
        elif isinstance(value, int):
            if value >= 1 << 63:
                field.big = value
            else:
                field.int = value
        elif isinstance(value, str):
            field.str = value
        elif isinstance(value, Action):
            field.str = str(value)  # its canonical text (docs/notation.md)
        elif isinstance(value, list):
            if value and isinstance(value[0], Action):  # a prompt's options: their canonical text
                field.strs.SetInParent()
                field.strs.values.extend([a.canonical for a in value])
            elif value and dataclasses.is_dataclass(value[0]):
                records = field.records.values
                for v in value:
                    _fill(records.add(), v)
                field.records.SetInParent()
            elif value and isinstance(value[0], str):
                field.strs.SetInParent()
                field.strs.values.extend(value)
            else:
                field.ints.SetInParent()
                field.ints.values.extend(value)
        elif dataclasses.is_dataclass(value):
            _fill(field.record, value)
        elif isinstance(value, dict):
            # a prompt's typed arguments: a record of kind ``args``, one field per argument
            args = field.record
            args.kind = ARGS
            for k, v in value.items():
                af = args.fields.add()
                af.name = k
                if isinstance(v, int):
                    af.int = v
                elif isinstance(v, str):
                    af.str = v
                elif v and isinstance(v[0], str):
                    af.strs.values.extend(v)
                else:
                    af.ints.SetInParent()
                    af.ints.values.extend(v)
        else:
            raise TypeError(f"cannot snapshot {type(obj).__name__}.{name}: {type(value).__name__}")


def _refused(message: str, found: int) -> SnapshotFormatError:
    return SnapshotFormatError(f"{message}; this engine reads snapshot format {FORMAT} only", found=found,
                               expected=FORMAT)


def _from_record(rec: game_pb2.Record, kinds: dict[str, type[Any]]) -> Any:
    """The record ``rec`` holds, of one of the ``kinds`` (the snapshot's ruleset's)."""
    if rec.kind == ARGS:
        return {f.name: _arg_value(f) for f in rec.fields}
    cls = kinds.get(rec.kind)
    if cls is None:
        raise _refused(f"snapshot holds a record of unknown kind {rec.kind!r}", FORMAT)
    kwargs: dict[str, Any] = {}
    for field in rec.fields:
        which = field.WhichOneof("value")
        if which is None or which == "none":
            kwargs[field.name] = None
        elif which == "int":
            kwargs[field.name] = int(field.int)
        elif which == "big":
            kwargs[field.name] = int(field.big)
        elif which == "str":
            kwargs[field.name] = field.str
        elif which == "flag":
            kwargs[field.name] = field.flag
        elif which == "ints":
            kwargs[field.name] = list(field.ints.values)
        elif which == "strs":
            kwargs[field.name] = list(field.strs.values)
        elif which == "record":
            kwargs[field.name] = _from_record(field.record, kinds)
        elif which == "records":
            kwargs[field.name] = [_from_record(r, kinds) for r in field.records.values]
    if cls is S.Frame and kwargs.get("answer"):
        kwargs["answer"] = parse(kwargs["answer"])
    elif cls is S.Prompt and kwargs.get("options"):
        kwargs["options"] = [parse(text) for text in kwargs["options"]]
    names = _field_names(cls)
    if len(kwargs) == len(names):
        try:
            return cls(**kwargs)
        except TypeError:  # a field name today's record does not have
            pass
    unknown, missing = sorted(set(kwargs) - set(names)), sorted(set(names) - set(kwargs))
    raise _refused(f"snapshot record {rec.kind} is not today's: fields {unknown} unknown, {missing} missing", FORMAT)


def _arg_value(f: game_pb2.Field) -> int | str | tuple[int, ...] | tuple[str, ...]:
    """One typed argument of a prompt (a list comes back as a tuple)."""
    which = f.WhichOneof("value")
    if which == "int":
        return int(f.int)
    if which == "str":
        return f.str
    if which == "strs":
        return tuple(f.strs.values)
    return tuple(int(v) for v in f.ints.values)


def state_to_bytes(st: S.State) -> bytes:
    snap = game_pb2.Snapshot(
        format=FORMAT,
        ruleset=st.ruleset,
        players=st.players,
        decision_number=st.decision,
        game_over=st.over,
        state=_to_record(st),
    )
    data: bytes = snap.SerializeToString(deterministic=True)
    return data


def state_from_bytes(data: bytes) -> S.State:
    """The state a snapshot holds; :class:`SnapshotFormatError` for bytes that are not a
    snapshot of :data:`FORMAT` (an older or newer engine wrote them)."""
    snap = game_pb2.Snapshot()
    try:
        snap.ParseFromString(data)
    except Exception as exc:  # protobuf's DecodeError: not a snapshot at all
        raise _refused(f"bytes of length {len(data)} are not a snapshot ({exc})", 0) from exc
    if snap.format != FORMAT:
        who = "an older" if snap.format < FORMAT else "a newer"
        raise _refused(f"snapshot format {snap.format} was written by {who} engine", snap.format)
    st = _from_record(snap.state, record_types(snap.ruleset))
    if not isinstance(st, S.State):
        raise _refused(f"snapshot holds a {snap.state.kind or 'empty'} record, not a match state", snap.format)
    return st
