"""福尔摩斯 (fu_er_mo_si, 公开, M): 揭露 and 真相 (digest §10.2; source: 揭露 情报传递时可以丢弃一张
黑色手牌，然后翻开一张传递中的密电若为假情报，则抽二张牌 (使用时机参照调虎离山与截获) / 真相 当一位玩家使用试探时，
你可以弃一张手牌先检视该试探 (在试探成功使用后，效果结算之前; 技能结算后试探照常进行))."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, Hidden, hide, use_skill
from engine.state import Frame, Item

from .. import deck
from ..kinds import SkillKind
from .base import Mission, Skill, ask_trigger

if TYPE_CHECKING:
    from engine.game import Game


class JieLu(Skill):
    """揭露: 情报传递 step, any turn (调虎离山's timing), the intel in transit a face-down
    密电 → discard a black hand card (the cost, paid when declared: ``skill jie_lu cards
    N``), then turn that intel face up for everyone; if it is fake, draw 2. A skill: 识破
    cannot target it; it fails if the intel is gone or already face up when it resolves."""

    id: ClassVar[str] = "jie_lu"
    zh: ClassVar[str] = "揭露"
    kind: ClassVar[SkillKind] = "active"

    def actions(self, g: Game, seat: int) -> list[Action]:
        t = g.state.transit
        if g.state.timing != "transmit" or t is None or t.mode != "secret" or t.face_up:
            return []
        return [use_skill(self.id, cards=(c,)) for c in sorted(set(g.state.seats[seat].hand)) if deck.IS_BLACK[c]]

    def declare(self, g: Game, seat: int, action: Action) -> Item:
        item = super().declare(g, seat, action)
        card = item.cards[0]
        g.state.seats[seat].hand.remove(card)
        item.held.append(card)
        g.log("discard.discards_card_zh", seat, {"seat": seat, "card": card, "zh": '揭露'}, cards=(card,))
        return item

    def valid(self, g: Game, item: Item) -> bool:
        t = g.state.transit
        return g.state.seats[item.user].alive and t is not None and t.mode == "secret" and not t.face_up

    def resolve(self, g: Game, item: Item) -> None:
        t = g.state.transit
        assert t is not None
        t.face_up = True
        g.log("reveal.intel_in_transit_turned_face", item.user, {"card": t.card, "zh": '揭露'}, cards=(t.card,))
        if deck.IS_BLACK[t.card]:
            g.draw(item.user, 2)


class ZhenXiang(Skill):
    """真相: when another player uses 试探 successfully (not 识破'd), before it resolves →
    you may discard 1 hand card (``skill zhen_xiang cards N``) to look at that 试探 (only
    you); the 试探 then proceeds unchanged. Not offered to the 试探's user or target, who
    see the card anyway."""

    id: ClassVar[str] = "zhen_xiang"
    zh: ClassVar[str] = "真相"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if (event == "used_on" and fr.text == "probe" and seat not in fr.order
                and g.state.seats[seat].hand):
            return Frame("skill_step", seat=seat, text=self.id, card=fr.card)
        return None

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """Discard a hand card (then look at the 试探)."""
        return [use_skill(self.id, cards=(c,)) for c in sorted(set(g.state.seats[seat].hand))]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        me = st.seats[fr.seat]
        if not fr.answer:
            if not me.alive or not me.hand:
                st.stack.pop()
                return
            ask_trigger(g, fr, self.offers(g, fr.seat, fr),
                        "prompt.trigger.zh_discard_hand_card_look", args={"zh": "真相", "zh2": "试探"})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass":
            return
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        g.discard_from_hand(fr.seat, [act.cards[0]])
        g.log("look.looks_at_zh_card_zh", fr.seat, {"seat": fr.seat, "zh": '试探', "card": fr.card, "zh2": '真相'},
              audience=(fr.seat,), cards=(fr.card,), public="look.looks_at_zh_zh")

    def hidden(self, g: Game, seat: int, action: Action) -> Hidden | None:
        """The hand card paid lies face down in the discard pile (§12 D12): only its owner
        sees which card the action names."""
        if action.kind == "skill" and action.cards:
            return hide((seat,), "action.hidden_skill_id_discards_face_down", id=self.id)
        return None


class ThreeRedIntel(Mission):
    """Hold 3 or more red intel."""

    def met(self, g: Game, seat: int) -> bool:
        return sum(1 for c in g.state.seats[seat].intel if deck.IS_RED[c]) >= 3


SKILLS = (JieLu, ZhenXiang)
MISSION = ThreeRedIntel()
