"""Basic cards that act on the intel's path: 截获, 调虎离山, 转移, 调包 (rulebook pp.7–8;
digest §8, §11.10–11)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose_option, play
from engine.state import Frame, Item

from .. import deck
from ..cards.base import CardFunction, Context
from ..choices import ask_choice
from ..transit import move_to, pass_on

if TYPE_CHECKING:
    from engine.game import Game


def receive_root(g: Game) -> Item | None:
    """The pending receive (情报接收) at the bottom of the chain, if not cancelled."""
    st = g.state
    if st.timing != "receive" or not st.chain:
        return None
    root = st.chain[0]
    return root if root.kind == "receive" and not root.void else None


class Intercept(CardFunction):
    """截获: outside your turn, when another player chooses to receive; the intel is passed
    to you (you may still decline). The first to resolve voids the rest (p.7 ①–③)."""

    id = "intercept"
    zh = "截获"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        root = receive_root(g)
        if ctx != "respond" or root is None or seat == root.user or seat == g.state.turn:
            return []
        return [play(card)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        root = receive_root(g)
        st = g.state
        if root is None or st.transit is None or not st.seats[item.user].alive:
            return True
        root.void = True
        item.done = True
        g.log("intercept.intercepts_intel", item.user, {"seat": item.user})
        move_to(g, item.user)
        return True


class LureAway(CardFunction):
    """调虎离山: when another player chooses to receive; cancel the receive and pass the
    intel on. Cannot be used on the sender's receipt (p.7; decision §11.11)."""

    id = "lure_away"
    zh = "调虎离山"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        root = receive_root(g)
        t = g.state.transit
        if ctx != "respond" or root is None or t is None or seat == root.user or root.user == t.sender:
            return []
        return [play(card)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        root = receive_root(g)
        if root is None or g.state.transit is None:
            return True
        root.void = True
        item.done = True
        g.log("lure_away.cancels_seat_receive", item.user, {"seat": item.user, "seat2": root.user})
        pass_on(g, root.user)
        return True


class Transfer(CardFunction):
    """转移: when an intel reaches you, pass it to another player, who must receive it.
    Works while locked; the 转移 user is credited with kills (p.7 ①–③; digest §6.3)."""

    id = "transfer"
    zh = "转移"
    retargetable = True

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        t = g.state.transit
        if ctx != "arrive" or t is None or t.holder != seat:
            return []
        return [play(card, s) for s in g.living() if s != seat]

    def on_use(self, g: Game, item: Item) -> None:
        t = g.state.transit
        item.on = t.card if t is not None else 0

    def retarget_candidates(self, g: Game, item: Item) -> list[int]:
        return [s for s in g.living() if s not in (item.user, item.target)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        t = st.transit
        if t is None or t.holder != item.user or t.card != item.on or not st.seats[item.target].alive:
            return True
        item.done = True
        t.user = item.user
        g.log("transfer.transfers_intel_seat", item.user, {"seat": item.user, "seat2": item.target})
        move_to(g, item.target, forced=True)
        return True


class Swap(CardFunction):
    """调包: when the intel returns to its sender, replace it (not a 文本 intel) with this
    card, which the sender sends again as 文本 (direction-any: the sender picks). Fails if
    the intel moved; 调包 can answer 调包 (p.8 ①–④; decision in docs/rule-decisions.md)."""

    id = "swap"
    zh = "调包"

    def plays(self, g: Game, seat: int, card: int, ctx: Context) -> list[Action]:
        st = g.state
        t = st.transit
        if t is None or t.holder != t.sender or t.mode == "text":
            return []
        if ctx == "arrive" and seat == t.holder:
            return [play(card)]
        if ctx == "returned" or (ctx == "respond" and st.timing in ("arrive", "returned")):
            return [play(card)]
        return []

    def on_use(self, g: Game, item: Item) -> None:
        t = g.state.transit
        item.on = t.card if t is not None else 0

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        t = st.transit
        if fr.stage == 0:
            if t is None or t.card != item.on or t.holder != t.sender or t.mode == "text":
                return True
            item.done = True
            g.discard_card(t.card)
            g.log("swap.swaps_intel_card_for_card", item.user,
                  {"seat": item.user, "card": t.card, "card2": item.card, "zh": "文本"}, cards=(t.card, item.card))
            t.card = item.card
            item.card = 0  # the card is now the intel in transit, no longer on the chain
            t.mode = "text"
            t.face_up = True
            t.user = item.user
            t.target = -1
            if deck.DIRECTION_ANY[t.card] and not st.tutorial:
                fr.stage = 1
                ask_choice(g, t.sender, "prompt.choose.zh_send_new_intel_left",
                           [choose_option("left"), choose_option("right")], args={"zh": "调包"})
                return False
            t.direction = t.direction or 1
        else:
            assert t is not None
            t.direction = -1 if fr.answer == choose_option("left") else 1
            fr.answer = None
        move_to(g, g.next_living(t.sender, t.direction))
        return True



INTEL: tuple[CardFunction, ...] = (Intercept(), LureAway(), Transfer(), Swap())
