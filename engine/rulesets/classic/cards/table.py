"""烧毁, 识破, 真伪莫辨 (digest §9, §6.4, §12 D7, D20, D25)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, play
from engine.state import Frame, Item

from .. import deck
from ..characters.base import fire
from .base import FUNCTIONS, PLAY_PHASES, CardFunction, own_turn, register, timing

if TYPE_CHECKING:
    from engine.game import Game


def holder_of_intel(g: Game, card: int) -> int:
    """The seat with ``card`` among its intel, or -1."""
    for i, s in enumerate(g.state.seats):
        if card in s.intel:
            return i
    return -1


@register
class Burn(CardFunction):
    """烧毁: any window, any turn; one fake intel in front of any player goes to the
    discard pile (D20). ``play N on M``."""

    id: ClassVar[str] = "burn"

    def actions(self, g: Game, seat: int, card: int, alt: str = "") -> list[Action]:
        return [play(card, on=m, alt=alt) for s in g.state.seats for m in s.intel if deck.IS_BLACK[m]]

    def valid(self, g: Game, item: Item) -> bool:
        return holder_of_intel(g, item.on) >= 0

    def resolve(self, g: Game, item: Item) -> None:
        who = holder_of_intel(g, item.on)
        g.state.seats[who].intel.remove(item.on)
        g.discard_card(item.on)
        g.log("burn.intel_card_burned_zh", who, {"seat": who, "card": item.on, "zh": '烧毁'}, cards=(item.on,))


def visible_card(g: Game, seat: int, it: Item) -> bool:
    """Whether ``seat`` may name the chain card of ``it`` (a 试探 only its user and target)."""
    fn = FUNCTIONS.get(it.kind)
    return fn is None or not fn.face_down or seat in (it.user, it.target)


def waiting_cards(g: Game) -> list[Item]:
    """Chain items that are cards still waiting (not skills, not voided)."""
    return [it for it in g.state.chain if it.card and it.kind != "skill" and not it.negated]


@register
class SeeThrough(CardFunction):
    """识破: when a card is used; the targeted card (the newest waiting by default, or any
    waiting card ``on M``, D7) has no effect and goes to the discard pile (§6.4)."""

    id: ClassVar[str] = "see_through"

    def timing_ok(self, g: Game, seat: int) -> bool:
        return bool(waiting_cards(g))

    def actions(self, g: Game, seat: int, card: int, alt: str = "") -> list[Action]:
        out = [play(card, alt=alt)]
        for pos, it in enumerate(g.state.chain, 1):
            if not it.card or it.kind == "skill" or it.negated:
                continue
            # A card the seat may not see (another pair's face-down 试探) is named by its
            # chain position, never by its number (docs/notation.md, classic).
            if visible_card(g, seat, it):
                out.append(play(card, on=it.card, alt=alt))
            else:
                out.append(play(card, chain=pos, alt=alt))
        return out

    def make_item(self, g: Game, seat: int, card: int, action: Action) -> Item:
        item = super().make_item(g, seat, card, action)
        if action.chain:
            item.on = g.state.chain[action.chain - 1].card
        elif not action.on:
            item.on = waiting_cards(g)[-1].card
        return item

    def valid(self, g: Game, item: Item) -> bool:
        return any(it.card == item.on for it in waiting_cards(g))

    def resolve(self, g: Game, item: Item) -> None:
        for it in g.state.chain:
            if it.card == item.on:
                it.negated = True
                key = "see_through.face_down_card" if visible_hidden(it) else "see_through.card_card_seen_through_zh"
                g.log(key, item.user, {"card": it.card, "zh": "识破"})
                fire(g, "seen_through", it.user, item=it)


def visible_hidden(it: Item) -> bool:
    fn = FUNCTIONS.get(it.kind)
    return fn is not None and fn.face_down


@register
class TrueOrFalse(CardFunction):
    """真伪莫辨: own turn, play phase; as many pile-top cards as living players are
    shuffled; from the user counter-clockwise, each living player takes one at random as
    intel (face up). Deaths are the user's kills (§7, D15, D25)."""

    id: ClassVar[str] = "true_or_false"

    def timing_ok(self, g: Game, seat: int) -> bool:
        return own_turn(g, seat) and timing(g) in PLAY_PHASES

    def resolve(self, g: Game, item: Item) -> None:
        n = len(g.living())
        for _ in range(n):
            c = g.take_pile_top()
            if not c:
                break
            item.held.append(c)
        g.log("true_or_false.zh_n_cards_from_pile", item.user, {"zh": '真伪莫辨', "n": len(item.held)})
        g.push(Frame("card_step", seat=item.user, text=self.id, order=[item.user]))

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        item = st.chain[-1]
        n = st.players
        # fr.index: how many seats (from the user, counter-clockwise) have been served.
        while fr.index < n and item.held:
            seat = (fr.seat + fr.index) % n
            fr.index += 1
            if not st.seats[seat].alive:
                continue
            card = item.held.pop(g.random_below(len(item.held)))
            g.place_intel(seat, [card], [item.user], cause="true_or_false")
            return
        st.stack.pop()
