"""The full state as protobuf bytes (``fengsheng.v1.Snapshot``) and back.

The state is a tree of slotted dataclasses whose fields are ints, strs, bools, lists of
those, nested records or None (:mod:`engine.state`). It is written field by field, in
declaration order, as generic ``Record`` messages, so serialisation is deterministic and a
new state field needs no snapshot code.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine import state as S
from engine.action import Action
from engine.marks import from_flags
from engine.notation import parse
from engine.rulesets import get_ruleset
from fengsheng.v1 import game_pb2

#: The format this engine writes. 3: a ``Frame`` keeps the event a trigger window answers
#: and its card function in ``event`` / ``function`` (谍战篇's ``spy_trigger`` frames packed
#: them with the skill id into ``text`` before); 2 (read too): marks are ``Mark`` records
#: (``State.marks``) and a ``Kill`` has no ``non_agent``; 1 (read too, see
#: :func:`_upgrade`): marks were ``State.flags`` strings. An engine that knows only 2
#: refuses a 3 by its number.
FORMAT = 3
READABLE = (1, 2, 3)
RECORD_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls for cls in (S.Seat, S.Transit, S.Item, S.Frame, S.Prompt, S.Kill, S.Mark, S.State)
}


def _field_names(cls: type[Any]) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


_FIELD_NAMES: dict[type[Any], tuple[str, ...]] = {}


def _to_record(obj: Any) -> game_pb2.Record:
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
            if value and dataclasses.is_dataclass(value[0]):
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
        else:
            raise TypeError(f"cannot snapshot {type(obj).__name__}.{name}: {type(value).__name__}")


def _from_record(rec: game_pb2.Record) -> Any:
    cls = RECORD_TYPES.get(rec.kind)
    if cls is None:
        raise ValueError(f"unknown record kind {rec.kind!r}")
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
            kwargs[field.name] = _from_record(field.record)
        elif which == "records":
            kwargs[field.name] = [_from_record(r) for r in field.records.values]
    if cls is S.State or cls is S.Kill:
        _upgrade(cls, kwargs)
    if cls is S.Frame:
        if "event" not in kwargs and kwargs.get("kind") == "spy_trigger":
            _upgrade_trigger_frame(kwargs)
        answer = kwargs.get("answer")
        kwargs["answer"] = parse(answer) if answer else None
    return cls(**kwargs)


def _upgrade(cls: type[Any], kwargs: dict[str, Any]) -> None:
    """Fields of snapshots written by an older engine, read into today's records:

    - ``State.flags`` (marks packed as ``tag:value:value`` strings) becomes
      ``State.marks``, each string read by the core's and the ruleset's typed mark kinds
      (:func:`engine.marks.from_flags`);
    - a ``Mark`` record with no values whose tag still packs them (``lost:3``: written by
      a ruleset that used the ``State.flags`` view, as classic did before its typed marks)
      is read the same way, so it becomes the typed mark today's ruleset makes;
    - ``State.used`` (再临's ``skill@seat@window`` strings) becomes its ``Used`` marks;
    - ``Kill.non_agent`` is dropped: a ruleset derives what it needs from
      ``Kill.identity`` (再临's "non-agent" is ``identity != "agent"``), which is the
      dead seat's identity where a snapshot lacks it.
    """
    if cls is S.Kill:
        kwargs.pop("non_agent", None)
        return
    if "flags" in kwargs:
        flags = kwargs.pop("flags") or []
        kwargs["marks"] = from_flags(flags, get_ruleset(str(kwargs["ruleset"])).mark_kinds)
    elif any(not (m.seats or m.cards or m.numbers or m.words) for m in kwargs.get("marks") or []):
        kinds = get_ruleset(str(kwargs["ruleset"])).mark_kinds
        kwargs["marks"] = [m if m.seats or m.cards or m.numbers or m.words else from_flags([S.flag_of(m)], kinds)[0]
                           for m in kwargs["marks"]]
    if "used" in kwargs:
        # 再临's ``skill@seat@window`` strings: now its ``Used`` marks (same tag, fields).
        used = kwargs.pop("used") or []
        if used:
            kinds = get_ruleset(str(kwargs["ruleset"])).mark_kinds
            texts = [":".join(["used", *key.split("@")]) for key in used]
            kwargs["marks"] = [*(kwargs.get("marks") or []), *from_flags(texts, kinds)]
    seats = kwargs.get("seats") or []
    for kill in kwargs.get("kills") or []:
        if not kill.identity and 0 <= kill.dead < len(seats):
            kill.identity = seats[kill.dead].identity


def _upgrade_trigger_frame(kwargs: dict[str, Any]) -> None:
    """A 谍战篇 trigger window written before format 3: its ``text`` was the line ``SKILL
    EVENT FUNCTION`` (``-`` for no function); today the three are the frame's ``text``,
    ``event`` and ``function``. Reading that stored line of an older format is this
    reader's job (nothing else in the engine takes a frame's text apart)."""
    old = str(kwargs.get("text", ""))
    parts = old.split(" ")
    if len(parts) != 3:
        raise ValueError(f"a spy_trigger frame of an older snapshot has the text {old!r}, not 'SKILL EVENT FUNCTION'")
    kwargs["text"], kwargs["event"], function = parts
    kwargs["function"] = "" if function == "-" else function


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
    snap = game_pb2.Snapshot()
    snap.ParseFromString(data)
    if snap.format not in READABLE:
        raise ValueError(f"snapshot format {snap.format} is not supported (expected one of {READABLE})")
    st = _from_record(snap.state)
    if not isinstance(st, S.State):
        raise ValueError("snapshot does not hold a match state")
    return st
