"""贝雷帽: 险境还生【隐藏】 and 单枪匹马【暴露】 (rulebook p.15 角色牌技能说明; digest §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.action import Action, choose, choose_option, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..cards.base import burnable, no_timing
from ..cards.basic import burn_intel
from ..characters.base import Skill, ThreeOfAColourEarly, pick_or_done, take_answer
from ..choices import ask_choice

if TYPE_CHECKING:
    from engine.game import Game

XIAN_JING_HUAN_SHENG = "xian_jing_huan_sheng"
DAN_QIANG_PI_MA = "dan_qiang_pi_ma"


def own_fakes(g: Game, seat: int) -> list[int]:
    return sorted({c for c in g.state.seats[seat].intel if burnable(g, c)})


def others_burnable(g: Game, seat: int) -> list[int]:
    """Other living players' intel that can be burned: any colour, not encrypted (p.15 ②)."""
    st = g.state
    return sorted({c for s, p in enumerate(st.seats) if s != seat and p.alive for c in p.intel
                   if st.tutorial or not deck.ENCRYPTED[c]})


class XianJingHuanSheng(Skill):
    """险境还生【隐藏】: no timing (play phase or any response point, p.4 ①): hide and reveal
    your identity, then burn one of your fake intel and you may also burn one intel of
    another player; both chosen at resolution. An identity card already revealed cannot
    be revealed again, so the skill works once and never after your identity was revealed
    by anything (p.15 ①); encrypted intel cannot be burned (②). It needs a burnable fake
    of your own at use, and fails if none is left at resolution."""

    id = XIAN_JING_HUAN_SHENG
    zh = "险境还生"
    state = "hide"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        if not no_timing(ctx) or g.state.seats[seat].identity_revealed or not own_fakes(g, seat):
            return []
        return [use_skill(self.id)]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        p = g.state.seats[item.user]
        p.identity_revealed = True
        g.log("reveal.reveals_identity_id", item.user, {"seat": item.user, "id": p.identity})

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.stage == 0:
            fakes = own_fakes(g, item.user)
            if not st.seats[item.user].alive or not fakes:
                g.log("fail.zh_fails_no_fake_intel", item.user, {"zh": "险境还生"})
                return True
            item.done = True
            fr.stage = 1
            ask_choice(g, item.user, "prompt.choose.zh_burn_one_your_fake", [choose(c) for c in fakes],
                       args={"zh": "险境还生"})
            return False
        if fr.stage == 1:
            fr.stage = 2
            burn_intel(g, item.user, take_answer(fr).pick)
            return False
        if fr.stage == 2:
            options = others_burnable(g, item.user)
            if not options:
                return True
            fr.stage = 3
            ask_choice(g, item.user, "prompt.choose.zh_you_may_also_burn",
                       [*(choose(c) for c in options), choose_option("none")], args={"zh": "险境还生"})
            return False
        if fr.stage == 3:
            fr.stage = 4
            answer = take_answer(fr)
            if answer.option == "none":
                return True
            for s, p in enumerate(st.seats):
                if p.alive and answer.pick in p.intel:
                    burn_intel(g, s, answer.pick)
                    break
            return False
        return True


class DanQiangPiMa(Skill):
    """单枪匹马【暴露】: in your turn, expose and discard any number of hand cards (the cost;
    none: just draw 2, ①), then draw that many + 2. This turn you may send one more intel
    (after the first is received a new play phase and send follow: flag ``send_extra``),
    and every send this turn may use any mode (flag ``send_any_mode``, ③); with no hand
    the pile top is sent (②, the general rule). ``skill dan_qiang_pi_ma``; the cards to
    discard are then picked one by one before the responses (``choose N`` …, ``choose
    done``; a ``cost`` frame: every subset as an action would not scale) and discarded
    together."""

    id = DAN_QIANG_PI_MA
    zh = "单枪匹马"
    state = "expose"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        return [use_skill(self.id)] if ctx in ("main", "respond") and g.state.turn == seat else []

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        g.push(Frame("cost", seat=item.user, text=self.id))

    def pay(self, g: Game, item: Item, fr: Frame) -> bool:
        """The cost: pick hand cards to discard, then discard them at once."""
        if fr.stage == 1:
            return True
        done = pick_or_done(fr) if fr.answer else False
        left = sorted(set(g.state.seats[item.user].hand) - set(fr.cards))
        if not done and left:
            ask_choice(g, item.user, "prompt.choose.zh_discard_hand_card_or",
                       [*(choose(c) for c in left), choose_option("done")], args={"zh": "单枪匹马"})
            return False
        fr.stage = 1
        item.cards = list(fr.cards)
        if not item.cards:
            return True
        g.discard_from_hand(item.user, list(item.cards))
        return False

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if not st.seats[item.user].alive:
            return True
        item.done = True
        g.draw(item.user, len(item.cards) + 2)
        marks.add(st, marks.SendExtra())
        if not marks.has(st, marks.SendAnyMode()):
            marks.add(st, marks.SendAnyMode())
        g.log("dan_qiang_pi_ma.may_send_one_more_intel", item.user, {"seat": item.user})
        return True



SKILLS = (XianJingHuanSheng(), DanQiangPiMa())
MISSION = ThreeOfAColourEarly()
