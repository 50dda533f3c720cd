"""Actions, events and observations as typed values: what ``decide`` reads.

The platform sends every legal action both as notation (``legal_actions``, docs/notation.md)
and as a value (``Observation.legal``, proto ``fengsheng.v1.Action``), and every event as a
template key with typed arguments (proto ``fengsheng.v1.Event``). This module turns those
messages into plain Python values, so a bot never parses a line of notation or of a log:

- :class:`Action`: one answer to a decision (its ``kind``, the ``card`` played or sent, the
  target seats ``to``, a send's ``mode`` or ``arrow`` and ``lock``, a choice's ``picks`` or
  ``options`` …) with its canonical ``text``, the one string the platform reads back.
- :class:`Event`: something the seat saw happen (its ``kind``, acting ``seat``, typed
  ``args`` by placeholder name, and for an ``action`` event the :class:`Action` taken).
- :class:`Observation`: the seat's ``fengsheng.v1.Observation`` (every field of it, read
  through), with ``events`` and ``legal`` as those values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fengsheng.v1 import game_pb2

#: An event argument's value: a seat or card number or a count (int), several of them
#: (tuple of int), an id or a text (str), several ids (tuple of str).
ArgValue = int | str | tuple[int, ...] | tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Action:
    """One answer to a decision, as the platform describes it (proto ``fengsheng.v1.Action``;
    docs/notation.md, "Actions as values").

    ``kind`` is ``pass``, ``declare``, ``accept``, ``decline``, ``play``, ``send``, ``skill``
    or ``choose``; the other fields are set as the kind needs (0, ``""`` or empty when not):

    - ``play``: ``card`` (the hand card used), ``to`` (target seats), ``on`` (a card it acts
      on) or ``chain`` (the response-chain item it names, from 1), ``code`` (秘密下达's
      code), ``alt`` (the function the card is used as).
    - ``send``: ``card`` (or ``pile``: the top pile card), ``mode`` (``secret`` / ``direct``
      / ``text``; empty in 谍战篇), ``to`` (the 直达 or ↑ target), ``arrow`` (``left`` /
      ``right``), ``lock`` (the locked seat, ``None``: none).
    - ``skill``: ``skill`` (its id), ``to``, ``cards``, ``on``, ``options``.
    - ``choose``: ``picks`` (cards or seats, as the prompt says) or ``options`` (words),
      ``face`` (``exposed`` / ``hidden``), ``to``.

    ``text`` is its canonical notation; two actions are equal when their texts are. Return
    the value itself (or its ``text``) from ``decide``. Comparing an action with a string
    raises ``TypeError``: compare ``action.kind`` or ``action.text``."""

    text: str
    kind: str
    card: int = 0
    pile: bool = False
    skill: str = ""
    to: tuple[int, ...] = ()
    on: int = 0
    chain: int = 0
    cards: tuple[int, ...] = ()
    mode: str = ""
    arrow: str = ""
    lock: int | None = None
    code: str = ""
    alt: str = ""
    picks: tuple[int, ...] = ()
    options: tuple[str, ...] = ()
    face: str = ""

    @classmethod
    def from_proto(cls, msg: game_pb2.Action) -> Action:
        """The value of a ``fengsheng.v1.Action`` message."""
        return cls(text=msg.text, kind=msg.kind, card=msg.card, pile=msg.pile, skill=msg.skill, to=tuple(msg.to),
                   on=msg.on, chain=msg.chain, cards=tuple(msg.cards), mode=msg.mode, arrow=msg.arrow,
                   lock=msg.lock if msg.HasField("lock") else None, code=msg.code, alt=msg.alt,
                   picks=tuple(msg.picks), options=tuple(msg.options), face=msg.face)  # fmt: skip

    @property
    def target(self) -> int:
        """The first target seat, -1 when there is none."""
        return self.to[0] if self.to else -1

    @property
    def option(self) -> str:
        """The first option word (a ``choose``, a skill's ``choose``), ``""`` when none."""
        return self.options[0] if self.options else ""

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self.text == other.text
        if isinstance(other, str):
            raise TypeError(f"comparing the action {self.text!r} with the string {other!r}: "
                            "compare action.kind (or action.text) instead")  # fmt: skip
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)


