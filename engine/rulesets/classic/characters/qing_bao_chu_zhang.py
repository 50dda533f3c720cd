"""情报处长 (qing_bao_chu_zhang, 公开, M): 隔墙有耳 and 偷龙转凤 (classic digest §10.2;
source "隔墙有耳 当你试探一位玩家时你可以抽二张牌，然后选择一张手牌放回牌库顶 … 先结算【隔墙有耳】
效果再结算【试探】 … 【试探】被【识破】后的情况下不能使用该技能", "偷龙转凤 当情报到达你时你可以丢弃
一张手牌，然后将该情报与牌库顶的第一张牌调换 … 使用时机参考【破译】 … 调换后的情报保持原来的状态")."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import PASS, Action, Hidden, hide, use_skill
from engine.state import Frame, Item

from .. import deck
from ..kinds import SkillKind
from .base import Mission, Skill, ask_choose, ask_trigger, hand_choices

if TYPE_CHECKING:
    from engine.game import Game


class GeQiangYouEr(Skill):
    """隔墙有耳: when you use 试探 on a player successfully (not 识破'd; §6.5: after the
    chain settles, before the 试探's effect) → you may draw 2 (``skill ge_qiang_you_er``
    or ``pass``), then put 1 hand card on the pile top (``choose N``, seen by you only)."""

    id: ClassVar[str] = "ge_qiang_you_er"
    zh: ClassVar[str] = "隔墙有耳"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "used_on" and fr.text == "probe" and fr.order[:1] == [seat]:
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return [use_skill(self.id)]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        me = st.seats[fr.seat]
        if fr.stage == 0:
            if not fr.answer:
                ask_trigger(g, fr, self.offers(g, fr.seat, fr), "prompt.trigger.zh_draw_n_then_put",
                            args={"zh": "隔墙有耳", "n": 2, "n2": 1})
                return
            answer = fr.answer
            fr.answer = None
            if answer == PASS:
                st.stack.pop()
                return
            fr.stage = 1
            g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
            g.draw(fr.seat, 2)
        if not fr.answer:
            if not me.hand:
                st.stack.pop()
                return
            ask_choose(g, fr.seat, "prompt.choose.zh_put_n_hand_card", self.choices(g, fr.seat, fr),
                       args={"zh": "隔墙有耳", "n": 1})
            return
        card = fr.given().pick
        st.stack.pop()
        me.hand.remove(card)
        st.pile.append(card)
        g.log("pile_top.puts_card_on_pile_top_2", fr.seat, {"seat": fr.seat, "card": card}, audience=(fr.seat,),
              cards=(card,), public="pile_top.puts_hand_card_on_pile_2")

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return hand_choices(g, seat)

    def hidden(self, g: Game, seat: int, action: Action) -> Hidden | None:
        if action.kind == "choose":
            return hide((seat,), "action.hidden_hand_card_for_pile_top")
        return None


class TouLongZhuanFeng(Skill):
    """偷龙转凤: 情报到达 step, the intel at you (any turn; timing as 破译) → discard 1 hand
    card (paid when used: ``skill tou_long_zhuan_feng cards N``), then swap that intel with
    the pile top card: the new intel keeps the old one's face-up / face-down state (nobody
    has seen a face-down one), its mode and its sender (D15); the old one goes on the pile
    top. A skill on the chain: it cannot be 识破'd; it fails if the intel is no longer at
    you when it resolves."""

    id: ClassVar[str] = "tou_long_zhuan_feng"
    zh: ClassVar[str] = "偷龙转凤"
    kind: ClassVar[SkillKind] = "active"

    def actions(self, g: Game, seat: int) -> list[Action]:
        st = g.state
        t = st.transit
        if st.timing != "arrive" or t is None or t.holder != seat:
            return []
        return [use_skill(self.id, cards=(c,)) for c in sorted(set(st.seats[seat].hand))]

    def declare(self, g: Game, seat: int, action: Action) -> Item:
        item = super().declare(g, seat, action)
        g.discard_from_hand(seat, item.cards)
        return item

    def valid(self, g: Game, item: Item) -> bool:
        t = g.state.transit
        return t is not None and t.holder == item.user and g.state.seats[item.user].alive

    def resolve(self, g: Game, item: Item) -> None:
        st = g.state
        t = st.transit
        assert t is not None
        new = g.take_pile_top()
        if not new:
            g.log("skill.zh_no_card_swap_with", item.user, {"zh": "偷龙转凤"})
            return
        old = t.card
        st.pile.append(old)
        t.card = new
        if t.face_up:
            g.log("swap.intel_card_goes_on_pile_2", item.user, {"card": old, "card2": new, "zh": "偷龙转凤"},
                  cards=(old, new))
        else:
            t.known_by = []
            g.log("swap.face_down_intel_goes_on", item.user, {"zh": "偷龙转凤"})

    def hidden(self, g: Game, seat: int, action: Action) -> Hidden | None:
        """The hand card paid lies face down in the discard pile (§12 D12): only its owner
        sees which card the action names."""
        if action.kind == "skill" and action.cards:
            return hide((seat,), "action.hidden_skill_id_discards_face_down", id=self.id)
        return None


class ThreeRedIntel(Mission):
    """Hold 3 or more red intel."""

    def met(self, g: Game, seat: int) -> bool:
        s = g.state.seats[seat]
        return s.alive and sum(1 for c in s.intel if deck.IS_RED[c]) >= 3


SKILLS = (GeQiangYouEr, TouLongZhuanFeng)
MISSION = ThreeRedIntel()
