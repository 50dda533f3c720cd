"""峨眉峰: 计中计【隐藏】 and 截上截【暴露】 (rulebook p.11; digest §9)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck
from ..cards.basic import burn_intel
from ..cards.intel import receive_root
from ..characters.base import Mission, Skill, take_answer
from ..choices import ask_choice

if TYPE_CHECKING:
    from engine.game import Game

JI_ZHONG_JI = "ji_zhong_ji"
JIE_SHANG_JIE = "jie_shang_jie"


def receiving_other(g: Game, seat: int) -> Item | None:
    """他人情报接收时: the pending receive of another player, if this seat has not used
    计中计 or 截上截 at this timing yet. The two cannot be used one after the other at
    one timing (p.11 截上截 ①): a player cannot respond to themselves, and once the chain
    has resolved the game moves on; the engine also keeps the seat from using the other
    one after someone else responded in between (one receive = one timing)."""
    st = g.state
    root = receive_root(g)
    if root is None or root.user == seat or st.transit is None:
        return None
    if any(it.user == seat and it.kind in (JI_ZHONG_JI, JIE_SHANG_JIE) for it in st.chain):
        return None
    return root


def burnable_intel(g: Game, seat: int) -> list[int]:
    """A seat's received intel that can be burned: any colour, not encrypted (p.3 加密标记)."""
    st = g.state
    return [c for c in st.seats[seat].intel if st.tutorial or not deck.ENCRYPTED[c]]


class JiZhongJi(Skill):
    """计中计【隐藏】: when another player chooses to receive (情报接收时, not 成功接收), you may
    hide and discard a 破译 or 2 hand cards, then burn one of that player's intel ("对方一张
    情报": an intel they hold) (p.11). The part before "然后" is paid at use; the intel to
    burn is chosen at resolution (the skill names no card, unlike 合谍)."""

    id = JI_ZHONG_JI
    zh = "计中计"
    state = "hide"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        if ctx != "respond":
            return []
        root = receiving_other(g, seat)
        if root is None or not burnable_intel(g, root.user):
            return []
        hand = sorted(set(g.state.seats[seat].hand))
        out = [use_skill(self.id, cards=(c,)) for c in hand if deck.FUNCTION[c] == "decrypt"]
        out.extend(use_skill(self.id, cards=(a, b)) for a, b in combinations(hand, 2))
        return out

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        root = receive_root(g)
        assert root is not None
        item.target = root.user
        g.discard_from_hand(item.user, list(item.cards))

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.answer:
            card = take_answer(fr).pick
            if card in st.seats[item.target].intel:
                item.done = True
                burn_intel(g, item.target, card)
            return True
        if not st.seats[item.target].alive:
            return True
        options = burnable_intel(g, item.target)
        if not options:
            g.log("fail.zh_fails_seat_has_no", item.user, {"zh": "计中计", "seat": item.target})
            return True
        ask_choice(g, item.user, "prompt.choose.zh_burn_one_seat_intel",
                   [choose(c) for c in sorted(set(options))], args={"zh": "计中计", "seat": item.target})
        return False


class JieShangJie(Skill):
    """截上截【暴露】: when another player chooses to receive, you may expose, then you
    successfully receive that intel (p.11). The result is a successful receipt (成功接收),
    so no new receive response point follows (p.11 ②); the receive it answered is
    cancelled. It fails if that receive was already cancelled (截获, 调虎离山) or the intel
    left transmission. The intel keeps its user for kill credit."""

    id = JIE_SHANG_JIE
    zh = "截上截"
    state = "expose"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        return [use_skill(self.id)] if ctx == "respond" and receiving_other(g, seat) is not None else []

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        if fr.stage == 1:
            return True
        st = g.state
        root = receive_root(g)
        t = st.transit
        if root is None or t is None or not st.seats[item.user].alive:
            g.log("fail.zh_fails_receive_no_longer", item.user, {"zh": "截上截"})
            return True
        item.done = True
        root.void = True
        st.transit = None
        st.received = True
        fr.stage = 1
        g.log("jie_shang_jie.takes_intel_from_seat", item.user, {"seat": item.user, "seat2": root.user})
        g.place_intel(item.user, [t.card], [t.user], cause="intel")
        return False


def holds(intel: list[int], red: int, blue: int) -> bool:
    """Holds at least ``red`` red and ``blue`` blue intel, each 机密文件 counting as one
    colour of your choice (p.9 机密文件 ①)."""
    pure_red = sum(1 for c in intel if deck.IS_RED[c] and not deck.IS_BLUE[c])
    pure_blue = sum(1 for c in intel if deck.IS_BLUE[c] and not deck.IS_RED[c])
    dual = sum(1 for c in intel if deck.IS_RED[c] and deck.IS_BLUE[c])
    return max(0, red - pure_red) + max(0, blue - pure_blue) <= dual


class EMeiFengMission(Mission):
    """Hold 2 blue and 1 red intel."""

    def done(self, g: Game, seat: int) -> bool:
        return holds(g.state.seats[seat].intel, red=1, blue=2)


SKILLS = (JiZhongJi(), JieShangJie())
MISSION = EMeiFengMission()