def arg_value(arg: game_pb2.EventArg) -> ArgValue:
    """The value of one typed event argument (the field its oneof sets)."""
    which = arg.WhichOneof("value")
    if which is None:
        return ""
    value = getattr(arg, which)
    if which in ("seats", "cards", "ids"):
        return tuple(value.values)
    return value  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class Event:
    """Something the seat saw happen (proto ``fengsheng.v1.Event``), as a value.

    ``kind`` says what (``draw``, ``send``, ``receive`` / ``received``, ``action``,
    ``turn_end`` …), ``seat`` who (-1: the game itself), ``template`` which line of the
    ruleset's text table it fills (``RulesetInfo.texts``), and ``args`` its typed arguments
    by placeholder name: ``seat``/``seat2`` … a seat, ``seats`` seats, ``card`` a card (0:
    face down), ``cards`` cards, ``n`` a count (another seat's draw carries only this),
    ``id``/``id2`` an id (a send's mode or arrow, a card function, a skill …), ``ids`` ids,
    ``zh``/``text``/``action``/``reason`` words. An ``action`` event the seat may see in full
    carries the :class:`Action` taken as ``action`` (``None`` otherwise). ``text`` is the
    English log line (for logs only: everything in it is in the other fields)."""

    index: int
    kind: str
    seat: int
    template: str
    args: dict[str, ArgValue] = field(default_factory=dict)
    action: Action | None = None
    audience: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    text: str = ""

    @classmethod
    def from_proto(cls, msg: game_pb2.Event) -> Event:
        """The value of a ``fengsheng.v1.Event`` message."""
        return cls(index=msg.index, kind=msg.kind, seat=msg.seat, template=msg.template,
                   args={a.name: arg_value(a) for a in msg.args},
                   action=Action.from_proto(msg.action) if msg.HasField("action") else None,
                   audience=tuple(msg.audience), cards=tuple(msg.cards), seats=tuple(msg.seats),
                   text=msg.text)  # fmt: skip


class Observation:
    """What the seat may know at a decision: every field of its ``fengsheng.v1.Observation``
    read through (``observation.seats[i].intel``, ``.pending.kind``, ``.transit.card``, your
    ``hand`` in your own seat's view …; proto/fengsheng/v1/game.proto), except ``events``
    (every event the seat has seen in the match, oldest first, as :class:`Event` values) and
    ``legal`` (the legal actions as :class:`Action` values). ``proto`` is the message itself."""

    __slots__ = ("events", "legal", "proto")

    def __init__(self, proto: game_pb2.Observation, events: list[Event] | None = None) -> None:
        """``events``: ``proto.events`` already as values, when the caller keeps them (the
        SDK converts each event of a match once, not at every decision)."""
        self.proto = proto
        if events is not None and len(events) != len(proto.events):
            raise ValueError(f"{len(events)} typed events for an observation of {len(proto.events)}")
        self.events: list[Event] = events if events is not None else [Event.from_proto(e) for e in proto.events]
        self.legal: list[Action] = [Action.from_proto(a) for a in proto.legal]

    def __getattr__(self, name: str) -> Any:
        # only reached for names not in __slots__: the message's own fields
        return getattr(self.proto, name)

    def __repr__(self) -> str:
        return (f"Observation(ruleset={self.proto.ruleset!r}, viewer={self.proto.viewer}, "
                f"events={len(self.events)}, legal={len(self.legal)})")  # fmt: skip


def legal_values(observation: game_pb2.Observation, texts: list[str]) -> list[Action]:
    """The legal actions of a decision as values: ``observation.legal`` (the platform sends
    each legal action as a value beside its text, in the same order). A decision whose
    observation lacks them (an engine older than the values) is refused with a clear error
    rather than guessed from the text."""
    values = [Action.from_proto(a) for a in observation.legal]
    if [a.text for a in values] != list(texts):
        raise ValueError(f"the decision's legal actions came without their values ({len(values)} values for "
                         f"{len(texts)} actions): this SDK needs a platform that sends Observation.legal")  # fmt: skip
    return values


__all__ = ["Action", "ArgValue", "Event", "Observation", "arg_value", "legal_values"]
