"""Per-turn marks of skills and rules (单枪匹马's extra send, 先机后置's choice, 乔装's
borrowed skill …) as typed records.

The state keeps them in ``State.flags`` as ``tag:field:field`` strings, which is the
snapshot format (snapshots written before this module restore unchanged); this module is
the only place that writes or reads that packing. Marks are cleared at the turn's end
unless their tag starts with ``game:``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from engine.state import State

M = TypeVar("M", bound="Mark")


@dataclass(frozen=True, slots=True)
class Mark:
    """A mark: a tag and typed fields (ints or words)."""

    tag: ClassVar[str] = ""

    def encode(self) -> str:
        names = _fields(type(self))
        if not names:
            return self.tag
        return ":".join([self.tag, *(str(getattr(self, name)) for name, _ in names)])

    @classmethod
    def decode(cls: type[M], text: str) -> M | None:
        """The mark ``text`` holds if it is one of this class, else None."""
        tag = cls.tag
        if not text.startswith(tag):
            return None
        names = _fields(cls)
        if not names:
            return cls() if text == tag else None
        if text[len(tag):len(tag) + 1] != ":":
            return None
        parts = text[len(tag) + 1:].split(":")
        if len(parts) != len(names):
            return None
        return cls(*(int(p) if is_int else p for (_, is_int), p in zip(names, parts, strict=True)))


_FIELDS: dict[type[Mark], tuple[tuple[str, bool], ...]] = {}


def _fields(cls: type[Mark]) -> tuple[tuple[str, bool], ...]:
    """(field name, is an int) of a mark class, cached: marks are read on the hot path."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = tuple((f.name, f.type in ("int", int)) for f in dataclasses.fields(cls))
    return found


@dataclass(frozen=True, slots=True)
class Acted(Mark):
    """The turn player used a card or skill this turn (声东击西's "出牌前")."""

    tag: ClassVar[str] = "acted"
    seat: int


@dataclass(frozen=True, slots=True)
class Sent(Mark):
    """``seat`` sent ``card`` as intel this turn (联动, 声东击西)."""

    tag: ClassVar[str] = "sent"
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class DrawSet(Mark):
    """The turn-start draw is ``count`` cards (战术大师: 0, 先机后置: 4, 精明: done)."""

    tag: ClassVar[str] = "draw_set"
    count: int


@dataclass(frozen=True, slots=True)
class DrawExtra(Mark):
    """The turn-start draw gets ``count`` more cards (英雄本色)."""

    tag: ClassVar[str] = "draw_extra"
    count: int


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
    taker: int
    owner: int
    skill: str


@dataclass(frozen=True, slots=True)
class Superseded(Mark):
    """The intel ``old`` in transit was replaced by ``new`` (偷龙转凤; read by 速译)."""

    tag: ClassVar[str] = "superseded"
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class Declared(Mark):
    """以爱宣名: ``seat`` declared ``what`` (``draw`` / ``take``) for this turn's send."""

    tag: ClassVar[str] = "yi_ai_xuan_ming"
    seat: int
    what: str


@dataclass(frozen=True, slots=True)
class QiChe(Mark):
    """弃车保帅 was used on ``seat``'s receipt of ``card`` (once per receipt)."""

    tag: ClassVar[str] = "qi_che_bao_shuai"
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class XianSuoStep(Mark):
    """线索 was used by ``seat`` in this turn's discard step (once per step)."""

    tag: ClassVar[str] = "xian_suo:step"
    seat: int


@dataclass(frozen=True, slots=True)
class XianJiFour(Mark):
    """先机后置: this turn draws 4 and discards the whole hand at its end."""

    tag: ClassVar[str] = "xian_ji_hou_zhi:four"


def add(st: State, mark: Mark) -> None:
    st.flags.append(mark.encode())


def has(st: State, mark: Mark) -> bool:
    return mark.encode() in st.flags


def count(st: State, mark: Mark) -> int:
    return st.flags.count(mark.encode())


def find(st: State, kind: type[M]) -> list[M]:
    """Every mark of this kind, in the order they were made."""
    tag = kind.tag
    out: list[M] = []
    for text in st.flags:
        if text.startswith(tag):  # the cheap test first: this runs on the hot path
            mark = kind.decode(text)
            if mark is not None:
                out.append(mark)
    return out


def remove(st: State, *kinds: type[Mark]) -> None:
    """Drop every mark of these kinds."""
    st.flags[:] = [t for t in st.flags if all(k.decode(t) is None for k in kinds)]
