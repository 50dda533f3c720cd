"""小马哥: 英雄本色 and 成仁取义 (rulebook p.14 角色牌技能说明; digest §9)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from engine.action import Action, choose, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..characters.base import Mission, Skill, kills_by, take_answer
from ..choices import ask_choice
from ..rules import fake_count
from ..skills import once_per_turn

if TYPE_CHECKING:
    from engine.game import Game

YING_XIONG_BEN_SE = "ying_xiong_ben_se"
CHENG_REN_QU_YI = "cheng_ren_qu_yi"



class YingXiongBenSe(Skill):
    """英雄本色: at your turn-start draw, if you hold fewer than 3 hand cards (2 or fewer,
    p.14 note), draw as many extra cards as you hold fake intel (counted at resolution;
    flag ``draw_extra:N`` read by the draw step). Offered only when you hold a fake."""

    id = YING_XIONG_BEN_SE
    zh = "英雄本色"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        p = g.state.seats[seat]
        if ctx != "turn_start" or g.state.turn != seat or len(p.hand) >= 3 or not fake_count(p.intel) \
                or not once_per_turn(g, seat, self.id):
            return []
        return [use_skill(self.id)]

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        n = fake_count(g.state.seats[item.user].intel)
        if n:
            item.done = True
            marks.add(g.state, marks.DrawExtra(n))
        return True


def black_hand(g: Game, seat: int) -> list[int]:
    return sorted({c for c in g.state.seats[seat].hand if deck.IS_BLACK[c]})


class ChengRenQuYi(Skill):
    """成仁取义: in your turn, reveal your identity and discard 3 black (灰色) hand cards —
    the cost, paid before responses (p.14 note) — then a card from the discard pile,
    chosen at resolution, is successfully received as intel by a player you choose
    (kill credit: 小马哥, cause ``cheng_ren_qu_yi``). An identity already revealed cannot
    be revealed again (p.15 险境还生 ①, same condition), so the skill needs it hidden.
    ``skill cheng_ren_qu_yi cards A,B,C``."""

    id = CHENG_REN_QU_YI
    zh = "成仁取义"

    def actions(self, g: Game, seat: int, ctx: str) -> list[Action]:
        st = g.state
        if ctx not in ("main", "respond") or st.turn != seat or st.seats[seat].identity_revealed:
            return []
        return [use_skill(self.id, cards=three) for three in combinations(black_hand(g, seat), 3)]

    def on_use(self, g: Game, item: Item) -> None:
        super().on_use(g, item)
        p = g.state.seats[item.user]
        p.identity_revealed = True
        g.log("reveal.reveals_identity_id", item.user, {"seat": item.user, "id": p.identity})
        g.discard_from_hand(item.user, list(item.cards))

    def resolve(self, g: Game, item: Item, fr: Frame) -> bool:
        st = g.state
        if fr.stage == 3:
            return True
        if fr.answer:
            answer = take_answer(fr)
            if fr.stage == 1:
                if answer.pick not in st.discard:
                    return True
                fr.cards = [answer.pick]
                fr.stage = 2
                ask_choice(g, item.user, "prompt.choose.zh_who_receives_card",
                           [choose(s) for s in g.living()], args={"zh": "成仁取义", "card": answer.pick})
                return False
            card = fr.cards[0]
            st.discard.remove(card)
            fr.stage = 3
            item.done = True
            g.log("cheng_ren_qu_yi.gives_card_from_discard_pile", item.user,
                  {"seat": item.user, "card": card, "seat2": answer.pick}, cards=(card,))
            g.place_intel(answer.pick, [card], [item.user], cause=CHENG_REN_QU_YI)
            return False
        if not st.seats[item.user].alive or not st.discard:
            g.log("fail.zh_fails_discard_pile_empty", item.user, {"zh": "成仁取义"})
            return True
        fr.stage = 1
        ask_choice(g, item.user, "prompt.choose.zh_pick_card_from_discard",
                   [choose(c) for c in sorted(set(st.discard))], args={"zh": "成仁取义"})
        return False


class XiaoMaGeMission(Mission):
    """Kill a player by your own hand before the pile first runs out (summary: 牌庫首次抽光前
    親手殺死一名玩家; §11.13). Checked when the kill happens."""

    def done(self, g: Game, seat: int) -> bool:
        return not g.state.pile_exhausted_once and bool(kills_by(g, seat))


SKILLS = (YingXiongBenSe(), ChengRenQuYi())
MISSION = XiaoMaGeMission()
