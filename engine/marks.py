"""Typed marks: the records a ruleset defines for what its cards, skills and rules leave
on the match (单枪匹马's extra send, 乔装's borrowed skill …), stored in ``State.marks`` as
:class:`engine.state.Mark` records (a tag and typed values), which is the snapshot form.

A ruleset declares each kind of mark as a frozen dataclass subclassing :class:`TypedMark`
with a ``tag`` and fields typed :data:`SeatNo`, :data:`CardNo`, :data:`Number` or
:data:`Word`; a field's type says which list of the record holds it, in declaration order::

    @dataclass(frozen=True, slots=True)
    class QiaoZhuang(TypedMark):
        tag: ClassVar[str] = "qiao_zhuang"
        taker: SeatNo
        owner: SeatNo
        skill: Word

and reads and writes them with :func:`add`, :func:`has`, :func:`count`, :func:`find` and
:func:`remove`. Marks are cleared when the turn ends unless their kind sets ``lasting``.

A ruleset lists its kinds in ``Ruleset.mark_kinds``; tags are unique across a ruleset and
the core (:data:`CORE_KINDS`), since :func:`find` tells kinds apart by tag alone.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Annotated, ClassVar, TypeVar

from engine.state import Mark, State

#: A field holding a seat number (record list ``seats``).
SeatNo = Annotated[int, "seats"]
#: A field holding a card number (record list ``cards``).
CardNo = Annotated[int, "cards"]
#: A field holding a count or other number (record list ``numbers``).
Number = Annotated[int, "numbers"]
#: A field holding a word: a skill id, an option (record list ``words``).
Word = Annotated[str, "words"]

_SLOTS = ("seats", "cards", "numbers", "words")

M = TypeVar("M", bound="TypedMark")


@dataclass(frozen=True, slots=True)
class TypedMark:
    """A kind of mark: a tag and typed fields (see the module text)."""

    tag: ClassVar[str] = ""
    lasting: ClassVar[bool] = False
    """Marks of this kind last the game (others are cleared at the turn's end)."""

    def record(self) -> Mark:
        """This mark as the state stores it."""
        rec = Mark(self.tag, lasting=self.lasting)
        for name, slot, _ in _LAYOUTS.get(type(self)) or _layout(type(self)):
            getattr(rec, slot).append(getattr(self, name))
        return rec

    @classmethod
    def from_record(cls: type[M], rec: Mark) -> M:
        """The typed mark a record of this kind holds (its tag is :attr:`tag`)."""
        layout = _layout(cls)
        sizes = _sizes(cls)
        if (len(rec.seats), len(rec.cards), len(rec.numbers), len(rec.words)) != sizes:
            raise ValueError(f"mark {rec.tag!r} does not have the fields of {cls.__name__}: {rec}")
        return cls(*[getattr(rec, slot)[i] for _, slot, i in layout])


@dataclass(frozen=True, slots=True)
class Placed(TypedMark):
    """The characters are placed (set-up is over): from then on the face-up ones are
    public (observations show them). Every ruleset with characters makes it."""

    tag: ClassVar[str] = "placed"
    lasting: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Lost(TypedMark):
    """``seat`` lost the game without dying (out: never wins, never acts again). A
    ruleset whose rules put players out makes it (the core's position parser does, for a
    seat written ``lost: true``)."""

    tag: ClassVar[str] = "lost"
    lasting: ClassVar[bool] = True
    seat: SeatNo


#: The marks the core itself defines (every ruleset may make them).
CORE_KINDS: tuple[type[TypedMark], ...] = (Placed, Lost)

_LAYOUTS: dict[type[TypedMark], tuple[tuple[str, str, int], ...]] = {}
_SIZES: dict[type[TypedMark], tuple[int, int, int, int]] = {}


def _layout(cls: type[TypedMark]) -> tuple[tuple[str, str, int], ...]:
    """(field name, record list, index in that list) of a mark kind, cached: marks are
    read on the hot path."""
    found = _LAYOUTS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls, include_extras=True)
        used = dict.fromkeys(_SLOTS, 0)
        out: list[tuple[str, str, int]] = []
        for f in dataclasses.fields(cls):
            meta = getattr(hints[f.name], "__metadata__", ())
            slot = meta[0] if meta and meta[0] in used else ""
            if not slot:
                raise TypeError(f"{cls.__name__}.{f.name}: type it SeatNo, CardNo, Number or Word")
            out.append((f.name, slot, used[slot]))
            used[slot] += 1
        found = _LAYOUTS[cls] = tuple(out)
        _SIZES[cls] = (used["seats"], used["cards"], used["numbers"], used["words"])
    return found


def _sizes(cls: type[TypedMark]) -> tuple[int, int, int, int]:
    _layout(cls)
    return _SIZES[cls]


def add(st: State, mark: TypedMark) -> None:
    st.marks.append(mark.record())


def has(st: State, mark: TypedMark) -> bool:
    tag = mark.tag
    # Most asks find no mark of the kind at all: answer those without building the record.
    if not any(m.tag == tag for m in st.marks):
        return False
    return mark.record() in st.marks


def count(st: State, mark: TypedMark) -> int:
    return st.marks.count(mark.record())


def find(st: State, kind: type[M]) -> list[M]:
    """Every mark of this kind, in the order they were made."""
    tag = kind.tag
    return [kind.from_record(m) for m in st.marks if m.tag == tag]


def remove(st: State, *kinds: type[TypedMark]) -> None:
    """Drop every mark of these kinds."""
    tags = {k.tag for k in kinds}
    st.marks[:] = [m for m in st.marks if m.tag not in tags]


def placed(st: State) -> bool:
    """The characters are placed (:class:`Placed`); observations ask at every decision."""
    tag = Placed.tag
    return any(m.tag == tag for m in st.marks)


def end_turn(st: State) -> None:
    """The turn ends: only the marks that last the game stay."""
    st.marks[:] = [m for m in st.marks if m.lasting]
