"""老枪: 声东击西 and 合谍 (rulebook p.9 角色牌技能说明; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..cards.intel import receive_root
from ..characters.base import Mission, Skill, give, take_answer, take_random
from ..choices import ask_choice
from ..rules import blue_count, check_victory, red_count, schedule_deaths

if TYPE_CHECKING:
    from engine.game import Game

SHENG_DONG_JI_XI = "sheng_dong_ji_xi"
HE_DIE = "he_die"


def before_first_play(g: Game, seat: int) -> bool:
    """出牌前: in your play phase, before you used any card (or skill) this turn and before
    the send (p.9 声东击西 ① "出牌前指使用卡牌/传出情报前"). a mark is set by the
    core at the turn player's first card or skill use (:class:`marks.Acted`); a
    :class:`marks.Sent` at the send."""
    st = g.state
    return not marks.has(st, marks.Acted(seat)) and not any(m.seat == seat for m in marks.find(st, marks.Sent))


class ShengDongJiXi(Skill):
    """声东击西: in your turn before playing (before any card use or send), take 1 random
    hand card from every other player, or 2 from one player; then give back as many from
    your hand, chosen by you (p.9). Players without hand cards are skipped (②); what is
    given back is what was actually taken, so a response that emptied a hand leaves
    nothing owed (②). ``skill sheng_dong_ji_xi`` (everyone) or ``… to S`` (2 from S)."""

    id = SHENG_DONG_JI_XI
    zh = "声东击西"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        if ctx != "main" or st.turn != seat or not before_first_play(g, seat):
            return []
        holders = [s for s, p in enumerate(st.seats) if s != seat and p.alive and p.hand]
        return ([use_skill(self.id)] + [use_skill(self.id, s) for s in holders]) if holders else []

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        n = st.players
        if fr.stage == 0:
            fr.stage = 1
            if not st.seats[item.user].alive:
                return True
            owed: list[int] = []
            if item.target >= 0:
                if st.seats[item.target].alive:
                    owed += [item.target] * len(take_random(g, item.user, item.target, 2))
            else:
                for i in range(1, n):
                    s = (item.user + i) % n
                    if st.seats[s].alive:
                        owed += [s] * len(take_random(g, item.user, s, 1))
            item.done = bool(owed)
            fr.order = owed
        elif fr.answer:
            card = take_answer(fr).pick
            give(g, item.user, fr.order[0], [card])
            fr.order = fr.order[1:]
        hand = st.seats[item.user].hand
        while fr.order and not st.seats[fr.order[0]].alive:
            fr.order = fr.order[1:]
        if not fr.order or not hand:
            return True
        ask_choice(g, item.user, "prompt.choose.zh_give_seat_hand_card",
                   [choose(c) for c in sorted(set(hand))], args={"zh": "声东击西", "seat": fr.order[0]})
        return False


def swappable(g: Game, card: int) -> bool:
    """An intel that may change places: not encrypted (p.3 加密标记 "无法被烧毁/使用/替换")."""
    return g.state.tutorial or not deck.ENCRYPTED[card]


class HeDie(Skill):
    """合谍: when another player chooses to receive (情报接收时, not 成功接收), name one of your
    true intel and one of theirs; at resolution the two change places (p.9 note: named
    at use, swapped at resolution; a position swap, not a receipt). Encrypted intel cannot
    be swapped (p.3). Once per receive. Holding 3 fakes after the swap kills (credited
    to 老枪, cause ``he_die``); a victory it creates is declared at once (p.5).
    ``skill he_die cards MINE,THEIRS``."""

    id = HE_DIE
    zh = "合谍"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        root = receive_root(g)
        if ctx != "respond" or root is None or root.user == seat or st.transit is None:
            return []
        if any(it.user == seat and it.kind == HE_DIE for it in st.chain):
            return []
        mine = sorted({c for c in st.seats[seat].intel if deck.IS_TRUE[c] and swappable(g, c)})
        theirs = sorted({c for c in st.seats[root.user].intel if swappable(g, c)})
        return [use_skill(self.id, cards=(a, b)) for a in mine for b in theirs]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        root = receive_root(g)
        assert root is not None
        item.target = root.user

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        if fr.stage:
            return True
        st = g.state
        mine, theirs = item.cards
        me, them = st.seats[item.user], st.seats[item.target]
        if not (me.alive and them.alive and mine in me.intel and theirs in them.intel):
            g.log("fail.zh_fails_intel_gone", item.user, {"zh": "合谍"})
            return True
        item.done = True
        me.intel[me.intel.index(mine)] = theirs
        them.intel[them.intel.index(theirs)] = mine
        g.log("he_die.intel_card_seat_intel_card", item.user,
              {"seat": item.user, "card": mine, "seat2": item.target, "card2": theirs}, cards=(mine, theirs))
        fr.stage = 1
        if check_victory(g):
            return True
        schedule_deaths(g, [item.user], HE_DIE)
        return False


class LaoQiangMission(Mission):
    """Hold 3 red or 3 blue intel while nobody has died (summary: 存有三張潛伏或三張軍情情報且
    無人死亡)."""

    def done(self, g: Game, seat: int) -> bool:
        st = g.state
        intel = st.seats[seat].intel
        return all(p.alive for p in st.seats) and (red_count(intel) >= 3 or blue_count(intel) >= 3)


SKILLS = (ShengDongJiXi(), HeDie())
MISSION = LaoQiangMission()
