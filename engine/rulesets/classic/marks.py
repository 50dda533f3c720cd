"""Marks of the classic ruleset as typed records over the core's ``State.marks``
(:mod:`engine.marks`): per-turn ones (who is lured, whether the turn player sent, a 退回
waiting to act) are cleared at turn start; lasting ones last the game (lost players, used
once-per-game skills; a lost player is the core's :class:`engine.marks.Lost`). This
module is the only place that spells the classic ones (:data:`KINDS`,
``Ruleset.mark_kinds``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine import marks as core
from engine.marks import Lost, SeatNo, TypedMark, Word
from engine.state import State


def has(st: State, mark: TypedMark) -> bool:
    return core.has(st, mark)


def add(st: State, mark: TypedMark) -> None:
    """Make ``mark`` (once: a mark already made is not made twice)."""
    if not core.has(st, mark):
        core.add(st, mark)


def remove(st: State, mark: TypedMark) -> None:
    """Drop this one mark (not every mark of its kind)."""
    rec = mark.record()
    if rec in st.marks:
        st.marks.remove(rec)


def clear_turn(st: State) -> None:
    """Drop the per-turn marks (every mark that does not last the game)."""
    core.end_turn(st)


@dataclass(frozen=True, slots=True)
class Lured(TypedMark):
    """调虎离山 was used on ``seat`` this turn (digest §5)."""

    tag: ClassVar[str] = "lured"
    seat: SeatNo


@dataclass(frozen=True, slots=True)
class Sent(TypedMark):
    """The turn player sent an intel this turn (§4.6)."""

    tag: ClassVar[str] = "sent"


@dataclass(frozen=True, slots=True)
class SendBack(TypedMark):
    """退回 resolved at this arrival: the intel moves on, reversed (§5, D13)."""

    tag: ClassVar[str] = "send_back"


@dataclass(frozen=True, slots=True)
class Saved(TypedMark):
    """A death-time skill saved ``seat`` from dying now (救美, §7 step 1)."""

    tag: ClassVar[str] = "saved"
    seat: SeatNo


@dataclass(frozen=True, slots=True)
class Once(TypedMark):
    """A once-per-game skill (identity reveals, D17) was used by ``seat``."""

    tag: ClassVar[str] = "once"
    lasting: ClassVar[bool] = True
    skill: Word
    seat: SeatNo


@dataclass(frozen=True, slots=True)
class MissionDone(TypedMark):
    """``seat``'s mission was met at a moment that leaves no trace (老鬼's hand at death)."""

    tag: ClassVar[str] = "mission"
    lasting: ClassVar[bool] = True
    seat: SeatNo


def lured(seat: int) -> Lured:
    return Lured(seat)


def saved(seat: int) -> Saved:
    return Saved(seat)


def lost(seat: int) -> Lost:
    """``seat`` lost the game (out, not dead; §7, D23): the core's mark."""
    return Lost(seat)


def once(skill: str, seat: int) -> Once:
    return Once(skill, seat)


def mission_done(seat: int) -> MissionDone:
    return MissionDone(seat)


SENT = Sent()
SEND_BACK = SendBack()

#: Every kind of mark the classic ruleset defines (``Ruleset.mark_kinds``); it also makes the
#: core's :class:`engine.marks.Lost` and ``Placed``.
KINDS: tuple[type[TypedMark], ...] = (Lured, Sent, SendBack, Saved, Once, MissionDone)

__all__ = ["KINDS", "SEND_BACK", "SENT", "Lost", "Lured", "MissionDone", "Once", "Saved", "SendBack", "Sent",
           "add", "clear_turn", "has", "lost", "lured", "mission_done", "once", "remove", "saved"]
