"""谍战篇's own fields of a seat (:class:`engine.state.SeatExt`): a 神秘人's task card.
Read them with :func:`seat_ext`."""

from __future__ import annotations

from dataclasses import dataclass

from engine.state import Seat, SeatExt, seat_record


@dataclass(slots=True)
class SpySeat(SeatExt):
    """A 谍战篇 seat's own fields."""

    secret_task: str = ""
    """An identity card's own victory condition (神秘人 cards: ``cuan_duo_zhe`` …), private
    to this seat until the game ends (§1.1, §11.1)."""

    def private_task(self) -> str:
        return self.secret_task

    def set_private_task(self, task: str) -> None:
        self.secret_task = task


def seat_ext(seat: Seat) -> SpySeat:
    """A 谍战篇 seat's own fields."""
    return seat_record(seat, SpySeat)
