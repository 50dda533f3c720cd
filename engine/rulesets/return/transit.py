"""The intel on its way (情报传递): where it goes next (rulebook p.4 ④)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.game import Game


def move_to(g: Game, holder: int, *, forced: bool = False) -> None:
    """The intel reaches ``holder`` (情报传至)."""
    st = g.state
    t = st.transit
    assert t is not None
    t.holder = holder
    t.forced = forced
    t.sender_done = False
    g.log("arrive.intel_reaches_seat", holder, {"seat": holder}, seats=(holder,))


def pass_on(g: Game, from_seat: int) -> None:
    """Move the intel on by its mode after a decline (or 调虎离山): 密电/文本 to the next
    living seat in its direction, 直达 back to the sender (p.4 ④)."""
    t = g.state.transit
    assert t is not None
    if t.mode == "direct":
        move_to(g, t.sender)
    else:
        nxt = g.next_living(from_seat, t.direction)
        # A sender who died while the intel travelled (暗杀, 血染 …) is still where a
        # full circle ends: the intel comes back to them (h_transit discards it).
        seats, s = g.state.seats, from_seat
        while s != nxt:
            s = (s + t.direction) % len(seats)
            if s == t.sender and not seats[s].alive:
                nxt = s
                break
        move_to(g, nxt)
