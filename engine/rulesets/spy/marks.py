"""Kinds of mark of the 谍战篇 ruleset (:mod:`engine.marks`): who died this turn, the seat
this turn's intel was received by, once-per-phase skill uses. Who is out of the game is the
core's :class:`engine.marks.Lost`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.marks import Lost, SeatNo, TypedMark, Word

#: A seat out of the game without dying (§6.4: never wins, never acts) is the core's mark.
__all__ = ["KINDS", "Barred", "Declared", "Jailed", "JiuJiTaken", "Lost", "TurnDied", "Used"]


@dataclass(frozen=True, slots=True)
class TurnDied(TypedMark):
    """``seat`` died during the current turn (篡夺者, 镇压者, 搅局者 still count, §7.2)."""

    tag: ClassVar[str] = "spy_turn_died"
    seat: SeatNo


@dataclass(frozen=True, slots=True)
class Used(TypedMark):
    """``seat`` used the once-per-phase skill ``skill`` this turn."""

    tag: ClassVar[str] = "spy_used"
    seat: SeatNo
    skill: Word


@dataclass(frozen=True, slots=True)
class Barred(TypedMark):
    """强令: nobody may use hand cards of function ``name`` for the rest of this turn."""

    tag: ClassVar[str] = "spy_barred"
    name: Word


@dataclass(frozen=True, slots=True)
class Jailed(TypedMark):
    """禁闭: ``seat`` cannot use hand cards and its skills have no effect this turn."""

    tag: ClassVar[str] = "spy_jailed"
    seat: SeatNo


@dataclass(frozen=True, slots=True)
class Declared(TypedMark):
    """江湖令: ``seat`` declared ``color`` when sending this turn."""

    tag: ClassVar[str] = "spy_declared"
    seat: SeatNo
    color: Word


@dataclass(frozen=True, slots=True)
class JiuJiTaken(TypedMark):
    """就计 fired for ``seat``: the card targeting her goes to her hand once resolved."""

    tag: ClassVar[str] = "spy_jiu_ji"
    seat: SeatNo


KINDS: tuple[type[TypedMark], ...] = (TurnDied, Used, Barred, Jailed, Declared, JiuJiTaken)
