"""The items that open a chain without a card: the send declaration (情报传出) and the
choice to receive (情报接收) (rulebook p.4 ③)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.state import Frame, Item

from ..cards.base import Effect

if TYPE_CHECKING:
    from engine.game import Game


class Declare(Effect):
    """情报传出: when nothing stops it, the sender picks the intel (the ``send`` step)."""

    id = "declare"


class Receive(Effect):
    """情报接收: if nothing changed the outcome, the intel goes face up in front of the
    receiver: received successfully (p.4 ★通用规则)."""

    id = "receive"

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        if fr.stage == 1:
            return True
        st = g.state
        t = st.transit
        if t is None or t.holder != item.user or t.card != item.on or not st.seats[item.user].alive:
            return True
        item.done = True
        st.transit = None
        st.received = True
        fr.stage = 1
        g.place_intel(item.user, [t.card], [t.user], cause="intel")
        return False
