"""钢铁特工: 核燃机体 and 核能芯片 (rulebook p.10; digest §9)."""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from engine.action import Action, play, use_skill
from engine.state import Frame, Item

from .. import deck
from ..cards import FUNCTIONS
from ..cards.basic import Danger
from ..characters.base import HandCardAsIntel, Mission, Skill
from ..hooks import CARD_PLAY_PROVIDERS
from ..rules import true_count

if TYPE_CHECKING:
    from engine.game import Game



class HeRanJiTi(Skill):
    """核燃机体: your 危险情报 may name one extra target, dealt with in the order you name
    them (p.10 ①: ``play N to S,T``); a card you void with 识破 or retarget with 离间 may
    go to your hand — a card taken by your 离间 still resolves, except 公开文本 (②).
    Card change and passive: provider :func:`two_target_danger`; the 识破/离间 offer is in
    ``cards.basic`` (``offer_take``)."""

    id = "he_ran_ji_ti"
    zh = "核燃机体"

    def takes_affected_card(self, g: Game, seat: int, item: Item) -> bool:
        return True

    def credited_for_use(self, g: Game, item: Item, from_intel: bool) -> bool:
        return item.kind == "danger" and bool(item.targets)


class HeNengXinPian(HandCardAsIntel):
    """核能芯片: when you die, you may pick a hand card as intel; a player you name receives
    it successfully. If that kills them, their death resolves before yours; if it makes
    someone meet a victory condition, they declare at once, even in the middle of their
    own death (p.10 note). Window ``dying`` (your own)."""

    id = "he_neng_xin_pian"
    zh = "核能芯片"
    windows = ("dying",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        if ev.seat != seat:
            return []
        hand = sorted(set(g.state.seats[seat].hand))
        return [use_skill(self.id, s, cards=(c,)) for c in hand for s in g.living()]


def two_target_danger(g: Game, seat: int, ctx: str) -> list[Action]:
    """核燃机体: ``play N to S,T`` for a 危险情报 in hand, S and T two different legal
    targets, in the order the user wants them dealt with."""
    st = g.state
    out: list[Action] = []
    for card in sorted(set(st.seats[seat].hand)):
        if deck.FUNCTION[card] != "danger" or card in st.fresh:
            continue
        danger = FUNCTIONS["danger"]
        assert isinstance(danger, Danger)
        targets = danger.targets(g, seat, ctx)
        out.extend(play(card, (a, b)) for a, b in permutations(targets, 2))
    return out


CARD_PLAY_PROVIDERS["he_ran_ji_ti"] = two_target_danger


class GangTieMission(Mission):
    """Hold 3 true intel while nobody has died."""

    def done(self, g: Game, seat: int) -> bool:
        st = g.state
        if st.kills or not all(p.alive for p in st.seats):
            return False
        return true_count(st.seats[seat].intel) >= 3


SKILLS = (HeRanJiTi(), HeNengXinPian())
MISSION = GangTieMission()
