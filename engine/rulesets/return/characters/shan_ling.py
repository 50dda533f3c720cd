"""闪灵: 装填【隐藏】 and 狙击【暴露】 (rulebook p.13; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck
from ..cards.base import own_turn
from ..cards.basic import burn_intel
from ..characters.base import Skill, WeakPlayerDies, switch_state, take_answer
from ..choices import ask_choice

if TYPE_CHECKING:
    from engine.game import Game

#: The cards 装填 discards: 识破 or 秘密下达.
RELOAD_FUNCTIONS = ("see_through", "secret_order")


class ZhuangTian(Skill):
    """装填【隐藏】: in your own turn you may discard a 识破 or 秘密下达 from your hand, then
    hide (p.13). The discard is the part before "然后", paid at use (p.4 ⑥); the hiding
    happens at resolution."""

    id = "zhuang_tian"
    zh = "装填"
    state = "hide"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        if not own_turn(g, seat, ctx) or any(it.kind == self.id for it in st.chain):
            return []
        hand = sorted(set(st.seats[seat].hand))
        return [use_skill(self.id, cards=(c,)) for c in hand if deck.FUNCTION[c] in RELOAD_FUNCTIONS]

    def on_use(self, g: Game, item: Item) -> None:
        g.discard_from_hand(item.user, list(item.cards))

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        if g.state.seats[item.user].alive:
            item.done = True
            switch_state(g, item.user, "hide")
        return True


def snipe_targets(g: Game, seat: int) -> list[int]:
    """Intel 狙击 may burn: held by another living player, not encrypted (p.13 ②)."""
    st = g.state
    return sorted(c for s, p in enumerate(st.seats) if s != seat and p.alive
                  for c in p.intel if st.tutorial or not deck.ENCRYPTED[c])


class JuJi(Skill):
    """狙击【暴露】: outside your turn you may expose, then burn one intel of another player
    (p.13). No target at use: the intel is chosen at resolution (①); encrypted intel cannot
    be burned (②). Usable at the response points of other players' turns (no other
    timing); a successful receipt that already killed or won leaves no window for it
    (summary note 14). The engine offers it only while some intel could be burned."""

    id = "ju_ji"
    zh = "狙击"
    state = "expose"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        if ctx != "respond" or seat == g.state.turn or not snipe_targets(g, seat):
            return []
        return [use_skill(self.id)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.answer:
            card = take_answer(fr).pick
            for s, p in enumerate(st.seats):
                if p.alive and card in p.intel:
                    item.done = True
                    burn_intel(g, s, card)
                    break
            return True
        if not st.seats[item.user].alive:
            return True
        options = snipe_targets(g, item.user)
        if not options:
            g.log("fail.zh_fails_no_intel_burn", item.user, {"zh": "狙击"})
            return True
        ask_choice(g, item.user, "prompt.choose.zh_burn_one_intel_another", [choose(c) for c in options],
                   args={"zh": "狙击"})
        return False



SKILLS = (ZhuangTian(), JuJi())
MISSION = WeakPlayerDies()
