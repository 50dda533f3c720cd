"""Taking the intel in transmission, shared by the receive decision (flow) and 截获 (cards)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.game import Game


def take_intel(g: Game, seat: int, *, cause: str) -> None:
    """``seat`` takes the intel in transmission (接收 or 截获): face up in front of it;
    the sender is credited with kills (D15); the send phase is over (§5)."""
    st = g.state
    t = st.transit
    assert t is not None
    st.transit = None
    st.received = True
    g.place_intel(seat, [t.card], [t.user], cause=cause)
