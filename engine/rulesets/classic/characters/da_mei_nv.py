"""大美女 (da_mei_nv, 公开, F): 精明 and 爱情 (digest §10.2; source: 精明 你的抽牌阶段改为抽三张牌
然后选择一张手牌放回牌库顶 / 爱情 翻开你的身份牌然后烧毁二张假情报). Also home of the "put one hand
card back on the pile top" step that 致命香水's 攻守兼备 shares."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, Hidden, hide, use_skill
from engine.state import Frame, Item

from .. import deck, marks
from ..cards.table import holder_of_intel
from ..kinds import SkillKind
from .base import Mission, Skill, ask_choose, hand_choices, sexes

if TYPE_CHECKING:
    from engine.game import Game


def put_back(g: Game, fr: Frame, what: str) -> bool:
    """The seat of ``fr`` puts one hand card on the pile top (``choose N``; only it sees
    which). Returns True when done (the frame is then popped), False while asking."""
    st = g.state
    me = st.seats[fr.seat]
    if not fr.answer:
        if not me.alive or not me.hand:
            st.stack.pop()
            return True
        ask_choose(g, fr.seat, "prompt.choose.zh_put_one_hand_card", hand_choices(g, fr.seat), args={"zh": what})
        return False
    card = fr.given().pick
    st.stack.pop()
    me.hand.remove(card)
    st.pile.append(card)
    g.log("pile_top.puts_card_on_pile_top", fr.seat, {"seat": fr.seat, "card": card, "zh": what}, audience=(fr.seat,),
          cards=(card,), public="pile_top.puts_hand_card_on_pile")
    return True


def put_back_hidden(fr: Frame, action: Action) -> Hidden | None:
    """A put-back ``choose N`` names a hand card: only its owner sees it."""
    if action.kind == "choose":
        return hide((fr.seat,), "action.hidden_puts_hand_card_pile_top")
    return None


class JingMing(Skill):
    """精明: your draw phase draws 3 instead of 2, then you put 1 hand card on the pile top
    (the turn's draw only, not draws from card effects — source note). Mandatory."""

    id: ClassVar[str] = "jing_ming"
    zh: ClassVar[str] = "精明"
    kind: ClassVar[SkillKind] = "passive"

    def draw_count(self, g: Game, seat: int) -> int | None:
        return 3

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if event == "drawn" and fr.seat == seat:
            return Frame("skill_step", seat=seat, text=self.id)
        return None

    def step(self, g: Game, fr: Frame) -> None:
        if fr.stage == 0:
            fr.stage = 1
            g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        put_back(g, fr, "精明")

    def choices(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        return hand_choices(g, seat)

    def hidden_answer(self, g: Game, fr: Frame, action: Action) -> Hidden | None:
        return put_back_hidden(fr, action)


def fake_intel_on_table(g: Game) -> list[int]:
    return sorted(m for i in g.living() for m in g.state.seats[i].intel if deck.IS_BLACK[m])


class AiQing(Skill):
    """爱情: any window → reveal your identity card, then burn 2 fake intel (2 of one
    player's or 1 each of two players'; yours allowed). ``skill ai_qing cards M,N``.
    Once per game, and not once the identity is revealed (D17). The reveal is the
    declaration; the burn happens when the item resolves (a card already gone is
    skipped). A skill: 识破 cannot target it (§6.4)."""

    id: ClassVar[str] = "ai_qing"
    zh: ClassVar[str] = "爱情"
    kind: ClassVar[SkillKind] = "active"

    def actions(self, g: Game, seat: int) -> list[Action]:
        s = g.state.seats[seat]
        if s.identity_revealed or marks.has(g.state, marks.once(self.id, seat)):
            return []
        return [use_skill(self.id, cards=(a, b)) for a, b in combinations(fake_intel_on_table(g), 2)]

    def declare(self, g: Game, seat: int, action: Action) -> Item:
        item = super().declare(g, seat, action)
        s = g.state.seats[seat]
        marks.add(g.state, marks.once(self.id, seat))
        s.identity_revealed = True
        g.log("identity.reveals_identity_card_id_zh", seat, {"seat": seat, "id": s.identity, "zh": "爱情"})
        return item

    def valid(self, g: Game, item: Item) -> bool:
        return any(holder_of_intel(g, c) >= 0 for c in item.cards)

    def resolve(self, g: Game, item: Item) -> None:
        for card in item.cards:
            who = holder_of_intel(g, card)
            if who < 0:
                continue
            g.state.seats[who].intel.remove(card)
            g.discard_card(card)
            g.log("burn.intel_card_burned_zh", who, {"seat": who, "card": card, "zh": "爱情"}, cards=(card,))


class MaleDeclares(Mission):
    """When a male character declares victory (D28: 小白 counts; face-down characters have
    no sex, D6) and you hold at most 1 fake intel, you win with him. She must be alive
    (a dead player holds no intel; decision in docs/rule-decisions.md)."""

    def on_declare(self, g: Game, seat: int, declarer: int) -> str | None:
        me = g.state.seats[seat]
        if not me.alive or "M" not in sexes(g, declarer):
            return None
        return "join" if sum(1 for c in me.intel if deck.IS_BLACK[c]) <= 1 else None


SKILLS = (JingMing, AiQing)
MISSION = MaleDeclares()
