"""The items that open a chain without a card: the send declaration (情报传出) and the
choice to receive (情报接收) (rulebook p.4 ③)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards.base import Effect
from engine.state import Frame, Item

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
        st.seats[item.user].intel.append(t.card)
        st.transit = None
        st.received = True
        g.log("received", item.user, f"seat {item.user} receives {t.card}", cards=(t.card,))
        fr.stage = 1
        g.push(Frame("after", seat=item.user, card=t.card, order=[t.user]))
        return False
