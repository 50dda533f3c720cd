"""The classic ruleset's own fields of the match (:class:`engine.state.MatchExt`): the
cards of the discard pile that lie face down (§12 D12: discarded from hand as a cost or by
an effect), each known only to the seat that discarded it. Read them with :func:`match_ext`."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.state import MatchExt, State, match_record


@dataclass(slots=True)
class ClassicMatch(MatchExt):
    """A classic match's own fields."""

    discard_face_down: list[int] = field(default_factory=list)
    """Cards of the discard pile that lie face down: only the seat that discarded each one
    knows it."""
    discard_face_down_by: list[int] = field(default_factory=list)
    """The seat that discarded each card of :attr:`discard_face_down` (same order)."""

    def face_down_discards(self) -> tuple[tuple[int, int], ...]:
        return tuple(zip(self.discard_face_down, self.discard_face_down_by, strict=True))

    def lay_face_down(self, card: int, seat: int) -> None:
        self.discard_face_down.append(card)
        self.discard_face_down_by.append(seat)

    def turn_face_up(self, card: int) -> None:
        if card in self.discard_face_down:
            i = self.discard_face_down.index(card)
            del self.discard_face_down[i]
            del self.discard_face_down_by[i]

    def clear_face_down(self) -> None:
        self.discard_face_down.clear()
        self.discard_face_down_by.clear()

    def card_lists(self) -> tuple[list[int], ...]:
        return (self.discard_face_down,)


def match_ext(st: State) -> ClassicMatch:
    """A classic match's own fields."""
    return match_record(st, ClassicMatch)
