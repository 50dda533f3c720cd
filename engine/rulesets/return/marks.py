"""The marks 风声再临's skills and rules leave on a turn (单枪匹马's extra send, 先机后置's
choice, 乔装's borrowed skill …) as typed records over the core's ``State.marks``
(:mod:`engine.marks`). They are cleared at the turn's end (:data:`KINDS`,
``Ruleset.mark_kinds``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.marks import CardNo, Number, SeatNo, TypedMark, Word, add, count, end_turn, find, has, remove

#: The typed-mark base, under the name this ruleset's modules use.
Mark = TypedMark


@dataclass(frozen=True, slots=True)
class Acted(Mark):
    """The turn player used a card or skill this turn (声东击西's "出牌前")."""

    tag: ClassVar[str] = "acted"
    seat: SeatNo


@dataclass(frozen=True, slots=True)
class Sent(Mark):
    """``seat`` sent ``card`` as intel this turn (联动, 声东击西)."""

    tag: ClassVar[str] = "sent"
    seat: SeatNo
    card: CardNo


@dataclass(frozen=True, slots=True)
class DrawSet(Mark):
    """The turn-start draw is ``count`` cards (战术大师: 0, 先机后置: 4, 精明: done)."""

    tag: ClassVar[str] = "draw_set"
    count: Number


@dataclass(frozen=True, slots=True)
class DrawExtra(Mark):
    """The turn-start draw gets ``count`` more cards (英雄本色)."""

    tag: ClassVar[str] = "draw_extra"
    count: Number


@dataclass(frozen=True, slots=True)
class SendExtra(Mark):
    """单枪匹马: one more play phase and send this turn."""

    tag: ClassVar[str] = "send_extra"


@dataclass(frozen=True, slots=True)
class SendExtraUsed(Mark):
    """One extra send granted by :class:`SendExtra` was taken."""

    tag: ClassVar[str] = "send_extra_used"


@dataclass(frozen=True, slots=True)
class SendAnyMode(Mark):
    """单枪匹马: every send this turn may use any mode."""

    tag: ClassVar[str] = "send_any_mode"


@dataclass(frozen=True, slots=True)
class QiaoZhuang(Mark):
    """乔装: ``taker`` holds ``owner``'s ``skill`` until the turn ends."""

    tag: ClassVar[str] = "qiao_zhuang"
    taker: SeatNo
    owner: SeatNo
    skill: Word


@dataclass(frozen=True, slots=True)
class Superseded(Mark):
    """The intel ``old`` in transit was replaced by ``new`` (偷龙转凤; read by 速译)."""

    tag: ClassVar[str] = "superseded"
    old: CardNo
    new: CardNo


@dataclass(frozen=True, slots=True)
class Declared(Mark):
    """以爱宣名: ``seat`` declared ``what`` (``draw`` / ``take``) for this turn's send."""

    tag: ClassVar[str] = "yi_ai_xuan_ming"
    seat: SeatNo
    what: Word


@dataclass(frozen=True, slots=True)
class QiChe(Mark):
    """弃车保帅 was used on ``seat``'s receipt of ``card`` (once per receipt)."""

    tag: ClassVar[str] = "qi_che_bao_shuai"
    seat: SeatNo
    card: CardNo


@dataclass(frozen=True, slots=True)
class XianSuoStep(Mark):
    """线索 was used by ``seat`` in this turn's discard step (once per step)."""

    tag: ClassVar[str] = "xian_suo:step"
    seat: SeatNo


@dataclass(frozen=True, slots=True)
class XianJiFour(Mark):
    """先机后置: this turn draws 4 and discards the whole hand at its end."""

    tag: ClassVar[str] = "xian_ji_hou_zhi:four"


@dataclass(frozen=True, slots=True)
class Used(Mark):
    """``seat`` used ``skill`` at the timing numbered ``window`` (``State.window``): a skill
    is used at most once per timing (p.4 ②). Dropped when a turn starts."""

    tag: ClassVar[str] = "used"
    skill: Word
    seat: SeatNo
    window: Number


#: Every kind of mark of this ruleset (``Ruleset.mark_kinds``).
KINDS: tuple[type[Mark], ...] = (Acted, Sent, DrawSet, DrawExtra, SendExtra, SendExtraUsed, SendAnyMode,
                                 QiaoZhuang, Superseded, Declared, QiChe, XianSuoStep, XianJiFour, Used)

__all__ = ["KINDS", "Acted", "Declared", "DrawExtra", "DrawSet", "Mark", "QiChe", "QiaoZhuang", "SendAnyMode",
           "SendExtra", "SendExtraUsed", "Sent", "Superseded", "Used", "XianJiFour", "XianSuoStep", "add", "count",
           "end_turn", "find", "has", "remove"]
