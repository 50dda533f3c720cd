"""怪盗九九: 窃于无形 and 帽子戏法 (rulebook p.15; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import rng
from engine.action import Action, choose, choose_option, use_skill
from engine.state import Frame, Item

from ..cards.intel import receive_root
from ..characters.base import Mission, Skill, kills_by, pick_or_done, take_random
from ..characters.qing_bao_chu_zhang import replace_intel
from ..choices import ask_choice
from ..privacy import PRIVATE_CHOICES

if TYPE_CHECKING:
    from engine.game import Game

THIEF_CARDS = ("lure_away", "sow_discord", "swap")


class QieYuWuXing(Skill):
    """窃于无形: when you use 调虎离山, 离间 or 调包, you may take 1 hand card from another
    player. "When used" means regardless of the outcome; the card taken cannot join the
    current chain (p.15 note). Window ``card_used``."""

    id = "qie_yu_wu_xing"
    zh = "窃于无形"
    windows = ("card_used",)

    def offers(self, g: Game, seat: int, ev: Frame) -> list[Action]:
        st = g.state
        if ev.seat != seat or not ev.cards or not 0 <= ev.cards[0] < len(st.chain):
            return []
        if st.chain[ev.cards[0]].kind not in THIEF_CARDS:
            return []
        return [use_skill(self.id, s) for s, p in enumerate(st.seats) if s != seat and p.alive and p.hand]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if not st.seats[item.user].alive or not st.seats[item.target].alive:
            return True
        got = take_random(g, item.user, item.target, 1)
        item.done = bool(got)
        if st.chain:
            st.fresh.extend(got)
        return True


class MaoZiXiFa(Skill):
    """帽子戏法: when a player chooses to receive, draw 1 (the cost, before responses), then
    shuffle at least 2 of your hand cards with the intel being received, draw one at random
    as the new intel and put the rest face down at the bottom of the pile (p.15 note). It
    needs hand cards (summary note). The new intel 取代 the old one: the receive, and a 破译
    it answered, act on the new intel (p.9 破译 特别)."""

    id = "mao_zi_xi_fa"
    zh = "帽子戏法"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        if ctx != "respond" or receive_root(g) is None or st.transit is None or not st.seats[seat].hand:
            return []
        return [use_skill(self.id)]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        g.draw(item.user, 1)

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        t = st.transit
        if t is None or not st.seats[item.user].alive:
            return True
        hand = st.seats[item.user].hand
        done = False
        if fr.answer:
            done = pick_or_done(fr)
        elif fr.stage == 0:
            fr.stage = 1
            if len(hand) < 2:
                return True  # responses left fewer than 2 hand cards: it fails
        rest = sorted(c for c in hand if c not in fr.cards)
        if not done and rest:
            options = [choose(c) for c in rest]
            if len(fr.cards) >= 2:
                options.append(choose_option("done"))
            ask_choice(g, item.user, "prompt.choose.zh_pick_hand_card_shuffle", options,
                       args={"zh": "帽子戏法", "n": 2})
            return False
        item.done = True
        for c in fr.cards:
            hand.remove(c)
        pool = [t.card, *fr.cards]
        fr.cards = []
        new = pool.pop(g.random_below(len(pool)))
        st.rng = rng.shuffle(st.rng, pool)
        replace_intel(g, new, item.user, follow=True)
        st.pile[:0] = pool
        g.log("hat_trick.shuffles_n_hand_card_with", item.user, {"seat": item.user, "n": len(pool)})
        return True


PRIVATE_CHOICES.add("mao_zi_xi_fa")  # the hand cards shuffled in are face down


class GuaiDaoMission(Mission):
    """Kill, by your own hand, a player holding fewer than 3 true intel."""

    def done(self, g: Game, seat: int) -> bool:
        return any(ti < 3 for _, _, _, ti in kills_by(g, seat))


SKILLS = (QieYuWuXing(), MaoZiXiFa())
MISSION = GuaiDaoMission()
