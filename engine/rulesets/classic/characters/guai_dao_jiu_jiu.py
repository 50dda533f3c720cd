"""怪盗九九 (guai_dao_jiu_jiu, 公开, M): 阴谋 and 阳谋 (digest §10.2; source: 阴谋 当一位玩家获得你
传出的假情报时，你可以抽取任意一位玩家的一张手牌 / 阳谋 当你获得另一位玩家传出的假情报时你可以抽取任意一位
玩家的一张手牌; 由于真伪莫辨和角色技能得到的假情报不触发该技能)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.action import Action, use_skill
from engine.state import Frame

from .. import deck
from ..kinds import SkillKind
from .base import Mission, Skill, ask_trigger
from .liu_jie import take_random

if TYPE_CHECKING:
    from engine.game import Game

#: Receipt causes of intel someone sent (passed on and taken, or 截获'd): D15, D19.
SENT = ("send", "intercept")


class TakeFromAnyone(Skill):
    """The shared "you may take 1 random hand card from any player" of 阴谋 and 阳谋
    (``skill ID to S``, S another player with a hand; an empty hand gives nothing)."""

    def offers(self, g: Game, seat: int, fr: Frame) -> list[Action]:
        """Another living player with a hand card."""
        return [use_skill(self.id, s) for s in g.living() if s != seat and g.state.seats[s].hand]

    def step(self, g: Game, fr: Frame) -> None:
        st = g.state
        if not fr.answer:
            options = self.offers(g, fr.seat, fr)
            if not options or not st.seats[fr.seat].alive:
                st.stack.pop()
                return
            ask_trigger(g, fr, options, "prompt.trigger.zh_take_random_hand_card_2", args={"zh": self.zh})
            return
        act = fr.given()
        st.stack.pop()
        if act.kind == "pass":
            return
        g.log("skill.uses_id", fr.seat, {"seat": fr.seat, "id": self.id})
        take_random(g, fr.seat, act.target, self.zh)


class YinMou(TakeFromAnyone):
    """阴谋: when a player (you included) receives a fake intel you sent — passed on,
    locked or 截获'd, not placed by a skill nor 真伪莫辨 (D19) → you may take 1 random hand
    card from any other player."""

    id: ClassVar[str] = "yin_mou"
    zh: ClassVar[str] = "阴谋"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if (event == "received" and fr.text in SENT and fr.order[:1] == [seat]
                and any(deck.IS_BLACK[c] for c in fr.cards)):
            return Frame("skill_step", seat=seat, text=self.id)
        return None


class YangMou(TakeFromAnyone):
    """阳谋: when you receive a fake intel another player sent (not via 真伪莫辨 or skills,
    source note) → you may take 1 random hand card from any other player."""

    id: ClassVar[str] = "yang_mou"
    zh: ClassVar[str] = "阳谋"
    kind: ClassVar[SkillKind] = "auto"

    def trigger(self, g: Game, seat: int, event: str, fr: Frame) -> Frame | None:
        if (event == "received" and fr.seat == seat and fr.text in SENT and fr.order[:1] != [seat]
                and any(deck.IS_BLACK[c] for c in fr.cards)):
            return Frame("skill_step", seat=seat, text=self.id)
        return None


class NineInHand(Mission):
    """Hold 9 or more hand cards (no hand limit, D11)."""

    def met(self, g: Game, seat: int) -> bool:
        return len(g.state.seats[seat].hand) >= 9


SKILLS = (YinMou, YangMou)
MISSION = NineInHand()
